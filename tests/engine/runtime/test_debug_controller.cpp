// Tests for the debugger seam: a DebugController attached to Session::run pauses before nodes,
// steps, runs to a node or an op type, stops after the first NaN or Inf, and cancels the run.
#include "runtime_test_support.h"

#include "debugger/debug_controller.h"
#include "kernels/kernels.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <future>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

using namespace std::chrono_literals;

const std::string kChain = constNode("a", 1) + constNode("b", 2) + binaryNode("sum", "Add", "a", "b") +
                           binaryNode("prod", "Mul", "sum", "b") + unaryNode("out", "Identity", "prod");

/// Runs `fetches` on another thread with `controller` attached.
std::future<std::pair<Status, std::vector<Tensor>>> runAsync(Session& session, DebugController& controller,
                                                             std::vector<std::string> fetches)
{
    return std::async(std::launch::async, [&session, &controller, fetches] {
        std::vector<Tensor> out;
        Status s = session.run(tensorflow::RunOptions(), {}, fetches, {}, &out, nullptr, &controller);
        return std::make_pair(s, out);
    });
}

} // namespace

class TestDebugController : public QObject {
    Q_OBJECT

private slots:
    void pauseAndStepInTopologicalOrder()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kChain, &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        std::vector<std::string> pausedAt;
        controller.setPauseCallback([&](const PausePoint& p) { pausedAt.push_back(p.node); });
        controller.pause();
        auto result = runAsync(*session, controller, {"out"});

        QVERIFY(controller.waitUntilPaused(10s));
        auto point = controller.pausePoint();
        QVERIFY(point.has_value());
        QCOMPARE(point->node, std::string("a"));
        QCOMPARE(point->reason, PausePoint::Reason::kPauseRequested);
        QVERIFY(f.log.order().empty()); // nothing runs while paused

        const std::vector<std::string> expected{"b", "sum", "prod", "out"};
        for (const std::string& node : expected) {
            controller.step();
            QVERIFY(controller.waitUntilPaused(10s));
            point = controller.pausePoint();
            QCOMPARE(point->node, node);
            QCOMPARE(point->reason, PausePoint::Reason::kStep);
        }
        // Paused before 'out': everything before it ran, 'out' did not.
        QCOMPARE(f.log.order(), (std::vector<std::string>{"a", "b", "sum", "prod"}));
        QCOMPARE(point->values.size(), std::size_t(1));
        QCOMPARE(point->values[0].scalar<float>(), 6.0f);

