// Sparse gradients and updates: the Scatter* / SparseApply* kernels (ref and resource forms) against
// NumPy (tools/golden/sparse_training.py) with repeated indices, Gather gradients as IndexedSlices
// against finite differences, embedding training with each optimizer (untouched rows bit-identical,
// looked-up rows as NumPy), clip_by_global_norm over IndexedSlices, and the errors for bad input.
#include "autodiff/gradient_checker.h"
#include "autodiff/gradients.h"
#include "autodiff/sparse_gradients.h"
#include "builder/indexed_slices.h"
#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/nn_functions.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "kernel_harness.h"
#include "training/adagrad.h"
#include "training/adam.h"
#include "builder/clip_ops.h"
#include "training/gradient_descent.h"
#include "training/lazy_adam.h"
#include "training/momentum.h"
#include "training/rmsprop.h"
#include "training_test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <cstring>

using namespace tstudio;
using namespace tstudio::training;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

QJsonObject golden()
{
    static QJsonObject doc = [] {
        QFile f(goldenDir() + "/sparse_training.json");
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(f.fileName()));
        return QJsonDocument::fromJson(f.readAll()).object();
    }();
    return doc;
}

std::vector<double> doubles(const QJsonValue& v)
{
    std::vector<double> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(x.toDouble());
    return out;
}

std::vector<std::int64_t> ints(const QJsonValue& v)
{
    std::vector<std::int64_t> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(static_cast<std::int64_t>(x.toDouble()));
    return out;
}

TensorShape shapeOf(const QJsonValue& v)
{
    return TensorShape(ints(v));
}

template <typename T> QString err(const Expected<T>& e)
{
    return e ? QString() : QString::fromStdString(e.error().toString());
}

QString compare(const std::vector<double>& actual, const std::vector<double>& expected, double rtol, double atol)
{
    if (actual.size() != expected.size())
        return QString("size %1, expected %2").arg(actual.size()).arg(expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i)
        if (!(std::abs(actual[i] - expected[i]) <= atol + rtol * std::abs(expected[i])))
            return QString("element %1: %2, expected %3").arg(i).arg(actual[i], 0, 'g', 9).arg(expected[i], 0, 'g', 9);
    return {};
}

/// Runs `fetch` and returns the error status (ok when it ran).
Status runStatus(Session& session, const std::string& target)
{
    std::vector<Tensor> out;
    return session.run({}, {}, {target}, &out);
}

/// One golden kernel case on ref variables (VariableV2) or resource variables (VarHandleOp): builds
/// the variables, the op and the reads; runs the op once; returns the variables' values.
Expected<std::vector<std::vector<double>>> runKernelCase(const QJsonObject& c, bool resource)
{
    TrainingRegistries& r = TrainingRegistries::get();
    GraphBuilder b(r.ops);
    std::vector<std::string> inits;
    std::vector<std::string> reads;
    std::vector<OpInput> inputs;
    int k = 0;
    for (const QJsonValue& v : c["variables"].toArray()) {
        const QJsonObject var = v.toObject();
        const TensorShape shape = shapeOf(var["shape"]);
        const std::string name = "v" + std::to_string(k++);
        TSTUDIO_AD_TRY(init, ops::constant(b, doubles(var["values"]), shape, tf::DT_FLOAT, name + "/init"));
        if (resource) {
            TSTUDIO_AD_TRY(handle, b.op("VarHandleOp", {},
                                        {{"dtype", attr::type(tf::DT_FLOAT)},
                                         {"shape", attr::shape(shape)},
                                         {"shared_name", attr::s(name)}},
                                        name));
            TSTUDIO_AD_TRY(assign, b.op("AssignVariableOp", {handle.output(0), init},
                                        {{"dtype", attr::type(tf::DT_FLOAT)}}, name + "/assign"));
            TSTUDIO_AD_TRY(rd, b.op("ReadVariableOp", {handle.output(0)}, {{"dtype", attr::type(tf::DT_FLOAT)}},
                                      name + "/read"));
            inits.push_back(assign.name());
            reads.push_back(rd.output(0).name());
            inputs.emplace_back(handle.output(0));
        } else {
            TSTUDIO_AD_TRY(var, b.op("VariableV2", {},
                                     {{"dtype", attr::type(tf::DT_FLOAT)}, {"shape", attr::shape(shape)}}, name));
            TSTUDIO_AD_TRY(assign, b.op("Assign", {var.output(0), init}, {}, name + "/assign"));
            TSTUDIO_AD_TRY(rd, b.op("Identity", {var.output(0)}, {}, name + "/read"));
            inits.push_back(assign.name());
            reads.push_back(rd.output(0).name());
            inputs.emplace_back(var.output(0));
        }
    }
    int n = 0;
    for (const QJsonValue& v : c["inputs"].toArray()) {
        const QJsonObject in = v.toObject();
        const TensorShape shape = shapeOf(in["shape"]);
        const DataType dtype = in["kind"].toString() == "i32" ? tf::DT_INT32 : tf::DT_FLOAT;
        TSTUDIO_AD_TRY(t, ops::constant(b, doubles(in["values"]), shape, dtype, "in" + std::to_string(n++)));
        inputs.emplace_back(t);
    }
    AttrMap attrs;
    const QJsonObject a = c["attrs"].toObject();
    for (auto it = a.begin(); it != a.end(); ++it)
        attrs[it.key().toStdString()] = attr::b(it.value().toBool());
    const std::string op = c["op"].toString().toStdString();
    TSTUDIO_AD_TRY(update, b.op(resource ? "Resource" + op : op, inputs, attrs, "update"));
    auto session = r.session(b);
    for (const std::string& init : inits)
        if (Status s = runStatus(*session, init); !s.isOk())
            return unexpected(s);
    if (Status s = runStatus(*session, update.name()); !s.isOk())
        return unexpected(s);
    std::vector<std::vector<double>> out;
    for (const std::string& read : reads)
        out.push_back(fetchValues(*session, read));
    return out;
}

