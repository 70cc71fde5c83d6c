// The weight-gradient sum fusion (runtime/matmul_sum_fusion.h, kernels/linalg/matmul_sum_cpu.h): a
// weight used at four "timesteps" and trained with GradientDescent (tf.gradients' GATE_OP tuples
// between each MatMul's two gradients) has its four MatMul(x_t, grad_t, transpose_a) and their
// AddN (with L2Loss's gradient as a further summand) run as one _FusedMatMulSum node by default, and
// gives the op-by-op values (remapping OFF) within float rounding; a hand-made AddN of products
// (and one further summand) matches a double-precision sum, fetching a product, a lone product or
// two further summands keep it op by op, and wrong shapes fail
// with the op-by-op run's messages.
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "training/gradient_descent.h"
#include "fusion_test_support.h"

#include "kernel_harness.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <random>

using namespace tstudio;
using namespace tstudio::training;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

constexpr int kSteps = 4, kRows = 3, kIn = 6, kOut = 5;

using Feeds = std::vector<std::pair<std::string, Tensor>>;

struct Model {
    explicit Model(const OpRegistry& ops) : b(ops) {}
    GraphBuilder b;
    std::string train, init, loss;
    std::vector<std::string> variables;
};

/// y_t = tanh(v x_t W) for four x_t [3, 6] (placeholders x0..x3), v a scalar, W [6, 5]; loss = sum((sum_t y_t)^2)
/// + 0.1 * L2Loss(W), minimized by GradientDescent.
std::unique_ptr<Model> buildModel()
{
    auto model = std::make_unique<Model>(TrainingRegistries::get().ops);
    GraphBuilder& b = model->b;
    auto w = getVariable(b, "w", TensorShape{kIn, kOut}, tf::DT_FLOAT, Initializer::randomUniform(-0.5, 0.5, 5));
    if (!w)
        return nullptr;
    auto v = getVariable(b, "v", TensorShape::scalar(), tf::DT_FLOAT, Initializer::randomUniform(0.5, 1.5, 6));
    if (!v)
        qFatal("v: %s", v.error().toString().c_str());
    std::optional<Output> total;
    for (int t = 0; t < kSteps; ++t) {
        // x_t scaled by a trained v, so that MatMul's gradient for x_t is needed too.
        auto fed = ops::placeholder(b, tf::DT_FLOAT, TensorShape{kRows, kIn}, "x" + std::to_string(t));
        auto x = fed ? b.op("Mul", {*fed, v->value()}) : unexpected(fed.error());
        auto product = x ? b.op("MatMul", {x->output(0), w->value()}) : unexpected(x.error());
        auto y = product ? b.op("Tanh", {product->output(0)}) : unexpected(product.error());
        if (!y)
            qFatal("timestep %d: %s", t, y.error().toString().c_str());
        auto sum = total ? ops::add(b, *total, y->output(0)) : Expected<Output>(y->output(0));
        if (!sum)
            return nullptr;
        total = *sum;
    }
    auto sq = ops::square(b, *total);
    auto axes = ops::constantInts(b, {0, 1}, {2});
    auto l2 = b.op("L2Loss", {w->value()});
    auto scale = ops::constant(b, 0.1);
    if (!sq || !axes || !l2 || !scale)
        return nullptr;
    auto data = b.op("Sum", {*sq, *axes});
    auto decay = b.op("Mul", {*scale, l2->output(0)});
    if (!data || !decay)
        return nullptr;
    auto loss = ops::add(b, data->output(0), decay->output(0), "loss");
    if (!loss)
        return nullptr;
    GradientDescentOptimizer opt(0.05);
    auto train = opt.minimize(b, *loss);
    auto init = globalVariablesInitializer(b);
    if (!train || !init)
        return nullptr;
    model->train = train->name();
    model->init = init->name();
    model->loss = "loss:0";
    model->variables = variableTensors(b.graphDef());
    return model;
}

