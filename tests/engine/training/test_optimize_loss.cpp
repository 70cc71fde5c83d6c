// tf.contrib.layers.optimize_loss (training/optimize_loss.h): the nodes TensorFlow 1.15 names (the
// learning-rate variable, the summaries, "OptimizeLoss/train", the train tensor), SGD through it
// equal to GradientDescentOptimizer.minimize bit for bit, clipping, multipliers, a decayed learning
// rate, increment_global_step=False, and TensorFlow's errors.
#include "builder/ops_sugar.h"
#include "builder/python_ops.h"
#include "builder/variables.h"
#include "training/global_step.h"
#include "training/gradient_descent.h"
#include "training/optimize_loss.h"
#include "training_test_support.h"

#include "model_test_support.h"

#include <QtTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::training;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

struct Model {
    std::unique_ptr<GraphBuilder> b;
    Output loss;
};

/// pred = x * w + c on four examples, loss = mean((pred - y)^2), y = 2x + 1; w and c start at 0.
Model model()
{
    Model m;
    m.b = std::make_unique<GraphBuilder>(TrainingRegistries::get().ops);
    GraphBuilder& b = *m.b;
    if (!createGlobalStep(b))
        qFatal("global step");
    auto x = ops::constant(b, std::vector<double>{1, 2, 3, 4}, TensorShape({4}), tf::DT_FLOAT, "x");
    auto y = ops::constant(b, std::vector<double>{3, 5, 7, 9}, TensorShape({4}), tf::DT_FLOAT, "y");
    auto w = getVariable(b, "w", TensorShape::scalar(), tf::DT_FLOAT, Initializer::zeros());
    auto c = getVariable(b, "c", TensorShape::scalar(), tf::DT_FLOAT, Initializer::zeros());
    for (const Status& st : {x ? Status::ok() : x.error(), y ? Status::ok() : y.error(),
                             w ? Status::ok() : w.error(), c ? Status::ok() : c.error()})
        if (!st.isOk())
            qFatal("model: %s", st.toString().c_str());
    auto xw = ops::mul(b, *x, w->value());
    auto pred = xw ? ops::add(b, *xw, c->value()) : xw;
    auto diff = pred ? ops::sub(b, *pred, *y) : pred;
    auto sq = diff ? ops::square(b, *diff) : diff;
    auto axes = ops::constantInts(b, {0}, {1});
    auto loss = sq && axes ? b.op("Mean", {*sq, *axes}, {}, "loss") : unexpected(internalError("loss"));
    if (!loss)
        qFatal("loss: %s", loss.error().toString().c_str());
    m.loss = loss->output(0);
    return m;
}

std::unique_ptr<Session> start(const GraphBuilder& b)
{
    auto init = globalVariablesInitializer(const_cast<GraphBuilder&>(b));
    TrainingRegistries& r = TrainingRegistries::get();
    SessionOptions options;
    options.ops = &r.ops;
    options.kernels = &r.kernels;
    auto s = std::make_unique<Session>(options);
    std::vector<Tensor> out;
    if (!init || !s->create(b.graphDef()).isOk() || !s->run({}, {}, {init->name()}, &out).isOk())
        qFatal("session");
    return s;
}

std::vector<float> run(Session& s, const std::vector<std::string>& fetches,
                       const std::vector<std::string>& targets = {})
{
    std::vector<Tensor> out;
    if (Status st = s.run({}, fetches, targets, &out); !st.isOk())
        qFatal("run: %s", st.toString().c_str());
    std::vector<float> values;
    for (const Tensor& t : out)
        values.push_back(t.dtype() == tf::DT_INT64 ? static_cast<float>(t.values<std::int64_t>()[0])
                                                   : t.values<float>()[0]);
    return values;
}

} // namespace

class TestOptimizeLoss : public QObject {
    Q_OBJECT
private slots:
    void sgdAsTensorFlowNamesIt()
    {
        Model m = model();
        OptimizeLossOptions o;
        o.learningRate = 0.05;
        o.optimizer = "SGD";
        auto train = optimizeLoss(*m.b, m.loss, o);
        QVERIFY2(train, err(train));
        QCOMPARE(train->name(), std::string("OptimizeLoss/control_dependency:0"));
        const GraphBuilder& b = *m.b;
        QCOMPARE(opOf(b, "OptimizeLoss/learning_rate"), std::string("VariableV2"));
        QCOMPARE(opOf(b, "OptimizeLoss/global_norm/gradient_norm"), std::string("ScalarSummary"));
        QCOMPARE(opOf(b, "OptimizeLoss/loss"), std::string("ScalarSummary"));
        QCOMPARE(opOf(b, "OptimizeLoss/train"), std::string("AssignAdd"));
        // Without a decay function TensorFlow 1.15 writes no learning_rate summary.
        QVERIFY(b.findNode("OptimizeLoss/learning_rate_1") == nullptr);
        for (const Variable& v : trainableVariables(b))
            QVERIFY(v.name() != "OptimizeLoss/learning_rate");

        // The same steps with GradientDescentOptimizer(0.05).minimize: the same values, bit for bit.
        Model plain = model();
        GradientDescentOptimizer sgd(0.05);
        auto step = getGlobalStep(*plain.b);
        QVERIFY(step && *step);
        auto minimize = sgd.minimize(*plain.b, plain.loss, **step);
        QVERIFY2(minimize, err(minimize));
        auto s = start(b);
        auto p = start(*plain.b);
        for (int i = 0; i < 20; ++i) {
            run(*s, {train->name()});
            run(*p, {}, {minimize->name()});
        }
        const auto ours = run(*s, {"w:0", "c:0", "global_step:0", "loss:0"});
        const auto theirs = run(*p, {"w:0", "c:0", "global_step:0", "loss:0"});
        QCOMPARE(ours, theirs);
        QCOMPARE(ours[2], 20.0f);
        QVERIFY(ours[3] < 1.0f);
    }