/// The embedding problem of the golden script: table "emb" (1000 x 16, t[i, j] = 0.5 sin(0.37 i +
/// 0.11 j)), loss = 0.5 * sum((embedding_lookup(emb, ids) - target)^2).
struct Embedding {
    Variable table;
    Output loss;
};

/// The embedding problem with the golden ids as a constant, or (`fedIds`) an int32 placeholder "ids"
/// of the golden ids' shape fed at each run.
Expected<Embedding> buildEmbedding(GraphBuilder& b, std::vector<std::int64_t> ids,
                                   std::optional<TensorShape> shape = std::nullopt, bool fedIds = false)
{
    const QJsonObject e = golden()["embedding"].toObject();
    const int vocab = e["vocab"].toInt();
    const int dim = e["dim"].toInt();
    std::vector<double> values(static_cast<std::size_t>(vocab * dim));
    for (int i = 0; i < vocab; ++i)
        for (int j = 0; j < dim; ++j)
            values[static_cast<std::size_t>(i * dim + j)] =
                static_cast<float>(0.5 * std::sin(0.37 * i + 0.11 * j));
    TSTUDIO_AD_TRY(init, ops::constant(b, values, {vocab, dim}, tf::DT_FLOAT, "emb_init"));
    TSTUDIO_AD_TRY(table, variable(b, init, "emb"));
    const TensorShape idsShape = shape ? *shape : shapeOf(e["ids_shape"]);
    std::vector<double> idValues(ids.begin(), ids.end());
    TSTUDIO_AD_TRY(idTensor, fedIds ? ops::placeholder(b, tf::DT_INT32, idsShape, "ids")
                                    : ops::constant(b, idValues, idsShape, tf::DT_INT32, "ids"));
    TSTUDIO_AD_TRY(lookup, nn::embeddingLookup(b, table.value(), idTensor));
    TSTUDIO_AD_TRY(target, ops::constant(b, doubles(e["target"]), idsShape.concatenate(TensorShape{dim}),
                                         tf::DT_FLOAT, "target"));
    TSTUDIO_AD_TRY(diff, ops::sub(b, lookup, target));
    TSTUDIO_AD_TRY(sq, ops::square(b, diff));
    std::vector<std::int64_t> all;
    for (int d = 0; d <= idsShape.rank(); ++d)
        all.push_back(d);
    TSTUDIO_AD_TRY(axes, ops::constantInts(b, all, {static_cast<std::int64_t>(all.size())}));
    TSTUDIO_AD_TRY(sum, b.op("Sum", {sq, axes}));
    TSTUDIO_AD_TRY(half, ops::constant(b, 0.5, tf::DT_FLOAT, "half"));
    TSTUDIO_AD_TRY(loss, b.op("Mul", {sum.output(0), half}, {}, "loss"));
    return Embedding{table, loss.output(0)};
}