std::vector<float> randomValues(std::size_t n, std::uint32_t seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float& f : v)
        f = dist(gen);
    return v;
}

Feeds stepFeeds(int step)
{
    Feeds feeds;
    for (int t = 0; t < kSteps; ++t)
        feeds.push_back({"x" + std::to_string(t) + ":0",
                         tensor<float>(gradientTestAllocator(), TensorShape{kRows, kIn},
                                       randomValues(kRows * kIn, static_cast<std::uint32_t>(100 * step + t)))});
    return feeds;
}

/// A graph of products summed by AddN "s": a_i, b_i placeholders of unknown shape,
/// m_i = MatMul(a_i, b_i, transpose_a=True); the sum's further inputs placeholders c, c_1, ...
tf::GraphDef productsGraph(int products, int extras)
{
    GraphBuilder b(TrainingRegistries::get().ops);
    std::vector<Output> summands;
    for (int i = 0; i < products; ++i) {
        auto a = ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "a" + std::to_string(i));
        auto c = ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "b" + std::to_string(i));
        auto m = b.op("MatMul", {*a, *c}, {{"transpose_a", attr::b(true)}}, "m" + std::to_string(i));
        if (!m)
            qFatal("MatMul: %s", m.error().toString().c_str());
        summands.push_back(m->output(0));
    }
    for (int i = 0; i < extras; ++i)
        summands.push_back(*ops::placeholder(b, tf::DT_FLOAT, TensorShape::unknown(), "c"));
    auto s = b.op("AddN", {OpInput(summands)}, {}, "s");
    if (!s)
        qFatal("AddN: %s", s.error().toString().c_str());
    return b.graphDef();
}

std::unique_ptr<Session> plainSession(const tf::GraphDef& graph, bool remapping)
{
    return remapperSession(graph, "", remapping);
}

Tensor floats(const TensorShape& shape, std::uint32_t seed)
{
    std::size_t n = 1;
    for (int i = 0; i < shape.rank(); ++i)
        n *= static_cast<std::size_t>(shape.dim(i));
    return tensor<float>(gradientTestAllocator(), shape, randomValues(n, seed));
}

} // namespace

class TestMatMulSumFusion : public QObject {
    Q_OBJECT
private slots:
    void fusedTrainingMatchesOpByOp()
    {
        auto model = buildModel();
        QVERIFY(model);
        auto fused = remapperSession(model->b.graphDef(), model->init, true);
        auto plain = remapperSession(model->b.graphDef(), model->init, false);
        for (int i = 0; i < 5; ++i) {
            const Feeds feeds = stepFeeds(i);
            const StepResult f = tracedStep(*fused, feeds, {model->loss}, {model->train});
            const StepResult p = tracedStep(*plain, feeds, {model->loss}, {model->train});
            QVERIFY2(f.status.isOk(), f.status.toString().c_str());
            QVERIFY2(p.status.isOk(), p.status.toString().c_str());
            // The four forward MatMuls and the four input gradients stay; the weight's four
            // gradient products and their AddN run as one node.
            QCOMPARE(countLabels(f.labels, " = _FusedMatMulSum("), 1);
            QCOMPARE(countLabels(p.labels, " = _FusedMatMulSum("), 0);
            QCOMPARE(countLabels(p.labels, " = MatMul("), 3 * kSteps);
            QCOMPARE(countLabels(f.labels, " = MatMul("), 2 * kSteps);
            // GATE_OP's tuples: each MatMul's two gradients pass an Identity that waits on a NoOp
            // waiting on both. The weight gradient's Identity is fused; the input gradient's stays,
            // no longer waiting on the fused node (which runs after it is needed).
            const std::string weightGate = "_grad/tuple/control_dependency_1 = Identity(gradients/MatMul";
            const std::string inputGate = "_grad/tuple/control_dependency = Identity(gradients/MatMul";
            QCOMPARE(countLabels(p.labels, weightGate), kSteps);
            QCOMPARE(countLabels(f.labels, weightGate), 0);
            QCOMPARE(countLabels(p.labels, inputGate), kSteps);
            QCOMPARE(countLabels(f.labels, inputGate), kSteps);
            const std::string d = compareTensors(f.fetched[0], p.fetched[0], 1e-5, 1e-5);
            QVERIFY2(d.empty(), d.c_str());
        }
        std::vector<Tensor> wf, wp;
        QVERIFY(fused->run({}, model->variables, {}, &wf).isOk());
        QVERIFY(plain->run({}, model->variables, {}, &wp).isOk());
        QCOMPARE(wf.size(), std::size_t(2));
        for (std::size_t i = 0; i < wf.size(); ++i) {
            const std::string d = compareTensors(wf[i], wp[i], 1e-5, 1e-5);
            QVERIFY2(d.empty(), (model->variables[i] + ": " + d).c_str());
        }
    }

