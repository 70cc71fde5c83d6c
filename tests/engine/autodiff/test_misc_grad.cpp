// The gradients of products (Prod, Cumprod), of tf.cond's Switch and Merge, of ReadVariableOp and
// the state family's not-differentiable registrations: central differences (float32 < 1e-3,
// float64 < 1e-6), the node names and ops TensorFlow 1.15's Python builds, and values computed by hand.
#include "autodiff/gradients.h"
#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "gradient_test_support.h"
#include "graph_run.h"
#include "runtime/session.h"

#include <QtTest>

#include <algorithm>
#include <functional>

using namespace tstudio;
using testing::filled;
using testing::GradientChecks;
using testing::gradientTestAllocator;
using testing::inputsOf;
using testing::opOf;
using testing::runGraph;
namespace tf = tensorflow;

namespace {

/// Signed values away from 0 and from each other, with magnitudes near 1 (products stay moderate).
double signedValues(int i)
{
    static const double v[] = {-1.3, 0.8, -0.7, 1.1, 0.9, -1.2, 1.25, -0.85};
    return v[i % 8];
}

/// The same with an exact zero at index 5: Prod's gradient must not divide by it.
double withZero(int i)
{
    return i == 5 ? 0.0 : signedValues(i);
}

double positiveValues(int i)
{
    return 0.6 + 0.13 * (i % 7);
}

Expected<Output> out0(Expected<Operation> op)
{
    return ops::firstOutput(std::move(op));
}

Expected<Output> boolConstant(GraphBuilder& b, bool value, std::string_view name)
{
    tf::TensorProto proto;
    proto.set_dtype(tf::DT_BOOL);
    proto.mutable_tensor_shape();
    proto.add_bool_val(value);
    return ops::constant(b, proto, name);
}

/// The graph tf.cond(pred, lambda: x * x, lambda: x * 3.0) * x builds (cond/Switch on the predicate,
/// the pivots switch_t and switch_f, pred_id, one Switch per branch for x, the branch ops, the Merge).
Expected<Output> condGraph(GraphBuilder& b, const Output& x, bool predicate)
{
    TSTUDIO_AD_TRY(pred, boolConstant(b, predicate, "pred"));
    TSTUDIO_AD_TRY(scope, b.nameScope("cond"));
    TSTUDIO_AD_TRY(pivotSwitch, b.op("Switch", {pred, pred}));
    TSTUDIO_AD_TRY(switchT, out0(b.op("Identity", {pivotSwitch.output(1)}, {}, "switch_t")));
    TSTUDIO_AD_TRY(switchF, out0(b.op("Identity", {pivotSwitch.output(0)}, {}, "switch_f")));
    TSTUDIO_AD_TRY(predId, out0(b.op("Identity", {pred}, {}, "pred_id")));
    TSTUDIO_AD_TRY(xTrue, b.op("Switch", {x, predId}));
    TSTUDIO_AD_TRY(t, ops::mul(b, xTrue.output(1), xTrue.output(1), "mul"));
    TSTUDIO_AD_TRY(xFalse, b.op("Switch", {x, predId}));
    Output three;
    {
        TSTUDIO_AD_TRY(producer, b.operation(switchF.node()));
        auto deps = b.controlDependencies({producer});
        TSTUDIO_AD_TRY(c, ops::constant(b, 3.0, x.baseDtype(), "mul_1/y"));
        three = c;
    }
    (void)switchT;
    TSTUDIO_AD_TRY(f, ops::mul(b, xFalse.output(0), three, "mul_1"));
    TSTUDIO_AD_TRY(merged, out0(b.op("Merge", {std::vector<Output>{f, t}})));
    scope.close();
    return ops::mul(b, merged, x, "y");
}

/// A cond branch: its value from the branch side of x, the branch's pivot and the cond's pred_id.
using Branch =
    std::function<Expected<Output>(GraphBuilder&, const Output& x, const Output& pivot, const Output& predId)>;

/// tf.cond(pred, t, f) of one outer tensor x, as condGraph builds it, in a new name scope "cond".
Expected<Output> buildCond(GraphBuilder& b, const Output& pred, const Output& x, const Branch& t, const Branch& f)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("cond"));
    TSTUDIO_AD_TRY(pivotSwitch, b.op("Switch", {pred, pred}));
    TSTUDIO_AD_TRY(switchT, out0(b.op("Identity", {pivotSwitch.output(1)}, {}, "switch_t")));
    TSTUDIO_AD_TRY(switchF, out0(b.op("Identity", {pivotSwitch.output(0)}, {}, "switch_f")));
    TSTUDIO_AD_TRY(predId, out0(b.op("Identity", {pred}, {}, "pred_id")));
    TSTUDIO_AD_TRY(xTrue, b.op("Switch", {x, predId}));
    TSTUDIO_AD_TRY(tv, t(b, xTrue.output(1), switchT, predId));
    TSTUDIO_AD_TRY(xFalse, b.op("Switch", {x, predId}));
    TSTUDIO_AD_TRY(fv, f(b, xFalse.output(0), switchF, predId));
    return out0(b.op("Merge", {std::vector<Output>{fv, tv}}));
}

