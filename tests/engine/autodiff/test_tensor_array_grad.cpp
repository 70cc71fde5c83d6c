// Tests for the TensorArray gradients (autodiff/tensor_array_grad.cpp): finite differences through
// Write -> Read, Scatter -> Gather and stack, Split -> Concat and Split -> Read (elements never read get
// zeros), Write -> Concat, and through tf.while_loop bodies that write an array every iteration (with
// a loss on the stacked result) or read one array and write another (dynamic_rnn's shape); the nodes
// TensorFlow's gradient functions build, one gradient array per tf.gradients call, and the error for
// a gradient scope TensorFlow cannot tell.
#include "autodiff/gradients.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_array.h"
#include "builder/while_loop.h"
#include "gradient_test_support.h"
#include "graph_run.h"

#include <QtTest>

using namespace tstudio;
using testing::GradientChecks;
using testing::runGraph;
using testing::scalarInt32;
namespace tf = tensorflow;

namespace {

constexpr tf::DataType kDouble = tf::DT_DOUBLE;

Expected<Output> sumOfSquares(GraphBuilder& b, const Output& x)
{
    TSTUDIO_TRY(sq, ops::square(b, x));
    TSTUDIO_TRY(rank, ops::firstOutput(b.op("Rank", {sq})));
    TSTUDIO_TRY(zero, scalarInt32(b, 0, "range/start"));
    TSTUDIO_TRY(one, scalarInt32(b, 1, "range/delta"));
    TSTUDIO_TRY(axes, ops::firstOutput(b.op("Range", {zero, rank, one})));
    return ops::sum(b, sq, axes);
}

Expected<Output> doubleConstant(GraphBuilder& b, const std::vector<double>& v, const TensorShape& shape)
{
    return ops::constant(b, v, shape, kDouble);
}

Expected<Output> int32s(GraphBuilder& b, const std::vector<std::int64_t>& v)
{
    return ops::constantInts(b, v, TensorShape{static_cast<std::int64_t>(v.size())});
}

/// i < limit for loop var 0.
WhileCondFunction below(std::int64_t limit)
{
    return [limit](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
        TSTUDIO_TRY(n, scalarInt32(g, limit, "Less/y"));
        return ops::firstOutput(g.op("Less", {v[0], n}));
    };
}

} // namespace

class TestTensorArrayGrad : public QObject {
    Q_OBJECT

private:
    GradientChecks m_checks;

    void check(const QString& name, const std::vector<Tensor>& xs, const GradientCheckGraph& build)
    {
        const auto failures = m_checks.failures.size();
        m_checks.resetWorst();
        m_checks.check(name, xs, build);
        qInfo("%s: worst finite-difference error %.3g", qPrintable(name), m_checks.worst.error);
        QVERIFY2(m_checks.failures.size() == failures, qPrintable(m_checks.failures.join('\n')));
    }

    static Tensor doubles(const TensorShape& shape)
    {
        return testing::filled(kDouble, shape, testing::signedAwayFromKinks);
    }

private slots:
    void initTestCase()
    {
        const std::string error = m_checks.start();
        QVERIFY2(error.empty(), error.c_str());
    }

    /// y = sum((read(0) * read(2))^2) + sum(read(1)) of x0, x1, x2 written at 2, 0, 1.
    void writeThenRead()
    {
        check("write -> read", {doubles({3}), doubles({3}), doubles({3})},
              [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                  TSTUDIO_TRY(ta, TensorArray::create(b, kDouble, 3));
                  TSTUDIO_TRY(w0, ta.write(b, 2, xs[0]));
                  TSTUDIO_TRY(w1, w0.write(b, 0, xs[1]));
                  TSTUDIO_TRY(w2, w1.write(b, 1, xs[2]));
                  TSTUDIO_TRY(a, w2.read(b, 0));
                  TSTUDIO_TRY(c, w2.read(b, 2));
                  TSTUDIO_TRY(d, w2.read(b, 1));
                  TSTUDIO_TRY(prod, ops::mul(b, a, c));
                  TSTUDIO_TRY(s1, sumOfSquares(b, prod));
                  TSTUDIO_TRY(axes, int32s(b, {0}));
                  TSTUDIO_TRY(s2, ops::sum(b, d, axes));
                  return ops::add(b, s1, s2);
              });
    }

