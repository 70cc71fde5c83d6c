// Tests for whileLoop (tf.while_loop of TensorFlow 1.15): the nodes, names and attrs it builds, the
// capture of outside tensors through is_constant Enters, the pivot control inputs, running loops
// (one var, two vars, nested), and the errors.
#include "builder/ops_sugar.h"
#include "builder/while_loop.h"
#include "framework/kernel_registry.h"
#include "framework/op_registry.h"
#include "graph_run.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QtTest>

#include <algorithm>

using namespace tstudio;
using testing::runGraph;
using testing::scalarInt32;
namespace tf = tensorflow;

namespace {

Expected<Output> lessThan(GraphBuilder& b, const Output& i, std::int64_t limit)
{
    TSTUDIO_TRY(n, scalarInt32(b, limit, "Less/y"));
    TSTUDIO_TRY(less, b.op("Less", {i, n}));
    return less.output(0);
}

/// i < 10: (i + 1, x * 2).
Expected<std::vector<Output>> doublingLoop(GraphBuilder& b, const Output& x, const WhileLoopOptions& options = {})
{
    TSTUDIO_TRY(i0, scalarInt32(b, 0));
    return whileLoop(
        b, [](GraphBuilder& g, const std::vector<Output>& v) { return lessThan(g, v[0], 10); },
        [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
            TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
            TSTUDIO_TRY(i, ops::add(g, v[0], one, "add"));
            TSTUDIO_TRY(two, ops::constant(g, 2.0, tf::DT_FLOAT, "mul/y"));
            TSTUDIO_TRY(x, ops::mul(g, v[1], two, "mul"));
            return std::vector<Output>{i, x};
        },
        {i0, x}, options);
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

class TestWhileLoop : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    Tensor floats(const TensorShape& shape, const std::vector<float>& v)
    {
        static CpuAllocator allocator;
        return *Tensor::fromVector(allocator, shape, v);
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    /// The nodes TensorFlow's while_loop makes, with its names, frame name and attrs.
    void buildsTensorFlowsNodes()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2}, "x");
        auto out = doublingLoop(b, *x);
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        const std::pair<const char*, const char*> expected[] = {{"while/Enter", "Enter"},
                                                                {"while/Enter_1", "Enter"},
                                                                {"while/Merge", "Merge"},
                                                                {"while/Merge_1", "Merge"},
                                                                {"while/Less", "Less"},
                                                                {"while/LoopCond", "LoopCond"},
                                                                {"while/Switch", "Switch"},
                                                                {"while/Switch_1", "Switch"},
                                                                {"while/Identity", "Identity"},
                                                                {"while/Identity_1", "Identity"},
                                                                {"while/add", "Add"},
                                                                {"while/mul", "Mul"},
                                                                {"while/NextIteration", "NextIteration"},
                                                                {"while/NextIteration_1", "NextIteration"},
                                                                {"while/Exit", "Exit"},
                                                                {"while/Exit_1", "Exit"}};
        for (const auto& [name, op] : expected) {
            const tf::NodeDef* n = b.findNode(name);
            QVERIFY2(n != nullptr, name);
            QCOMPARE(n->op(), std::string(op));
        }
        const tf::NodeDef* enter = b.findNode("while/Enter_1");
        QCOMPARE(enter->attr().at("frame_name").s(), std::string("while/while_context"));
        QCOMPARE(enter->attr().at("is_constant").b(), false);
        QCOMPARE(enter->attr().at("parallel_iterations").i(), std::int64_t(10));
        QCOMPARE(enter->input(0), std::string("x"));
        const tf::NodeDef* merge = b.findNode("while/Merge_1");
        QCOMPARE(merge->input(0), std::string("while/Enter_1"));
        QCOMPARE(merge->input(1), std::string("while/NextIteration_1"));
        QCOMPARE(b.findNode("while/Switch_1")->input(1), std::string("while/LoopCond"));
        QCOMPARE(b.findNode("while/Exit_1")->input(0), std::string("while/Switch_1"));
        QCOMPARE(b.findNode("while/Identity_1")->input(0), std::string("while/Switch_1:1"));
        QCOMPARE((*out)[1].node(), std::string("while/Exit_1"));
        QCOMPARE((*out)[1].shape(), (TensorShape{2}));
        // Constants in the loop wait for the pivot (the first loop var's Identity), once per iteration.
        QCOMPARE(controlInputs(*b.findNode("while/mul/y")), std::vector<std::string>{"^while/Identity"});
        QCOMPARE(controlInputs(*b.findNode("while/Less/y")), std::vector<std::string>{"^while/Merge"});
        // The contexts: every loop node in the loop's WhileContext.
        WhileContext* context = whileContextOf(b.contextOf("while/mul"));
        QVERIFY(context != nullptr);
        QCOMPARE(context->name(), std::string("while/while_context"));
        QCOMPARE(b.contextOf("x"), nullptr);
        QCOMPARE(context->loopExits().size(), std::size_t(2));

