// DivNoNan's gradient (TensorFlow 1.15's _DivNoNanGrad): central differences away from y == 0 for
// several broadcasting shapes, the closed-form values where y == 0 (both gradients 0 there), and
// the nodes math_grad.py builds (div_no_nan, div_no_nan_1, div_no_nan_2 named after their scope).
#include "autodiff/gradient_checker.h"
#include "autodiff/gradients.h"
#include "builder/ops_sugar.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace tstudio;
namespace tf = tensorflow;

namespace {

CpuAllocator& allocator()
{
    static CpuAllocator a;
    return a;
}

Tensor filled(DataType dtype, const TensorShape& shape, double first, double step)
{
    const auto n = static_cast<int>(*shape.numElements());
    Tensor t = *Tensor::allocate(allocator(), dtype, shape);
    for (int i = 0; i < n; ++i) {
        const double v = first + step * (i % 5);
        if (dtype == tf::DT_FLOAT)
            t.values<float>()[static_cast<std::size_t>(i)] = static_cast<float>(v);
        else
            t.values<double>()[static_cast<std::size_t>(i)] = v;
    }
    return t;
}

Expected<Output> divNoNan(GraphBuilder& b, const Output& x, const Output& y, std::string_view name = {})
{
    auto op = b.op("DivNoNan", {x, y}, {}, name);
    if (!op)
        return unexpected(op.error());
    return op->output(0);
}

std::vector<std::string> inputsOf(const GraphBuilder& b, const std::string& node)
{
    const tf::NodeDef* def = b.findNode(node);
    return def ? std::vector<std::string>(def->input().begin(), def->input().end())
               : std::vector<std::string>{"<no node " + node + ">"};
}

std::string opOf(const GraphBuilder& b, const std::string& node)
{
    const tf::NodeDef* def = b.findNode(node);
    return def ? def->op() : "<no node " + node + ">";
}

} // namespace

class TestDivNoNanGrad : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    Status run(const GraphBuilder& b, const std::vector<std::string>& fetches, std::vector<Tensor>* out)
    {
        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        Session session(options);
        Status s = session.create(b.graphDef());
        if (s.isOk())
            s = session.run({}, fetches, {}, out);
        return s;
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, registries ? "" : registries.error().toString().c_str());
        m_registries = std::move(*registries);
    }

    void finiteDifferencesAwayFromZero()
    {
        const std::vector<std::pair<TensorShape, TensorShape>> shapes = {{{2, 3}, {2, 3}},
                                                                         {{2, 3}, {3}},
                                                                         {{2, 1}, {1, 3}},
                                                                         {TensorShape::scalar(), {2, 3}},
                                                                         {{2, 3}, TensorShape::scalar()}};
        for (DataType dtype : {tf::DT_FLOAT, tf::DT_DOUBLE}) {
            const bool isDouble = dtype == tf::DT_DOUBLE;
            for (const auto& [sx, sy] : shapes) {
                GradientCheckOptions options;
                options.delta = isDouble ? 1e-6 : 1e-3;
                // x in [-1.1, 0.9], y in [0.6, 1.6]: far from y == 0, where DivNoNan jumps.
                auto error = computeGradientError(
                    m_registries->ops, m_registries->kernels,
                    {filled(dtype, sx, -1.1, 0.5), filled(dtype, sy, 0.6, 0.25)},
                    [](GraphBuilder& b, const std::vector<Output>& x) { return divNoNan(b, x[0], x[1]); }, options);
                const QString name =
                    QString::fromStdString(sx.toString() + " / " + sy.toString() + " " + dataTypeName(dtype));
                QVERIFY2(error,
                         qPrintable(name + ": " + QString::fromStdString(error ? "" : error.error().toString())));
                QVERIFY2(*error < (isDouble ? 1e-6 : 1e-3), qPrintable(name + ": " + QString::number(*error)));
            }
        }
    }

    void zeroDivisorsGetZeroGradients()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::constant(b, {1, 2, 3, 4, 5, 6}, {2, 3}, tf::DT_FLOAT, "x");
        auto y = ops::constant(b, {2, 0, -4}, {3}, tf::DT_FLOAT, "y");
        QVERIFY(x && y);
        auto z = divNoNan(b, *x, *y);
        QVERIFY2(z, z ? "" : z.error().toString().c_str());
        auto grads = addSymbolicGradients(b, {*z}, {*x, *y});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        std::vector<Tensor> out;
        const Status ran = run(b, {(*grads)[0]->name(), (*grads)[1]->name()}, &out);
        QVERIFY2(ran.isOk(), ran.toString().c_str());
        QCOMPARE(out.size(), std::size_t(2));
        auto gx = out[0].values<float>();
        auto gy = out[1].values<float>();
        // d/dx = div_no_nan(1, y); d/dy = sum over rows of div_no_nan(div_no_nan(-x, y), y).
        QCOMPARE(std::vector<float>(gx.begin(), gx.end()), (std::vector<float>{0.5f, 0, -0.25f, 0.5f, 0, -0.25f}));
        QCOMPARE(std::vector<float>(gy.begin(), gy.end()),
                 (std::vector<float>{-(1.0f + 4.0f) / 4.0f, 0, -(3.0f + 6.0f) / 16.0f}));
    }

    void nodesAsTensorFlow()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2, 3}, "x");
        auto y = ops::placeholder(b, tf::DT_FLOAT, {3}, "y");
        QVERIFY(x && y);
        auto z = divNoNan(b, *x, *y);
        QVERIFY2(z, z ? "" : z.error().toString().c_str());
        QCOMPARE(z->name(), std::string("DivNoNan:0"));
        auto grads = addSymbolicGradients(b, {*z}, {*x, *y});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        const std::string s = "gradients/DivNoNan_grad/";
        QCOMPARE(opOf(b, s + "BroadcastGradientArgs"), std::string("BroadcastGradientArgs"));
        QCOMPARE(opOf(b, s + "div_no_nan"), std::string("DivNoNan"));
        QCOMPARE(inputsOf(b, s + "div_no_nan"), (std::vector<std::string>{"gradients/Fill", "y"}));
        QCOMPARE(inputsOf(b, s + "Sum"), (std::vector<std::string>{s + "div_no_nan", s + "BroadcastGradientArgs"}));
        QCOMPARE(inputsOf(b, s + "Neg"), (std::vector<std::string>{"x"}));
        QCOMPARE(inputsOf(b, s + "div_no_nan_1"), (std::vector<std::string>{s + "Neg", "y"}));
        QCOMPARE(inputsOf(b, s + "div_no_nan_2"), (std::vector<std::string>{s + "div_no_nan_1", "y"}));
        QCOMPARE(inputsOf(b, s + "mul"), (std::vector<std::string>{"gradients/Fill", s + "div_no_nan_2"}));
        QCOMPARE(opOf(b, s + "Reshape_1"), std::string("Reshape"));
        // tf.gradients does not gate: the Reshapes themselves are the gradients.
        QCOMPARE((*grads)[0]->name(), s + "Reshape:0");
        QCOMPARE((*grads)[1]->name(), s + "Reshape_1:0");
        QCOMPARE(inputsOf(b, s + "Reshape_1"), (std::vector<std::string>{s + "Sum_1", s + "Shape_1"}));
    }
};

QTEST_GUILESS_MAIN(TestDivNoNanGrad)
#include "test_div_no_nan_grad.moc"
