// Towers (builder/towers.h): the multi-GPU example's graph (tower_i name scopes on device i, one set
// of variables on CPU:0, average_gradients' ExpandDims/concat/Mean), and two towers on two CPU
// devices training a small MLP along the same loss curve as one device with the same global batch.
#include "builder/ops_sugar.h"
#include "training/towers.h"
#include "builder/variables.h"
#include "core/try.h"
#include "framework/allocator.h"
#include "model_test_support.h"
#include "training/gradient_descent.h"
#include "training_test_support.h"

#include <QtTest>

#include <cmath>
#include <set>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

constexpr int kBatch = 32;
constexpr int kInputs = 4;
constexpr int kHidden = 8;
const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
const std::string kCpu1 = "/job:localhost/replica:0/task:0/device:CPU:1";

std::vector<double> pattern(int count, double scale, double phase)
{
    std::vector<double> out;
    for (int i = 0; i < count; ++i)
        out.push_back(scale * std::sin(0.7 * i + phase));
    return out;
}

Expected<Output> intConst(GraphBuilder& b, std::vector<std::int64_t> values, const std::string& name)
{
    return ops::constantInts(b, values, TensorShape({static_cast<std::int64_t>(values.size())}), tensorflow::DT_INT32,
                             name);
}

/// loss = mean(square(tanh(x @ w1 + b1) @ w2 + b2 - y)), the variables made with towerVariable.
Expected<Output> mlpLoss(GraphBuilder& b, const Output& x, const Output& y)
{
    TSTUDIO_TRY(w1, towerVariable(b, "w1", TensorShape({kInputs, kHidden}), tensorflow::DT_FLOAT,
                                  Initializer::constant(pattern(kInputs * kHidden, 0.5, 0.3))));
    TSTUDIO_TRY(b1, towerVariable(b, "b1", TensorShape({kHidden}), tensorflow::DT_FLOAT,
                                  Initializer::constant(pattern(kHidden, 0.1, 1.1))));
    TSTUDIO_TRY(w2, towerVariable(b, "w2", TensorShape({kHidden, 1}), tensorflow::DT_FLOAT,
                                  Initializer::constant(pattern(kHidden, 0.4, 2.0))));
    TSTUDIO_TRY(b2, towerVariable(b, "b2", TensorShape({1}), tensorflow::DT_FLOAT, Initializer::zeros()));
    TSTUDIO_TRY(h0, ops::matMul(b, x, w1.value()));
    TSTUDIO_TRY(h1, ops::add(b, h0, b1.value()));
    TSTUDIO_TRY(h, ops::firstOutput(b.op("Tanh", {h1})));
    TSTUDIO_TRY(p0, ops::matMul(b, h, w2.value()));
    TSTUDIO_TRY(p, ops::add(b, p0, b2.value()));
    TSTUDIO_TRY(d, ops::sub(b, p, y));
    TSTUDIO_TRY(sq, ops::square(b, d));
    TSTUDIO_TRY(axes, intConst(b, {0, 1}, "Const"));
    return ops::firstOutput(b.op("Mean", {sq, axes}, {}, "loss"));
}

struct Built {
    std::unique_ptr<GraphBuilder> b;
    std::string loss;  ///< the step's loss (towers: their mean)
    std::string train; ///< the train op
    std::string init;
    std::vector<Tower> towers;
};

