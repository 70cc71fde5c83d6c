// Tests for embedding_lookup over a table split into shards (builder/nn_functions.h): with the "mod" and
// "div" partition strategies the lookup equals the single-table lookup on the concatenated table and the
// rows written here, for 1-D and 2-D ids of both index dtypes and uneven shards; TensorFlow 1.15's nodes;
// the gradient reaches every shard's variable as IndexedSlices with the rows summed as computed here, and
// matches central differences.
#include "autodiff/gradients.h"
#include "autodiff/sparse_gradients.h"
#include "builder/indexed_slices.h"
#include "builder/nn_functions.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "gradient_test_support.h"
#include "graph_run.h"

#include <QtTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

const char* err(const auto& e)
{
    static std::string text;
    text = e ? std::string() : e.error().toString();
    return text.c_str();
}

constexpr std::int64_t kDepth = 3;

/// Row i of the whole table: i * 10 + k + 0.5.
double tableValue(std::int64_t row, std::int64_t k)
{
    return double(row) * 10.0 + double(k) + 0.5;
}

/// The global rows shard p holds, in order, for `rows` rows over `shards` shards.
std::vector<std::int64_t> shardRows(nn::PartitionStrategy strategy, std::int64_t rows, std::int64_t shards,
                                    std::int64_t p)
{
    std::vector<std::int64_t> out;
    if (strategy == nn::PartitionStrategy::kMod) {
        for (std::int64_t i = p; i < rows; i += shards)
            out.push_back(i);
        return out;
    }
    const std::int64_t per = rows / shards, extras = rows % shards;
    const std::int64_t first = p < extras ? p * (per + 1) : extras * (per + 1) + (p - extras) * per;
    const std::int64_t size = p < extras ? per + 1 : per;
    for (std::int64_t i = 0; i < size; ++i)
        out.push_back(first + i);
    return out;
}

std::vector<double> rowsOf(const std::vector<std::int64_t>& rows)
{
    std::vector<double> v;
    for (std::int64_t r : rows)
        for (std::int64_t k = 0; k < kDepth; ++k)
            v.push_back(tableValue(r, k));
    return v;
}

struct Table {
    std::vector<Variable> shards;
    std::vector<std::vector<std::int64_t>> rows; ///< global rows per shard
};

Expected<Table> makeShards(GraphBuilder& b, nn::PartitionStrategy strategy, std::int64_t rows, std::int64_t shards)
{
    Table t;
    for (std::int64_t p = 0; p < shards; ++p) {
        const auto r = shardRows(strategy, rows, shards, p);
        TSTUDIO_TRY(init, ops::constant(b, rowsOf(r), TensorShape{std::int64_t(r.size()), kDepth}, tf::DT_FLOAT,
                                        "init_" + std::to_string(p)));
        TSTUDIO_TRY(v, variable(b, init, "part_" + std::to_string(p)));
        t.shards.push_back(v);
        t.rows.push_back(r);
    }
    return t;
}

std::string strategyName(nn::PartitionStrategy s)
{
    return s == nn::PartitionStrategy::kMod ? "mod" : "div";
}

} // namespace

