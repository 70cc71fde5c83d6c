// Tests for gradients through tf.while_loop (autodiff/control_flow_state.h, control_flow_grad.cpp):
// finite differences for repeated squaring, an RNN-like loop with a captured weight, nonlinear
// bodies that need history stacks, two loop vars, a data-dependent trip count and two ys; node
// names and op types of the gradient loop; back_prop=False; nested loops.
#include "autodiff/gradients.h"
#include "builder/ops_sugar.h"
#include "builder/while_loop.h"
#include "framework/kernel_registry.h"
#include "framework/op_registry.h"
#include "gradient_test_support.h"
#include "graph_run.h"
#include "runtime/session.h"

#include <QtTest>

#include <cmath>

using namespace tstudio;
using testing::GradientChecks;
using testing::outputOf;
using testing::runGraph;
using testing::scalarInt32;
namespace tf = tensorflow;

namespace {

template <typename T> std::string err(const Expected<T>& e)
{
    return e ? std::string() : e.error().toString();
}

/// i < n with n an int32 tensor (or constant).
WhileCondFunction counterBelow(std::function<Expected<Output>(GraphBuilder&)> limit)
{
    return [limit](GraphBuilder& b, const std::vector<Output>& v) -> Expected<Output> {
        TSTUDIO_TRY(n, limit(b));
        TSTUDIO_TRY(less, b.op("Less", {v[0], n}));
        return less.output(0);
    };
}

Expected<Output> plusOne(GraphBuilder& b, const Output& i)
{
    TSTUDIO_TRY(one, scalarInt32(b, 1, "add/y"));
    return ops::add(b, i, one, "add");
}

} // namespace

class TestWhileGrad : public QObject {
    Q_OBJECT

private:
    GradientChecks m_checks;

    double check(const QString& name, const std::vector<Tensor>& xs, const GradientCheckGraph& build)
    {
        const int failures = static_cast<int>(m_checks.failures.size());
        m_checks.resetWorst();
        m_checks.check(name, xs, build);
        qInfo("%s: worst finite-difference error %.3g", qPrintable(name), m_checks.worst.error);
        return m_checks.failures.size() > failures ? -1.0 : m_checks.worst.error;
    }

    static Tensor floats(const TensorShape& shape, const std::vector<float>& v)
    {
        return *Tensor::fromVector(testing::gradientTestAllocator(), shape, v);
    }

private slots:
    void initTestCase()
    {
        const std::string error = m_checks.start();
        QVERIFY2(error.empty(), error.c_str());
    }

    void init() { m_checks.failures.clear(); }

    /// x^(2^3) by squaring three times (loop vars i, x).
    void repeatedSquaringConstantCount()
    {
        const double e =
            check("x^8", {testing::filled({3}, [](std::int64_t i) { return 0.6 + 0.15 * i; })},
                  [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                      TSTUDIO_TRY(i0, scalarInt32(b, 0));
                      TSTUDIO_TRY(out, whileLoop(b, counterBelow([](GraphBuilder& g) { return scalarInt32(g, 3); }),
                                                 [](GraphBuilder& g,
                                                    const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                                     TSTUDIO_TRY(i, plusOne(g, v[0]));
                                                     TSTUDIO_TRY(sq, ops::mul(g, v[1], v[1], "mul"));
                                                     return std::vector<Output>{i, sq};
                                                 },
                                                 {i0, xs[0]}));
                      return out[1];
                  });
        QVERIFY2(e >= 0 && e < 1e-3, qPrintable(m_checks.failures.join('\n')));
    }

