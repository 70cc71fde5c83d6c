// The contraction fusion (runtime/contraction_fusion.h): tf.layers.conv2d layers trained with
// GradientDescent run Conv2D -> BiasAdd -> Relu (or Relu6, Elu, or no activation) as one
// _FusedConv2D node by default, as Grappler's remapper does, and give the values of the op-by-op
// run (remapping OFF); a run that fetches the BiasAdd, an observed run and a session without the
// remapper run the ops one by one; the fused node's name (the activation's) can be fetched;
// conv2d -> batch_normalization(training=False) -> Relu fuses in inference.
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "layers/batch_normalization.h"
#include "layers/conv2d.h"
#include "training/gradient_descent.h"
#include "fusion_test_support.h"

#include "kernel_harness.h"
#include "model_test_support.h"

#include <QtTest>

#include <random>
#include <set>

using namespace tstudio;
using namespace tstudio::training;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

struct Model {
    explicit Model(const OpRegistry& ops) : b(ops) {}
    GraphBuilder b;
    std::string train, init, loss;
    std::vector<std::string> variables;
};

/// x [4, 9, 9, 3] -> conv2d(6, 3x3, same, relu) -> conv2d(5, 3x3, valid, relu6) -> conv2d(4, 1x1,
/// elu) -> conv2d(2, 3x3, same, no activation) -> sum of squares.
std::unique_ptr<Model> buildModel()
{
    auto model = std::make_unique<Model>(TrainingRegistries::get().ops);
    GraphBuilder& b = model->b;
    auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{4, 9, 9, 3}, "x");
    if (!x)
        return nullptr;
    Output h = *x;
    const struct {
        std::int64_t filters, kernel;
        const char* padding;
        layers::Activation activation;
    } stack[] = {{6, 3, "same", layers::Activation::kRelu},
                 {5, 3, "valid", layers::Activation::kRelu6},
                 {4, 1, "valid", layers::Activation::kElu},
                 {2, 3, "same", layers::Activation::kNone}};
    int seed = 7;
    for (const auto& layer : stack) {
        layers::Conv2DOptions conv;
        conv.filters = layer.filters;
        conv.kernelSize = {layer.kernel, layer.kernel};
        conv.padding = layer.padding;
        conv.activation = layer.activation;
        conv.kernelInitializer = Initializer::randomUniform(-0.5, 0.5, seed++);
        conv.biasInitializer = Initializer::randomUniform(-0.2, 0.2, seed++);
        auto out = layers::conv2d(b, h, conv);
        if (!out)
            qFatal("conv2d: %s", out.error().toString().c_str());
        h = *out;
    }
    auto sq = ops::square(b, h);
    auto axes = ops::constantInts(b, {0, 1, 2, 3}, {4});
    if (!sq || !axes)
        return nullptr;
    auto loss = b.op("Sum", {*sq, *axes}, {}, "loss");
    if (!loss)
        return nullptr;
    GradientDescentOptimizer opt(0.001);
    auto train = opt.minimize(b, loss->output(0));
    auto init = globalVariablesInitializer(b);
    if (!train || !init)
        return nullptr;
    model->train = train->name();
    model->init = init->name();
    model->loss = "loss:0";
    model->variables = variableTensors(b.graphDef());
    return model;
}

std::unique_ptr<Session> session(const Model& m, bool remapping)
{
    return remapperSession(m.b.graphDef(), m.init, remapping);
}

Tensor images()
{
    std::mt19937 gen(3);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(4 * 9 * 9 * 3);
    for (float& f : v)
        f = dist(gen);
    return tensor<float>(gradientTestAllocator(), TensorShape{4, 9, 9, 3}, v);
}

StepResult step(Session& s, const std::vector<std::string>& fetches,
                const std::vector<std::string>& targets, ExecutionObserver* observer = nullptr)
{
    StepResult r = tracedStep(s, {{"x:0", images()}}, fetches, targets, observer);
    if (!r.status.isOk())
        qFatal("step: %s", r.status.toString().c_str());
    return r;
}

/// The first variable whose values differ beyond rtol/atol 1e-5 between the sessions, or empty.
QString compareVariables(Session& a, Session& b, const Model& m)
{
    std::vector<Tensor> va, vb;
    if (!a.run({}, m.variables, {}, &va).isOk() || !b.run({}, m.variables, {}, &vb).isOk())
        return "fetching the variables failed";
    for (std::size_t i = 0; i < va.size(); ++i) {
        const std::string d = compareTensors(va[i], vb[i], 1e-5, 1e-5);
        if (!d.empty())
            return QString::fromStdString(m.variables[i] + ": " + d);
    }
    return {};
}


} // namespace