class TestEmbeddingLookupPartitioned : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, err(r));
        m_registries = std::move(*r);
    }

    void equalsTheWholeTable_data()
    {
        QTest::addColumn<int>("strategy");
        QTest::addColumn<qlonglong>("rows");
        QTest::addColumn<qlonglong>("shards");
        QTest::newRow("mod, 10 rows in 3") << int(nn::PartitionStrategy::kMod) << 10LL << 3LL;
        QTest::newRow("div, 10 rows in 3") << int(nn::PartitionStrategy::kDiv) << 10LL << 3LL;
        QTest::newRow("mod, 11 rows in 4") << int(nn::PartitionStrategy::kMod) << 11LL << 4LL;
        QTest::newRow("div, 11 rows in 4") << int(nn::PartitionStrategy::kDiv) << 11LL << 4LL;
        QTest::newRow("div, 9 rows in 2") << int(nn::PartitionStrategy::kDiv) << 9LL << 2LL;
    }

    /// 2-D int32 ids and 1-D int64 ids (repeats, first and last rows): the same values as the
    /// unpartitioned lookup on the concatenated table and as the rows computed here; static shapes.
    void equalsTheWholeTable()
    {
        QFETCH(int, strategy);
        QFETCH(qlonglong, rows);
        QFETCH(qlonglong, shards);
        const auto s = nn::PartitionStrategy(strategy);
        GraphBuilder b(m_registries->ops);
        auto table = makeShards(b, s, rows, shards);
        QVERIFY2(table, err(table));
        std::vector<double> whole;
        for (std::int64_t i = 0; i < rows; ++i)
            for (std::int64_t k = 0; k < kDepth; ++k)
                whole.push_back(tableValue(i, k));
        auto full = ops::constant(b, whole, TensorShape{rows, kDepth}, tf::DT_FLOAT, "full");
        QVERIFY2(full, err(full));
        std::vector<Output> params;
        for (const Variable& v : table->shards)
            params.push_back(v.value());

        const std::vector<std::int64_t> ids2{rows - 1, 0, 4, 7, 7, 2};
        const std::vector<std::int64_t> ids1{3, rows - 2, 1, 5, 6, 3, 0};
        auto idsA = ops::constantInts(b, ids2, TensorShape{2, 3}, tf::DT_INT32, "ids_a");
        auto idsB = ops::constantInts(b, ids1, TensorShape{7}, tf::DT_INT64, "ids_b");
        QVERIFY2(idsA && idsB, "ids");
        auto a = nn::embeddingLookup(b, params, *idsA, s);
        QVERIFY2(a, err(a));
        QCOMPARE(a->shape(), (TensorShape{2, 3, kDepth}));
        auto aDense = nn::embeddingLookup(b, *full, *idsA, "dense_a");
        auto bSharded = nn::embeddingLookup(b, params, *idsB, s, "lookup_b");
        QVERIFY2(bSharded, err(bSharded));
        QCOMPARE(bSharded->shape(), (TensorShape{7, kDepth}));
        auto bDense = nn::embeddingLookup(b, *full, *idsB, "dense_b");
        QVERIFY2(aDense && bDense, "dense lookups");

        // TensorFlow's nodes.
        QCOMPARE(opOf(b, "embedding_lookup"), std::string("ParallelDynamicStitch"));
        QCOMPARE(opOf(b, "embedding_lookup/DynamicPartition"), std::string("DynamicPartition"));
        QCOMPARE(opOf(b, "embedding_lookup/DynamicPartition_1"), std::string("DynamicPartition"));
        QCOMPARE(inputsOf(b, "embedding_lookup/DynamicPartition_1")[0], std::string("embedding_lookup/range"));
        QCOMPARE(opOf(b, "embedding_lookup/Reshape"), std::string("Reshape"));
        QCOMPARE(a->node(), std::string("embedding_lookup/Reshape_1"));
        QCOMPARE(opOf(b, "embedding_lookup/GatherV2"), std::string("GatherV2"));
        QCOMPARE(inputsOf(b, "embedding_lookup/GatherV2")[0], std::string("part_0/read"));
        QCOMPARE(b.findNode("embedding_lookup/GatherV2")->attr().at("_class").list().s(0), std::string("loc:@part_0"));
        QCOMPARE(inputsOf(b, "embedding_lookup/GatherV2_1")[0], std::string("part_1/read"));
        if (s == nn::PartitionStrategy::kMod) {
            QCOMPARE(opOf(b, "embedding_lookup/mod"), std::string("FloorMod"));
            QCOMPARE(opOf(b, "embedding_lookup/floordiv"), std::string("FloorDiv"));
        } else {
            QCOMPARE(opOf(b, "embedding_lookup/Maximum"), std::string("Maximum"));
            QCOMPARE(opOf(b, "embedding_lookup/Select"), std::string("Select"));
            QCOMPARE(opOf(b, "embedding_lookup/Const"), std::string("Const"));
        }

        auto init = globalVariablesInitializer(b);
        QVERIFY2(init, err(init));
        auto v = runGraph(*m_registries, b, {}, {a->name(), aDense->name(), bSharded->name(), bDense->name()},
                          {init->name()});
        QVERIFY2(v, err(v));
        for (int pair = 0; pair < 2; ++pair) {
            const auto got = (*v)[std::size_t(2 * pair)].values<float>();
            const auto want = (*v)[std::size_t(2 * pair + 1)].values<float>();
            const auto& ids = pair == 0 ? ids2 : ids1;
            QCOMPARE(got.size(), ids.size() * kDepth);
            for (std::size_t i = 0; i < got.size(); ++i) {
                QCOMPARE(got[i], want[i]);
                QCOMPARE(double(got[i]), tableValue(ids[i / kDepth], std::int64_t(i % kDepth)));
            }
        }
    }

    /// d sum(lookup * W) / d shard p: IndexedSlices on every shard's variable, whose dense form holds
    /// for each row the sum of W over the positions that looked it up (computed here).
    void gradientReachesEveryShard_data()
    {
        QTest::addColumn<int>("strategy");
        QTest::newRow("mod") << int(nn::PartitionStrategy::kMod);
        QTest::newRow("div") << int(nn::PartitionStrategy::kDiv);
    }

    void gradientReachesEveryShard()
    {
        QFETCH(int, strategy);
        const auto s = nn::PartitionStrategy(strategy);
        const std::int64_t rows = 10, shards = 3;
        GraphBuilder b(m_registries->ops);
        auto table = makeShards(b, s, rows, shards);
        QVERIFY2(table, err(table));
        std::vector<Output> params;
        std::vector<Output> refs;
        for (const Variable& v : table->shards) {
            params.push_back(v.value());
            refs.push_back(v.ref());
        }
        const std::vector<std::int64_t> ids{9, 0, 4, 7, 7, 2, 4, 4};
        auto idsT = ops::constantInts(b, ids, TensorShape{2, 4}, tf::DT_INT32, "ids");
        auto lookup = nn::embeddingLookup(b, params, *idsT, s);
        QVERIFY2(lookup, err(lookup));
        std::vector<double> w(ids.size() * kDepth);
        for (std::size_t i = 0; i < w.size(); ++i)
            w[i] = std::sin(0.7 * double(i) + 0.2);
        auto wT = ops::constant(b, w, TensorShape{2, 4, kDepth}, tf::DT_FLOAT, "W");
        auto prod = ops::mul(b, *lookup, *wT);
        auto axes = ops::constantInts(b, {0, 1, 2}, TensorShape{3});
        auto loss = ops::sum(b, *prod, *axes);
        QVERIFY2(loss, err(loss));
        auto grads = addSymbolicGradientsSparse(b, {*loss}, refs, {}, {});
        QVERIFY2(grads, err(grads));
        std::vector<std::string> fetches;
        for (std::int64_t p = 0; p < shards; ++p) {
            const auto& g = (*grads)[std::size_t(p)];
            QVERIFY2(g.has_value(), qPrintable(QString("shard %1 has no gradient").arg(p)));
            QVERIFY2(g->isSparse(), qPrintable(QString("shard %1's gradient is not IndexedSlices").arg(p)));
            auto dense = indexedSlicesToTensor(b, g->sparse());
            QVERIFY2(dense, err(dense));
            fetches.push_back(dense->name());
        }
        auto init = globalVariablesInitializer(b);
        QVERIFY2(init, err(init));
        auto v = runGraph(*m_registries, b, {}, fetches, {init->name()});
        QVERIFY2(v, err(v));
        // Expected: row i of the whole table gets sum of W[j] over positions j with ids[j] == i.
        std::vector<double> whole(static_cast<std::size_t>(rows * kDepth), 0.0);
        for (std::size_t j = 0; j < ids.size(); ++j)
            for (std::int64_t k = 0; k < kDepth; ++k)
                whole[std::size_t(ids[j] * kDepth + k)] += w[j * kDepth + std::size_t(k)];
        for (std::int64_t p = 0; p < shards; ++p) {
            const Tensor& got = (*v)[std::size_t(p)];
            const auto& shardRowsP = table->rows[std::size_t(p)];
            QCOMPARE(got.shape(), (TensorShape{std::int64_t(shardRowsP.size()), kDepth}));
            for (std::size_t r = 0; r < shardRowsP.size(); ++r)
                for (std::int64_t k = 0; k < kDepth; ++k) {
                    const double want = whole[std::size_t(shardRowsP[r] * kDepth + k)];
                    const double gotV = got.values<float>()[r * kDepth + std::size_t(k)];
                    QVERIFY2(std::abs(gotV - want) <= 1e-5, qPrintable(QString("%1 shard %2 row %3 [%4]: %5 vs %6")
                                                                           .arg(QString::fromStdString(strategyName(s)))
                                                                           .arg(p)
                                                                           .arg(r)
                                                                           .arg(k)
                                                                           .arg(gotV)
                                                                           .arg(want)));
                }
        }
    }

    /// Central differences through the partitioned lookup (shards as the xs), both strategies.
    void gradientMatchesCentralDifferences()
    {
        GradientChecks checks;
        QCOMPARE(checks.start(), std::string());
        for (auto s : {nn::PartitionStrategy::kMod, nn::PartitionStrategy::kDiv}) {
            std::vector<Tensor> xs;
            for (std::int64_t p = 0; p < 3; ++p) {
                const std::int64_t n = std::int64_t(shardRows(s, 8, 3, p).size());
                xs.push_back(filled(tf::DT_DOUBLE, TensorShape{n, 2},
                                    [p](std::int64_t i) { return std::sin(1.3 * double(i) + double(p)); }));
            }
            checks.check(QString::fromStdString("embedding_lookup " + strategyName(s)), xs,
                         [s](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                             TSTUDIO_TRY(ids, ops::constantInts(b, {7, 0, 3, 3, 5, 1}, TensorShape{3, 2}));
                             return nn::embeddingLookup(b, in, ids, s);
                         });
        }
        QVERIFY2(checks.failures.isEmpty(), qPrintable(checks.failures.join('\n')));
    }

    void oneShardAndErrors()
    {
        GraphBuilder b(m_registries->ops);
        auto t = ops::constant(b, std::vector<double>{1, 2, 3, 4}, TensorShape{2, 2}, tf::DT_FLOAT, "t");
        auto ids = ops::constantInts(b, {1, 0}, TensorShape{2}, tf::DT_INT32, "ids");
        // One shard: the single-table form and its nodes.
        auto one = nn::embeddingLookup(b, std::vector<Output>{*t}, *ids);
        QVERIFY2(one, err(one));
        QCOMPARE(one->node(), std::string("embedding_lookup/Identity"));
        QCOMPARE(opOf(b, "embedding_lookup"), std::string("GatherV2"));

        auto none = nn::embeddingLookup(b, std::vector<Output>{}, *ids);
        QVERIFY(!none);
        QVERIFY2(none.error().message().find("Need at least one param") != std::string::npos, err(none));

        auto wide = ops::constant(b, std::vector<double>{1, 2, 3}, TensorShape{1, 3}, tf::DT_FLOAT, "wide");
        auto mixed = nn::embeddingLookup(b, std::vector<Output>{*t, *wide}, *ids);
        QVERIFY(!mixed);
        QVERIFY2(mixed.error().message().find("embedding shapes differ") != std::string::npos, err(mixed));

        auto unknownRows = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 2}, "unknown_rows");
        auto div = nn::embeddingLookup(b, std::vector<Output>{*t, *unknownRows}, *ids, nn::PartitionStrategy::kDiv);
        QVERIFY(!div);
        QVERIFY2(div.error().message().find("partition_strategy 'div' needs the first dimension") != std::string::npos,
                 err(div));
        // "mod" needs no row counts: shapes unknown while building are fine.
        auto mod = nn::embeddingLookup(b, std::vector<Output>{*t, *unknownRows}, *ids, nn::PartitionStrategy::kMod,
                                       "mod_lookup");
        QVERIFY2(mod, err(mod));
        QCOMPARE(mod->shape(), (TensorShape{2, 2}));

        auto floatIds = ops::constant(b, std::vector<double>{1.0}, TensorShape{1}, tf::DT_FLOAT, "float_ids");
        QVERIFY(!nn::embeddingLookup(b, std::vector<Output>{*t, *t}, *floatIds, nn::PartitionStrategy::kMod, "bad"));
    }
};

QTEST_GUILESS_MAIN(TestEmbeddingLookupPartitioned)
#include "test_embedding_lookup_partitioned.moc"