    /// Rows of x scattered to a permutation; two of them gathered (the others get zero gradients).
    void scatterThenGather()
    {
        check("scatter -> gather", {doubles({4, 2})},
              [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                  TSTUDIO_TRY(ta, TensorArray::create(b, kDouble, 4));
                  TSTUDIO_TRY(at, int32s(b, {2, 0, 3, 1}));
                  TSTUDIO_TRY(s, ta.scatter(b, at, xs[0]));
                  TSTUDIO_TRY(from, int32s(b, {1, 3}));
                  TSTUDIO_TRY(g, s.gather(b, from));
                  TSTUDIO_TRY(w, doubleConstant(b, {1.5, -0.5, 2.0, 0.25}, TensorShape{2, 2}));
                  TSTUDIO_TRY(prod, ops::mul(b, g, w));
                  return sumOfSquares(b, prod);
              });
    }

    void unstackThenStack()
    {
        check("unstack -> stack", {doubles({3, 2})},
              [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                  TSTUDIO_TRY(ta, TensorArray::create(b, kDouble, 3));
                  TSTUDIO_TRY(u, ta.unstack(b, xs[0]));
                  TSTUDIO_TRY(s, u.stack(b));
                  TSTUDIO_TRY(t, ops::firstOutput(b.op("Tanh", {s})));
                  return sumOfSquares(b, t);
              });
    }

    /// x cut into pieces of 1, 3 and 2 rows, joined again; and one piece read alone.
    void splitThenConcatAndRead()
    {
        check("split -> concat", {doubles({6, 2})},
              [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                  // Pieces of different shapes: infer_shape=False, as in TensorFlow.
                  TSTUDIO_TRY(ta, TensorArray::create(b, kDouble, 3, {.inferShape = false}));
                  TSTUDIO_TRY(lengths, int32s(b, {1, 3, 2}));
                  TSTUDIO_TRY(s, ta.split(b, xs[0], lengths));
                  TSTUDIO_TRY(c, s.concat(b));
                  TSTUDIO_TRY(t, ops::firstOutput(b.op("Sin", {c})));
                  return sumOfSquares(b, t);
              });
        check("split -> read", {doubles({6, 2})},
              [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                  // Pieces of different shapes: infer_shape=False, as in TensorFlow.
                  TSTUDIO_TRY(ta, TensorArray::create(b, kDouble, 3, {.inferShape = false}));
                  TSTUDIO_TRY(lengths, int32s(b, {1, 3, 2}));
                  TSTUDIO_TRY(s, ta.split(b, xs[0], lengths));
                  TSTUDIO_TRY(piece, s.read(b, 1));
                  return sumOfSquares(b, piece);
              });
    }

    /// Elements of different lengths written one by one and concatenated.
    void writeThenConcat()
    {
        check("write -> concat", {doubles({1, 2}), doubles({3, 2})},
              [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                  TSTUDIO_TRY(ta, TensorArray::create(b, kDouble, 2, {.inferShape = false}));
                  TSTUDIO_TRY(w0, ta.write(b, 0, xs[0]));
                  TSTUDIO_TRY(w1, w0.write(b, 1, xs[1]));
                  TSTUDIO_TRY(c, w1.concat(b));
                  TSTUDIO_TRY(w, doubleConstant(b, {1, 2, 3, 4, 5, 6, 7, 8}, TensorShape{4, 2}));
                  TSTUDIO_TRY(prod, ops::mul(b, c, w));
                  return sumOfSquares(b, prod);
              });
    }

    /// A loop writes tanh(x * (i + 1) + h) at i and carries h; the loss is on the stacked result.
    void whileLoopWritingEveryIteration()
    {
        check("while: write per iteration, loss on stack", {doubles({3}), doubles({3})},
              [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                  const Output x = xs[0];
                  TSTUDIO_TRY(ta, TensorArray::create(b, kDouble, 4));
                  TSTUDIO_TRY(i0, scalarInt32(b, 0));
                  TSTUDIO_TRY(
                      out,
                      whileLoop(
                          b, below(4),
                          [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                              TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
                              TSTUDIO_TRY(next, ops::add(g, v[0], one, "add"));
                              TSTUDIO_TRY(k, ops::firstOutput(g.op("Cast", {next}, {{"DstT", attr::type(kDouble)}})));
                              TSTUDIO_TRY(scaled, ops::mul(g, x, k));
                              TSTUDIO_TRY(pre, ops::add(g, scaled, v[1]));
                              TSTUDIO_TRY(h, ops::firstOutput(g.op("Tanh", {pre})));
                              TSTUDIO_TRY(written, ta.withFlow(v[2]).write(g, v[0], h));
                              return std::vector<Output>{next, h, written.flow()};
                          },
                          {i0, xs[1], ta.flow()}));
                  TSTUDIO_TRY(stacked, ta.withFlow(out[2]).stack(b));
                  TSTUDIO_TRY(w, doubleConstant(b, {1, -1, 0.5, 2, 0.3, -0.7, 1.1, 0.2, -0.4, 0.9, 1.3, -0.6},
                                                TensorShape{4, 3}));
                  TSTUDIO_TRY(prod, ops::mul(b, stacked, w));
                  return sumOfSquares(b, prod);
              });
    }

