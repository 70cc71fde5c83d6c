// The Embedding and RNN nodes: their catalogue entries, the variables they make (TensorFlow's
// names and shapes), the values they give through a Session (an embedding row per id; an RNN's
// "last" output equal to the last step of its "sequence" output), that a small model of the two
// trains with the embedding updated only in the rows looked up, and the errors of bad ports and params.
#include "layer_test_support.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "layers/layer_catalog.h"
#include "layers/recurrent_nodes.h"
#include "training/gradient_descent.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace tstudio;
using namespace tstudio::layers;
using tstudio::testing::hasVariable;
namespace tf = tensorflow;

namespace {

using Params = std::map<std::string, tf::AttrValue>;
const std::vector<std::pair<std::string, Tensor>> kNoFeeds;

std::vector<float> floatsOf(const Tensor& t)
{
    const auto v = t.values<float>();
    return {v.begin(), v.end()};
}

} // namespace

class TestRecurrentNodes : public QObject {
    Q_OBJECT
private:
    const Registries* m_registries = nullptr;

private slots:
    void initTestCase()
    {
        m_registries = testing::layerRegistries();
        QVERIFY(m_registries != nullptr);
    }

    void catalogueListsThemAfterDense()
    {
        const auto& catalog = layerCatalog();
        const auto at = [&](const char* type) {
            return std::find_if(catalog.begin(), catalog.end(), [&](const LayerType& t) { return t.type == type; });
        };
        QVERIFY(at("Embedding") != catalog.end() && at("RNN") != catalog.end());
        QCOMPARE(at("Embedding") - at("Dense"), 1);
        QCOMPARE(at("RNN") - at("Dense"), 2);
        QCOMPARE(at("RNN")->category, std::string("Layers"));
        QCOMPARE(at("RNN")->inputNames, std::vector<std::string>{"inputs"});
        QVERIFY(isRecurrentType("Embedding") && isRecurrentType("RNN") && !isRecurrentType("Dense"));
    }

    void embeddingGivesTheRowOfEachId()
    {
        GraphBuilder b(m_registries->ops);
        auto ids = ops::placeholder(b, tf::DT_INT32, TensorShape{-1, 3}, "ids");
        QVERIFY(ids);
        auto out = expandLayer(b, "Embedding", "emb", {{"vocab_size", attr::i(50)}, {"dim", attr::i(8)}}, {*ids});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        QVERIFY(hasVariable(b, "emb/embeddings", TensorShape{50, 8}));
        QCOMPARE(out->front().shape().toString(), TensorShape({-1, 3, 8}).toString());
        QVERIFY(globalVariablesInitializer(b));
        auto session = testing::layerSession(*m_registries, b);
        std::vector<Tensor> fetched;
        QVERIFY(session->run({}, {}, {"init"}, &fetched).isOk());
        const Tensor idValues = *Tensor::fromVector(testing::layerTestAllocator(), TensorShape{2, 3},
                                                    std::vector<std::int32_t>{0, 7, 49, 7, 3, 1});
        QVERIFY(session->run({{"ids", idValues}}, {out->front().name(), "emb/embeddings:0"}, {}, &fetched).isOk());
        const std::vector<float> rows = floatsOf(fetched[0]);
        const std::vector<float> table = floatsOf(fetched[1]);
        const std::vector<std::int32_t> idList{0, 7, 49, 7, 3, 1};
        for (std::size_t k = 0; k < idList.size(); ++k)
            for (std::size_t j = 0; j < 8; ++j)
                QCOMPARE(rows[k * 8 + j], table[static_cast<std::size_t>(idList[k]) * 8 + j]);
        // uniform(-0.1, 0.1), the default init_scale
        QVERIFY(std::all_of(table.begin(), table.end(), [](float v) { return std::abs(v) <= 0.1f; }));
    }

