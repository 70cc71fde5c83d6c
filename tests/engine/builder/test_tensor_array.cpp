// Tests for TensorArray (tf.TensorArray of TensorFlow 1.15): the nodes and names it builds, the
// element shape it learns from writes (and shares with its copies), write/read, scatter/gather,
// unstack/stack, split/concat, size, close and grad run against values computed here, the build-time
// errors, and arrays inside tf.while_loop bodies: one written every iteration with its flow as a loop
// var, and the dynamic_rnn pattern (an input array read and an output array written per step).
#include "builder/ops_sugar.h"
#include "builder/tensor_array.h"
#include "builder/while_loop.h"
#include "graph_run.h"
#include "registries/default_registries.h"

#include <QtTest>

#include <cmath>

using namespace tstudio;
using testing::runGraph;
using testing::scalarInt32;
namespace tf = tensorflow;

namespace {

template <typename T> T must(Expected<T> value)
{
    if (!value)
        qFatal("test setup failed: %s", value.error().toString().c_str());
    return std::move(*value);
}

std::vector<float> floatsOf(const Tensor& t)
{
    return std::vector<float>(t.values<float>().begin(), t.values<float>().end());
}

std::vector<std::string> controlInputs(const tf::NodeDef& n)
{
    std::vector<std::string> out;
    for (const std::string& in : n.input())
        if (in.starts_with('^'))
            out.push_back(in);
    return out;
}

} // namespace

