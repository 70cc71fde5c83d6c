// tf.nn.crelu, relu_layer, xw_plus_b and embedding_lookup: the nodes TensorFlow 1.15 builds and
// their values against small results computed with NumPy (embedded below).
#include "builder/graph_builder.h"
#include "builder/nn_functions.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "gradient_test_support.h"
#include "graph_run.h"
#include "model_test_support.h"

#include <QtTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

std::vector<double> valuesOf(const Tensor& t)
{
    std::vector<double> out;
    for (float v : t.values<float>())
        out.push_back(v);
    return out;
}

bool near(const std::vector<double>& got, const std::vector<double>& want, double tol = 1e-6)
{
    if (got.size() != want.size())
        return false;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::abs(got[i] - want[i]) > tol * (1.0 + std::abs(want[i])))
            return false;
    }
    return true;
}

QString show(const std::vector<double>& v)
{
    QStringList parts;
    for (double x : v)
        parts << QString::number(x);
    return "[" + parts.join(", ") + "]";
}

} // namespace

class TestNnFunctions : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_reg;

    /// Runs `fetch` of b's graph (after `init` when given).
    std::vector<double> run(const GraphBuilder& b, const std::string& fetch, const std::vector<std::string>& init = {})
    {
        auto out = runGraph(*m_reg, b, {}, {fetch}, init);
        if (!out) {
            qWarning("%s", out.error().toString().c_str());
            return {};
        }
        return valuesOf(out->front());
    }

    Output constant(GraphBuilder& b, const std::vector<double>& values, const TensorShape& shape, const char* name)
    {
        return *ops::constant(b, values, shape, tf::DT_FLOAT, name);
    }