class TestContractionFusion : public QObject {
    Q_OBJECT
private slots:
    void fusedTrainingEqualsOpByOp()
    {
        auto model = buildModel();
        QVERIFY(model);
        auto fused = session(*model, true);
        auto plain = session(*model, false);
        for (int i = 0; i < 4; ++i) {
            const StepResult f = step(*fused, {model->loss}, {model->train});
            const StepResult p = step(*plain, {model->loss}, {model->train});
            // Four fused convolutions, named as the last op of each pattern.
            QCOMPARE(countLabels(f.labels, " = _FusedConv2D("), 4);
            QCOMPARE(countLabels(f.labels, "conv2d/Relu = _FusedConv2D("), 1);
            QCOMPARE(countLabels(f.labels, "conv2d_1/Relu6 = _FusedConv2D("), 1);
            QCOMPARE(countLabels(f.labels, "conv2d_2/Elu = _FusedConv2D("), 1);
            QCOMPARE(countLabels(f.labels, "conv2d_3/BiasAdd = _FusedConv2D("), 1);
            QCOMPARE(countLabels(f.labels, " = Conv2D("), 0);
            QCOMPARE(countLabels(p.labels, " = _FusedConv2D("), 0);
            QCOMPARE(countLabels(p.labels, " = Conv2D("), 4);
            const std::string d = compareTensors(f.fetched[0], p.fetched[0], 1e-5, 1e-5);
            QVERIFY2(d.empty(), d.c_str());
        }
        const QString difference = compareVariables(*fused, *plain, *model);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
    }

    /// Fetching a BiasAdd keeps its convolution op by op (the value must exist); fetching the
    /// activation, whose name the fused node takes, does not.
    void fetchesDecideWhatFuses()
    {
        auto model = buildModel();
        QVERIFY(model);
        auto fused = session(*model, true);
        auto plain = session(*model, false);
        const std::vector<std::string> fetches{"conv2d/BiasAdd:0", "conv2d_1/Relu6:0"};
        const StepResult f = step(*fused, fetches, {});
        const StepResult p = step(*plain, fetches, {});
        QCOMPARE(countLabels(f.labels, "conv2d/BiasAdd = BiasAdd("), 1);
        QCOMPARE(countLabels(f.labels, "conv2d_1/Relu6 = _FusedConv2D("), 1);
        for (std::size_t i = 0; i < fetches.size(); ++i) {
            const std::string d = compareTensors(f.fetched[i], p.fetched[i], 1e-5, 1e-5);
            QVERIFY2(d.empty(), (fetches[i] + ": " + d).c_str());
        }
    }

    /// Inference: conv2d without a bias -> batch_normalization(training=False) -> Relu runs as one
    /// _FusedConv2D with fused_ops [FusedBatchNorm, Relu] and gives the op-by-op values.
    void batchNormInInference()
    {
        auto model = std::make_unique<Model>(TrainingRegistries::get().ops);
        GraphBuilder& b = model->b;
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{4, 9, 9, 3}, "x");
        QVERIFY(x);
        layers::Conv2DOptions conv;
        conv.filters = 5;
        conv.kernelSize = {3, 3};
        conv.padding = "same";
        conv.useBias = false;
        conv.kernelInitializer = Initializer::randomUniform(-0.5, 0.5, 3);
        auto convolved = layers::conv2d(b, *x, conv);
        QVERIFY2(convolved, err(convolved));
        layers::BatchNormalizationOptions bn;
        bn.movingMeanInitializer = Initializer::randomUniform(-0.2, 0.2, 4);
        bn.movingVarianceInitializer = Initializer::randomUniform(0.5, 1.5, 5);
        bn.gammaInitializer = Initializer::randomUniform(0.5, 1.5, 6);
        bn.betaInitializer = Initializer::randomUniform(-0.3, 0.3, 7);
        auto normalized = layers::batchNormalization(b, *convolved, bn, false);
        QVERIFY2(normalized, err(normalized));
        auto relu = ops::relu(b, *normalized, "out");
        auto init = globalVariablesInitializer(b);
        QVERIFY(relu && init);
        model->init = init->name();
        auto fused = session(*model, true);
        auto plain = session(*model, false);
        const StepResult f = step(*fused, {"out:0"}, {});
        const StepResult p = step(*plain, {"out:0"}, {});
        QCOMPARE(countLabels(f.labels, "out = _FusedConv2D("), 1);
        QCOMPARE(countLabels(f.labels, " = FusedBatchNormV3("), 0);
        QCOMPARE(countLabels(p.labels, " = FusedBatchNormV3("), 1);
        const std::string d = compareTensors(f.fetched[0], p.fetched[0], 1e-5, 1e-5);
        QVERIFY2(d.empty(), d.c_str());
    }

    /// An observed run (the debugger) sees every op of the graph; the next plain run fuses again.
    void observedRunsAreNotFused()
    {
        auto model = buildModel();
        QVERIFY(model);
        auto fused = session(*model, true);
        OpTypeObserver observer;
        step(*fused, {model->loss}, {}, &observer);
        QVERIFY(observer.ops.count("Conv2D"));
        QVERIFY(observer.ops.count("BiasAdd"));
        QVERIFY(!observer.ops.count("_FusedConv2D"));
        QCOMPARE(countLabels(step(*fused, {model->loss}, {}).labels, " = _FusedConv2D("), 4);
    }
};

QTEST_GUILESS_MAIN(TestContractionFusion)
#include "test_contraction_fusion.moc"