/// x * value, the constant guarded by the branch pivot (as constants made inside a cond branch are).
Expected<Output> scaled(GraphBuilder& b, const Output& x, double value, const Output& pivot)
{
    TSTUDIO_AD_TRY(producer, b.operation(pivot.node()));
    auto deps = b.controlDependencies({producer});
    TSTUDIO_AD_TRY(c, ops::constant(b, value, x.baseDtype()));
    return ops::mul(b, x, c);
}

} // namespace

class TestMiscGrad : public QObject {
    Q_OBJECT

private:
    GradientChecks m_checks;

    void check(const QString& name, const std::vector<Tensor>& xs, const GradientCheckGraph& build)
    {
        m_checks.check(name, xs, build);
    }

    static std::vector<float> floatsOf(const Tensor& t)
    {
        auto v = t.values<float>();
        return {v.begin(), v.end()};
    }

private slots:
    void initTestCase()
    {
        const std::string error = m_checks.start();
        QVERIFY2(error.empty(), error.c_str());
    }

    void init() { m_checks.failures.clear(); }

    void prodByFiniteDifferences()
    {
        struct Case {
            std::vector<std::int64_t> axes;
            bool scalarAxis;
            bool keepDims;
        };
        const std::vector<Case> cases = {{{1}, false, false}, {{1}, true, false},        {{0, 2}, false, false},
                                         {{-1}, true, true},  {{0, 1, 2}, false, false}, {{2, 0}, false, true},
                                         {{}, false, false}};
        for (DataType dtype : {tf::DT_FLOAT, tf::DT_DOUBLE}) {
            for (double (*values)(int) : {&signedValues, &withZero}) {
                for (const Case& c : cases) {
                    QString axes;
                    for (auto a : c.axes)
                        axes += QString::number(a) + ",";
                    const QString name = QStringLiteral("Prod [2,3,4] axes [%1]%2%3%4 %5")
                                             .arg(axes, c.scalarAxis ? " scalar" : "", c.keepDims ? " keep_dims" : "",
                                                  values == &withZero ? " with a zero" : "",
                                                  QString::fromStdString(dataTypeName(dtype)));
                    check(name, {filled(dtype, {2, 3, 4}, *values)},
                          [&c](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                              TSTUDIO_AD_TRY(axesT,
                                             ops::constantInts(
                                                 b, c.axes,
                                                 c.scalarAxis ? TensorShape::scalar()
                                                              : TensorShape{static_cast<std::int64_t>(c.axes.size())}));
                              return out0(b.op("Prod", {x[0], axesT}, {{"keep_dims", attr::b(c.keepDims)}}));
                          });
                }
            }
        }
        // An input whose shape is known only when the graph runs.
        check("Prod of a placeholder of unknown shape", {filled(tf::DT_FLOAT, {3, 2}, withZero)},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(unknown, out0(b.op("Reshape", {x[0], *ops::constantInts(b, {-1, 2}, {2})})));
                  TSTUDIO_AD_TRY(hidden, out0(b.op("PlaceholderWithDefault", {unknown},
                                                   {{"shape", attr::shape(TensorShape::unknown())}})));
                  TSTUDIO_AD_TRY(axesT, ops::constantInts(b, {0}, {1}));
                  return out0(b.op("Prod", {hidden, axesT}));
              });
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    /// The ops and names of TensorFlow 1.15's _ProdGrad, and the gradient of each row's product by hand.
    void prodGraphAndValues()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2, 3}, "x");
        QVERIFY(x);
        auto axes = ops::constantInts(b, {1}, TensorShape{1}, tf::DT_INT32, "axes");
        QVERIFY(axes);
        auto y = out0(b.op("Prod", {*x, *axes}));
        QVERIFY(y);
        auto grads = addSymbolicGradients(b, {*y}, {*x});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        QVERIFY((*grads)[0]);
        QCOMPARE((*grads)[0]->node(), std::string("gradients/Prod_grad/Reshape_4"));
        const std::string g = "gradients/Prod_grad/";
        QCOMPARE(opOf(b, g + "ListDiff"), std::string("ListDiff"));
        QCOMPARE(b.findNode(g + "ListDiff")->device(), std::string("/device:CPU:0"));
        QCOMPARE(inputsOf(b, g + "ListDiff"), (std::vector<std::string>{g + "range_1", g + "mod_1"}));
        QCOMPARE(inputsOf(b, g + "concat"), (std::vector<std::string>{g + "mod_1", g + "ListDiff", g + "concat/axis"}));
        QCOMPARE(inputsOf(b, g + "Reshape_2/shape"), (std::vector<std::string>{g + "Prod", g + "Prod_1"}));
        QCOMPARE(opOf(b, g + "Reshape_2/shape"), std::string("Pack"));
        QCOMPARE(inputsOf(b, g + "GatherV2_1"),
                 (std::vector<std::string>{g + "Shape", g + "ListDiff", g + "GatherV2_1/axis"}));
        QCOMPARE(inputsOf(b, g + "transpose"), (std::vector<std::string>{"x", g + "concat"}));
        QCOMPARE(inputsOf(b, g + "Cumprod"), (std::vector<std::string>{g + "Reshape_2", g + "Cumprod/axis"}));
        QCOMPARE(b.findNode(g + "Cumprod_1")->attr().at("reverse").b(), true);
        QCOMPARE(b.findNode(g + "Cumprod_1")->attr().at("exclusive").b(), true);
        QCOMPARE(inputsOf(b, g + "mul"), (std::vector<std::string>{g + "Cumprod", g + "Cumprod_1"}));
        QCOMPARE(inputsOf(b, g + "transpose_1"), (std::vector<std::string>{g + "Reshape_3", g + "InvertPermutation"}));
        QCOMPARE(inputsOf(b, g + "mul_1"), (std::vector<std::string>{g + "Tile", g + "transpose_1"}));

        const Tensor xv = *Tensor::fromVector<float>(gradientTestAllocator(), TensorShape{2, 3}, {1, 2, 3, 4, 0, 5});
        auto out = runGraph(m_checks.registries(), b, {{"x", xv}}, {(*grads)[0]->name()});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        // d(x0 x1 x2)/dxi is the product of the other two: [6, 3, 2] and, with the zero, [0, 20, 0].
        QCOMPARE(floatsOf((*out)[0]), (std::vector<float>{6, 3, 2, 0, 20, 0}));
    }

    /// TensorFlow adds the int32 rank to the reduction indices, so int64 indices fail; so do we, clearly.
    void prodWithInt64AxesIsRefused()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2, 3}, "x");
        auto axes = ops::constantInts(b, {1}, TensorShape{1}, tf::DT_INT64, "axes");
        QVERIFY(x && axes);
        auto y = out0(b.op("Prod", {*x, *axes}));
        QVERIFY(y);
        auto grads = addSymbolicGradients(b, {*y}, {*x});
        QVERIFY(!grads);
        QCOMPARE(grads.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(grads.error().message().find("requested dtype int64") != std::string::npos,
                 grads.error().toString().c_str());
    }

    void cumprodByFiniteDifferences()
    {
        for (DataType dtype : {tf::DT_FLOAT, tf::DT_DOUBLE}) {
            for (std::int64_t axis : {0, 1, -1}) {
                for (bool exclusive : {false, true}) {
                    for (bool reverse : {false, true}) {
                        const QString name = QStringLiteral("Cumprod [3,4] axis %1%2%3 %4")
                                                 .arg(axis)
                                                 .arg(exclusive ? " exclusive" : "", reverse ? " reverse" : "",
                                                      QString::fromStdString(dataTypeName(dtype)));
                        check(name, {filled(dtype, {3, 4}, positiveValues)},
                              [=](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                                  TSTUDIO_AD_TRY(a, ops::constantInts(b, {axis}, TensorShape::scalar()));
                                  return out0(b.op("Cumprod", {x[0], a},
                                                   {{"exclusive", attr::b(exclusive)}, {"reverse", attr::b(reverse)}}));
                              });
                    }
                }
            }
        }
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    void cumprodGraph()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{3}, "x");
        auto axis = ops::constantInts(b, {0}, TensorShape::scalar(), tf::DT_INT32, "axis");
        QVERIFY(x && axis);
        auto y = out0(b.op("Cumprod", {*x, *axis}, {{"reverse", attr::b(true)}}));
        QVERIFY(y);
        auto grads = addSymbolicGradients(b, {*y}, {*x});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        const std::string g = "gradients/Cumprod_grad/";
        QCOMPARE((*grads)[0]->node(), g + "truediv");
        QCOMPARE(inputsOf(b, g + "Cumsum"), (std::vector<std::string>{g + "mul", "axis"}));
        QCOMPARE(b.findNode(g + "Cumsum")->attr().at("reverse").b(), false);
        QCOMPARE(b.findNode(g + "Cumprod")->attr().at("reverse").b(), true);
        const Tensor xv = *Tensor::fromVector<float>(gradientTestAllocator(), TensorShape{3}, {2, 3, 4});
        auto out = runGraph(m_checks.registries(), b, {{"x", xv}}, {(*grads)[0]->name()});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        // y = [x0 x1 x2, x1 x2, x2]: dy/dx0 = x1 x2 = 12, dx1 = x0 x2 + x2 = 12, dx2 = x0 x1 + x1 + 1 = 10.
        QCOMPARE(floatsOf((*out)[0]), (std::vector<float>{12, 12, 10}));
    }

    /// Gradients through both branches of a cond, and the Switch / Merge TensorFlow builds for them.
    void condByFiniteDifferences()
    {
        for (bool predicate : {true, false}) {
            for (DataType dtype : {tf::DT_FLOAT, tf::DT_DOUBLE}) {
                check(QStringLiteral("cond, %1 branch, %2")
                          .arg(predicate ? "true" : "false", QString::fromStdString(dataTypeName(dtype))),
                      {filled(dtype, {2, 3}, signedValues)},
                      [predicate](GraphBuilder& b, const std::vector<Output>& x) {
                          return condGraph(b, x[0], predicate);
                      });
            }
        }
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    void condGraphAndValues()
    {
        for (bool predicate : {true, false}) {
            GraphBuilder b(m_checks.registries().ops);
            auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{3}, "x");
            QVERIFY(x);
            auto y = condGraph(b, *x, predicate);
            QVERIFY2(y, y ? "" : y.error().toString().c_str());
            auto grads = addSymbolicGradients(b, {*y}, {*x});
            QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
            const std::string mergeGrad = "gradients/cond/Merge_grad/cond_grad";
            QCOMPARE(opOf(b, mergeGrad), std::string("Switch"));
            QCOMPARE(inputsOf(b, mergeGrad), (std::vector<std::string>{"gradients/y_grad/Mul", "cond/pred_id"}));
            QCOMPARE(opOf(b, "gradients/cond/Switch_1_grad/cond_grad"), std::string("Merge"));
            QCOMPARE(opOf(b, "gradients/cond/Switch_2_grad/cond_grad"), std::string("Merge"));
            const Tensor xv = *Tensor::fromVector<float>(gradientTestAllocator(), TensorShape{3}, {1, -2, 0.5});
            auto out = runGraph(m_checks.registries(), b, {{"x", xv}}, {(*grads)[0]->name()});
            QVERIFY2(out, out ? "" : out.error().toString().c_str());
            // true: y = x^3, dy/dx = 3x^2; false: y = 3x^2, dy/dx = 6x.
            const std::vector<float> expected =
                predicate ? std::vector<float>{3, 12, 0.75f} : std::vector<float>{6, -12, 3};
            QCOMPARE(floatsOf((*out)[0]), expected);
        }
    }

    /// A cond inside the false branch of another (the Merge's first input, where the predicate search
    /// starts): each Merge finds its own cond's predicate, the inner Merge/Switch pair skipped on the way
    /// back; every branch combination by central differences.
    void nestedCondByFiniteDifferences()
    {
        for (bool outer : {true, false}) {
            for (bool inner : {true, false}) {
                check(
                    QStringLiteral("nested cond, outer %1, inner %2").arg(outer).arg(inner),
                    {filled(tf::DT_DOUBLE, {3}, signedValues)},
                    [=](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                        TSTUDIO_AD_TRY(p1, boolConstant(b, outer, "p1"));
                        TSTUDIO_AD_TRY(p2, boolConstant(b, inner, "p2"));
                        const Branch innerCond = [&](GraphBuilder& g, const Output& xf, const Output&,
                                                     const Output& predId) -> Expected<Output> {
                            // The inner predicate is an outer tensor: it enters the branch through a Switch.
                            TSTUDIO_AD_TRY(p2Switch, g.op("Switch", {p2, predId}));
                            return buildCond(
                                g, p2Switch.output(0), xf,
                                [](GraphBuilder& h, const Output& v, const Output&, const Output&) -> Expected<Output> {
                                    TSTUDIO_AD_TRY(square, ops::mul(h, v, v));
                                    return ops::mul(h, v, square);
                                },
                                [](GraphBuilder& h, const Output& v, const Output& pivot, const Output&) {
                                    return scaled(h, v, 5.0, pivot);
                                });
                        };
                        const Branch outerTrue = [](GraphBuilder& g, const Output& xt, const Output& pivot,
                                                    const Output&) { return scaled(g, xt, -2.0, pivot); };
                        TSTUDIO_AD_TRY(merged, buildCond(b, p1, x[0], outerTrue, innerCond));
                        return ops::mul(b, merged, x[0]);
                    });
            }
        }
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
    }

    /// A Switch whose two outputs are both used (outside a cond): each gradient passes on its own side.
    void switchOutsideACond()
    {
        for (bool predicate : {true, false}) {
            check(QStringLiteral("both outputs of a Switch, %1").arg(predicate ? "true" : "false"),
                  {filled(tf::DT_FLOAT, {4}, signedValues)},
                  [predicate](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                      TSTUDIO_AD_TRY(pred, boolConstant(b, predicate, "pred"));
                      TSTUDIO_AD_TRY(sw, b.op("Switch", {x[0], pred}));
                      TSTUDIO_AD_TRY(two, ops::constant(b, 2.0));
                      TSTUDIO_AD_TRY(f, ops::mul(b, sw.output(0), two));
                      TSTUDIO_AD_TRY(t, ops::mul(b, sw.output(1), sw.output(1)));
                      return out0(b.op("Merge", {std::vector<Output>{f, t}}));
                  });
        }
        QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n')));
        GraphBuilder b(m_checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x");
        auto pred = boolConstant(b, true, "pred");
        QVERIFY(x && pred);
        auto sw = b.op("Switch", {*x, *pred});
        QVERIFY(sw);
        auto m = b.op("Merge", {std::vector<Output>{sw->output(0), sw->output(1)}});
        QVERIFY(m);
        auto grads = addSymbolicGradients(b, {m->output(0)}, {*x});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        QCOMPARE((*grads)[0]->node(), std::string("gradients/Switch_grad/Merge"));
        QCOMPARE(inputsOf(b, "gradients/Switch_grad/Merge"),
                 (std::vector<std::string>{"gradients/Switch_grad/Switch", "gradients/Switch_grad/Switch_1:1"}));
    }

    /// A Merge of tensors that no Switch guards: input i gets the gradient when value_index == i, and
    /// the other input's gradient is dead (as in TensorFlow, where fetching it fails the same way).
    void mergeOutsideACond()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto x1 = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x1");
        auto x2 = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x2");
        auto two = ops::constant(b, 2.0);
        auto five = ops::constant(b, 5.0);
        QVERIFY(x1 && x2 && two && five);
        auto a = ops::mul(b, *x1, *two, "a");
        auto c = ops::mul(b, *x2, *five, "c");
        QVERIFY(a && c);
        auto m = b.op("Merge", {std::vector<Output>{*a, *c}});
        QVERIFY(m);
        auto grads = addSymbolicGradients(b, {m->output(0)}, {*x1, *x2});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        QCOMPARE(opOf(b, "gradients/Merge_grad/Equal"), std::string("Equal"));
        QCOMPARE(inputsOf(b, "gradients/Merge_grad/Equal_1"),
                 (std::vector<std::string>{"Merge:1", "gradients/Merge_grad/Equal_1/y"}));
        QCOMPARE(inputsOf(b, "gradients/Merge_grad/Switch_1"),
                 (std::vector<std::string>{"gradients/Fill", "gradients/Merge_grad/Equal_1"}));
        const Tensor ones = *Tensor::fromVector<float>(gradientTestAllocator(), TensorShape{2}, {1, 1});
        const std::vector<std::pair<std::string, Tensor>> feeds = {{"x1", ones}, {"x2", ones}};
        auto index = runGraph(m_checks.registries(), b, feeds, {m->output(1).name()});
        QVERIFY2(index, index ? "" : index.error().toString().c_str());
        const std::int32_t chosen = (*index)[0].values<std::int32_t>()[0];
        QVERIFY(chosen == 0 || chosen == 1);
        auto live = runGraph(m_checks.registries(), b, feeds, {(*grads)[static_cast<std::size_t>(chosen)]->name()});
        QVERIFY2(live, live ? "" : live.error().toString().c_str());
        const float slope = chosen == 0 ? 2.0f : 5.0f;
        QCOMPARE(floatsOf((*live)[0]), (std::vector<float>{slope, slope}));
        auto dead = runGraph(m_checks.registries(), b, feeds, {(*grads)[static_cast<std::size_t>(1 - chosen)]->name()});
        QVERIFY(!dead);
        QVERIFY2(dead.error().message().find("dead") != std::string::npos, dead.error().toString().c_str());
    }

    /// ReadVariableOp passes the gradient to the handle (TensorFlow's _ReadGrad: the gradient itself).
    void readVariableOp()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto handle = out0(b.op("VarHandleOp", {},
                                {{"dtype", attr::type(tf::DT_FLOAT)},
                                 {"shape", attr::shape(TensorShape{2})},
                                 {"shared_name", attr::s("v")}},
                                "v"));
        QVERIFY2(handle, handle ? "" : handle.error().toString().c_str());
        auto init = ops::constant(b, std::vector<double>{1.5, -2.0}, TensorShape{2}, tf::DT_FLOAT);
        QVERIFY(init);
        auto assign = b.op("AssignVariableOp", {*handle, *init}, {{"dtype", attr::type(tf::DT_FLOAT)}}, "assign");
        QVERIFY2(assign, assign ? "" : assign.error().toString().c_str());
        auto read = out0(b.op("ReadVariableOp", {*handle}, {{"dtype", attr::type(tf::DT_FLOAT)}}, "read"));
        QVERIFY(read);
        auto y = ops::mul(b, *read, *read, "y");
        QVERIFY(y);
        auto grads = addSymbolicGradients(b, {*y}, {*handle});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        QVERIFY((*grads)[0]);
        // No node of its own: the AddN of the two Mul gradients is the handle's gradient.
        QVERIFY(b.findNode("gradients/read_grad/Identity") == nullptr);
        QCOMPARE((*grads)[0]->node(), std::string("gradients/AddN"));
        auto out = runGraph(m_checks.registries(), b, {}, {(*grads)[0]->name()}, {"assign"});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        QCOMPARE(floatsOf((*out)[0]), (std::vector<float>{3.0f, -4.0f}));
    }

    /// Assign, AssignAdd and AssignSub stop the gradient (TensorFlow's state_grad.py) instead of
    /// failing with "No gradient defined".
    void assignIsNotDifferentiable()
    {
        for (const char* type : {"Assign", "AssignAdd", "AssignSub"}) {
            GraphBuilder b(m_checks.registries().ops);
            auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{2}, "x");
            auto v =
                out0(b.op("VariableV2", {}, {{"dtype", attr::type(tf::DT_FLOAT)}, {"shape", attr::shape({2})}}, "v"));
            QVERIFY(x && v);
            auto assigned = out0(b.op(type, {*v, *x}));
            QVERIFY2(assigned, assigned ? "" : assigned.error().toString().c_str());
            auto y = ops::mul(b, *assigned, *x, "y");
            QVERIFY(y);
            auto grads = addSymbolicGradients(b, {*y}, {*x});
            QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
            QVERIFY((*grads)[0]);
            // Only y's direct use of x contributes: no AddN with a path through the assignment.
            QCOMPARE((*grads)[0]->node(), std::string("gradients/y_grad/Mul_1"));
        }
    }

    void notDifferentiableRegistrations()
    {
        // RandomShuffle and ListDiff: TensorFlow registers nothing (a gradient through them is its
        // LookupError); no_gradient_ops.cpp registers them as not differentiable.
        for (const char* name :
             {"Assign", "AssignAdd", "AssignSub", "VarIsInitializedOp", "RandomStandardNormal", "TruncatedNormal",
              "RandomUniform", "Multinomial", "StringJoin", "RandomShuffle", "ListDiff"}) {
            const OpRegistration* r = m_checks.registries().ops.find(name);
            QVERIFY2(r && r->notDifferentiable && !r->gradient, name);
        }
        for (const char* name :
             {"Prod", "Cumprod", "Switch", "RefSwitch", "Merge", "RefMerge", "LoopCond", "ReadVariableOp", "Enter",
              "Exit", "NextIteration"}) {
            const OpRegistration* r = m_checks.registries().ops.find(name);
            QVERIFY2(r && r->gradient && !r->notDifferentiable, name);
        }
    }

    void cleanupTestCase()
    {
        qInfo("worst finite-difference error: float32 %.3g, float64 %.3g", m_checks.worstFloat.error,
              m_checks.worstDouble.error);
    }
};

QTEST_GUILESS_MAIN(TestMiscGrad)
#include "test_misc_grad.moc"