/// The embedding table after training against its value before: a row not in `rows` must be
/// unchanged bit for bit, row rows[i] must equal expected[i] (rtol 2e-5, atol 2e-6) and, when
/// `touchedMove`, differ from before. An empty string when every row holds, else the first failure.
QString compareTrainedTable(const Tensor& after, const Tensor& before, std::int64_t vocab, int dim,
                            const std::vector<std::int64_t>& rows, const QJsonArray& expected, bool touchedMove)
{
    const auto a = after.values<float>();
    const auto i0 = before.values<float>();
    const std::size_t rowBytes = sizeof(float) * static_cast<std::size_t>(dim);
    for (std::int64_t row = 0; row < vocab; ++row) {
        const auto at = static_cast<std::size_t>(row * dim);
        auto it = std::find(rows.begin(), rows.end(), row);
        if (it == rows.end()) {
            if (std::memcmp(&a[at], &i0[at], rowBytes) != 0)
                return QString("row %1 changed").arg(row);
            continue;
        }
        std::vector<double> got(a.begin() + static_cast<std::ptrdiff_t>(at),
                                a.begin() + static_cast<std::ptrdiff_t>(at) + dim);
        const QString d = compare(got, doubles(expected[static_cast<int>(it - rows.begin())]), 2e-5, 2e-6);
        if (!d.isEmpty())
            return QString("row %1: %2").arg(row).arg(d);
        if (touchedMove && std::memcmp(&a[at], &i0[at], rowBytes) == 0)
            return QString("row %1 did not move").arg(row);
    }
    return {};
}

/// Runs `init` (the global variables' initializer) in `session` and returns a copy of the table "emb".
Expected<Tensor> initializeAndCopyTable(Session& session, const std::string& init)
{
    std::vector<Tensor> out;
    if (Status s = session.run({}, {}, {init}, &out); !s.isOk())
        return unexpected(s);
    if (Status s = session.run({}, {"emb:0"}, {}, &out); !s.isOk())
        return unexpected(s);
    return out[0].deepCopy(gradientTestAllocator());
}

} // namespace