private slots:
    void initTestCase()
    {
        auto reg = makeDefaultRegistries();
        QVERIFY(reg.has_value());
        m_reg = std::move(*reg);
    }

    void crelu()
    {
        GraphBuilder b(m_reg->ops);
        const Output x = constant(b, {1.5, -2.0, 0.0, -0.5, 3.0, -1.0}, {2, 3}, "x");
        auto y = nn::crelu(b, x);
        QVERIFY2(y, err(y));
        QCOMPARE(y->node(), std::string("CRelu/Relu"));
        QCOMPARE(y->shape(), TensorShape({2, 6}));
        QCOMPARE(nodeOpsUnder(b, "CRelu/"),
                 (std::vector<std::string>{"Neg=Neg", "concat/axis=Const", "concat=ConcatV2", "Relu=Relu"}));
        QCOMPARE(inputsOf(b, "CRelu/concat"), (std::vector<std::string>{"x", "CRelu/Neg", "CRelu/concat/axis"}));
        const std::vector<double> want{1.5, 0, 0, 0, 2, 0, 0, 3, 0, 0.5, 0, 1};
        const auto got = run(b, "CRelu/Relu:0");
        QVERIFY2(near(got, want), qPrintable(show(got)));
        // Another axis and name.
        auto y0 = nn::crelu(b, x, "pair", 0);
        QVERIFY2(y0, err(y0));
        QCOMPARE(y0->node(), std::string("pair/Relu"));
        QCOMPARE(y0->shape(), TensorShape({4, 3}));
        // A second call with the default name gets a fresh scope.
        auto again = nn::crelu(b, x);
        QVERIFY(again);
        QCOMPARE(again->node(), std::string("CRelu_1/Relu"));
    }

    void xwPlusBAndReluLayer()
    {
        GraphBuilder b(m_reg->ops);
        const Output x = constant(b, {1.5, -2.0, 0.25, -0.5, 3.0, -1.0}, {2, 3}, "x");
        const Output w = constant(b, {0.5, -1.0, 2.0, 0.25, -1.5, 1.0}, {3, 2}, "w");
        const Output bias = constant(b, {0.1, -0.2}, {2}, "b");
        auto affine = nn::xwPlusB(b, x, w, bias);
        QVERIFY2(affine, err(affine));
        QCOMPARE(affine->node(), std::string("xw_plus_b"));
        QCOMPARE(opOf(b, "xw_plus_b"), std::string("BiasAdd"));
        QCOMPARE(inputsOf(b, "xw_plus_b"), (std::vector<std::string>{"xw_plus_b/MatMul", "b"}));
        QCOMPARE(inputsOf(b, "xw_plus_b/MatMul"), (std::vector<std::string>{"x", "w"}));
        auto layer = nn::reluLayer(b, x, w, bias);
        QVERIFY2(layer, err(layer));
        QCOMPARE(layer->node(), std::string("relu_layer"));
        QCOMPARE(opOf(b, "relu_layer"), std::string("Relu"));
        QCOMPARE(nodeOpsUnder(b, "relu_layer/"), (std::vector<std::string>{"MatMul=MatMul", "BiasAdd=BiasAdd"}));
        QCOMPARE(inputsOf(b, "relu_layer"), (std::vector<std::string>{"relu_layer/BiasAdd"}));
        // NumPy: x @ w + b and its relu.
        const std::vector<double> affineWant{-3.5250000953674316, -1.9500000476837158, 7.349999904632568,
                                             0.04999999701976776};
        const auto affineGot = run(b, "xw_plus_b:0");
        QVERIFY2(near(affineGot, affineWant), qPrintable(show(affineGot)));
        const auto reluGot = run(b, "relu_layer:0");
        QVERIFY2(near(reluGot, {0.0, 0.0, 7.349999904632568, 0.04999999701976776}), qPrintable(show(reluGot)));
        // Shape errors are the ops'.
        auto bad = nn::xwPlusB(b, x, x, bias, "bad");
        QVERIFY(!bad);
        QVERIFY2(bad.error().message().find("Dimensions must be equal") != std::string::npos,
                 bad.error().message().c_str());
    }

    void embeddingLookupOfAVariable()
    {
        GraphBuilder b(m_reg->ops);
        auto params = variable(
            b,
            [](GraphBuilder& g) {
                return ops::constant(g, std::vector<double>{3, 4, 0, 0.3, 0.4, 0, 1, -2, 2, 0.6, 0, 0.8}, {4, 3});
            },
            "embeddings");
        QVERIFY2(params, err(params));
        auto ids = ops::constantInts(b, {2, 0, 3, 3}, {2, 2}, tf::DT_INT32, "ids");
        auto e = nn::embeddingLookup(b, params->value(), *ids);
        QVERIFY2(e, err(e));
        QCOMPARE(e->node(), std::string("embedding_lookup/Identity"));
        QCOMPARE(e->shape(), TensorShape({2, 2, 3}));
        QCOMPARE(opOf(b, "embedding_lookup"), std::string("GatherV2"));
        QCOMPARE(inputsOf(b, "embedding_lookup"),
                 (std::vector<std::string>{"embeddings/read", "ids", "embedding_lookup/axis"}));
        // The gather is colocated with the variable; the final Identity is not.
        QCOMPARE(b.findNode("embedding_lookup")->attr().at("_class").list().s(0), std::string("loc:@embeddings"));
        QVERIFY(b.findNode("embedding_lookup/Identity")->attr().count("_class") == 0);
        const std::vector<double> gathered{1.0, -2.0, 2.0, 3.0, 4.0, 0.0, 0.6, 0.0, 0.8, 0.6, 0.0, 0.8};
        auto init = b.findNode("embeddings/Assign");
        QVERIFY(init != nullptr);
        const auto got = run(b, e->name(), {"embeddings/Assign"});
        QVERIFY2(near(got, gathered), qPrintable(show(got)));

        // max_norm: each embedding scaled to norm <= 1 (NumPy: g * 1 / max(|g|, 1)).
        auto clipped = nn::embeddingLookup(b, params->value(), *ids, "clipped", 1.0);
        QVERIFY2(clipped, err(clipped));
        QCOMPARE(clipped->node(), std::string("clipped/Identity"));
        QCOMPARE(opOf(b, "clipped/clip_by_norm"), std::string("Identity"));
        QCOMPARE(inputsOf(b, "clipped/clip_by_norm/mul"), (std::vector<std::string>{"clipped", "clipped"}));
        const std::vector<double> clippedWant{0.3333333432674408,
                                              -0.6666666865348816,
                                              0.6666666865348816,
                                              0.6000000238418579,
                                              0.800000011920929,
                                              0.0,
                                              0.6000000238418579,
                                              0.0,
                                              0.800000011920929,
                                              0.6000000238418579,
                                              0.0,
                                              0.800000011920929};
        const auto clippedGot = run(b, clipped->name(), {"embeddings/Assign"});
        QVERIFY2(near(clippedGot, clippedWant), qPrintable(show(clippedGot)));

        // Bad ids: GatherV2's validation.
        auto floatIds = ops::constant(b, std::vector<double>{1.0}, {1});
        QVERIFY(!nn::embeddingLookup(b, params->value(), *floatIds, "bad"));
    }

    /// The gradient reaches the variable through the gather (IndexedSlices are dense here).
    void embeddingLookupGradient()
    {
        GradientChecks checks;
        QCOMPARE(checks.start(), std::string());
        checks.check("embedding_lookup", {filled({4, 3}, signedAwayFromKinks)},
                     [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                         auto ids = ops::constantInts(b, {2, 0, 3, 3}, {2, 2});
                         return nn::embeddingLookup(b, in[0], *ids);
                     });
        checks.check("embedding_lookup max_norm", {filled({4, 3}, signedAwayFromKinks)},
                     [](GraphBuilder& b, const std::vector<Output>& in) -> Expected<Output> {
                         auto ids = ops::constantInts(b, {2, 0, 1}, {3});
                         return nn::embeddingLookup(b, in[0], *ids, {}, 1.0);
                     });
        checks.check("crelu", {filled({2, 3}, signedAwayFromKinks)},
                     [](GraphBuilder& b, const std::vector<Output>& in) { return nn::crelu(b, in[0]); });
        checks.check(
            "relu_layer", {filled({2, 3}, small), filled({3, 2}, signedAwayFromKinks), filled({2}, positive)},
            [](GraphBuilder& b, const std::vector<Output>& in) { return nn::reluLayer(b, in[0], in[1], in[2]); });
        QVERIFY2(checks.failures.isEmpty(), qPrintable(checks.failures.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestNnFunctions)
#include "test_nn_functions.moc"