    /// The same with the count fed at run time: d(x^(2^n))/dx = 2^n x^(2^n - 1) for n = 0..3.
    void repeatedSquaringFedCount()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "x");
        auto n = ops::placeholder(b, tf::DT_INT32, TensorShape::scalar(), "n");
        auto i0 = scalarInt32(b, 0);
        auto out = whileLoop(
            b,
            [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
                return outputOf(g.op("Less", {v[0], *n}));
            },
            [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                TSTUDIO_TRY(i, plusOne(g, v[0]));
                TSTUDIO_TRY(sq, ops::mul(g, v[1], v[1], "mul"));
                return std::vector<Output>{i, sq};
            },
            {*i0, *x});
        QVERIFY2(out, err(out).c_str());
        auto grads = addSymbolicGradients(b, {(*out)[1]}, {*x});
        QVERIFY2(grads, err(grads).c_str());
        QVERIFY((*grads)[0].has_value());
        for (int count = 0; count <= 3; ++count) {
            const float xv = 1.1f;
            auto values = runGraph(m_checks.registries(), b,
                                   {{"x", floats(TensorShape::scalar(), {xv})},
                                    {"n", *Tensor::fromVector(testing::gradientTestAllocator(), TensorShape::scalar(),
                                                              std::vector<std::int32_t>{count})}},
                                   {(*out)[1].name(), (*grads)[0]->name()});
            QVERIFY2(values, err(values).c_str());
            const double p = std::pow(2.0, count);
            QCOMPARE(values->at(0).values<float>()[0], static_cast<float>(std::pow(xv, p)));
            const double want = p * std::pow(xv, p - 1);
            QVERIFY2(std::abs(values->at(1).values<float>()[0] - want) < 1e-5 * want,
                     qPrintable(QString("n=%1: %2 vs %3").arg(count).arg(values->at(1).values<float>()[0]).arg(want)));
        }
    }

    /// h <- tanh(h W + h0 * 0.5) for 5 steps: gradients for the captured W and the initial state.
    void rnnWithCapturedWeight()
    {
        auto build = [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
            const Output& w = xs[0];
            const Output& h0 = xs[1];
            TSTUDIO_TRY(i0, scalarInt32(b, 0));
            TSTUDIO_TRY(half, ops::constant(b, 0.5, tf::DT_FLOAT, "half"));
            TSTUDIO_TRY(bias, ops::mul(b, h0, half, "bias"));
            TSTUDIO_TRY(out,
                        whileLoop(b, counterBelow([](GraphBuilder& g) { return scalarInt32(g, 5); }),
                                  [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                      TSTUDIO_TRY(i, plusOne(g, v[0]));
                                      TSTUDIO_TRY(mm, ops::matMul(g, v[1], w));
                                      TSTUDIO_TRY(pre, ops::add(g, mm, bias, "add_1"));
                                      TSTUDIO_TRY(h, outputOf(g.op("Tanh", {pre})));
                                      return std::vector<Output>{i, h};
                                  },
                                  {i0, h0}));
            return out[1];
        };
        const double e = check(
            "rnn", {testing::filled({3, 3}, testing::small), testing::filled({2, 3}, testing::signedAwayFromKinks)},
            build);
        QVERIFY2(e >= 0 && e < 1e-3, qPrintable(m_checks.failures.join('\n')));

        // The gradient loop as TensorFlow names and types it.
        GraphBuilder b(m_checks.registries().ops);
        auto w = ops::placeholder(b, tf::DT_FLOAT, {3, 3}, "W");
        auto h0 = ops::placeholder(b, tf::DT_FLOAT, {2, 3}, "h0");
        auto y = build(b, {*w, *h0});
        QVERIFY2(y, err(y).c_str());
        auto grads = addSymbolicGradients(b, {*y}, {*w, *h0});
        QVERIFY2(grads, err(grads).c_str());
        const auto opOf = [&](const std::string& n) { return testing::opOf(b, n); };
        QCOMPARE(opOf("gradients/f_count"), std::string("Const"));
        QCOMPARE(opOf("gradients/f_count_1"), std::string("Enter"));
        QCOMPARE(opOf("gradients/f_count_2"), std::string("Exit"));
        QCOMPARE(opOf("gradients/b_count"), std::string("Const"));
        QCOMPARE(opOf("gradients/b_count_1"), std::string("Enter"));
        QCOMPARE(opOf("gradients/b_count_2"), std::string("LoopCond"));
        QCOMPARE(opOf("gradients/b_count_3"), std::string("Exit"));
        QCOMPARE(opOf("gradients/GreaterEqual/Enter"), std::string("Enter"));
        const tf::NodeDef* enter = b.findNode("gradients/b_count_1");
        QCOMPARE(enter->attr().at("frame_name").s(), std::string("gradients/while/while_context"));
        // The captured W: an is_constant Enter forward, a b_acc accumulator backward.
        QCOMPARE(opOf("while/MatMul/Enter"), std::string("Enter"));
        QVERIFY(b.findNode("while/MatMul/Enter")->attr().at("is_constant").b());
        QCOMPARE(opOf("gradients/while/MatMul/Enter_grad/b_acc"), std::string("Const"));
        QCOMPARE(opOf("gradients/while/MatMul/Enter_grad/b_acc_1"), std::string("Enter"));
        QCOMPARE(opOf("gradients/while/MatMul/Enter_grad/b_acc_2"), std::string("Merge"));
        QCOMPARE(opOf("gradients/while/MatMul/Enter_grad/b_acc_3"), std::string("Exit"));
        QCOMPARE(opOf("gradients/while/Exit_1_grad/b_exit"), std::string("Enter"));
        QCOMPARE(opOf("gradients/while/Switch_1_grad/b_switch"), std::string("Merge"));
        // Tanh's gradient reads the forward output through a history stack.
        int stacks = 0, pushes = 0, pops = 0;
        for (const tf::NodeDef& n : b.graphDef().node()) {
            stacks += n.op() == "StackV2";
            pushes += n.op() == "StackPushV2";
            pops += n.op() == "StackPopV2";
        }
        QVERIFY(stacks >= 1);
        QCOMPARE(pushes, stacks);
        QCOMPARE(pops, stacks);
    }

    /// gate_gradients (what Optimizer.minimize asks for) inside the gradient loop gives the same numbers.
    void gatedGradientsInsideTheLoop()
    {
        auto values = [&](bool gate) -> Expected<std::vector<Tensor>> {
            GraphBuilder b(m_checks.registries().ops);
            auto w = ops::placeholder(b, tf::DT_FLOAT, {2, 2}, "W");
            auto h0 = ops::placeholder(b, tf::DT_FLOAT, {1, 2}, "h0");
            TSTUDIO_TRY(out,
                        whileLoop(b, counterBelow([](GraphBuilder& g) { return scalarInt32(g, 3); }),
                                  [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                      TSTUDIO_TRY(i, plusOne(g, v[0]));
                                      TSTUDIO_TRY(mm, ops::matMul(g, v[1], *w));
                                      TSTUDIO_TRY(h, outputOf(g.op("Tanh", {mm})));
                                      return std::vector<Output>{i, h};
                                  },
                                  {*scalarInt32(b, 0), *h0}));
            GradientsOptions options;
            options.gateGradients = gate;
            TSTUDIO_TRY(grads, addSymbolicGradients(b, {out[1]}, {*w, *h0}, {}, options));
            if (gate && b.findNode("gradients/while/MatMul_grad/tuple/group_deps") == nullptr)
                return unexpected(internalError("no gating in the gradient loop"));
            return runGraph(m_checks.registries(), b,
                            {{"W", floats({2, 2}, {0.3f, -0.6f, 0.9f, 0.2f})}, {"h0", floats({1, 2}, {0.5f, -1.1f})}},
                            {grads[0]->name(), grads[1]->name()});
        };
        auto plain = values(false);
        QVERIFY2(plain, err(plain).c_str());
        auto gated = values(true);
        QVERIFY2(gated, err(gated).c_str());
        for (int k = 0; k < 2; ++k) {
            const auto a = plain->at(k).values<float>();
            const auto c = gated->at(k).values<float>();
            QCOMPARE(a.size(), c.size());
            for (std::size_t j = 0; j < a.size(); ++j)
                QCOMPARE(a[j], c[j]);
        }
    }

    /// x <- sin(x) * x + 0.5 x: the body's nonlinear values come back from the stacks.
    void nonlinearBody()
    {
        const double e =
            check("sin body", {testing::filled({4}, testing::signedAwayFromKinks)},
                  [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                      TSTUDIO_TRY(i0, scalarInt32(b, 0));
                      TSTUDIO_TRY(out, whileLoop(b, counterBelow([](GraphBuilder& g) { return scalarInt32(g, 4); }),
                                                 [](GraphBuilder& g,
                                                    const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                                     TSTUDIO_TRY(i, plusOne(g, v[0]));
                                                     TSTUDIO_TRY(s, outputOf(g.op("Sin", {v[1]})));
                                                     TSTUDIO_TRY(p, ops::mul(g, s, v[1], "mul"));
                                                     TSTUDIO_TRY(h, ops::constant(g, 0.5, tf::DT_FLOAT, "h"));
                                                     TSTUDIO_TRY(q, ops::mul(g, v[1], h, "mul_1"));
                                                     TSTUDIO_TRY(x, ops::add(g, p, q, "add_1"));
                                                     return std::vector<Output>{i, x};
                                                 },
                                                 {i0, xs[0]}));
                      return out[1];
                  });
        QVERIFY2(e >= 0 && e < 1e-3, qPrintable(m_checks.failures.join('\n')));
    }

    /// (a, b) <- (a * b, a + sin(b)) three times; y = a + 2 b (both exits).
    void twoLoopVars()
    {
        const double e = check(
            "two vars", {testing::filled({2}, testing::positive), testing::filled({2}, testing::signedAwayFromKinks)},
            [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                TSTUDIO_TRY(out,
                            whileLoop(
                                b,
                                [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
                                    TSTUDIO_TRY(n, scalarInt32(g, 3));
                                    return outputOf(g.op("Less", {v[0], n}));
                                },
                                [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                    TSTUDIO_TRY(i, plusOne(g, v[0]));
                                    TSTUDIO_TRY(ab, ops::mul(g, v[1], v[2], "mul"));
                                    TSTUDIO_TRY(s, outputOf(g.op("Sin", {v[2]})));
                                    TSTUDIO_TRY(apb, ops::add(g, v[1], s, "add_1"));
                                    return std::vector<Output>{i, ab, apb};
                                },
                                {*scalarInt32(b, 0), xs[0], xs[1]}));
                TSTUDIO_TRY(two, ops::constant(b, 2.0, tf::DT_FLOAT, "two"));
                TSTUDIO_TRY(b2, ops::mul(b, out[2], two, "mul"));
                return ops::add(b, out[1], b2, "y");
            });
        QVERIFY2(e >= 0 && e < 1e-3, qPrintable(m_checks.failures.join('\n')));
    }

    /// while sum(x) < 6: x <- 1.3 x + 0.1 x^2 (the trip count depends on x; the inputs are away
    /// from a change of count under the finite-difference step).
    void dataDependentTripCount()
    {
        const double e = check(
            "trip count", {testing::filled({2}, [](std::int64_t i) { return 0.4 + 0.3 * i; })},
            [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                TSTUDIO_TRY(out,
                            whileLoop(
                                b,
                                [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
                                    TSTUDIO_TRY(axes, ops::constantInts(g, {0}, TensorShape{1}, tf::DT_INT32, "axes"));
                                    TSTUDIO_TRY(s, ops::sum(g, v[0], axes));
                                    TSTUDIO_TRY(limit, ops::constant(g, 6.0, tf::DT_FLOAT, "limit"));
                                    return outputOf(g.op("Less", {s, limit}));
                                },
                                [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                    TSTUDIO_TRY(k, ops::constant(g, 1.3, tf::DT_FLOAT, "k"));
                                    TSTUDIO_TRY(lin, ops::mul(g, v[0], k, "mul"));
                                    TSTUDIO_TRY(sq, ops::square(g, v[0]));
                                    TSTUDIO_TRY(c, ops::constant(g, 0.1, tf::DT_FLOAT, "c"));
                                    TSTUDIO_TRY(q, ops::mul(g, sq, c, "mul_1"));
                                    TSTUDIO_TRY(x, ops::add(g, lin, q, "add"));
                                    return std::vector<Output>{x};
                                },
                                {xs[0]}));
                return out[0];
            });
        QVERIFY2(e >= 0 && e < 1e-3, qPrintable(m_checks.failures.join('\n')));
    }

    /// Two ys through the same loop: their sum numerically, and two separate gradients() calls
    /// (each builds its own counters and gradient loop) against the closed forms.
    void twoYsThroughOneLoop()
    {
        auto loop = [](GraphBuilder& b, const Output& x) -> Expected<std::vector<Output>> {
            return whileLoop(b, counterBelow([](GraphBuilder& g) { return scalarInt32(g, 3); }),
                             [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                 TSTUDIO_TRY(i, plusOne(g, v[0]));
                                 TSTUDIO_TRY(sq, ops::mul(g, v[1], v[1], "mul"));
                                 TSTUDIO_TRY(acc, ops::add(g, v[2], v[1], "add_1"));
                                 return std::vector<Output>{i, sq, acc};
                             },
                             {*scalarInt32(b, 0), x, x});
        };
        const double e = check("two ys", {testing::filled({3}, [](std::int64_t i) { return 0.4 + 0.15 * i; })},
                               [&](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                                   TSTUDIO_TRY(out, loop(b, xs[0]));
                                   return ops::add(b, out[1], out[2], "y");
                               });
        QVERIFY2(e >= 0 && e < 1e-3, qPrintable(m_checks.failures.join('\n')));

        GraphBuilder b(m_checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "x");
        auto out = loop(b, *x);
        QVERIFY2(out, err(out).c_str());
        auto g1 = addSymbolicGradients(b, {(*out)[1]}, {*x}); // x^8
        QVERIFY2(g1, err(g1).c_str());
        auto g2 = addSymbolicGradients(b, {(*out)[2]}, {*x}); // x + x + x^2 + x^4
        QVERIFY2(g2, err(g2).c_str());
        QVERIFY(b.findNode("gradients_1/f_count") != nullptr);
        const float xv = 0.9f;
        auto values = runGraph(m_checks.registries(), b, {{"x", floats(TensorShape::scalar(), {xv})}},
                               {(*g1)[0]->name(), (*g2)[0]->name()});
        QVERIFY2(values, err(values).c_str());
        const double d1 = 8 * std::pow(xv, 7);
        const double d2 = 2 + 2 * xv + 4 * std::pow(xv, 3);
        QVERIFY(std::abs(values->at(0).values<float>()[0] - d1) < 1e-5);
        QVERIFY(std::abs(values->at(1).values<float>()[0] - d2) < 1e-5);
    }

    /// back_prop=False: no gradient reaches through the loop (TensorFlow returns None).
    void backPropFalseGivesNoGradient()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "x");
        WhileLoopOptions options;
        options.backProp = false;
        auto out = whileLoop(
            b, counterBelow([](GraphBuilder& g) { return scalarInt32(g, 2); }),
            [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                TSTUDIO_TRY(i, plusOne(g, v[0]));
                TSTUDIO_TRY(sq, ops::mul(g, v[1], v[1], "mul"));
                return std::vector<Output>{i, sq};
            },
            {*scalarInt32(b, 0), *x}, options);
        QVERIFY2(out, err(out).c_str());
        auto grads = addSymbolicGradients(b, {(*out)[1]}, {*x});
        QVERIFY2(grads, err(grads).c_str());
        QVERIFY(!(*grads)[0].has_value());
    }

    /// Nested loops: the inner loop squares twice per outer iteration, two outer iterations: x^16.
    void nestedRepeatedSquaring()
    {
        const double e = check(
            "nested x^16", {testing::filled({3}, [](std::int64_t i) { return 0.8 + 0.07 * i; })},
            [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                TSTUDIO_TRY(
                    out, whileLoop(b, counterBelow([](GraphBuilder& g) { return scalarInt32(g, 2); }),
                                   [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                       TSTUDIO_TRY(
                                           inner,
                                           whileLoop(g, counterBelow([](GraphBuilder& h) { return scalarInt32(h, 2); }),
                                                     [](GraphBuilder& h,
                                                        const std::vector<Output>& w) -> Expected<std::vector<Output>> {
                                                         TSTUDIO_TRY(j, plusOne(h, w[0]));
                                                         TSTUDIO_TRY(sq, ops::mul(h, w[1], w[1], "mul"));
                                                         return std::vector<Output>{j, sq};
                                                     },
                                                     {*scalarInt32(g, 0), v[1]}));
                                       TSTUDIO_TRY(i, plusOne(g, v[0]));
                                       return std::vector<Output>{i, inner[1]};
                                   },
                                   {*scalarInt32(b, 0), xs[0]}));
                return out[1];
            });
        QVERIFY2(e >= 0 && e < 1e-3, qPrintable(m_checks.failures.join('\n')));
    }

    /// Nested loops where the inner loop reads an outer-body value (a loop invariant of the inner
    /// loop, kept in the outer loop's history), runs i + 1 times in outer iteration i (its counts
    /// come back from a stack), and uses a captured outside weight w.
    void nestedWithOuterValuesAndVaryingCounts()
    {
        const double e = check(
            "nested varying",
            {testing::filled({2}, [](std::int64_t i) { return 0.5 + 0.2 * i; }),
             testing::filled({2}, [](std::int64_t i) { return 0.7 - 0.3 * i; })},
            [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                const Output w = xs[1];
                TSTUDIO_TRY(
                    out, whileLoop(b, counterBelow([](GraphBuilder& g) { return scalarInt32(g, 3); }),
                                   [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                       const Output i = v[0];
                                       const Output a = v[1];
                                       TSTUDIO_TRY(limit, plusOne(g, i));
                                       TSTUDIO_TRY(
                                           inner,
                                           whileLoop(
                                               g,
                                               [&](GraphBuilder& h, const std::vector<Output>& u) -> Expected<Output> {
                                                   return outputOf(h.op("Less", {u[0], limit}));
                                               },
                                               [&](GraphBuilder& h,
                                                   const std::vector<Output>& u) -> Expected<std::vector<Output>> {
                                                   TSTUDIO_TRY(j, plusOne(h, u[0]));
                                                   TSTUDIO_TRY(s, outputOf(h.op("Sin", {u[1]})));
                                                   TSTUDIO_TRY(sa, ops::mul(h, s, a, "mul"));
                                                   TSTUDIO_TRY(y, ops::add(h, sa, w, "add_1"));
                                                   return std::vector<Output>{j, y};
                                               },
                                               {*scalarInt32(g, 0), a}));
                                       TSTUDIO_TRY(next, plusOne(g, i));
                                       return std::vector<Output>{next, inner[1]};
                                   },
                                   {*scalarInt32(b, 0), xs[0]}));
                return out[1];
            });
        QVERIFY2(e >= 0 && e < 1e-3, qPrintable(m_checks.failures.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestWhileGrad)
#include "test_while_grad.moc"