class TestSparseUpdates : public QObject {
    Q_OBJECT

private slots:
    void kernelsAgainstNumpy()
    {
        const QJsonObject doc = golden();
        const double rtol = doc["rtol"].toDouble();
        const double atol = doc["atol"].toDouble();
        const QJsonArray cases = doc["cases"].toArray();
        QVERIFY(cases.size() >= 11);
        QStringList failures;
        int checked = 0;
        for (const QJsonValue& value : cases) {
            const QJsonObject c = value.toObject();
            for (bool resource : {false, true}) {
                const QString name = (resource ? "Resource" : "") + c["op"].toString();
                auto values = runKernelCase(c, resource);
                if (!values) {
                    failures << name + ": " + err(values);
                    continue;
                }
                const QJsonArray expected = c["expected"].toArray();
                for (int i = 0; i < expected.size(); ++i) {
                    const QString d = compare((*values)[static_cast<std::size_t>(i)], doubles(expected[i]), rtol, atol);
                    if (!d.isEmpty())
                        failures << QString("%1 variable %2: %3").arg(name).arg(i).arg(d);
                }
                ++checked;
            }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
        QCOMPARE(checked, 2 * static_cast<int>(cases.size()));
    }

    void gatherGradientsAreIndexedSlices()
    {
        TrainingRegistries& r = TrainingRegistries::get();
        GraphBuilder b(r.ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{6, 2}, "x");
        QVERIFY2(x, qPrintable(err(x)));
        auto ids = ops::constantInts(b, {4, 1, 4}, {3}, tf::DT_INT32, "ids");
        QVERIFY2(ids, qPrintable(err(ids)));
        auto axis = ops::constantInts(b, {0}, TensorShape::scalar(), tf::DT_INT32, "axis");
        auto g1 = b.op("GatherV2", {*x, *ids, *axis}, {}, "g1");
        auto g2 = b.op("Gather", {*x, *ids}, {}, "g2");
        QVERIFY2(g1 && g2, "gathers");
        auto sum = b.op("AddN", {std::vector<Output>{g1->output(0), g2->output(0)}}, {}, "y");
        QVERIFY2(sum, qPrintable(err(sum)));
        auto doubled = b.op("Mul", {*x, *x}, {}, "sq");
        QVERIFY2(doubled, qPrintable(err(doubled)));
        GradientsOptions options;
        // Two sparse contributions: concatenated IndexedSlices (6 rows of values, 6 indices).
        auto sparse = addSymbolicGradientsSparse(b, {sum->output(0)}, {*x}, {}, options);
        QVERIFY2(sparse, qPrintable(err(sparse)));
        QVERIFY((*sparse)[0] && (*sparse)[0]->isSparse());
        const IndexedSlices& s = (*sparse)[0]->sparse();
        auto valuesOp = b.operation(s.values.node());
        auto indicesOp = b.operation(s.indices.node());
        QVERIFY(valuesOp && indicesOp);
        QCOMPARE(valuesOp->type(), std::string("ConcatV2"));
        QCOMPARE(indicesOp->type(), std::string("ConcatV2"));
        QVERIFY(s.denseShape.has_value());
        // A dense contribution with a sparse one: still IndexedSlices (TensorFlow's
        // _AggregateIndexedSlicesGradients turns the dense one into slices over every row).
        auto all = ops::constantInts(b, {0, 1}, {2}, tf::DT_INT32, "all");
        QVERIFY2(all, qPrintable(err(all)));
        auto total = b.op("Sum", {doubled->output(0), *all}, {}, "total");
        auto gathered = b.op("Sum", {g1->output(0), *all}, {}, "gathered");
        QVERIFY2(total && gathered, "sums");
        auto y3 = b.op("AddV2", {total->output(0), gathered->output(0)}, {}, "y3");
        QVERIFY2(y3, qPrintable(err(y3)));
        auto mixedGrad = addSymbolicGradientsSparse(b, {y3->output(0)}, {*x}, {}, options);
        QVERIFY2(mixedGrad, qPrintable(err(mixedGrad)));
        QVERIFY((*mixedGrad)[0] && (*mixedGrad)[0]->isSparse());
        // A dense-only path stays dense.
        auto dense = addSymbolicGradientsSparse(b, {total->output(0)}, {*x}, {}, options);
        QVERIFY2(dense, qPrintable(err(dense)));
        QVERIFY((*dense)[0] && !(*dense)[0]->isSparse());
    }

    void gatherGradientsMatchFiniteDifferences()
    {
        TrainingRegistries& r = TrainingRegistries::get();
        auto x = Tensor::fromVector<double>(gradientTestAllocator(), TensorShape{5, 3},
                                            {0.1, -0.4, 0.3, 0.8, 0.2, -0.6, 0.5, 0.7, -0.1, 0.9, -0.3, 0.4, 0.6, -0.8,
                                             0.25});
        QVERIFY(x);
        const std::vector<std::pair<const char*, GradientCheckGraph>> graphs = {
            {"Gather with repeats",
             [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                 TSTUDIO_AD_TRY(ids, ops::constantInts(b, {3, 0, 3, 3, 4}, {5}, tf::DT_INT32));
                 TSTUDIO_AD_TRY(g, b.op("Gather", {xs[0], ids}));
                 return ops::square(b, g.output(0));
             }},
            {"GatherV2 of a read, twice (concatenated slices)",
             [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                 TSTUDIO_AD_TRY(rd, b.op("Identity", {xs[0]}));
                 TSTUDIO_AD_TRY(ids, ops::constantInts(b, {2, 2, 1}, {3}, tf::DT_INT64));
                 TSTUDIO_AD_TRY(ids2, ops::constantInts(b, {1, 4}, {2}, tf::DT_INT32));
                 TSTUDIO_AD_TRY(axis, ops::constantInts(b, {0}, TensorShape::scalar(), tf::DT_INT32));
                 TSTUDIO_AD_TRY(g1, b.op("GatherV2", {rd.output(0), ids, axis}));
                 TSTUDIO_AD_TRY(g2, b.op("GatherV2", {rd.output(0), ids2, axis}));
                 TSTUDIO_AD_TRY(c, ops::constantInts(b, {0}, TensorShape::scalar(), tf::DT_INT32));
                 TSTUDIO_AD_TRY(joined, b.op("ConcatV2", {std::vector<Output>{g1.output(0), g2.output(0)}, c}));
                 return ops::square(b, joined.output(0));
             }},
            {"Gather mixed with a dense use",
             [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                 TSTUDIO_AD_TRY(ids, ops::constantInts(b, {1, 1, 0, 2, 4}, {5}, tf::DT_INT32));
                 TSTUDIO_AD_TRY(g, b.op("Gather", {xs[0], ids}));
                 TSTUDIO_AD_TRY(sq, ops::square(b, g.output(0)));
                 TSTUDIO_AD_TRY(d, ops::square(b, xs[0]));
                 return ops::add(b, sq, d);
             }},
        };
        for (const auto& [name, build] : graphs) {
            auto error = computeGradientError(r.ops, r.kernels, std::vector<Tensor>{*x}, build);
            QVERIFY2(error, qPrintable(QString(name) + ": " + err(error)));
            QVERIFY2(*error < 1e-6, qPrintable(QString("%1: max error %2").arg(name).arg(*error)));
        }
    }

    void embeddingTrainingTouchesOnlyLookedUpRows_data()
    {
        QTest::addColumn<QString>("optimizer");
        for (const char* name : {"sgd", "momentum", "adagrad", "rmsprop", "adam"})
            QTest::newRow(name) << QString(name);
    }

    void embeddingTrainingTouchesOnlyLookedUpRows()
    {
        QFETCH(QString, optimizer);
        const QJsonObject e = golden()["embedding"].toObject();
        TrainingRegistries& r = TrainingRegistries::get();
        GraphBuilder b(r.ops);
        auto problem = buildEmbedding(b, ints(e["ids"]));
        QVERIFY2(problem, qPrintable(err(problem)));
        std::unique_ptr<Optimizer> opt;
        if (optimizer == "sgd")
            opt = std::make_unique<GradientDescentOptimizer>(0.1);
        else if (optimizer == "momentum")
            opt = std::make_unique<MomentumOptimizer>(0.1, 0.9);
        else if (optimizer == "adagrad")
            opt = std::move(*AdagradOptimizer::create(0.1, 0.1));
        else if (optimizer == "rmsprop")
            opt = std::make_unique<RMSPropOptimizer>(0.01);
        else
            opt = std::make_unique<AdamOptimizer>(0.01);
        auto grads = opt->computeGradientsWithSlices(b, problem->loss);
        QVERIFY2(grads, qPrintable(err(grads)));
        QCOMPARE(grads->size(), std::size_t{1});
        QVERIFY2((*grads)[0].first && (*grads)[0].first->isSparse(), "the table's gradient is IndexedSlices");
        auto train = opt->applyGradientsWithSlices(b, *grads);
        QVERIFY2(train, qPrintable(err(train)));
        // The sparse op sits in the graph; no dense Apply* op does.
        bool sparseOp = false;
        for (const auto& node : b.graphDef().node()) {
            QVERIFY2(!node.op().starts_with("Apply"), node.name().c_str());
            sparseOp = sparseOp || node.op().starts_with("SparseApply") || node.op() == "ScatterSub" ||
                       node.op() == "ScatterAdd";
        }
        QVERIFY(sparseOp);
        auto init = globalVariablesInitializer(b);
        QVERIFY2(init, qPrintable(err(init)));
        auto session = r.session(b);
        auto initial = initializeAndCopyTable(*session, init->name());
        QVERIFY2(initial, qPrintable(err(initial)));
        for (int step = 0; step < e["steps"].toInt(); ++step)
            QVERIFY(runTargets(*session, {train->name()}));
        std::vector<Tensor> after;
        QVERIFY(session->run({}, {"emb:0"}, {}, &after).isOk());
        const QJsonObject expected = e["training"].toObject()[optimizer].toObject();
        const QString problemRow = compareTrainedTable(after[0], *initial, e["vocab"].toInt(), e["dim"].toInt(),
                                                       ints(expected["rows"]), expected["values"].toArray(), true);
        QVERIFY2(problemRow.isEmpty(), qPrintable(problemRow));
    }

    void adamAndLazyAdamWhenTheIdsChange_data()
    {
        QTest::addColumn<QString>("optimizer");
        QTest::newRow("adam") << QString("adam");
        QTest::newRow("lazy_adam") << QString("lazy_adam");
    }

    /// Three steps whose ids differ (tools/golden/sparse_training.py, "varying"): Adam keeps moving a
    /// row looked up once (its moments decay every step), LazyAdam moves only the rows of each step.
    void adamAndLazyAdamWhenTheIdsChange()
    {
        QFETCH(QString, optimizer);
        const QJsonObject e = golden()["embedding"].toObject();
        const QJsonObject varying = e["varying"].toObject();
        const std::vector<std::int64_t> rows = ints(varying["rows"]);
        const QJsonArray expected = varying["training"].toObject()[optimizer].toArray();
        const QJsonArray other = varying["training"].toObject()[optimizer == "adam" ? "lazy_adam" : "adam"].toArray();
        // The two algorithms give different tables here, or this test could not tell them apart.
        QVERIFY(expected != other);
        TrainingRegistries& r = TrainingRegistries::get();
        GraphBuilder b(r.ops);
        auto problem = buildEmbedding(b, ints(e["ids"]), std::nullopt, true);
        QVERIFY2(problem, qPrintable(err(problem)));
        std::unique_ptr<Optimizer> opt;
        if (optimizer == "adam")
            opt = std::make_unique<AdamOptimizer>(0.01);
        else
            opt = std::make_unique<LazyAdamOptimizer>(0.01);
        auto train = opt->minimize(b, problem->loss);
        QVERIFY2(train, qPrintable(err(train)));
        // LazyAdam: the moments change through ScatterUpdate only, the table through ScatterSub;
        // nothing assigns a whole slot or the table.
        int scatterUpdates = 0;
        for (const auto& node : b.graphDef().node()) {
            if (node.name().starts_with("Adam/update_emb/")) {
                QVERIFY2(optimizer == "adam" || (node.op() != "Assign" && node.op() != "AssignSub"),
                         node.name().c_str());
                scatterUpdates += node.op() == "ScatterUpdate";
            }
        }
        QCOMPARE(scatterUpdates, optimizer == "adam" ? 0 : 2);
        if (optimizer == "lazy_adam") {
            for (const char* name : {"Adam/update_emb/GatherV2", "Adam/update_emb/GatherV2/axis",
                                     "Adam/update_emb/GatherV2_3", "Adam/update_emb/ScatterUpdate_1",
                                     "Adam/update_emb/ScatterSub", "Adam/update_emb/group_deps"})
                QVERIFY2(b.findNode(name), name);
            // The moments read are the slots' snapshots, as tf.gather reads a RefVariable.
            QCOMPARE(b.findNode("Adam/update_emb/GatherV2")->input(0), std::string("emb/Adam/read"));
        }
        auto init = globalVariablesInitializer(b);
        QVERIFY2(init, qPrintable(err(init)));
        auto session = r.session(b);
        auto initial = initializeAndCopyTable(*session, init->name());
        QVERIFY2(initial, qPrintable(err(initial)));
        const TensorShape idsShape = shapeOf(e["ids_shape"]);
        for (const QJsonValue& stepIds : varying["ids"].toArray()) {
            std::vector<std::int32_t> idValues;
            for (std::int64_t id : ints(stepIds))
                idValues.push_back(static_cast<std::int32_t>(id));
            auto fed = Tensor::fromVector<std::int32_t>(gradientTestAllocator(), idsShape, idValues);
            QVERIFY(fed);
            std::vector<Tensor> out;
            const Status s = session->run({{"ids:0", *fed}}, {}, {train->name()}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
        }
        std::vector<Tensor> after;
        QVERIFY(session->run({}, {"emb:0"}, {}, &after).isOk());
        const QString problemRow =
            compareTrainedTable(after[0], *initial, e["vocab"].toInt(), e["dim"].toInt(), rows, expected, false);
        QVERIFY2(problemRow.isEmpty(), qPrintable(problemRow));
    }

    void clipByGlobalNormOverIndexedSlices()
    {
        // The clipped IndexedSlices, made dense, equal the clipping of the dense gradients.
        TrainingRegistries& r = TrainingRegistries::get();
        GraphBuilder b(r.ops);
        auto problem = buildEmbedding(b, ints(golden()["embedding"].toObject()["ids"]));
        QVERIFY2(problem, qPrintable(err(problem)));
        auto w = ops::constant(b, {0.5, -1.5, 2.0}, {3}, tf::DT_FLOAT, "w");
        auto dense = ops::constant(b, {3.0, -4.0, 12.0}, {3}, tf::DT_FLOAT, "dense_grad");
        QVERIFY(w && dense);
        auto sparse = addSymbolicGradientsSparse(b, {problem->loss}, {problem->table.ref()}, {}, GradientsOptions{});
        QVERIFY2(sparse, qPrintable(err(sparse)));
        QVERIFY((*sparse)[0]->isSparse());
        std::vector<std::optional<Gradient>> list = {(*sparse)[0], Gradient(*dense), std::nullopt};
        auto clipped = clipByGlobalNormWithSlices(b, list, 1.0);
        QVERIFY2(clipped, qPrintable(err(clipped)));
        QVERIFY(clipped->first[0]->isSparse());
        QVERIFY(!clipped->first[1]->isSparse());
        QVERIFY(!clipped->first[2]);
        auto clippedDense = toDenseGradient(b, *clipped->first[0]);
        QVERIFY2(clippedDense, qPrintable(err(clippedDense)));
        // The dense computation: clip_by_global_norm of the densified gradient and the other one.
        auto densified = toDenseGradient(b, *(*sparse)[0]);
        QVERIFY2(densified, qPrintable(err(densified)));
        auto reference = clipByGlobalNorm(b, {*densified, *dense}, 1.0, {}, "reference");
        QVERIFY2(reference, qPrintable(err(reference)));
        auto init = globalVariablesInitializer(b);
        QVERIFY2(init, qPrintable(err(init)));
        auto session = r.session(b);
        QVERIFY(runTargets(*session, {init->name()}));
        // The repeated ids are summed in the dense form, so its norm differs from the values'
        // norm: TensorFlow's global_norm uses the values. Check both against NumPy-free identities.
        const std::vector<double> sparseNorm = fetchValues(*session, clipped->second.name());
        const std::vector<double> values = fetchValues(*session, (*sparse)[0]->sparse().values.name());
        double sq = 3.0 * 3.0 + 4.0 * 4.0 + 12.0 * 12.0;
        for (double v : values)
            sq += v * v;
        QCOMPARE(sparseNorm.size(), std::size_t{1});
        QVERIFY(std::abs(sparseNorm[0] - std::sqrt(sq)) <= 1e-4 * std::sqrt(sq));
        // Clipped slices made dense = dense gradient * (1 / norm of the values).
        const std::vector<double> got = fetchValues(*session, clippedDense->name());
        const std::vector<double> full = fetchValues(*session, densified->name());
        QCOMPARE(got.size(), full.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            QVERIFY2(std::abs(got[i] - full[i] / sparseNorm[0]) <= 1e-6, qPrintable(QString::number(i)));
        const std::vector<double> refNorm = fetchValues(*session, reference->second.name());
        QVERIFY(std::abs(refNorm[0] - sparseNorm[0]) > 1e-3); // the ids repeat: the norms differ
        const std::vector<double> clippedOther = fetchValues(*session, clipped->first[1]->dense().name());
        QCOMPARE(clippedOther.size(), std::size_t{3});
        QVERIFY(std::abs(clippedOther[2] - 12.0 / sparseNorm[0]) <= 1e-6);
    }

    void clipByGlobalNormSlicesWithoutRepeatsEqualsDense()
    {
        TrainingRegistries& r = TrainingRegistries::get();
        GraphBuilder b(r.ops);
        auto values = ops::constant(b, {1.0, 2.0, -2.0, 4.0}, {2, 2}, tf::DT_FLOAT, "values");
        auto indices = ops::constantInts(b, {3, 0}, {2}, tf::DT_INT32, "indices");
        auto shape = ops::constantInts(b, {4, 2}, {2}, tf::DT_INT32, "dense_shape");
        auto other = ops::constant(b, {6.0, -3.0}, {2}, tf::DT_FLOAT, "other");
        QVERIFY(values && indices && shape && other);
        IndexedSlices slices{*values, *indices, *shape};
        auto clipped = clipByGlobalNormWithSlices(b, {Gradient(slices), Gradient(*other)}, 2.5);
        QVERIFY2(clipped, qPrintable(err(clipped)));
        auto asDense = toDenseGradient(b, *clipped->first[0]);
        auto denseIn = indexedSlicesToTensor(b, slices);
        QVERIFY(asDense && denseIn);
        auto reference = clipByGlobalNorm(b, {*denseIn, *other}, 2.5, {}, "reference");
        QVERIFY2(reference, qPrintable(err(reference)));
        auto session = r.session(b);
        const auto got = fetchValues(*session, asDense->name());
        const auto want = fetchValues(*session, reference->first[0]->name());
        QCOMPARE(got.size(), std::size_t{8});
        QVERIFY2(compare(got, want, 1e-6, 1e-7).isEmpty(), qPrintable(compare(got, want, 1e-6, 1e-7)));
        QVERIFY2(compare(fetchValues(*session, clipped->second.name()), fetchValues(*session, reference->second.name()),
                         1e-6, 1e-7)
                     .isEmpty(),
                 "norms");
        const double norm = std::sqrt(1 + 4 + 4 + 16 + 36 + 9);
        QVERIFY(std::abs(got[6] - 1.0 * 2.5 / norm) < 1e-6); // row 3 holds values[0]
    }

    void outOfRangeIdIsAClearError()
    {
        TrainingRegistries& r = TrainingRegistries::get();
        GraphBuilder b(r.ops);
        // Flat ids, as TensorFlow words it for a vector: "indices[3] = ..." (a matrix gives "indices[0,3]").
        auto problem = buildEmbedding(b, {3, 17, 999, 1000, 500, 17, 0, 3, 42, 998}, TensorShape{10});
        QVERIFY2(problem, qPrintable(err(problem)));
        auto init = globalVariablesInitializer(b);
        QVERIFY2(init, qPrintable(err(init)));
        auto session = r.session(b);
        QVERIFY(runTargets(*session, {init->name()}));
        std::vector<Tensor> out;
        Status s = session->run({}, {problem->loss.name()}, {}, &out);
        QVERIFY(!s.isOk());
        const QString message = QString::fromStdString(s.toString());
        QVERIFY2(message.contains("indices[3] = 1000 is not in [0, 1000)"), qPrintable(message));
        QVERIFY2(message.contains("embedding_lookup"), qPrintable(message));
    }

    void scatterErrors()
    {
        TrainingRegistries& r = TrainingRegistries::get();
        const QJsonObject c = golden()["cases"].toArray()[1].toObject(); // ScatterAdd
        QCOMPARE(c["op"].toString(), QString("ScatterAdd"));
        // Updates of the wrong shape: refused when the graph is built (shape function) ...
        {
            GraphBuilder b(r.ops);
            auto var = b.op("VariableV2", {}, {{"dtype", attr::type(tf::DT_FLOAT)}, {"shape", attr::shape({5, 3})}}, "v");
            auto idx = ops::constantInts(b, {1, 2}, {2}, tf::DT_INT32, "idx");
            auto upd = ops::constant(b, {1.0, 2.0, 3.0, 4.0}, {2, 2}, tf::DT_FLOAT, "upd");
            QVERIFY(var && idx && upd);
            auto scatter = b.op("ScatterAdd", {var->output(0), *idx, *upd}, {}, "scatter");
            QVERIFY(!scatter);
            QVERIFY2(QString::fromStdString(scatter.error().toString()).contains("[2,2]"),
                     qPrintable(err(scatter)));
        }
        // ... and by the kernel when the shapes are only known at run time; a bad index too.
        {
            QJsonObject bad = c;
            QJsonArray inputs = bad["inputs"].toArray();
            QJsonObject idx = inputs[0].toObject();
            QJsonArray ids = idx["values"].toArray();
            ids[2] = 5;
            idx["values"] = ids;
            inputs[0] = idx;
            bad["inputs"] = inputs;
            for (bool resource : {false, true}) {
                auto values = runKernelCase(bad, resource);
                QVERIFY(!values);
                const QString message = err(values);
                QVERIFY2(message.contains("indices[2] = 5 is not in [0, 5)"), qPrintable(message));
                QVERIFY2(message.contains("update"), qPrintable(message));
            }
            QJsonObject badShape = c;
            QJsonArray in2 = badShape["inputs"].toArray();
            QJsonObject upd = in2[1].toObject();
            upd["shape"] = QJsonArray{3, 6};
            in2[1] = upd;
            badShape["inputs"] = in2;
            auto resourceShape = runKernelCase(badShape, true); // a handle carries no shape: the kernel checks
            QVERIFY(!resourceShape);
            QVERIFY2(err(resourceShape).contains("Must have updates.shape = indices.shape + params.shape[1:]"),
                     qPrintable(err(resourceShape)));
        }
        // SparseApply* with an index out of range.
        {
            QJsonObject adagrad;
            for (const QJsonValue& v : golden()["cases"].toArray())
                if (v.toObject()["op"].toString() == "SparseApplyAdagrad")
                    adagrad = v.toObject();
            QJsonArray inputs = adagrad["inputs"].toArray();
            QJsonObject idx = inputs[2].toObject();
            QJsonArray ids = idx["values"].toArray();
            ids[4] = -1;
            idx["values"] = ids;
            inputs[2] = idx;
            adagrad["inputs"] = inputs;
            auto values = runKernelCase(adagrad, false);
            QVERIFY(!values);
            QVERIFY2(err(values).contains("Index -1 at offset 4 in indices is out of range"), qPrintable(err(values)));
        }
    }
};

QTEST_GUILESS_MAIN(TestSparseUpdates)
#include "test_sparse_updates.moc"