/// One graph: with towers == 0 the plain model; else `towers` towers on CPU:0..N-1 splitting the
/// placeholders x [32,4], y [32,1] on CPU:0 and averaging their gradients.
Expected<Built> build(int towers)
{
    Built out;
    out.b = std::make_unique<GraphBuilder>(TrainingRegistries::get().ops);
    GraphBuilder& b = *out.b;
    TSTUDIO_TRY(x, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({kBatch, kInputs}), "x"));
    TSTUDIO_TRY(y, ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape({kBatch, 1}), "y"));
    training::GradientDescentOptimizer optimizer(0.2);
    if (towers == 0) {
        TSTUDIO_TRY(loss, mlpLoss(b, x, y));
        TSTUDIO_TRY(train, optimizer.minimize(b, loss));
        out.loss = loss.name();
        out.train = train.name();
    } else {
        std::vector<Output> xs, ys;
        {
            auto cpu = b.device("/device:CPU:0");
            if (!cpu)
                return unexpected(cpu.error());
            TSTUDIO_TRY(axis, ops::constant(b, 0.0, tensorflow::DT_INT32, "split_axis"));
            TSTUDIO_TRY(sx, b.op("Split", {axis, x}, {{"num_split", attr::i(towers)}}));
            TSTUDIO_TRY(sy, b.op("Split", {axis, y}, {{"num_split", attr::i(towers)}}));
            xs = sx.outputs();
            ys = sy.outputs();
        }
        TowerOptions options;
        options.count = towers;
        TSTUDIO_TRY(made, buildTowers(
                              b, options,
                              [&](GraphBuilder& g, int i) {
                                  return mlpLoss(g, xs[static_cast<std::size_t>(i)], ys[static_cast<std::size_t>(i)]);
                              },
                              optimizer));
        auto cpu = b.device("/device:CPU:0");
        if (!cpu)
            return unexpected(cpu.error());
        std::vector<std::vector<training::GradAndVar>> grads;
        std::vector<Output> losses;
        for (const Tower& t : made) {
            grads.push_back(t.gradients);
            losses.push_back(t.loss);
        }
        TSTUDIO_TRY(averaged, averageGradients(b, grads));
        TSTUDIO_TRY(train, optimizer.applyGradients(b, averaged));
        TSTUDIO_TRY(stacked, ops::firstOutput(b.op("Pack", {OpInput(losses)})));
        TSTUDIO_TRY(axes, intConst(b, {0}, "Const"));
        TSTUDIO_TRY(mean, ops::firstOutput(b.op("Mean", {stacked, axes}, {}, "tower_loss")));
        out.loss = mean.name();
        out.train = train.name();
        out.towers = std::move(made);
    }
    TSTUDIO_TRY(init, globalVariablesInitializer(b));
    out.init = init.name();
    return out;
}

Tensor floatTensor(const TensorShape& shape, const std::vector<float>& values)
{
    static CpuAllocator allocator;
    return *Tensor::fromVector(allocator, shape, values);
}

std::unique_ptr<Session> session(const Built& built, int cpus, std::string* error)
{
    SessionOptions options;
    options.ops = &TrainingRegistries::get().ops;
    options.kernels = &TrainingRegistries::get().kernels;
    (*options.config.mutable_device_count())["CPU"] = cpus;
    options.config.set_intra_op_parallelism_threads(1);
    auto s = std::make_unique<Session>(options);
    Status st = s->create(built.b->graphDef());
    std::vector<Tensor> none;
    if (st.isOk())
        st = s->run({}, {}, {built.init}, &none);
    if (!st.isOk()) {
        *error = st.toString();
        return nullptr;
    }
    return s;
}

/// Batch `step` of a regression target the MLP can fit: y = sin(x0) + 0.5 x1 x2 - 0.3 x3.
std::pair<Tensor, Tensor> batch(int step)
{
    std::vector<float> xv, yv;
    for (int r = 0; r < kBatch; ++r) {
        float row[kInputs];
        for (int c = 0; c < kInputs; ++c) {
            row[c] = static_cast<float>(std::sin(0.91 * (step * kBatch + r) + 1.7 * c) * 1.5);
            xv.push_back(row[c]);
        }
        yv.push_back(static_cast<float>(std::sin(row[0]) + 0.5 * row[1] * row[2] - 0.3 * row[3]));
    }
    return {floatTensor(TensorShape({kBatch, kInputs}), xv), floatTensor(TensorShape({kBatch, 1}), yv)};
}

double relDiff(double a, double b)
{
    return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-12});
}

} // namespace