class TestTensorArray : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    Output vec(GraphBuilder& b, const std::vector<double>& v, const TensorShape& shape)
    {
        return must(ops::constant(b, v, shape));
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    /// The nodes, names and attrs of tf.TensorArray's Python API.
    void buildsTensorFlowsNodes()
    {
        GraphBuilder b(m_registries->ops);
        TensorArray ta = must(TensorArray::create(b, tf::DT_FLOAT, 3));
        const tf::NodeDef* node = b.findNode("TensorArray");
        QVERIFY(node);
        QCOMPARE(node->op(), std::string("TensorArrayV3"));
        QCOMPARE(node->input(0), std::string("TensorArray/size"));
        QCOMPARE(node->attr().at("identical_element_shapes").b(), true);
        QCOMPARE(node->attr().at("clear_after_read").b(), true);
        QCOMPARE(node->attr().at("dynamic_size").b(), false);
        QVERIFY(node->attr().at("element_shape").shape().unknown_rank());
        QCOMPARE(ta.handle().name(), std::string("TensorArray:0"));
        QCOMPARE(ta.flow().name(), std::string("TensorArray:1"));
        QCOMPARE(ta.flow().shape(), TensorShape::scalar());

        TensorArray w = must(ta.write(b, 0, vec(b, {1, 2}, TensorShape{2})));
        QCOMPARE(w.flow().node(), std::string("TensorArrayWrite/TensorArrayWriteV3"));
        QVERIFY(b.findNode("TensorArrayWrite/TensorArrayWriteV3/index"));
        QCOMPARE(w.handle(), ta.handle());
        // The old array keeps its flow; both know the element shape now.
        QCOMPARE(ta.flow().name(), std::string("TensorArray:1"));
        QCOMPARE(ta.elementShape(), TensorShape({2}));
        Output r = must(w.read(b, 0));
        QCOMPARE(r.node(), std::string("TensorArrayReadV3"));
        QCOMPARE(r.shape(), TensorShape({2}));
        Output s = must(w.stack(b));
        QCOMPARE(s.node(), std::string("TensorArrayStack/TensorArrayGatherV3"));
        for (const char* name : {"TensorArrayStack/TensorArraySizeV3", "TensorArrayStack/range/start",
                                 "TensorArrayStack/range/delta", "TensorArrayStack/range"})
            QVERIFY2(b.findNode(name), name);
        QCOMPARE(s.shape(), TensorShape({-1, 2}));
        QCOMPARE(b.findNode("TensorArrayStack/TensorArrayGatherV3")->attr().at("element_shape").shape().dim(0).size(),
                 std::int64_t{2});

        TensorArray g = must(w.grad(b, "gradients"));
        QCOMPARE(g.handle().node(), std::string("TensorArrayGrad/TensorArrayGradV3"));
        QCOMPARE(g.flow().node(), std::string("TensorArrayGrad/gradient_flow"));
        QCOMPARE(controlInputs(*b.findNode("TensorArrayGrad/gradient_flow")),
                 std::vector<std::string>({"^TensorArrayGrad/TensorArrayGradV3"}));
        QCOMPARE(b.findNode("TensorArrayGrad/TensorArrayGradV3")->attr().at("source").s(), std::string("gradients"));
        QCOMPARE(g.elementShape(), TensorShape({2}));
    }

    void writeReadRunsInOrder()
    {
        GraphBuilder b(m_registries->ops);
        TensorArray ta = must(TensorArray::create(b, tf::DT_FLOAT, 3));
        ta = must(ta.write(b, 2, vec(b, {5, 6}, TensorShape{2})));
        ta = must(ta.write(b, 0, vec(b, {1, 2}, TensorShape{2})));
        ta = must(ta.write(b, 1, vec(b, {3, 4}, TensorShape{2})));
        Output stacked = must(ta.stack(b));
        Output n = must(ta.size(b));
        auto values = runGraph(*m_registries, b, {}, {stacked.name(), n.name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(values->at(0).shape(), TensorShape({3, 2}));
        QCOMPARE(floatsOf(values->at(0)), std::vector<float>({1, 2, 3, 4, 5, 6}));
        QCOMPARE(values->at(1).scalar<std::int32_t>(), 3);
    }

    void unstackAndScatterThenGather()
    {
        GraphBuilder b(m_registries->ops);
        Output x = vec(b, {0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32}, TensorShape{4, 3});
        TensorArray ta = must(TensorArray::create(b, tf::DT_FLOAT, 4, {.clearAfterRead = false}));
        TensorArray u = must(ta.unstack(b, x));
        QCOMPARE(u.flow().node(), std::string("TensorArrayUnstack/TensorArrayScatter/TensorArrayScatterV3"));
        QVERIFY(b.findNode("TensorArrayUnstack/strided_slice"));
        QCOMPARE(ta.elementShape(), TensorShape({3}));
        Output idx = must(ops::constantInts(b, {3, 1}, TensorShape{2}));
        Output picked = must(u.gather(b, idx));
        QCOMPARE(picked.shape(), TensorShape({2, 3}));
        Output one = must(u.read(b, 1));

        TensorArray other = must(TensorArray::create(b, tf::DT_FLOAT, 5, {.name = "other"}));
        Output at = must(ops::constantInts(b, {4, 0}, TensorShape{2}));
        other = must(other.scatter(b, at, vec(b, {7, 8, 9, 1, 2, 3}, TensorShape{2, 3})));
        Output fourth = must(other.read(b, 4));
        auto values = runGraph(*m_registries, b, {}, {picked.name(), one.name(), fourth.name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(floatsOf(values->at(0)), std::vector<float>({30, 31, 32, 10, 11, 12}));
        QCOMPARE(floatsOf(values->at(1)), std::vector<float>({10, 11, 12}));
        QCOMPARE(floatsOf(values->at(2)), std::vector<float>({7, 8, 9}));
    }

    void splitAndConcat()
    {
        GraphBuilder b(m_registries->ops);
        Output x = vec(b, {1, 2, 3, 4, 5, 6, 7, 8}, TensorShape{4, 2});
        // Pieces of different shapes need infer_shape=False, as in TensorFlow (the kernel refuses them
        // otherwise, as splitOfDifferentShapesNeedsInferShapeFalse checks).
        TensorArray ta = must(TensorArray::create(b, tf::DT_FLOAT, 3, {.inferShape = false}));
        Output lengths = must(ops::constantInts(b, {1, 0, 3}, TensorShape{3}));
        TensorArray s = must(ta.split(b, x, lengths));
        QVERIFY(b.findNode("TensorArraySplit/Cast"));
        QCOMPARE(s.flow().node(), std::string("TensorArraySplit/TensorArraySplitV3"));
        Output joined = must(s.concat(b));
        QVERIFY(joined.shape().isUnknownRank()); // nothing is known of the elements' shapes

        auto values = runGraph(*m_registries, b, {}, {joined.name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(values->at(0).shape(), TensorShape({4, 2}));
        QCOMPARE(floatsOf(values->at(0)), std::vector<float>({1, 2, 3, 4, 5, 6, 7, 8}));

        // Pieces of one constant length give the element shape.
        TensorArray even = must(TensorArray::create(b, tf::DT_FLOAT, 2, {.name = "even"}));
        Output two = must(ops::constantInts(b, {2, 2}, TensorShape{2}, tf::DT_INT64));
        even = must(even.split(b, x, two));
        QCOMPARE(even.elementShape(), TensorShape({2, 2}));
        QCOMPARE(must(even.read(b, 1)).shape(), TensorShape({2, 2}));
    }

    void splitOfDifferentShapesNeedsInferShapeFalse()
    {
        GraphBuilder b(m_registries->ops);
        Output x = vec(b, {1, 2, 3, 4, 5, 6, 7, 8}, TensorShape{4, 2});
        TensorArray ta = must(TensorArray::create(b, tf::DT_FLOAT, 2));
        Output lengths = must(ops::constantInts(b, {1, 3}, TensorShape{2}));
        TensorArray s = must(ta.split(b, x, lengths));
        auto values = runGraph(*m_registries, b, {}, {s.flow().name()});
        QVERIFY(!values);
        QVERIFY2(values.error().message().find("Could not write to TensorArray index 1 because the value shape is "
                                               "[3,2] which is incompatible with the TensorArray's inferred element "
                                               "shape: [1,2] (consider setting infer_shape=False).") !=
                     std::string::npos,
                 values.error().toString().c_str());
    }

    void dynamicSizeAndClose()
    {
        GraphBuilder b(m_registries->ops);
        TensorArray ta = must(TensorArray::create(
            b, tf::DT_FLOAT, 0, {.dynamicSize = true, .elementShape = TensorShape{2}, .name = "grows"}));
        ta = must(ta.write(b, 2, vec(b, {1, 2}, TensorShape{2})));
        Output n = must(ta.size(b));
        Output stacked = must(ta.stack(b));
        auto values = runGraph(*m_registries, b, {}, {n.name(), stacked.name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(values->at(0).scalar<std::int32_t>(), 3);
        QCOMPARE(floatsOf(values->at(1)), std::vector<float>({0, 0, 0, 0, 1, 2}));

        Operation close = must(ta.close(b));
        QCOMPARE(close.type(), std::string("TensorArrayCloseV3"));
        auto after = b.controlDependencies({close});
        Output late = must(ta.size(b));
        after.close();
        values = runGraph(*m_registries, b, {}, {late.name()});
        QVERIFY(!values);
        QVERIFY2(values.error().message().find("has already been closed") != std::string::npos,
                 values.error().toString().c_str());
    }

    void buildTimeErrors()
    {
        GraphBuilder b(m_registries->ops);
        TensorArray ta = must(TensorArray::create(b, tf::DT_FLOAT, 3));
        ta = must(ta.write(b, 0, vec(b, {1, 2}, TensorShape{2})));
        auto bad = ta.write(b, 1, vec(b, {1, 2, 3}, TensorShape{3}));
        QVERIFY(!bad);
        QVERIFY2(bad.error().message().find("Inconsistent shapes: saw [3] but expected [2]") != std::string::npos,
                 bad.error().toString().c_str());
        auto wrongType = ta.write(b, 1, must(ops::constantInts(b, {1, 2}, TensorShape{2})));
        QVERIFY(!wrongType);
        QVERIFY2(wrongType.error().message().find(
                     "TensorArray dtype is float32 but Op is trying to write dtype int32") != std::string::npos,
                 wrongType.error().toString().c_str());
        // Without infer_shape, other shapes are accepted while building (and refused when run, as
        // the elements are stacked).
        TensorArray loose = must(TensorArray::create(b, tf::DT_FLOAT, 2, {.inferShape = false, .name = "loose"}));
        loose = must(loose.write(b, 0, vec(b, {1, 2}, TensorShape{2})));
        loose = must(loose.write(b, 1, vec(b, {1, 2, 3}, TensorShape{3})));
        QVERIFY(loose.elementShape().isUnknownRank());
        auto values = runGraph(*m_registries, b, {}, {must(loose.stack(b)).name()});
        QVERIFY(!values);
        QVERIFY2(values.error().message().find("Index 0 has shape: [2] but index 1 has shape: [3]") !=
                     std::string::npos,
                 values.error().toString().c_str());
    }

    /// squares[i] = (i + 1)^2 * x written by every iteration of a loop whose vars are (i, flow); the
    /// stack after the loop knows the element shape the body's write taught the array.
    void whileLoopWritesEveryIteration()
    {
        GraphBuilder b(m_registries->ops);
        Output x = vec(b, {1, -2}, TensorShape{2});
        Output n = must(ops::placeholder(b, tf::DT_INT32, TensorShape::scalar(), "n"));
        TensorArray ta = must(TensorArray::create(b, tf::DT_FLOAT, n));
        Output i0 = must(scalarInt32(b, 0));
        auto out = whileLoop(
            b,
            [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
                return ops::firstOutput(g.op("Less", {v[0], n}));
            },
            [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
                TSTUDIO_TRY(next, ops::add(g, v[0], one, "add"));
                TSTUDIO_TRY(k, ops::firstOutput(g.op("Cast", {next}, {{"DstT", attr::type(tf::DT_FLOAT)}})));
                TSTUDIO_TRY(k2, ops::mul(g, k, k));
                TSTUDIO_TRY(value, ops::mul(g, x, k2));
                TSTUDIO_TRY(written, ta.withFlow(v[1]).write(g, v[0], value));
                return std::vector<Output>{next, written.flow()};
            },
            {i0, ta.flow()});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        QCOMPARE(b.findNode("while/TensorArrayWrite/TensorArrayWriteV3")->op(), std::string("TensorArrayWriteV3"));
        // The handle, made outside, entered the loop through an is_constant Enter.
        const tf::NodeDef* write = b.findNode("while/TensorArrayWrite/TensorArrayWriteV3");
        const tf::NodeDef* enter = b.findNode(write->input(0));
        QVERIFY(enter);
        QCOMPARE(enter->op(), std::string("Enter"));
        QCOMPARE(enter->attr().at("is_constant").b(), true);
        TensorArray done = ta.withFlow((*out)[1]);
        QCOMPARE(done.elementShape(), TensorShape({2}));
        Output stacked = must(done.stack(b));
        QCOMPARE(stacked.shape(), TensorShape({-1, 2}));
        for (int count : {0, 1, 4}) {
            static CpuAllocator allocator;
            const Tensor nv = *Tensor::fromVector(allocator, TensorShape::scalar(), std::vector<std::int32_t>{count});
            if (count == 0) {
                // An empty array stacks to [0, 2]: the element shape is fully defined.
                auto values = runGraph(*m_registries, b, {{"n", nv}}, {stacked.name()});
                QVERIFY2(values, values ? "" : values.error().toString().c_str());
                QCOMPARE(values->at(0).shape(), TensorShape({0, 2}));
                continue;
            }
            auto values = runGraph(*m_registries, b, {{"n", nv}}, {stacked.name()});
            QVERIFY2(values, values ? "" : values.error().toString().c_str());
            std::vector<float> want;
            for (int i = 1; i <= count; ++i) {
                want.push_back(static_cast<float>(i * i));
                want.push_back(static_cast<float>(-2 * i * i));
            }
            QCOMPARE(floatsOf(values->at(0)), want);
        }
    }

    /// dynamic_rnn's shape: the inputs unstacked into one array read at step t, the outputs written
    /// to another at t, a state carried: h = tanh(x_t + 0.5 h), out_t = 2 h.
    void whileLoopReadsOneArrayAndWritesAnother()
    {
        GraphBuilder b(m_registries->ops);
        const std::vector<double> xs = {0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, 0.8, -0.9};
        Output inputs = vec(b, xs, TensorShape{3, 3});
        TensorArray in = must(TensorArray::create(b, tf::DT_FLOAT, 3, {.name = "input"}));
        in = must(in.unstack(b, inputs));
        TensorArray out = must(TensorArray::create(b, tf::DT_FLOAT, 3, {.name = "output"}));
        Output t0 = must(scalarInt32(b, 0));
        Output h0 = must(ops::zeros(b, TensorShape{3}));
        auto loop = whileLoop(
            b,
            [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
                TSTUDIO_TRY(limit, scalarInt32(g, 3, "Less/y"));
                return ops::firstOutput(g.op("Less", {v[0], limit}));
            },
            [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                TSTUDIO_TRY(x, in.read(g, v[0]));
                TSTUDIO_TRY(half, ops::constant(g, 0.5, tf::DT_FLOAT, "half"));
                TSTUDIO_TRY(carried, ops::mul(g, v[1], half));
                TSTUDIO_TRY(pre, ops::add(g, x, carried));
                TSTUDIO_TRY(h, ops::firstOutput(g.op("Tanh", {pre})));
                TSTUDIO_TRY(two, ops::constant(g, 2.0, tf::DT_FLOAT, "two"));
                TSTUDIO_TRY(y, ops::mul(g, h, two));
                TSTUDIO_TRY(written, out.withFlow(v[2]).write(g, v[0], y));
                TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
                TSTUDIO_TRY(t, ops::add(g, v[0], one, "add"));
                return std::vector<Output>{t, h, written.flow()};
            },
            {t0, h0, out.flow()});
        QVERIFY2(loop, loop ? "" : loop.error().toString().c_str());
        Output stacked = must(out.withFlow((*loop)[2]).stack(b));
        QCOMPARE(stacked.shape(), TensorShape({-1, 3}));
        auto values = runGraph(*m_registries, b, {}, {stacked.name(), (*loop)[1].name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        std::vector<double> h(3, 0.0);
        std::vector<float> want;
        for (int t = 0; t < 3; ++t) {
            for (int k = 0; k < 3; ++k) {
                h[static_cast<std::size_t>(k)] =
                    std::tanh(xs[static_cast<std::size_t>(3 * t + k)] + 0.5 * h[static_cast<std::size_t>(k)]);
                want.push_back(static_cast<float>(2.0 * h[static_cast<std::size_t>(k)]));
            }
        }
        const std::vector<float> got = floatsOf(values->at(0));
        QCOMPARE(got.size(), want.size());
        for (std::size_t k = 0; k < got.size(); ++k)
            QVERIFY2(std::abs(got[k] - want[k]) < 1e-6f,
                     qPrintable(QString("%1: %2 vs %3").arg(k).arg(got[k]).arg(want[k])));
    }
};

QTEST_GUILESS_MAIN(TestTensorArray)
#include "test_tensor_array.moc"