    /// s = a0^T b0 + a1^T b1 + a2^T b2 + c with each a_i [r_i, 7], b_i [r_i, 9] of different row
    /// counts (one of them none): the fused node gives the double-precision sum within float
    /// rounding, on 1 and 2 threads the same bits.
    void sumMatchesDoublePrecision()
    {
        const tf::GraphDef graph = productsGraph(3, 1);
        auto fused = plainSession(graph, true);
        const int rows[] = {5, 0, 11};
        Feeds feeds;
        std::vector<Tensor> a, b;
        for (int i = 0; i < 3; ++i) {
            a.push_back(floats(TensorShape{rows[i], 7}, static_cast<std::uint32_t>(10 + i)));
            b.push_back(floats(TensorShape{rows[i], 9}, static_cast<std::uint32_t>(20 + i)));
            feeds.push_back({"a" + std::to_string(i) + ":0", a.back()});
            feeds.push_back({"b" + std::to_string(i) + ":0", b.back()});
        }
        const Tensor c = floats(TensorShape{7, 9}, 30);
        feeds.push_back({"c:0", c});
        const StepResult r = tracedStep(*fused, feeds, {"s:0"}, {});
        QVERIFY2(r.status.isOk(), r.status.toString().c_str());
        QCOMPARE(countLabels(r.labels, "s = _FusedMatMulSum("), 1);
        QCOMPARE(countLabels(r.labels, " = MatMul("), 0);
        const Tensor& s = r.fetched[0];
        QCOMPARE(s.shape(), (TensorShape{7, 9}));
        for (int p = 0; p < 7; ++p) {
            for (int q = 0; q < 9; ++q) {
                double expected = c.data<float>()[p * 9 + q];
                double magnitude = std::fabs(expected);
                for (int i = 0; i < 3; ++i)
                    for (int k = 0; k < rows[i]; ++k) {
                        const double term = double(a[static_cast<std::size_t>(i)].data<float>()[k * 7 + p]) *
                                            double(b[static_cast<std::size_t>(i)].data<float>()[k * 9 + q]);
                        expected += term;
                        magnitude += std::fabs(term);
                    }
                const double got = s.data<float>()[p * 9 + q];
                QVERIFY2(std::fabs(got - expected) <= 1e-6 * (1.0 + magnitude),
                         qPrintable(QString("[%1,%2]: got %3, expected %4").arg(p).arg(q).arg(got).arg(expected)));
            }
        }
        auto single = remapperSession(graph, "", true, 1);
        std::vector<Tensor> out;
        QVERIFY(single->run(feeds, {"s:0"}, {}, &out).isOk());
        QCOMPARE(std::memcmp(out[0].data<float>(), s.data<float>(), sizeof(float) * 63), 0);
    }