    void clippingMultipliersAndGlobalStep()
    {
        Model m = model();
        OptimizeLossOptions o;
        o.learningRate = 1.0;
        o.optimizer = "SGD";
        o.clipGradients = 0.01;
        o.gradientMultipliers = {{"c", 0.0}};
        o.incrementGlobalStep = false;
        o.summaries = std::vector<std::string>{"gradients", "gradient_norm"};
        auto train = optimizeLoss(*m.b, m.loss, o);
        QVERIFY2(train, err(train));
        QCOMPARE(opOf(*m.b, "OptimizeLoss/gradients/w_0"), std::string("HistogramSummary"));
        QCOMPARE(opOf(*m.b, "OptimizeLoss/gradient_norm/w_0"), std::string("ScalarSummary"));
        QCOMPARE(opOf(*m.b, "OptimizeLoss/global_norm/clipped_gradient_norm"), std::string("ScalarSummary"));
        auto s = start(*m.b);
        run(*s, {train->name()});
        const auto after = run(*s, {"w:0", "c:0", "global_step:0"});
        // d loss / dw = -35 at the start: clipped to norm 0.01 (c's gradient multiplied by 0).
        QVERIFY2(std::abs(after[0] - 0.01f) < 1e-6f, qPrintable(QString::number(after[0])));
        QCOMPARE(after[1], 0.0f);
        QCOMPARE(after[2], 0.0f);
    }

    void decayedLearningRate()
    {
        Model m = model();
        OptimizeLossOptions o;
        o.learningRate = 0.1;
        o.optimizer = "Adam";
        // lr / (1 + step), as inverse_time_decay with rate 1 over 1 step.
        o.learningRateDecay = [](GraphBuilder& b, const Output& lr, const Output& step) -> Expected<Output> {
            auto t = py::cast(b, step, tf::DT_FLOAT);
            auto denominator = t ? py::binary(b, py::Operator::kAdd, *t, 1.0) : t;
            return denominator ? py::binary(b, py::Operator::kTrueDiv, lr, *denominator) : denominator;
        };
        auto train = optimizeLoss(*m.b, m.loss, o);
        QVERIFY2(train, err(train));
        QCOMPARE(opOf(*m.b, "OptimizeLoss/learning_rate_1"), std::string("ScalarSummary"));
        QCOMPARE(opOf(*m.b, "OptimizeLoss/train"), std::string("AssignAdd"));
        auto s = start(*m.b);
        for (int i = 0; i < 30; ++i)
            run(*s, {train->name()});
        QCOMPARE(run(*s, {"global_step:0"})[0], 30.0f);
    }

    void errorsInTensorFlowsWords()
    {
        auto failure = [](const OptimizeLossOptions& o, std::optional<Output> loss = {}) {
            Model m = model();
            auto r = optimizeLoss(*m.b, loss ? *loss : m.loss, o);
            return r ? std::string("(no error)") : r.error().message();
        };
        OptimizeLossOptions o;
        o.learningRate = -1.0;
        o.optimizer = "SGD";
        QCOMPARE(failure(o), std::string("Invalid learning_rate -1.0."));
        o.learningRate = 0.1;
        o.summaries = std::vector<std::string>{"loss", "weights"};
        QCOMPARE(failure(o), std::string("Summaries should be one of [learning_rate, loss, gradients, gradient_norm, "
                                         "global_gradient_norm], you provided weights."));
        o.summaries.reset();
        o.optimizer = "Adamax";
        QCOMPARE(failure(o), std::string("Optimizer name should be one of [Adagrad, Adam, Ftrl, Momentum, RMSProp, "
                                         "SGD], you provided Adamax."));
        o.learningRate = std::monostate{};
        o.optimizer = "Adam";
        QCOMPARE(failure(o), std::string("Learning rate is None, but should be specified if optimizer is string "
                                         "(Adam)."));
        Model m = model();
        auto vector = ops::constant(*m.b, std::vector<double>{1, 2}, TensorShape({2}), tf::DT_FLOAT, "v");
        QVERIFY(vector);
        OptimizeLossOptions sgd;
        sgd.learningRate = 0.1;
        sgd.optimizer = "SGD";
        auto r = optimizeLoss(*m.b, *vector, sgd);
        QVERIFY(!r);
        QCOMPARE(r.error().message(), std::string("Expected scalar shape for v:0, saw shape: [2]."));
    }
};

QTEST_GUILESS_MAIN(TestOptimizeLoss)
#include "test_optimize_loss.moc"
