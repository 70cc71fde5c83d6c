// Tests for the debugger inside a tf.while_loop built with whileLoop: a breakpoint on a body node
// pauses once per iteration with the frame and iteration, an iteration condition pauses only where it
// holds, and the execution list keeps every iteration's execution.
#include "builder/ops_sugar.h"
#include "builder/while_loop.h"
#include "debugger/debug_controller.h"
#include "graph_run.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QtTest>

#include <future>

using namespace tstudio;
using testing::scalarInt32;
namespace tf = tensorflow;
using namespace std::chrono_literals;

namespace {

constexpr int kIterations = 5;
const std::string kFrame = "while/while_context";

/// i, x = 0, 1.0; while i < 5: i, x = i + 1, x * 2. Fetch "while/Exit_1" (x, 32 at the end).
Expected<std::vector<Output>> doublingLoop(GraphBuilder& b)
{
    TSTUDIO_TRY(i0, scalarInt32(b, 0, "i0"));
    TSTUDIO_TRY(x0, ops::constant(b, 1.0, tf::DT_FLOAT, "x0"));
    return whileLoop(
        b,
        [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<Output> {
            TSTUDIO_TRY(n, scalarInt32(g, kIterations, "Less/y"));
            TSTUDIO_TRY(less, g.op("Less", {v[0], n}));
            return less.output(0);
        },
        [](GraphBuilder& g, const std::vector<Output>& v) -> Expected<std::vector<Output>> {
            TSTUDIO_TRY(one, scalarInt32(g, 1, "add/y"));
            TSTUDIO_TRY(i, ops::add(g, v[0], one, "add"));
            TSTUDIO_TRY(two, ops::constant(g, 2.0, tf::DT_FLOAT, "mul/y"));
            TSTUDIO_TRY(x, ops::mul(g, v[1], two, "mul"));
            return std::vector<Output>{i, x};
        },
        {i0, x0});
}

std::future<std::pair<Status, std::vector<Tensor>>> runAsync(Session& session, DebugController& controller)
{
    return std::async(std::launch::async, [&session, &controller] {
        std::vector<Tensor> out;
        Status s = session.run(tf::RunOptions(), {}, {"while/Exit_1"}, {}, &out, nullptr, &controller);
        return std::make_pair(s, out);
    });
}

debugger::BreakpointSet breakpoints(const std::vector<std::string>& texts)
{
    std::vector<debugger::Breakpoint> list;
    for (const std::string& text : texts) {
        auto parsed = debugger::parseBreakpoint(text);
        if (!parsed)
            qFatal("%s", parsed.error().toString().c_str());
        list.push_back(*parsed);
    }
    auto set = debugger::BreakpointSet::create(std::move(list));
    if (!set)
        qFatal("%s", set.error().toString().c_str());
    return *set;
}

} // namespace

class TestDebugWhileLoop : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