    /// A product that is fetched must exist, so nothing fuses; a lone product does not fuse.
    void fetchedOrLoneProductsRunOpByOp()
    {
        auto fused = plainSession(productsGraph(2, 0), true);
        Feeds feeds;
        for (int i = 0; i < 2; ++i) {
            feeds.push_back({"a" + std::to_string(i) + ":0", floats(TensorShape{4, 3}, 40 + i)});
            feeds.push_back({"b" + std::to_string(i) + ":0", floats(TensorShape{4, 2}, 50 + i)});
        }
        StepResult r = tracedStep(*fused, feeds, {"s:0", "m1:0"}, {});
        QVERIFY2(r.status.isOk(), r.status.toString().c_str());
        QCOMPARE(countLabels(r.labels, " = _FusedMatMulSum("), 0);
        QCOMPARE(countLabels(r.labels, " = MatMul("), 2);
        r = tracedStep(*fused, feeds, {"s:0"}, {});
        QCOMPARE(countLabels(r.labels, "s = _FusedMatMulSum("), 1);

        auto lone = plainSession(productsGraph(1, 1), true);
        const Feeds loneFeeds{{"a0:0", floats(TensorShape{4, 3}, 60)},
                              {"b0:0", floats(TensorShape{4, 2}, 61)},
                              {"c:0", floats(TensorShape{3, 2}, 62)}};
        r = tracedStep(*lone, loneFeeds, {"s:0"}, {});
        QVERIFY2(r.status.isOk(), r.status.toString().c_str());
        QCOMPARE(countLabels(r.labels, " = _FusedMatMulSum("), 0);

        // Two further summands: the fused node's inputs would not say which are products.
        auto twoExtras = plainSession(productsGraph(2, 2), true);
        Feeds extraFeeds = feeds;
        extraFeeds.push_back({"c:0", floats(TensorShape{3, 2}, 63)});
        extraFeeds.push_back({"c_1:0", floats(TensorShape{3, 2}, 64)});
        r = tracedStep(*twoExtras, extraFeeds, {"s:0"}, {});
        QVERIFY2(r.status.isOk(), r.status.toString().c_str());
        QCOMPARE(countLabels(r.labels, " = _FusedMatMulSum("), 0);
        QCOMPARE(countLabels(r.labels, " = MatMul("), 2);
    }

    /// Shapes a MatMul or the AddN refuses fail the fused node with the op-by-op run's message.
    void wrongShapesFailAsOpByOp_data()
    {
        QTest::addColumn<int>("b1Rows");
        QTest::addColumn<int>("b1Cols");
        QTest::addColumn<QString>("message");
        QTest::newRow("product rows") << 3 << 2 << "Matrix size-incompatible: In[0]: [4,3], In[1]: [3,2]";
        QTest::newRow("sum shapes") << 4 << 5
                                    << "Inputs to operation s of type AddN must have the same size and shape.  "
                                       "Input 0: [3,2] != input 1: [3,5]";
    }
    void wrongShapesFailAsOpByOp()
    {
        QFETCH(int, b1Rows);
        QFETCH(int, b1Cols);
        QFETCH(QString, message);
        const tf::GraphDef graph = productsGraph(2, 0);
        const Feeds feeds{{"a0:0", floats(TensorShape{4, 3}, 70)},
                          {"b0:0", floats(TensorShape{4, 2}, 71)},
                          {"a1:0", floats(TensorShape{4, 3}, 72)},
                          {"b1:0", floats(TensorShape{b1Rows, b1Cols}, 73)}};
        for (bool remapping : {true, false}) {
            auto s = plainSession(graph, remapping);
            std::vector<Tensor> out;
            const Status status = s->run(feeds, {"s:0"}, {}, &out);
            QVERIFY(!status.isOk());
            QCOMPARE(status.code(), StatusCode::kInvalidArgument);
            QVERIFY2(QString::fromStdString(status.message()).contains(message), status.toString().c_str());
            if (b1Rows == 3) // the failing MatMul is named either way
                QVERIFY2(QString::fromStdString(status.message()).contains("m1"), status.toString().c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestMatMulSumFusion)
#include "test_matmul_sum_fusion.moc"