        // A second loop gets its own scope and frame.
        auto second = doublingLoop(b, (*out)[1]);
        QVERIFY(second);
        QCOMPARE(b.findNode("while_1/Enter")->attr().at("frame_name").s(), std::string("while_1/while_context"));
    }

    /// i < 10: x = x * 2 runs ten times.
    void runsTheLoop()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2}, "x");
        WhileLoopOptions options;
        options.parallelIterations = 1;
        auto out = doublingLoop(b, *x, options);
        QVERIFY(out);
        QCOMPARE(b.findNode("while/Enter")->attr().at("parallel_iterations").i(), std::int64_t(1));
        auto values =
            runGraph(*m_registries, b, {{"x", floats({2}, {1.5f, -0.25f})}}, {(*out)[0].name(), (*out)[1].name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(values->at(0).values<std::int32_t>()[0], 10);
        QCOMPARE(values->at(1).values<float>()[0], 1.5f * 1024);
        QCOMPARE(values->at(1).values<float>()[1], -0.25f * 1024);
    }

    /// A tensor from outside used in the body enters once, as an is_constant Enter named under the
    /// op that uses it; the op reading only loop invariants waits for the pivot.
    void capturesOutsideTensors()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2}, "x");
        auto w = ops::placeholder(b, tf::DT_FLOAT, {2}, "w");
        auto out = whileLoop(
            b, [](GraphBuilder& g, const std::vector<Output>& v) { return lessThan(g, v[0], 3); },
            [&](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
                TSTUDIO_TRY(i, ops::add(g, v[0], one, "add"));
                TSTUDIO_TRY(wx, ops::mul(g, v[1], *w, "mul"));
                TSTUDIO_TRY(ww, ops::mul(g, *w, *w, "mul_1"));
                TSTUDIO_TRY(sum, ops::add(g, wx, ww, "add_1"));
                // The initial value of a loop var is an outside tensor inside the body.
                TSTUDIO_TRY(zero, ops::mul(g, *x, *x, "mul_2"));
                TSTUDIO_TRY(zero2, ops::sub(g, zero, zero, "sub"));
                TSTUDIO_TRY(next, ops::add(g, sum, zero2, "add_2"));
                return std::vector<Output>{i, next};
            },
            {*scalarInt32(b, 0), *x});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        const tf::NodeDef* enter = b.findNode("while/mul/Enter");
        QVERIFY(enter != nullptr);
        QCOMPARE(enter->op(), std::string("Enter"));
        QCOMPARE(enter->input(0), std::string("w"));
        QCOMPARE(enter->attr().at("is_constant").b(), true);
        QCOMPARE(enter->attr().at("frame_name").s(), std::string("while/while_context"));
        QCOMPARE(b.findNode("while/mul")->input(1), std::string("while/mul/Enter"));
        // Entered once: mul_1 reuses it, and waits for the pivot.
        QCOMPARE(b.findNode("while/mul_1")->input(0), std::string("while/mul/Enter"));
        QCOMPARE(controlInputs(*b.findNode("while/mul_1")), std::vector<std::string>{"^while/Identity"});
        QVERIFY(b.findNode("while/mul_1/Enter") == nullptr);
        QCOMPARE(b.findNode("while/mul_2")->input(0), std::string("while/mul_2/Enter"));
        QCOMPARE(b.findNode("while/mul_2/Enter")->input(0), std::string("x"));
        QVERIFY(b.findNode("while/mul_2/Enter")->attr().at("is_constant").b());
        // x <- x w + w^2 three times.
        auto values = runGraph(*m_registries, b, {{"x", floats({2}, {1.0f, 2.0f})}, {"w", floats({2}, {0.5f, -1.0f})}},
                               {(*out)[1].name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        float a = 1.0f, c = 2.0f;
        for (int k = 0; k < 3; ++k) {
            a = a * 0.5f + 0.25f;
            c = c * -1.0f + 1.0f;
        }
        QCOMPARE(values->at(0).values<float>()[0], a);
        QCOMPARE(values->at(0).values<float>()[1], c);
    }

    /// A loop in a loop body: the inner loop's frame nests; 3 x 4 iterations.
    void nestedLoopsRun()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape::scalar(), "x");
        auto out = whileLoop(
            b, [](GraphBuilder& g, const std::vector<Output>& v) { return lessThan(g, v[0], 3); },
            [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                TSTUDIO_TRY(inner,
                            whileLoop(
                                g, [](GraphBuilder& h, const std::vector<Output>& w) { return lessThan(h, w[0], 4); },
                                [](GraphBuilder& h, const std::vector<Output>& w) -> Expected<std::vector<Output>> {
                                    TSTUDIO_TRY(one, scalarInt32(h, 1, "add/y"));
                                    TSTUDIO_TRY(j, ops::add(h, w[0], one, "add"));
                                    TSTUDIO_TRY(k, ops::constant(h, 1.0, tf::DT_FLOAT, "k"));
                                    TSTUDIO_TRY(y, ops::add(h, w[1], k, "add_1"));
                                    return std::vector<Output>{j, y};
                                },
                                {*scalarInt32(g, 0), v[1]}));
                TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
                TSTUDIO_TRY(i, ops::add(g, v[0], one, "add"));
                return std::vector<Output>{i, inner[1]};
            },
            {*scalarInt32(b, 0), *x});
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        QCOMPARE(b.findNode("while/while/Enter")->attr().at("frame_name").s(),
                 std::string("while/while/while_context"));
        WhileContext* inner = whileContextOf(b.contextOf("while/while/add_1"));
        QVERIFY(inner != nullptr);
        QCOMPARE(inner->outerContext(), static_cast<ControlFlowContext*>(whileContextOf(b.contextOf("while/add"))));
        auto values = runGraph(*m_registries, b, {{"x", floats(TensorShape::scalar(), {0.5f})}}, {(*out)[1].name()});
        QVERIFY2(values, values ? "" : values.error().toString().c_str());
        QCOMPARE(values->at(0).values<float>()[0], 12.5f);
    }

    void errors()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {2}, "x");
        const auto cond = [](GraphBuilder& g, const std::vector<Output>& v) { return lessThan(g, v[0], 3); };
        auto none = whileLoop(
            b, cond, [](GraphBuilder&, const std::vector<Output>& v) { return Expected<std::vector<Output>>(v); }, {});
        QVERIFY(!none);
        QCOMPARE(none.error().message(), std::string("No loop variables provided"));
        auto wrongCount = whileLoop(
            b, cond, [](GraphBuilder&, const std::vector<Output>& v) { return Expected<std::vector<Output>>({v[0]}); },
            {*scalarInt32(b, 0), *x});
        QVERIFY(!wrongCount);
        QVERIFY2(wrongCount.error().message().find("Number of inputs and outputs of body must match loop_vars: 2, 1") !=
                     std::string::npos,
                 wrongCount.error().toString().c_str());
        auto wrongShape =
            whileLoop(b, cond,
                      [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
                          TSTUDIO_TRY(axes, ops::constantInts(g, {0}, TensorShape{1}, tf::DT_INT32, "axes"));
                          TSTUDIO_TRY(c, ops::constantInts(g, {1}, TensorShape::scalar(), tf::DT_INT32, "one"));
                          TSTUDIO_TRY(i, ops::add(g, v[0], c, "add"));
                          TSTUDIO_TRY(s, ops::sum(g, v[1], axes));
                          return std::vector<Output>{i, s};
                      },
                      {*scalarInt32(b, 0), *x});
        QVERIFY(!wrongShape);
        QVERIFY2(wrongShape.error().message().find("enters the loop with shape [2], but has shape [] after one "
                                                   "iteration") != std::string::npos,
                 wrongShape.error().toString().c_str());
        auto notBool = whileLoop(
            b, [](GraphBuilder&, const std::vector<Output>& v) { return Expected<Output>(v[1]); },
            [](GraphBuilder&, const std::vector<Output>& v) { return Expected<std::vector<Output>>(v); },
            {*scalarInt32(b, 0), *x});
        QVERIFY(!notBool);
    }
};

QTEST_GUILESS_MAIN(TestWhileLoop)
#include "test_while_loop.moc"
