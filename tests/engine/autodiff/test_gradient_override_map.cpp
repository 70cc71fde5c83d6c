// Tests for Graph.gradient_override_map and tf.RegisterGradient (GraphBuilder::gradientOverrideMap,
// registerGradient): the "_gradient_op_type" attr on mapped ops only, nested maps restored, a
// registered gradient used by tf.gradients (Square's gradient replaced: 3x instead of 2x), the
// straight-through estimator {"Floor": "Identity"}, and the errors.
#include "autodiff/gradient_context.h"
#include "autodiff/gradients.h"
#include "builder/ops_sugar.h"
#include "builder/python_ops.h"
#include "graph_run.h"
#include "model_test_support.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

std::string gradientType(const GraphBuilder& b, const std::string& node)
{
    const tf::NodeDef* def = b.findNode(node);
    if (!def)
        return "<no node>";
    const auto it = def->attr().find("_gradient_op_type");
    return it == def->attr().end() ? std::string() : it->second.s();
}

} // namespace

class TestGradientOverrideMap : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, err(registries));
        m_registries = std::move(*registries);
    }

    void mappedOpsCarryTheAttr()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::constant(b, {1.0, 2.0}, TensorShape{2}, tf::DT_FLOAT, "x");
        QVERIFY(x);
        {
            auto outer = b.gradientOverrideMap({{"Square", "CustomSquare"}, {"Floor", "Identity"}});
            QVERIFY(ops::square(b, *x, "sq"));
            {
                auto inner = b.gradientOverrideMap({{"Square", "OtherSquare"}});
                QVERIFY(ops::square(b, *x, "sq_inner"));
                QVERIFY(py::genOp(b, "Floor", {*x}, {}, "floor_inner"));
            }
            QVERIFY(ops::square(b, *x, "sq_after"));
            QVERIFY(ops::sqrt(b, *x, "root"));
        }
        QVERIFY(ops::square(b, *x, "sq_outside"));
        QCOMPARE(gradientType(b, "sq"), std::string("CustomSquare"));
        QCOMPARE(gradientType(b, "sq_inner"), std::string("OtherSquare"));
        QCOMPARE(gradientType(b, "floor_inner"), std::string("Identity"));
        QCOMPARE(gradientType(b, "sq_after"), std::string("CustomSquare"));
        QCOMPARE(gradientType(b, "root"), std::string());
        QCOMPARE(gradientType(b, "sq_outside"), std::string());
    }

    void aRegisteredGradientReplacesTheOps()
    {
        GraphBuilder b(m_registries->ops);
        // d/dx x^2 computed as 3x, so the override is visible.
        QVERIFY(b.registerGradient("CustomSquare", [](GradientContext& ctx) -> Status {
                     GraphBuilder& g = ctx.builder();
                     auto grad = ctx.grad(0);
                     if (!grad)
                         return grad.error();
                     auto three = ops::constant(g, 3.0, tf::DT_FLOAT, "three");
                     auto scaled = ops::mul(g, *three, ctx.input(0), "scaled");
                     auto product = ops::mul(g, *grad, *scaled, "product");
                     if (!three || !scaled || !product)
                         return internalError("custom gradient ops");
                     return ctx.setInputGradient(0, *product);
                 }).isOk());
        auto again = b.registerGradient("CustomSquare", [](GradientContext&) { return Status::ok(); });
        QCOMPARE(again.code(), StatusCode::kAlreadyExists);
        auto x = ops::constant(b, {1.0, 2.0}, TensorShape{2}, tf::DT_FLOAT, "x");
        QVERIFY(x);
        std::optional<Output> custom;
        {
            auto map = b.gradientOverrideMap({{"Square", "CustomSquare"}});
            auto sq = ops::square(b, *x, "sq");
            QVERIFY(sq);
            custom = *sq;
        }
        auto plain = ops::square(b, *x, "plain");
        QVERIFY(plain);
        auto grads = addSymbolicGradients(b, {*custom}, {*x});
        auto plainGrads = addSymbolicGradients(b, {*plain}, {*x});
        QVERIFY2(grads && plainGrads, grads ? err(plainGrads) : err(grads));
        auto out = runGraph(*m_registries, b, {}, {(*grads)[0]->name(), (*plainGrads)[0]->name()});
        QVERIFY2(out, err(out));
        QCOMPARE(floatValuesOf((*out)[0]), (std::vector<float>{3, 6}));
        QCOMPARE(floatValuesOf((*out)[1]), (std::vector<float>{2, 4}));
    }

    void straightThroughEstimator()
    {
        // Floor has no gradient to pass (TensorFlow's is None); mapped to Identity's it passes the
        // incoming gradient through unchanged.
        GraphBuilder b(m_registries->ops);
        auto x = ops::constant(b, {0.4, 1.7, -2.2}, TensorShape{3}, tf::DT_FLOAT, "x");
        QVERIFY(x);
        Output floored;
        {
            auto map = b.gradientOverrideMap({{"Floor", "Identity"}});
            auto f = py::genOp(b, "Floor", {*x}, {}, "floor");
            QVERIFY(f);
            floored = *f;
        }
        auto doubled = ops::mul(b, floored, *ops::constant(b, 2.0, tf::DT_FLOAT, "two"), "doubled");
        QVERIFY(doubled);
        auto grads = addSymbolicGradients(b, {*doubled}, {*x});
        QVERIFY2(grads && (*grads)[0], err(grads));
        auto out = runGraph(*m_registries, b, {}, {(*grads)[0]->name(), floored.name()});
        QVERIFY2(out, err(out));
        QCOMPARE(floatValuesOf((*out)[0]), (std::vector<float>{2, 2, 2}));
        QCOMPARE(floatValuesOf((*out)[1]), (std::vector<float>{0, 1, -3}));
    }

    void anUnknownGradientNameIsTensorFlowsLookupError()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::constant(b, {1.0}, TensorShape{1}, tf::DT_FLOAT, "x");
        QVERIFY(x);
        std::optional<Output> sq;
        {
            auto map = b.gradientOverrideMap({{"Square", "NoSuchGradient"}});
            auto made = ops::square(b, *x, "sq");
            QVERIFY(made);
            sq = *made;
        }
        auto grads = addSymbolicGradients(b, {*sq}, {*x});
        QVERIFY(!grads);
        QCOMPARE(grads.error().message(), std::string("No gradient defined for operation 'sq' (op type: Square)"));
        QCOMPARE(b.registerGradient("Empty", {}).code(), StatusCode::kInvalidArgument);
    }
};

QTEST_GUILESS_MAIN(TestGradientOverrideMap)
#include "test_gradient_override_map.moc"