    void rnnNamesItsVariablesAsTensorFlowAndItsLastOutputIsTheLastStep()
    {
        for (const char* cell : {"basic_lstm", "lstm", "gru", "basic_rnn"}) {
            GraphBuilder b(m_registries->ops);
            auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 5, 4}, "x");
            QVERIFY(x);
            const Params params{{"cell", attr::s(cell)}, {"units", attr::i(6)}, {"layers", attr::i(2)}};
            auto seq = expandLayer(b, "RNN", "rnn", params, {*x});
            QVERIFY2(seq, seq ? "" : seq.error().toString().c_str());
            QCOMPARE(seq->front().shape().toString(), TensorShape({-1, 5, 6}).toString());
            const std::string cellScope = std::string(cell) == "basic_lstm" ? "basic_lstm_cell"
                                          : std::string(cell) == "lstm"     ? "lstm_cell"
                                          : std::string(cell) == "gru"      ? "gru_cell"
                                                                            : "basic_rnn_cell";
            if (cellScope != "gru_cell") {
                const std::int64_t gates = cellScope == "basic_rnn_cell" ? 1 : 4;
                QVERIFY2(
                    hasVariable(b, "rnn/multi_rnn_cell/cell_0/" + cellScope + "/kernel", TensorShape{10, gates * 6}),
                    cell);
                QVERIFY2(
                    hasVariable(b, "rnn/multi_rnn_cell/cell_1/" + cellScope + "/kernel", TensorShape{12, gates * 6}),
                    cell);
            } else {
                QVERIFY(hasVariable(b, "rnn/multi_rnn_cell/cell_0/gru_cell/gates/kernel", TensorShape{10, 12}));
                QVERIFY(hasVariable(b, "rnn/multi_rnn_cell/cell_1/gru_cell/candidate/kernel", TensorShape{12, 6}));
            }
            // The same cells again with output "last", sharing the variables (reuse by scope).
            Params lastParams = params;
            lastParams["output"] = attr::s("last");
            Expected<std::vector<Output>> last = std::vector<Output>{};
            {
                auto scope = variableScope(b, "", Reuse::kTrue);
                QVERIFY(scope);
                last = expandLayer(b, "RNN", "rnn", lastParams, {*x});
            }
            QVERIFY2(last, last ? "" : last.error().toString().c_str());
            QCOMPARE(last->front().shape().toString(), TensorShape({-1, 6}).toString());
            QVERIFY(globalVariablesInitializer(b));
            auto session = testing::layerSession(*m_registries, b);
            std::vector<Tensor> fetched;
            QVERIFY(session->run({}, {}, {"init"}, &fetched).isOk());
            std::vector<float> xs(2 * 5 * 4);
            for (std::size_t i = 0; i < xs.size(); ++i)
                xs[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)));
            const Tensor input = *Tensor::fromVector(testing::layerTestAllocator(), TensorShape{2, 5, 4}, xs);
            const Status s = session->run({{"x", input}}, {seq->front().name(), last->front().name()}, {}, &fetched);
            QVERIFY2(s.isOk(), s.toString().c_str());
            const std::vector<float> all = floatsOf(fetched[0]);
            const std::vector<float> end = floatsOf(fetched[1]);
            for (std::size_t r = 0; r < 2; ++r)
                for (std::size_t j = 0; j < 6; ++j)
                    QCOMPARE(end[r * 6 + j], all[r * 30 + 4 * 6 + j]);
        }
    }

    void embeddingAndRnnTrainTouchingOnlyTheRowsLookedUp()
    {
        GraphBuilder b(m_registries->ops);
        auto ids = ops::placeholder(b, tf::DT_INT32, TensorShape{-1, 4}, "ids");
        auto target = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 5}, "target");
        QVERIFY(ids && target);
        auto embedded = expandLayer(b, "Embedding", "", {{"vocab_size", attr::i(30)}, {"dim", attr::i(3)}}, {*ids});
        QVERIFY(embedded);
        auto h = expandLayer(b, "RNN", "", {{"units", attr::i(5)}, {"output", attr::s("last")}}, {embedded->front()});
        QVERIFY2(h, h ? "" : h.error().toString().c_str());
        auto d = ops::sub(b, h->front(), *target);
        QVERIFY(d);
        auto sq = ops::square(b, *d);
        auto axes = ops::constantInts(b, {0, 1}, TensorShape{2});
        QVERIFY(sq && axes);
        auto loss = ops::firstOutput(b.op("Mean", {*sq, *axes}, {}, "loss"));
        QVERIFY(loss);
        training::GradientDescentOptimizer sgd(2.0);
        auto train = sgd.minimize(b, *loss);
        QVERIFY2(train, train ? "" : train.error().toString().c_str());
        QVERIFY(globalVariablesInitializer(b));
        auto session = testing::layerSession(*m_registries, b);
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"init"}, &out).isOk());
        QVERIFY(session->run(kNoFeeds, {"embedding/embeddings:0"}, {}, &out).isOk());
        const std::vector<float> before = floatsOf(out[0]);
        const std::vector<std::int32_t> used{1, 2, 5, 9, 2, 1, 9, 5};
        const Tensor idValues = *Tensor::fromVector(testing::layerTestAllocator(), TensorShape{2, 4}, used);
        const Tensor targets =
            *Tensor::fromVector(testing::layerTestAllocator(), TensorShape{2, 5},
                                std::vector<float>{0.5f, -0.5f, 0.2f, 0.1f, -0.3f, -0.2f, 0.4f, 0.0f, 0.3f, 0.1f});
        float first = 0, last = 0;
        for (int step = 0; step < 200; ++step) {
            const Status s = session->run({{"ids", idValues}, {"target", targets}}, {"loss:0"}, {train->name()}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            (step == 0 ? first : last) = out[0].values<float>()[0];
        }
        qInfo("Embedding -> RNN(last) regression: loss %.5f -> %.5f", first, last);
        QVERIFY(last < 0.5f * first);
        QVERIFY(session->run(kNoFeeds, {"embedding/embeddings:0"}, {}, &out).isOk());
        const std::vector<float> after = floatsOf(out[0]);
        for (int row = 0; row < 30; ++row) {
            const bool looked = std::find(used.begin(), used.end(), row) != used.end();
            bool same = true;
            for (int j = 0; j < 3; ++j)
                same = same &&
                       after[static_cast<std::size_t>(row * 3 + j)] == before[static_cast<std::size_t>(row * 3 + j)];
            QVERIFY2(same != looked, qPrintable(QStringLiteral("row %1").arg(row)));
        }
    }

    void badPortsAndParamsAreNamed()
    {
        GraphBuilder b(m_registries->ops);
        auto f = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 3}, "f");
        QVERIFY(f);
        auto e = expandLayer(b, "Embedding", "emb", {}, {*f});
        QVERIFY(!e);
        QCOMPARE(e.error().message(),
                 std::string("layer 'emb' (Embedding): port 'ids' takes int32 or int64 ids; got float32 [?,3]"));
        auto r = expandLayer(b, "RNN", "r", {}, {*f});
        QVERIFY(!r);
        QCOMPARE(r.error().message(),
                 std::string("layer 'r' (RNN): port 'inputs' takes a floating [batch, time, depth] "
                             "tensor with a known depth; got float32 [?,3]"));
        const Status zero = validateLayerParams("RNN", "r", {{"layers", attr::i(0)}});
        QCOMPARE(zero.message(), std::string("layer 'r' (RNN): param 'layers' must be positive, got 0"));
        const Status cell = validateLayerParams("RNN", "r", {{"cell", attr::s("lsmt")}});
        QVERIFY(cell.message().find("must be one of basic_lstm, lstm, gru, basic_rnn; got 'lsmt'") !=
                std::string::npos);
        const Status scale = validateLayerParams("Embedding", "e", {{"init_scale", attr::f(0.0f)}});
        QVERIFY(scale.message().find("'init_scale' must be positive") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestRecurrentNodes)
#include "test_recurrent_nodes.moc"