class TestTowers : public QObject {
    Q_OBJECT

private slots:
    /// tower_0/... on /device:CPU:0, tower_1/... on /device:CPU:1, one set of variables on CPU:0,
    /// the gradients under each tower's scope, average_gradients' nodes at the top level.
    void graphStructure()
    {
        auto built = build(2);
        QVERIFY2(built, err(built));
        const GraphBuilder& b = *built->b;
        QCOMPARE(built->towers.size(), std::size_t(2));
        QCOMPARE(built->towers[0].nameScope, std::string("tower_0/"));
        QCOMPARE(built->towers[1].nameScope, std::string("tower_1/"));
        QCOMPARE(built->towers[1].device, std::string("/device:CPU:1"));
        QCOMPARE(built->towers[0].loss.name(), std::string("tower_0/loss:0"));
        QCOMPARE(built->towers[1].loss.name(), std::string("tower_1/loss:0"));
        for (int i = 0; i < 2; ++i) {
            const std::string scope = "tower_" + std::to_string(i) + "/";
            const std::string device = "/device:CPU:" + std::to_string(i);
            for (const char* node : {"MatMul", "Add", "Tanh", "MatMul_1", "Sub", "Square", "loss"}) {
                const tensorflow::NodeDef* def = b.findNode(scope + node);
                QVERIFY2(def, (scope + node).c_str());
                QCOMPARE(def->device(), device);
            }
            // compute_gradients ran inside the tower's scopes.
            const tensorflow::NodeDef* grad = b.findNode(scope + "gradients/" + scope + "MatMul_grad/MatMul_1");
            QVERIFY2(grad, (scope + "gradients/...MatMul_grad/MatMul_1").c_str());
            QCOMPARE(grad->device(), device);
        }
        // One set of variables, on CPU:0, not copied per tower.
        std::set<std::string> variables;
        for (const Variable& v : trainableVariables(b))
            variables.insert(v.name());
        QCOMPARE(variables, (std::set<std::string>{"w1", "b1", "w2", "b2"}));
        int variableNodes = 0;
        for (const tensorflow::NodeDef& node : b.graphDef().node()) {
            if (node.op() == "VariableV2") {
                ++variableNodes;
                QCOMPARE(node.device(), std::string("/device:CPU:0"));
                QVERIFY2(node.name().rfind("tower_", 0) != 0, node.name().c_str());
            }
        }
        QCOMPARE(variableNodes, 4);
        // Both towers read the same variable.
        QCOMPARE(b.findNode("tower_0/MatMul")->input(1), std::string("w1/read"));
        QCOMPARE(b.findNode("tower_1/MatMul")->input(1), std::string("w1/read"));
        // average_gradients: per variable ExpandDims per tower, concat, Mean over axis 0.
        for (const char* node : {"ExpandDims", "ExpandDims_1", "ExpandDims/dim", "concat", "concat/axis", "Mean",
                                 "Mean/reduction_indices", "Mean_3"}) {
            QVERIFY2(b.findNode(node), node);
            QCOMPARE(b.findNode(node)->device(), std::string("/device:CPU:0"));
        }
        QCOMPARE(b.findNode("concat")->op(), std::string("ConcatV2"));
        QCOMPARE(b.findNode("concat")->input(0), std::string("ExpandDims"));
        QCOMPARE(b.findNode("concat")->input(1), std::string("ExpandDims_1"));
        QCOMPARE(b.findNode("Mean")->input(0), std::string("concat"));
        QVERIFY(!b.findNode("Mean_4"));
        // One tower: tf.concat of a single value is an Identity.
        auto one = build(1);
        QVERIFY2(one, err(one));
        QCOMPARE(one->b->findNode("concat")->op(), std::string("Identity"));
        QVERIFY(!one->b->findNode("tower_1/loss"));
    }