        controller.resume();
        auto [status, out] = result.get();
        QVERIFY2(status.isOk(), status.toString().c_str());
        QCOMPARE(out[0].scalar<float>(), 6.0f);
        QCOMPARE(pausedAt, (std::vector<std::string>{"a", "b", "sum", "prod", "out"}));
        QVERIFY(!controller.isPaused());
    }

    void runToNodeAndToOpType()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kChain, &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        controller.runToNode("prod");
        auto result = runAsync(*session, controller, {"out"});
        QVERIFY(controller.waitUntilPaused(10s));
        auto point = controller.pausePoint();
        QCOMPARE(point->node, std::string("prod"));
        QCOMPARE(point->reason, PausePoint::Reason::kRunToNode);
        QCOMPARE(point->values.size(), std::size_t(2));
        QCOMPARE(point->values[0].scalar<float>(), 3.0f);
        QCOMPARE(point->values[1].scalar<float>(), 2.0f);
        QCOMPARE(f.log.count("prod"), 0);
        controller.resume();
        QVERIFY(result.get().first.isOk());

        f.log.clear();
        controller.runToOp("Identity");
        result = runAsync(*session, controller, {"out"});
        QVERIFY(controller.waitUntilPaused(10s));
        point = controller.pausePoint();
        QCOMPARE(point->node, std::string("out"));
        QCOMPARE(point->op, std::string("Identity"));
        QCOMPARE(point->reason, PausePoint::Reason::kRunToOp);
        controller.resume();
        QVERIFY(result.get().first.isOk());
        QCOMPARE(f.log.count("out"), 1);
    }

    void runToANodeInsideALoopShowsItsIteration()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(whileGraph(3), &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        controller.runToNode("while/add");
        auto result = runAsync(*session, controller, {"while/Exit"});
        for (int iteration = 0; iteration < 3; ++iteration) {
            QVERIFY(controller.waitUntilPaused(10s));
            const auto point = controller.pausePoint();
            QCOMPARE(point->node, std::string("while/add"));
            QCOMPARE(point->frame, std::string("while/while_context"));
            QCOMPARE(point->iteration, std::int64_t(iteration));
            QCOMPARE(point->values[0].scalar<std::int32_t>(), iteration);
            controller.runToNode("while/add");
        }
        auto [status, out] = result.get();
        QVERIFY2(status.isOk(), status.toString().c_str());
        QCOMPARE(out[0].scalar<std::int32_t>(), 3);
    }

    void cancelStopsTheRun()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kChain, &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        controller.runToNode("sum");
        auto result = runAsync(*session, controller, {"out"});
        QVERIFY(controller.waitUntilPaused(10s));
        controller.cancel();
        auto [status, out] = result.get();
        QCOMPARE(status.code(), StatusCode::kCancelled);
        QCOMPARE(status.message(), std::string("Run call was cancelled"));
        QVERIFY(out.empty());
        QCOMPARE(f.log.count("sum"), 0);
        QCOMPARE(f.log.count("out"), 0);

        // The session is still usable, and the controller is ready for the next run.
        f.log.clear();
        result = runAsync(*session, controller, {"out"});
        QVERIFY(result.get().first.isOk());
        QCOMPARE(f.log.count("out"), 1);

        // Cancelled before the run: nothing runs.
        f.log.clear();
        controller.cancel();
        result = runAsync(*session, controller, {"out"});
        QCOMPARE(result.get().first.code(), StatusCode::kCancelled);
        QVERIFY(f.log.order().empty());
    }

    void stopsAfterTheFirstNonFiniteTensor()
    {
        const std::string graph = constNode("zero", 0) + constNode("one", 1) +
                                  binaryNode("inf", "RealDiv", "one", "zero") +
                                  binaryNode("nan", "RealDiv", "zero", "zero") +
                                  binaryNode("both", "Add", "nan", "inf") + unaryNode("after", "Identity", "both");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        controller.setStopOnNonFinite(true);
        auto result = runAsync(*session, controller, {"after"});
        QVERIFY(controller.waitUntilPaused(10s));
        auto point = controller.pausePoint();
        QCOMPARE(point->node, std::string("inf"));
        QCOMPARE(point->reason, PausePoint::Reason::kNonFinite);
        QVERIFY(point->afterNode);
        QCOMPARE(point->detail, std::string("output 0 of node 'inf' has Inf"));
        QVERIFY(std::isinf(point->values[0].scalar<float>()));
        QCOMPARE(f.log.count("nan"), 0);

        controller.resume();
        QVERIFY(controller.waitUntilPaused(10s));
        point = controller.pausePoint();
        QCOMPARE(point->node, std::string("nan"));
        QCOMPARE(point->detail, std::string("output 0 of node 'nan' has NaN"));
        controller.cancel();
        QCOMPARE(result.get().first.code(), StatusCode::kCancelled);
        QCOMPARE(f.log.count("after"), 0);

        // Without the stop, the same graph runs to the end.
        controller.reset();
        result = runAsync(*session, controller, {"after"});
        auto [status, out] = result.get();
        QVERIFY(status.isOk());
        QVERIFY(std::isnan(out[0].scalar<float>()));
    }

    void deadNodesNeverPause()
    {
        const std::string graph = constNode("x", 3) + boolPlaceholder("pred") +
                                  opNode("s", "Switch", {"x", "pred"}, "DT_FLOAT") +
                                  opNode("t", "Identity", {"s:1"}, "DT_FLOAT") +
                                  opNode("e", "Identity", {"s"}, "DT_FLOAT") + mergeNode("m", "e", "t", "DT_FLOAT");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        std::vector<std::string> pauses;
        controller.setPauseCallback([&](const PausePoint& p) { pauses.push_back(p.node); });
        controller.step();
        auto result = std::async(std::launch::async, [&] {
            std::vector<Tensor> out;
            return session->run(tensorflow::RunOptions(), {{"pred", boolScalar(true)}}, {"m"}, {}, &out, nullptr,
                                &controller);
        });
        for (int i = 0; i < 100 && result.wait_for(0s) != std::future_status::ready; ++i) {
            if (controller.waitUntilPaused(100ms))
                controller.step();
        }
        QVERIFY(result.get().isOk());
        // 'e' is on the untaken branch: it is visited dead and never paused at.
        QCOMPARE(pauses, (std::vector<std::string>{"x", "s", "t", "m"}));
    }
    void breakpointsPauseBeforeAndConditionsAfter()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kChain, &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        std::vector<debugger::Breakpoint> list;
        for (const char* spec : {"node:b", "op:Mul", "node:sum if max > 2", "node:out if max > 100"})
            list.push_back(debugger::parseBreakpoint(spec).value());
        list[0].enabled = false;
        controller.setBreakpoints(debugger::BreakpointSet::create(list).value());
        auto result = runAsync(*session, controller, {"out"});

        // sum = 3 > 2: paused after it, with its output.
        QVERIFY(controller.waitUntilPaused(10s));
        auto point = controller.pausePoint();
        QCOMPARE(point->node, std::string("sum"));
        QCOMPARE(point->reason, PausePoint::Reason::kBreakpoint);
        QCOMPARE(point->breakpoint, std::optional<std::size_t>(2));
        QVERIFY(point->afterNode);
        QCOMPARE(point->values[0].scalar<float>(), 3.0f);
        QVERIFY2(point->detail.find("max") != std::string::npos, point->detail.c_str());
        QCOMPARE(point->executed, std::int64_t(3)); // a, b, sum

        // op:Mul: paused before prod, with its inputs; the disabled breakpoint on b never fired.
        controller.resume();
        QVERIFY(controller.waitUntilPaused(10s));
        point = controller.pausePoint();
        QCOMPARE(point->node, std::string("prod"));
        QCOMPARE(point->breakpoint, std::optional<std::size_t>(1));
        QVERIFY(!point->afterNode);
        QCOMPARE(point->values.size(), std::size_t(2));

        // out = 6 is not above 100: the run finishes.
        controller.resume();
        auto [status, out] = result.get();
        QVERIFY2(status.isOk(), status.toString().c_str());
        QCOMPARE(out[0].scalar<float>(), 6.0f);
    }

    void fedTensorsAreInspectableOnceTheRunHasItsFeeds()
    {
        // x is fed (a data source's batch): its node never runs, so only the feeds hold its value.
        RuntimeFixture f;
        std::string error;
        const std::string graph = "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n" +
                                  constNode("two", 2) + binaryNode("y", "Mul", "x", "two") + unaryNode("out", "Identity", "y");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        auto runWith = [&](float first) {
            return std::async(std::launch::async, [&, first] {
                std::vector<Tensor> out;
                return session->run(tensorflow::RunOptions(), {{"x", floatTensor({2}, {first, first + 1})}}, {"out"}, {},
                                    &out, nullptr, &controller);
            });
        };
        controller.runToNode("out");
        auto result = runWith(3);
        if (!controller.waitUntilPaused(10s)) {
            const Status s = result.get();
            QFAIL(("the run did not pause: " + s.toString()).c_str());
        }
        QCOMPARE(controller.pausePoint()->node, std::string("out")); // x is no input of the node paused at
        QCOMPARE(controller.fedTensors(), (std::vector<std::string>{"x:0"}));
        for (const char* name : {"x", "x:0"}) {
            Expected<Tensor> fed = controller.tensorValue(name);
            QVERIFY2(fed, fed ? "" : fed.error().toString().c_str());
            QCOMPARE(fed->values<float>()[0], 3.0f);
            QCOMPARE(fed->values<float>()[1], 4.0f);
        }
        QVERIFY(!controller.tensorValue("x:1")); // x has one output, and only it is fed
        controller.resume();
        QVERIFY(result.get().isOk());

        // The next run's feeds replace them before its first node, while the last run's record is still shown.
        controller.pause();
        result = runWith(10);
        QVERIFY(controller.waitUntilPaused(10s));
        QCOMPARE(controller.tensorValue("x")->values<float>()[0], 10.0f);
        QCOMPARE(controller.tensorValue("y")->values<float>()[0], 6.0f); // run 1's y
        controller.resume();
        QVERIFY(result.get().isOk());
        controller.sessionClosing(); // feeds go with the other values that may share the session's memory
        QVERIFY(controller.fedTensors().empty());
        QCOMPARE(controller.tensorValue("x").error().code(), StatusCode::kNotFound);
    }

    void executedNodesAndTheirValues()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kChain, &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        QVERIFY(runAsync(*session, controller, {"out"}).get().first.isOk());

        const std::vector<ExecutedNode> executed = controller.executedNodes();
        std::vector<std::string> names;
        for (const ExecutedNode& n : executed) {
            names.push_back(n.node);
            QCOMPARE(n.outputs.size(), std::size_t(1));
            QCOMPARE(n.outputs[0].dtype, tensorflow::DT_FLOAT);
            QCOMPARE(n.outputs[0].bytes, std::int64_t(4));
            QVERIFY(n.durationNanos >= 0 && n.startNanos >= 0);
        }
        QCOMPARE(names, (std::vector<std::string>{"a", "b", "sum", "prod", "out"}));
        QCOMPARE(executed[2].op, std::string("Add"));
        QVERIFY(executed[3].startNanos >= executed[2].startNanos);
        QCOMPARE(controller.runsFinished(), std::int64_t(1));

        QCOMPARE(controller.tensorValue("sum").value().scalar<float>(), 3.0f);
        QCOMPARE(controller.tensorValue("prod:0").value().scalar<float>(), 6.0f);
        QCOMPARE(controller.tensorValue("nope:0").error().code(), StatusCode::kNotFound);
        QCOMPARE(controller.tensorValue("sum:3").error().code(), StatusCode::kInvalidArgument);

        // The session is going: values sharing its buffers go, the list stays.
        controller.sessionClosing();
        QCOMPARE(controller.tensorValue("sum").error().code(), StatusCode::kFailedPrecondition);
        QCOMPARE(controller.executedNodes().size(), std::size_t(5));

        // Without keeping values the list still has dtypes and shapes.
        controller.setRetainValues(false);
        QVERIFY(runAsync(*session, controller, {"out"}).get().first.isOk());
        QCOMPARE(controller.executedNodes().size(), std::size_t(5));
        QCOMPARE(controller.executedNodes()[2].outputs[0].bytes, std::int64_t(4));
        QCOMPARE(controller.tensorValue("sum").error().code(), StatusCode::kFailedPrecondition);
    }

    void stepOverANameScope()
    {
        const std::string graph = constNode("layer/a", 1) + constNode("layer/b", 2) +
                                  binaryNode("layer/sum", "Add", "layer/a", "layer/b") +
                                  unaryNode("out", "Identity", "layer/sum");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        controller.pause();
        auto result = runAsync(*session, controller, {"out"});
        QVERIFY(controller.waitUntilPaused(10s));
        QCOMPARE(controller.pausePoint()->node, std::string("layer/a"));
        controller.stepOverScope();
        QVERIFY(controller.waitUntilPaused(10s));
        QCOMPARE(controller.pausePoint()->node, std::string("out"));
        QCOMPARE(controller.pausePoint()->reason, PausePoint::Reason::kStepOverScope);
        QCOMPARE(f.log.order(), (std::vector<std::string>{"layer/a", "layer/b", "layer/sum"}));
        controller.resume();
        QVERIFY(result.get().first.isOk());
    }

    void continueRunsThenPauseAndKeepWatchedValues()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kChain, &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        controller.setWatched({"sum", "prod:0"});
        controller.setBreakpoints(debugger::BreakpointSet::create({debugger::parseBreakpoint("op:Add").value()}).value());
        controller.pause();
        auto runs = std::async(std::launch::async, [&] {
            for (int i = 0; i < 4; ++i) {
                std::vector<Tensor> out;
                if (Status s = session->run(tensorflow::RunOptions(), {}, {"out"}, {}, &out, nullptr, &controller);
                    !s.isOk())
                    return s;
            }
            return Status::ok();
        });
        QVERIFY(controller.waitUntilPaused(10s));
        QCOMPARE(controller.pausePoint()->run, std::int64_t(0));
        // Two runs go through without stopping at the breakpoint; the third pauses at its start.
        controller.continueRuns(2);
        std::optional<PausePoint> point;
        for (int i = 0; i < 100 && !point; ++i) { // waitUntilPaused also wakes at the end of each run
            controller.waitUntilPaused(100ms);
            point = controller.pausePoint();
        }
        QVERIFY(point);
        QCOMPARE(point->run, std::int64_t(2));
        QCOMPARE(point->node, std::string("a"));
        QCOMPARE(point->executed, std::int64_t(0));
        QCOMPARE(controller.runsFinished(), std::int64_t(2));
        QCOMPARE(controller.executedNodes().size(), std::size_t(5)); // the last run's, kept while paused

        const std::vector<WatchedValue> history = controller.history("sum:0");
        QCOMPARE(history.size(), std::size_t(2));
        QCOMPARE(history[0].run, std::int64_t(0));
        QCOMPARE(history[1].run, std::int64_t(1));
        QCOMPARE(history[1].value.scalar<float>(), 3.0f);
        QCOMPARE(controller.history("prod").size(), std::size_t(2));

        // Breakpoints are back: the third run stops at the Add.
        controller.resume();
        QVERIFY(controller.waitUntilPaused(10s));
        QCOMPARE(controller.pausePoint()->node, std::string("sum"));
        QCOMPARE(controller.pausePoint()->reason, PausePoint::Reason::kBreakpoint);
        controller.setBreakpoints({});
        controller.resume();
        QVERIFY(runs.get().isOk());
        QCOMPARE(controller.history("sum").size(), std::size_t(4));
    }
    void variableReadsKeepTheValueTheySaw()
    {
        // read = v, then ApplyGradientDescent writes v in place: the kept values of v and read
        // must still be what they were when they ran (copied just before the write).
        const std::string graph =
            "node { name: 'v' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } }"
            " attr { key: 'shape' value { shape { } } } }\n" +
            constNode("init", 7) + constNode("alpha", 0.5f) + constNode("delta", 2) +
            "node { name: 'assign' op: 'Assign' input: 'v' input: 'init' attr { key: 'T' value { type: DT_FLOAT } } }\n" +
            unaryNode("read", "Identity", "v") + binaryNode("twice", "Add", "read", "read") +
            "node { name: 'apply' op: 'ApplyGradientDescent' input: 'v' input: 'alpha' input: 'delta' input: '^read'"
            " attr { key: 'T' value { type: DT_FLOAT } } }\n";
        CpuKernelFixture f({registerArrayCpuKernels, registerMathCpuKernels, registerStateCpuKernels,
                            registerTrainingCpuKernels});
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"assign"}, &out).isOk());
        DebugController controller;
        const Status applied = runAsync(*session, controller, {"apply", "twice"}).get().first;
        QVERIFY2(applied.isOk(), applied.toString().c_str());
        QCOMPARE(controller.tensorValue("read").value().scalar<float>(), 7.0f);
        QCOMPARE(controller.tensorValue("v").value().scalar<float>(), 7.0f);
        QCOMPARE(controller.tensorValue("apply").value().scalar<float>(), 6.0f);
        QCOMPARE(controller.tensorValue("twice").value().scalar<float>(), 14.0f);
        QVERIFY(session->run({}, {"read"}, {}, &out).isOk());
        QCOMPARE(out[0].scalar<float>(), 6.0f);
    }
    void nonFiniteCheckFindsEveryPositionAndFloatType()
    {
        // Every position of tensors longer than the check's 64-byte blocks, plus the tail, in each
        // float dtype; ints never count.
        CpuAllocator cpu;
        tensorflow::NodeDef node;
        node.set_name("n");
        auto check = [&](const Tensor& t) {
            std::vector<TensorValue> outputs{TensorValue{t}};
            std::vector<bool> live{true};
            NodeExecution execution;
            execution.node = &node;
            execution.outputs = &outputs;
            execution.outputLive = &live;
            return DebugController::findNonFinite(execution);
        };
        const float inf = std::numeric_limits<float>::infinity();
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (std::size_t size : {1u, 15u, 16u, 17u, 70u}) {
            for (std::size_t at = 0; at < size; ++at) {
                std::vector<float> v(size, 1.5f);
                QCOMPARE(check(Tensor::fromVector<float>(cpu, TensorShape{std::int64_t(size)}, v).value()), std::string());
                v[at] = at % 2 ? inf : -inf;
                QCOMPARE(check(Tensor::fromVector<float>(cpu, TensorShape{std::int64_t(size)}, v).value()),
                         std::string("output 0 of node 'n' has Inf"));
                v[size - 1] = nan;
                QCOMPARE(check(Tensor::fromVector<float>(cpu, TensorShape{std::int64_t(size)}, v).value()),
                         std::string("output 0 of node 'n' has NaN"));
            }
        }
        std::vector<double> d(9, 3.0);
        d[8] = -std::numeric_limits<double>::infinity();
        QCOMPARE(check(Tensor::fromVector<double>(cpu, TensorShape{9}, d).value()), std::string("output 0 of node 'n' has Inf"));
        std::vector<double> big(9, 3e300); // large but finite: exponent bits not all ones
        QCOMPARE(check(Tensor::fromVector<double>(cpu, TensorShape{9}, big).value()), std::string());
        std::vector<Eigen::half> h(40, Eigen::half(65504.0f)); // float16's largest finite value
        QCOMPARE(check(Tensor::fromVector<Eigen::half>(cpu, TensorShape{40}, h).value()), std::string());
        h[33] = Eigen::half(nan);
        QCOMPARE(check(Tensor::fromVector<Eigen::half>(cpu, TensorShape{40}, h).value()), std::string("output 0 of node 'n' has NaN"));
        std::vector<Eigen::bfloat16> b(40, Eigen::bfloat16(1.0f));
        b[39] = Eigen::bfloat16(inf);
        QCOMPARE(check(Tensor::fromVector<Eigen::bfloat16>(cpu, TensorShape{40}, b).value()), std::string("output 0 of node 'n' has Inf"));
        std::vector<std::int32_t> ints(40, 0x7f800000);
        QCOMPARE(check(Tensor::fromVector<std::int32_t>(cpu, TensorShape{40}, ints).value()), std::string());
    }
    void plantedNanStopsAtTheOpThatMadeIt()
    {
        // loss = Sum(Log(x - 2) * 2) with x = [3, 1, 5]: the Log of -1, two ops upstream of the loss.
        const std::string graph =
            "node { name: 'x' op: 'Const' attr { key: 'dtype' value { type: DT_FLOAT } } attr { key: 'value' value {"
            " tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } } float_val: 3 float_val: 1 float_val: 5 } } } }\n" +
            constNode("shift", 2) + binaryNode("sub", "Sub", "x", "shift") + unaryNode("log", "Log", "sub") +
            binaryNode("scaled", "Mul", "log", "shift") + intConstNode("axis", 0) +
            "node { name: 'loss' op: 'Sum' input: 'scaled' input: 'axis' attr { key: 'T' value { type: DT_FLOAT } }"
            " attr { key: 'Tidx' value { type: DT_INT32 } } }\n";
        CpuKernelFixture f({registerArrayCpuKernels, registerMathCpuKernels, registerReductionCpuKernels});
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        DebugController controller;
        controller.setStopOnNonFinite(true);
        auto result = runAsync(*session, controller, {"loss"});
        QVERIFY(controller.waitUntilPaused(10s));
        const PausePoint point = *controller.pausePoint();
        QCOMPARE(point.node, std::string("log"));
        QVERIFY(point.afterNode);
        QCOMPARE(point.detail, std::string("output 0 of node 'log' has NaN"));
        QVERIFY(std::isnan(point.values[0].values<float>()[1]));
        // Its input, as the run computed it; nothing downstream ran.
        const Tensor sub = controller.tensorValue("sub").value();
        QCOMPARE(std::vector<float>(sub.values<float>().begin(), sub.values<float>().end()),
                 (std::vector<float>{1, -1, 3}));
        QCOMPARE(controller.tensorValue("scaled").error().code(), StatusCode::kNotFound);
        // The NaN flows on: each op it reaches would stop too, so turn the check off to finish.
        controller.setStopOnNonFinite(false);
        controller.resume();
        auto [status, out] = result.get();
        QVERIFY2(status.isOk(), status.toString().c_str());
        QVERIFY(std::isnan(out[0].scalar<float>()));
    }
};

QTEST_GUILESS_MAIN(TestDebugController)
#include "test_debug_controller.moc"