    std::unique_ptr<Session> makeSession()
    {
        GraphBuilder b(m_registries->ops);
        if (!doublingLoop(b))
            return nullptr;
        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        auto session = std::make_unique<Session>(options);
        if (!session->create(b.graphDef()).isOk())
            return nullptr;
        // For a look with the terminal debugger: TSTUDIO_LOOP_GRAPH=<file.pb> writes the graph.
        if (const QString path = qEnvironmentVariable("TSTUDIO_LOOP_GRAPH"); !path.isEmpty()) {
            QFile file(path);
            if (file.open(QIODevice::WriteOnly))
                file.write(QByteArray::fromStdString(b.graphDef().SerializeAsString()));
        }
        return session;
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    /// A breakpoint on the body's Mul pauses before it in each of the 5 iterations, showing the
    /// frame, the iteration and the input of that iteration (2^k); then the run gives 32.
    void breakpointInBodyPausesEveryIteration()
    {
        auto session = makeSession();
        QVERIFY(session);
        DebugController controller;
        controller.setBreakpoints(breakpoints({"node:while/mul"}));
        auto result = runAsync(*session, controller);
        std::vector<std::int64_t> iterations;
        for (int k = 0; k < kIterations; ++k) {
            QVERIFY(controller.waitUntilPaused(10s));
            const auto point = controller.pausePoint();
            QVERIFY(point);
            QCOMPARE(point->node, std::string("while/mul"));
            QCOMPARE(point->reason, PausePoint::Reason::kBreakpoint);
            QCOMPARE(point->breakpoint, std::optional<std::size_t>(0));
            QCOMPARE(point->frame, kFrame);
            QVERIFY(!point->afterNode);
            QCOMPARE(point->names.front(), std::string("while/Identity_1:0"));
            QCOMPARE(point->values.front().scalar<float>(), float(1 << k));
            iterations.push_back(point->iteration);
            controller.resume();
        }
        auto [status, out] = result.get();
        QVERIFY2(status.isOk(), status.toString().c_str());
        QCOMPARE(out.size(), std::size_t(1));
        QCOMPARE(out[0].scalar<float>(), 32.0f);
        QCOMPARE(iterations, (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
        QCOMPARE(controller.runsFinished(), std::int64_t(1));
        QVERIFY(!controller.isPaused());

        // The execution list holds each iteration's Mul, in order, with the frame.
        std::vector<std::int64_t> listed;
        for (const ExecutedNode& node : controller.executedNodes())
            if (node.node == "while/mul") {
                QCOMPARE(node.frame, kFrame);
                listed.push_back(node.iteration);
            }
        QCOMPARE(listed, iterations);
        // Nodes outside the loop have no frame.
        for (const ExecutedNode& node : controller.executedNodes())
            if (node.node == "x0")
                QVERIFY(node.frame.empty());
    }

    /// "if iteration == 3" pauses once, in iteration 3, with x = 8 coming in; ">= 3" twice.
    void iterationConditionPausesOnlyThere()
    {
        for (const auto& [text, expected] : std::vector<std::pair<std::string, std::vector<std::int64_t>>>{
                 {"node:while/mul if iteration == 3", {3}},
                 {"node:while/mul if iteration >= 3", {3, 4}},
                 {"op:Mul if iteration < 1", {0}},
                 {"node:while/mul if iteration > 4", {}}}) {
            auto session = makeSession();
            QVERIFY(session);
            DebugController controller;
            controller.setBreakpoints(breakpoints({text}));
            auto result = runAsync(*session, controller);
            std::vector<std::int64_t> iterations;
            for (std::size_t k = 0; k < expected.size(); ++k) {
                QVERIFY2(controller.waitUntilPaused(10s), text.c_str());
                const auto point = controller.pausePoint();
                QCOMPARE(point->node, std::string("while/mul"));
                QCOMPARE(point->values.front().scalar<float>(), float(1 << point->iteration));
                iterations.push_back(point->iteration);
                controller.resume();
            }
            auto [status, out] = result.get();
            QVERIFY2(status.isOk(), status.toString().c_str());
            QCOMPARE(out[0].scalar<float>(), 32.0f);
            QVERIFY2(iterations == expected, text.c_str());
            QCOMPARE(controller.runsFinished(), std::int64_t(1));
        }
    }

    /// The iteration condition's text form reads back, and bad iterations are refused with a message.
    void iterationConditionText()
    {
        auto parsed = debugger::parseBreakpoint("node:while/mul if iteration != 2");
        QVERIFY2(parsed, parsed ? "" : parsed.error().toString().c_str());
        QCOMPARE(parsed->condition.kind, debugger::TensorCondition::Kind::kIteration);
        QCOMPARE(parsed->condition.compare, debugger::TensorCondition::Compare::kNotEqual);
        QCOMPARE(parsed->condition.value, 2.0);
        QCOMPARE(debugger::formatBreakpoint(*parsed), std::string("node:while/mul if iteration != 2"));
        QCOMPARE(*debugger::parseBreakpoint(debugger::formatBreakpoint(*parsed)), *parsed);
        for (const char* bad : {"node:x if iteration == 1.5", "node:x if iteration == -1", "node:x if iteration >"}) {
            auto refused = debugger::parseBreakpoint(bad);
            QVERIFY2(!refused, bad);
            QCOMPARE(refused.error().code(), StatusCode::kInvalidArgument);
        }
        QVERIFY(
            debugger::parseBreakpoint("node:x if iteration == 1.5").error().message().find("expected a whole number") !=
            std::string::npos);
        // Outside loops the iteration is 0.
        auto set = debugger::BreakpointSet::create({*debugger::parseBreakpoint("any if iteration == 0")});
        QVERIFY(set);
        tf::NodeDef node;
        node.set_name("a");
        node.set_op("Const");
        QCOMPARE(set->matchBefore(node), std::optional<std::size_t>(0));
        QCOMPARE(set->matchBefore(node, 1), std::optional<std::size_t>());
        QVERIFY(!set->wantsOutputs(node));
    }
};

QTEST_GUILESS_MAIN(TestDebugWhileLoop)
#include "test_debug_while_loop.moc"