    /// Two towers on two CPU devices, each on half of the batch, follow the one-device loss curve
    /// of the whole batch for 200 steps of gradient descent and end at the same variables.
    void twoTowersTrainLikeOneDevice()
    {
        auto plain = build(0);
        QVERIFY2(plain, err(plain));
        auto towers = build(2);
        QVERIFY2(towers, err(towers));
        std::string error;
        auto one = session(*plain, 1, &error);
        QVERIFY2(one, error.c_str());
        auto two = session(*towers, 2, &error);
        QVERIFY2(two, error.c_str());

        // The placement the session made: each tower on its device, the variables on CPU:0.
        QCOMPARE(two->assignedDevice("tower_0/MatMul"), std::optional<std::string>(kCpu0));
        QCOMPARE(two->assignedDevice("tower_1/MatMul"), std::optional<std::string>(kCpu1));
        QCOMPARE(two->assignedDevice("tower_1/gradients/tower_1/MatMul_grad/MatMul_1"),
                 std::optional<std::string>(kCpu1));
        QCOMPARE(two->assignedDevice("w1"), std::optional<std::string>(kCpu0));
        QCOMPARE(two->assignedDevice("w1/read"), std::optional<std::string>(kCpu0));

        double worst = 0, firstLoss = 0, lastLoss = 0;
        for (int step = 0; step < 200; ++step) {
            auto [x, y] = batch(step);
            std::vector<Tensor> a, c;
            tensorflow::RunOptions options;
            if (step == 0)
                options.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
            tensorflow::RunMetadata metadata;
            Status s = one->run({{"x", x}, {"y", y}}, {plain->loss}, {plain->train}, &a);
            QVERIFY2(s.isOk(), s.toString().c_str());
            s = two->run(options, {{"x", x}, {"y", y}}, {towers->loss}, {towers->train}, &c, &metadata);
            QVERIFY2(s.isOk(), s.toString().c_str());
            const double la = a[0].scalar<float>(), lc = c[0].scalar<float>();
            QVERIFY2(
                relDiff(la, lc) <= 1e-5,
                qPrintable(
                    QString("step %1: one device %2, two towers %3").arg(step).arg(la, 0, 'g', 9).arg(lc, 0, 'g', 9)));
            worst = std::max(worst, relDiff(la, lc));
            if (step == 0) {
                firstLoss = la;
                // The step's trace: each device ran its tower's nodes.
                std::map<std::string, std::set<std::string>> ranOn;
                for (const auto& dev : metadata.step_stats().dev_stats())
                    for (const auto& node : dev.node_stats())
                        ranOn[dev.device()].insert(node.node_name());
                QVERIFY(ranOn[kCpu0].count("tower_0/Tanh") == 1 && ranOn[kCpu0].count("tower_1/Tanh") == 0);
                QVERIFY(ranOn[kCpu1].count("tower_1/Tanh") == 1 && ranOn[kCpu1].count("tower_0/Tanh") == 0);
            }
            lastLoss = la;
        }
        qInfo("200 steps: loss %.6f -> %.6f, largest relative difference of the losses %.3g", firstLoss, lastLoss,
              worst);
        QVERIFY2(lastLoss < 0.5 * firstLoss, "the MLP should learn");
        for (const char* v : {"w1", "b1", "w2", "b2"}) {
            const std::vector<double> va = fetchValues(*one, v), vc = fetchValues(*two, v);
            QCOMPARE(va.size(), vc.size());
            QVERIFY(!va.empty());
            // Relative to each element, or for elements near zero to the variable's largest one:
            // the towers sum each half batch's gradient apart, so rounding differs from the first
            // step on and small elements carry it after 200 steps (about 1e-7 here).
            double largest = 0;
            for (double x : va)
                largest = std::max(largest, std::abs(x));
            for (std::size_t i = 0; i < va.size(); ++i)
                QVERIFY2(relDiff(va[i], vc[i]) <= 1e-5 || std::abs(va[i] - vc[i]) <= 1e-6 * largest,
                         qPrintable(QString("%1[%2]: %3 vs %4 (largest %5)")
                                        .arg(v)
                                        .arg(i)
                                        .arg(va[i], 0, 'g', 9)
                                        .arg(vc[i], 0, 'g', 9)
                                        .arg(largest)));
        }
    }

    void badTowerCounts()
    {
        GraphBuilder b(TrainingRegistries::get().ops);
        training::GradientDescentOptimizer optimizer(0.1);
        TowerOptions options;
        options.count = 0;
        auto none = buildTowers(
            b, options, [](GraphBuilder&, int) -> Expected<Output> { return unexpected(internalError("unused")); },
            optimizer);
        QVERIFY(!none);
        QCOMPARE(none.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(none.error().message(), std::string("towers: count must be at least 1, got 0"));

        // The model's error names the tower.
        options.count = 2;
        auto failing = buildTowers(
            b, options,
            [](GraphBuilder&, int i) -> Expected<Output> {
                if (i == 1)
                    return unexpected(invalidArgumentError("no data"));
                return unexpected(invalidArgumentError("first"));
            },
            optimizer);
        QVERIFY(!failing);
        QCOMPARE(failing.error().message(), std::string("tower 0: first"));

        // Towers whose gradients disagree.
        QVERIFY(!averageGradients(b, {}));
        auto w = getVariable(b, "w", TensorShape({2}), tensorflow::DT_FLOAT, Initializer::zeros());
        QVERIFY2(w, err(w));
        auto g = ops::constant(b, std::vector<double>{1, 2}, TensorShape({2}));
        QVERIFY2(g, err(g));
        auto mismatch = averageGradients(b, {{{*g, *w}}, {{std::nullopt, *w}}});
        QVERIFY(!mismatch);
        QCOMPARE(mismatch.error().message(),
                 std::string("average_gradients: tower 1 has no gradient for 'w' but tower 0 has one"));
        auto neither = averageGradients(b, {{{std::nullopt, *w}}, {{std::nullopt, *w}}});
        QVERIFY2(neither, err(neither));
        QVERIFY(!neither->front().first);
    }
};

QTEST_GUILESS_MAIN(TestTowers)
#include "test_towers.moc"