    /// dynamic_rnn's shape: inputs unstacked into an array read at step t, h = tanh(x_t W + h),
    /// outputs written to another array, the loss on their stack.
    void whileLoopReadingAndWriting()
    {
        check("while: read input array, write output array", {doubles({4, 2}), doubles({2, 2})},
              [](GraphBuilder& b, const std::vector<Output>& xs) -> Expected<Output> {
                  const Output weights = xs[1];
                  TSTUDIO_TRY(in0, TensorArray::create(b, kDouble, 4, {.name = "input"}));
                  TSTUDIO_TRY(in, in0.unstack(b, xs[0]));
                  TSTUDIO_TRY(out0, TensorArray::create(b, kDouble, 4, {.name = "output"}));
                  TSTUDIO_TRY(t0, scalarInt32(b, 0));
                  TSTUDIO_TRY(h0, ops::zeros(b, TensorShape{1, 2}, kDouble));
                  TSTUDIO_TRY(
                      loop,
                      whileLoop(b, below(4),
                                [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                    TSTUDIO_TRY(x, in.read(g, v[0]));
                                    TSTUDIO_TRY(row, ops::reshape(g, x, *ops::constantInts(g, {1, 2}, TensorShape{2})));
                                    TSTUDIO_TRY(xw, ops::matMul(g, row, weights));
                                    TSTUDIO_TRY(pre, ops::add(g, xw, v[1]));
                                    TSTUDIO_TRY(h, ops::firstOutput(g.op("Tanh", {pre})));
                                    TSTUDIO_TRY(written, out0.withFlow(v[2]).write(g, v[0], h));
                                    TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
                                    TSTUDIO_TRY(t, ops::add(g, v[0], one, "add"));
                                    return std::vector<Output>{t, h, written.flow()};
                                },
                                {t0, h0, out0.flow()}));
                  TSTUDIO_TRY(stacked, out0.withFlow(loop[2]).stack(b));
                  TSTUDIO_TRY(w, doubleConstant(b, {1, -1, 0.5, 2, 0.3, -0.7, 1.1, 0.2}, TensorShape{4, 1, 2}));
                  TSTUDIO_TRY(prod, ops::mul(b, stacked, w));
                  return sumOfSquares(b, prod);
              });
    }

    /// The gradient loop of a loop writing an array: the write's gradient reads the gradient array in
    /// the gradient loop, at the index the forward iteration used (popped from its history stack), from
    /// the gradient array the stack's gradient made and filled outside the loop.
    void whileLoopGradientNodes()
    {
        GraphBuilder b(m_checks.registries().ops);
        Output x = *ops::placeholder(b, kDouble, TensorShape{2}, "x");
        TensorArray ta = *TensorArray::create(b, kDouble, 3);
        Output i0 = *scalarInt32(b, 0);
        auto out = whileLoop(b, below(3),
                             [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                                 TSTUDIO_TRY(sq, ops::mul(g, x, x));
                                 TSTUDIO_TRY(written, ta.withFlow(v[1]).write(g, v[0], sq));
                                 TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
                                 TSTUDIO_TRY(next, ops::add(g, v[0], one, "add"));
                                 return std::vector<Output>{next, written.flow()};
                             },
                             {i0, ta.flow()});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        Output y = *sumOfSquares(b, *ta.withFlow((*out)[1]).stack(b));
        auto grads = addSymbolicGradients(b, {y}, {x});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        const std::string writeGrad = "gradients/while/TensorArrayWrite/TensorArrayWriteV3_grad/";
        QCOMPARE(testing::opOf(b, "gradients/TensorArrayStack/TensorArrayGatherV3_grad/TensorArrayScatter/"
                                  "TensorArrayScatterV3"),
                 std::string("TensorArrayScatterV3"));
        const tf::NodeDef* gradArray = b.findNode(writeGrad + "TensorArrayGrad/TensorArrayGradV3");
        QVERIFY(gradArray);
        QCOMPARE(gradArray->attr().at("source").s(), std::string("gradients"));
        QCOMPARE(b.findNode("gradients/TensorArrayStack/TensorArrayGatherV3_grad/TensorArrayGrad/TensorArrayGradV3")
                     ->attr()
                     .at("source")
                     .s(),
                 std::string("gradients"));
        // The handle, made outside every loop, enters the gradient loop as a loop invariant.
        const tf::NodeDef* enter = b.findNode(gradArray->input(0));
        QVERIFY(enter);
        QCOMPARE(enter->op(), std::string("Enter"));
        QCOMPARE(enter->input(0), std::string("TensorArray"));
        QCOMPARE(enter->attr().at("is_constant").b(), true);
        QCOMPARE(enter->attr().at("frame_name").s(), std::string("gradients/while/while_context"));
        // The index of each forward iteration comes back from its history stack.
        QCOMPARE(testing::inputsOf(b, writeGrad + "TensorArrayReadV3").at(1),
                 writeGrad + "TensorArrayReadV3/StackPopV2");
        QCOMPARE(testing::opOf(b, writeGrad + "TensorArrayReadV3/StackPushV2"), std::string("StackPushV2"));
        // y = 3 sum(x^4): dy/dx = 12 x^3.
        static CpuAllocator allocator;
        const Tensor xv = *Tensor::fromVector(allocator, TensorShape{2}, std::vector<double>{0.5, -2});
        auto values = runGraph(m_checks.registries(), b, {{"x", xv}}, {(*grads)[0]->name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(values->at(0).values<double>()[0], 1.5);
        QCOMPARE(values->at(0).values<double>()[1], -96.0);
    }

    /// The gradient of a read writes into the array's gradient array for this tf.gradients call
    /// ("gradients"), a second call gets its own ("gradients_1"), and both run in one step.
    void gradientArraysPerGradientsCall()
    {
        GraphBuilder b(m_checks.registries().ops);
        Output x = *ops::placeholder(b, kDouble, TensorShape{2}, "x");
        TensorArray ta = *TensorArray::create(b, kDouble, 1);
        TensorArray w = *ta.write(b, 0, x);
        Output r = *w.read(b, 0);
        Output y = *sumOfSquares(b, r);
        auto g1 = addSymbolicGradients(b, {y}, {x});
        QVERIFY2(g1, g1 ? "" : g1.error().toString().c_str());
        auto g2 = addSymbolicGradients(b, {y}, {x});
        QVERIFY2(g2, g2 ? "" : g2.error().toString().c_str());
        const tf::NodeDef* first = b.findNode("gradients/TensorArrayReadV3_grad/TensorArrayGrad/TensorArrayGradV3");
        QVERIFY(first);
        QCOMPARE(first->attr().at("source").s(), std::string("gradients"));
        QVERIFY(b.findNode("gradients/TensorArrayReadV3_grad/TensorArrayWrite/TensorArrayWriteV3"));
        QVERIFY(b.findNode("gradients/TensorArrayWrite/TensorArrayWriteV3_grad/TensorArrayReadV3"));
        const tf::NodeDef* second = b.findNode("gradients_1/TensorArrayReadV3_grad/TensorArrayGrad/TensorArrayGradV3");
        QVERIFY(second);
        QCOMPARE(second->attr().at("source").s(), std::string("gradients_1"));
        static CpuAllocator allocator;
        const Tensor xv = *Tensor::fromVector(allocator, TensorShape{2}, std::vector<double>{0.5, -3});
        auto values = runGraph(m_checks.registries(), b, {{"x", xv}}, {(*g1)[0]->name(), (*g2)[0]->name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        for (const Tensor& g : *values) {
            QCOMPARE(g.values<double>()[0], 1.0);
            QCOMPARE(g.values<double>()[1], -6.0);
        }
    }

    /// TensorFlow tells gradient computations apart by their "gradients" scope; another name fails.
    void aGradientScopeNotNamedGradientsFails()
    {
        GraphBuilder b(m_checks.registries().ops);
        Output x = *ops::placeholder(b, kDouble, TensorShape{2}, "x");
        TensorArray w = *(*TensorArray::create(b, kDouble, 1)).write(b, 0, x);
        Output y = *sumOfSquares(b, *w.read(b, 0));
        GradientsOptions options;
        options.name = "backprop";
        auto g = addSymbolicGradients(b, {y}, {x}, {}, options);
        QVERIFY(!g);
        QVERIFY2(g.error().message().find("Expected op/tensor name to start with gradients") != std::string::npos,
                 g.error().toString().c_str());
        QVERIFY2(g.error().message().find("TensorArrayReadV3") != std::string::npos, g.error().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestTensorArrayGrad)
#include "test_tensor_array_grad.moc"
