// Tests for TensorFlow 1.x control flow in the executor: tf.cond (Switch/Merge and deadness),
// tf.while_loop (frames, iterations, loop invariants, parallel_iterations), nested loops, a loop on
// an untaken branch (dead Exit), and the static frames of ControlFlowInfo.
#include "runtime_test_support.h"

#include "runtime/control_flow_info.h"
#include "runtime/execution_observer.h"

#include <google/protobuf/text_format.h>

#include <QTest>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

/// tf.cond(pred, lambda: x + 1, lambda: x * 2) as TensorFlow 1.x builds it, x = 3.
std::string condGraph()
{
    return constNode("x", 3) + boolPlaceholder("pred") + opNode("cond/Switch", "Switch", {"pred", "pred"}, "DT_BOOL") +
           opNode("cond/switch_t", "Identity", {"cond/Switch:1"}, "DT_BOOL") +
           opNode("cond/switch_f", "Identity", {"cond/Switch"}, "DT_BOOL") +
           opNode("cond/pred_id", "Identity", {"pred"}, "DT_BOOL") +
           opNode("cond/Switch_1", "Switch", {"x", "cond/pred_id"}, "DT_FLOAT") +
           constNode("cond/add/y", 1, "input: '^cond/switch_t'") +
           binaryNode("cond/add", "Add", "cond/Switch_1:1", "cond/add/y") +
           constNode("cond/mul/y", 2, "input: '^cond/switch_f'") +
           binaryNode("cond/mul", "Mul", "cond/Switch_1", "cond/mul/y") +
           mergeNode("cond/Merge", "cond/mul", "cond/add", "DT_FLOAT");
}

/// for i in range(3): for j in range(4): total += 1 -- total ends at 12; the inner loop's limit and
/// step reach it through both frames as invariants, its start value is the outer loop's total.
std::string nestedWhileGraph()
{
    return intConstNode("zero", 0) + intConstNode("three", 3) + intConstNode("four", 4) + intConstNode("one", 1) +
           enterNode("outer/Enter", "zero", "outer", "DT_INT32") +
           enterNode("outer/Enter_1", "zero", "outer", "DT_INT32") +
           enterNode("outer/Enter_2", "three", "outer", "DT_INT32", true) +
           enterNode("outer/Enter_3", "four", "outer", "DT_INT32", true) +
           enterNode("outer/Enter_4", "one", "outer", "DT_INT32", true) +
           mergeNode("outer/Merge", "outer/Enter", "outer/NextIteration", "DT_INT32") +
           mergeNode("outer/Merge_1", "outer/Enter_1", "outer/NextIteration_1", "DT_INT32") +
           binaryNode("outer/Less", "Less", "outer/Merge", "outer/Enter_2", "DT_INT32") +
           opNode("outer/LoopCond", "LoopCond", {"outer/Less"}) +
           opNode("outer/Switch", "Switch", {"outer/Merge", "outer/LoopCond"}, "DT_INT32") +
           opNode("outer/Switch_1", "Switch", {"outer/Merge_1", "outer/LoopCond"}, "DT_INT32") +
           opNode("outer/Identity", "Identity", {"outer/Switch:1"}, "DT_INT32") +
           opNode("outer/Identity_1", "Identity", {"outer/Switch_1:1"}, "DT_INT32") +
           intConstNode("outer/j0", 0, "input: '^outer/Identity'") +
           enterNode("inner/Enter", "outer/j0", "inner", "DT_INT32") +
           enterNode("inner/Enter_1", "outer/Identity_1", "inner", "DT_INT32") +
           enterNode("inner/Enter_2", "outer/Enter_3", "inner", "DT_INT32", true) +
           enterNode("inner/Enter_3", "outer/Enter_4", "inner", "DT_INT32", true) +
           mergeNode("inner/Merge", "inner/Enter", "inner/NextIteration", "DT_INT32") +
           mergeNode("inner/Merge_1", "inner/Enter_1", "inner/NextIteration_1", "DT_INT32") +
           binaryNode("inner/Less", "Less", "inner/Merge", "inner/Enter_2", "DT_INT32") +
           opNode("inner/LoopCond", "LoopCond", {"inner/Less"}) +
           opNode("inner/Switch", "Switch", {"inner/Merge", "inner/LoopCond"}, "DT_INT32") +
           opNode("inner/Switch_1", "Switch", {"inner/Merge_1", "inner/LoopCond"}, "DT_INT32") +
           opNode("inner/Identity", "Identity", {"inner/Switch:1"}, "DT_INT32") +
           opNode("inner/Identity_1", "Identity", {"inner/Switch_1:1"}, "DT_INT32") +
           binaryNode("inner/add", "Add", "inner/Identity", "inner/Enter_3", "DT_INT32") +
           binaryNode("inner/add_1", "Add", "inner/Identity_1", "inner/Enter_3", "DT_INT32") +
           opNode("inner/NextIteration", "NextIteration", {"inner/add"}, "DT_INT32") +
           opNode("inner/NextIteration_1", "NextIteration", {"inner/add_1"}, "DT_INT32") +
           opNode("inner/Exit", "Exit", {"inner/Switch"}, "DT_INT32") +
           opNode("inner/Exit_1", "Exit", {"inner/Switch_1"}, "DT_INT32") +
           binaryNode("outer/add", "Add", "outer/Identity", "outer/Enter_4", "DT_INT32") +
           opNode("outer/NextIteration", "NextIteration", {"outer/add"}, "DT_INT32") +
           opNode("outer/NextIteration_1", "NextIteration", {"inner/Exit_1"}, "DT_INT32") +
           opNode("outer/Exit", "Exit", {"outer/Switch"}, "DT_INT32") +
           opNode("outer/Exit_1", "Exit", {"outer/Switch_1"}, "DT_INT32");
}

/// tf.cond(pred, lambda: while_loop(x -> 10), lambda: x * -2) with x = 5: on the false branch the
/// loop is dead, its Exit is dead only once its frame is done, and the cond's Merge takes x * -2.
std::string loopInUntakenBranchGraph()
{
    return intConstNode("x", 5) + boolPlaceholder("pred") + opNode("cond/Switch", "Switch", {"x", "pred"}, "DT_INT32") +
           opNode("cond/switch_t", "Identity", {"cond/Switch:1"}, "DT_INT32") +
           opNode("cond/switch_f", "Identity", {"cond/Switch"}, "DT_INT32") +
           intConstNode("cond/limit", 10, "input: '^cond/switch_t'") +
           intConstNode("cond/mtwo", -2, "input: '^cond/switch_f'") +
           binaryNode("cond/neg", "Mul", "cond/switch_f", "cond/mtwo", "DT_INT32") +
           enterNode("loop/Enter", "cond/switch_t", "loop", "DT_INT32") +
           enterNode("loop/Enter_1", "cond/limit", "loop", "DT_INT32", true) +
           mergeNode("loop/Merge", "loop/Enter", "loop/NextIteration", "DT_INT32") +
           binaryNode("loop/Less", "Less", "loop/Merge", "loop/Enter_1", "DT_INT32") +
           opNode("loop/LoopCond", "LoopCond", {"loop/Less"}) +
           opNode("loop/Switch", "Switch", {"loop/Merge", "loop/LoopCond"}, "DT_INT32") +
           opNode("loop/Identity", "Identity", {"loop/Switch:1"}, "DT_INT32") +
           intConstNode("loop/one", 1, "input: '^loop/Identity'") +
           binaryNode("loop/add", "Add", "loop/Identity", "loop/one", "DT_INT32") +
           opNode("loop/NextIteration", "NextIteration", {"loop/add"}, "DT_INT32") +
           opNode("loop/Exit", "Exit", {"loop/Switch"}, "DT_INT32") +
           mergeNode("cond/Merge", "cond/neg", "loop/Exit", "DT_INT32") +
           opNode("after", "Identity", {"cond/Merge"}, "DT_INT32");
}

} // namespace

class TestControlFlow : public QObject {
    Q_OBJECT

private slots:
    void observersSeeAnUntakenSwitchOutputEmpty()
    {
        // s0 takes its true port and s1 its false one, one after the other on one thread: s1's
        // untaken output must be empty, not what s0 left in the executor's per-node vectors.
        struct Watch : ExecutionObserver {
            ObserverAction beforeNode(const NodeExecution&) override { return ObserverAction::kContinue; }
            ObserverAction afterNode(const NodeExecution& e) override
            {
                for (std::size_t i = 0; e.outputs && i < e.outputs->size(); ++i) {
                    if ((*e.outputLive)[i])
                        continue;
                    const TensorValue& v = (*e.outputs)[i];
                    if (v.isRef() || v.tensor.numElements() != 0)
                        bad.push_back(e.node->name() + ":" + std::to_string(i));
                }
                return ObserverAction::kContinue;
            }
            std::vector<std::string> bad;
        } watch;
        RuntimeFixture f;
        std::string error;
        const std::string graph = constNode("c", 3) + boolPlaceholder("t") + boolPlaceholder("f") +
                                  opNode("s0", "Switch", {"c", "t"}, "DT_FLOAT") +
                                  opNode("s1", "Switch", {"c", "f"}, "DT_FLOAT") +
                                  opNode("id0", "Identity", {"s0:1"}, "DT_FLOAT") +
                                  opNode("id1", "Identity", {"s1"}, "DT_FLOAT");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        const Status s = session->run({{"t", boolScalar(true)}, {"f", boolScalar(false)}}, {"id0", "id1"}, {}, &out,
                                      &watch);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<float>(), 3.0f);
        QCOMPARE(out[1].scalar<float>(), 3.0f);
        QVERIFY2(watch.bad.empty(), watch.bad.empty() ? "" : watch.bad.front().c_str());
    }

    void condRunsOneBranch()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(condGraph(), &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        Status s = session->run({{"pred", boolScalar(true)}}, {"cond/Merge", "cond/Merge:1"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<float>(), 4.0f);
        QCOMPARE(out[1].scalar<std::int32_t>(), 1);
        QCOMPARE(f.log.count("cond/add"), 1);
        QCOMPARE(f.log.count("cond/add/y"), 1);
        // The false branch is dead: neither its Mul nor its constant (control input from the dead
        // pivot) computes.
        QCOMPARE(f.log.count("cond/mul"), 0);
        QCOMPARE(f.log.count("cond/mul/y"), 0);

        f.log.clear();
        s = session->run({{"pred", boolScalar(false)}}, {"cond/Merge", "cond/Merge:1"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<float>(), 6.0f);
        QCOMPARE(out[1].scalar<std::int32_t>(), 0);
        QCOMPARE(f.log.count("cond/mul"), 1);
        QCOMPARE(f.log.count("cond/add"), 0);
    }

    void fetchingADeadTensorFails()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(condGraph(), &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        const Status s = session->run({{"pred", boolScalar(false)}}, {"cond/add"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().find("Retval[0] does not have value") != std::string::npos, s.message().c_str());
        QVERIFY2(s.message().find("cond/add:0") != std::string::npos, s.message().c_str());
        QVERIFY2(s.message().find("dead") != std::string::npos, s.message().c_str());
    }

    void mergeOfDeadInputsIsDead()
    {
        // An inner cond on the untaken branch of an outer cond: both inputs of the inner Merge are
        // dead, so it is dead, and so is what reads it; the outer Merge takes the live branch.
        const std::string graph = constNode("x", 3) + boolPlaceholder("p1") + boolPlaceholder("p2") +
                                  opNode("outer", "Switch", {"x", "p1"}, "DT_FLOAT") +
                                  opNode("inner", "Switch", {"outer:1", "p2"}, "DT_FLOAT") +
                                  mergeNode("inner_merge", "inner", "inner:1", "DT_FLOAT") +
                                  opNode("reader", "Identity", {"inner_merge"}, "DT_FLOAT") +
                                  opNode("other", "Identity", {"outer"}, "DT_FLOAT") +
                                  mergeNode("outer_merge", "other", "reader", "DT_FLOAT");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        Status s = session->run({{"p1", boolScalar(false)}, {"p2", boolScalar(true)}}, {"outer_merge:1"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<std::int32_t>(), 0);
        QCOMPARE(f.log.count("reader"), 0);
        QCOMPARE(f.log.count("other"), 1);

        f.log.clear();
        s = session->run({{"p1", boolScalar(true)}, {"p2", boolScalar(true)}}, {"outer_merge", "outer_merge:1"}, {},
                         &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<float>(), 3.0f);
        QCOMPARE(out[1].scalar<std::int32_t>(), 1);
        QCOMPARE(f.log.count("reader"), 1);
    }

    void whileLoopCountsToTenWithLoopInvariants()
    {
        for (int parallel : {10, 1}) {
            RuntimeFixture f;
            std::string error;
            auto session = f.session(whileGraph(10, parallel), &error);
            QVERIFY2(session, error.c_str());
            std::vector<Tensor> out;
            const Status s = session->run({}, {"while/Exit", "while/Exit_1", "result"}, {}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            QCOMPARE(out[0].scalar<std::int32_t>(), 10);
            QCOMPARE(out[1].scalar<float>(), 25.0f);
            QCOMPARE(out[2].scalar<float>(), 25.0f);
            QCOMPARE(f.log.count("while/add"), 10);
            QCOMPARE(f.log.count("while/add_1"), 10);
            QCOMPARE(f.log.count("while/add/y"), 10);
            QCOMPARE(f.log.count("while/Less"), 11);
            // The Exit's consumer runs once, although the Exit is dead in iterations 0 to 9.
            QCOMPARE(f.log.count("result"), 1);
            QCOMPARE(f.log.count("limit"), 1);

            // The same session runs the loop again from the start.
            QVERIFY(session->run({}, {"while/Exit"}, {}, &out).isOk());
            QCOMPARE(out[0].scalar<std::int32_t>(), 10);
        }
    }

    void whileLoopThatNeverIterates()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(whileGraph(0), &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {"while/Exit", "result"}, {}, &out).isOk());
        QCOMPARE(out[0].scalar<std::int32_t>(), 0);
        QCOMPARE(out[1].scalar<float>(), 0.0f);
        QCOMPARE(f.log.count("while/add"), 0);
        QCOMPARE(f.log.count("while/Less"), 1);
    }

    void feedingTheLoopLimit()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(whileGraph(10), &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        QVERIFY(session->run({{"limit", intScalar(4)}}, {"while/Exit_1"}, {}, &out).isOk());
        QCOMPARE(out[0].scalar<float>(), 10.0f);
        QCOMPARE(f.log.count("limit"), 0);
    }

    void nestedWhileLoops()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(nestedWhileGraph(), &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        const Status s = session->run({}, {"outer/Exit", "outer/Exit_1"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<std::int32_t>(), 3);
        QCOMPARE(out[1].scalar<std::int32_t>(), 12);
        QCOMPARE(f.log.count("inner/add_1"), 12);
        QCOMPARE(f.log.count("inner/Less"), 15);
        QCOMPARE(f.log.count("outer/Less"), 4);
        QCOMPARE(f.log.count("outer/j0"), 3);
    }

    void loopOnAnUntakenBranchEndsInADeadExit()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(loopInUntakenBranchGraph(), &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        Status s = session->run({{"pred", boolScalar(false)}}, {"after", "cond/Merge:1"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<std::int32_t>(), -10);
        QCOMPARE(out[1].scalar<std::int32_t>(), 0);
        QCOMPARE(f.log.count("loop/add"), 0);
        QCOMPARE(f.log.count("after"), 1);
        // The loop's Exit is dead (reported when its frame finished), not merely never computed.
        s = session->run({{"pred", boolScalar(false)}}, {"loop/Exit"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().find("'loop/Exit:0' is dead") != std::string::npos, s.message().c_str());

        f.log.clear();
        s = session->run({{"pred", boolScalar(true)}}, {"after", "cond/Merge:1"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<std::int32_t>(), 10);
        QCOMPARE(out[1].scalar<std::int32_t>(), 1);
        QCOMPARE(f.log.count("loop/add"), 5);
        QCOMPARE(f.log.count("cond/neg"), 0);
        QCOMPARE(f.log.count("after"), 1);
    }

    void controlTriggerRunsEvenWhenItsInputsAreDead()
    {
        const std::string graph =
            constNode("x", 3) + boolPlaceholder("p") + opNode("s", "Switch", {"x", "p"}, "DT_FLOAT") +
            opNode("t", "Identity", {"s:1"}, "DT_FLOAT") + opNode("trigger", "ControlTrigger", {"^t"}) +
            opNode("plain", "NoOp", {"^t"}) + unaryNode("after", "Identity", "x", "DT_FLOAT", "input: '^trigger'") +
            unaryNode("blocked", "Identity", "x", "DT_FLOAT", "input: '^plain'");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        Status s = session->run({{"p", boolScalar(false)}}, {"after"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<float>(), 3.0f);
        // A NoOp with a dead control input is dead, and so is what waits for it.
        s = session->run({{"p", boolScalar(false)}}, {"blocked"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().find("is dead") != std::string::npos, s.message().c_str());
        QCOMPARE(f.log.count("plain"), 0);
    }

    void refSwitchForwardsTheVariable()
    {
        const std::string graph =
            "node { name: 'v' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } }"
            " attr { key: 'shape' value { shape { } } } }\n" +
            constNode("zero", 0) + constNode("five", 5) + boolPlaceholder("p") +
            "node { name: 'init' op: 'Assign' input: 'v' input: 'zero' attr { key: 'T' value { type: DT_FLOAT } } }\n" +
            opNode("rs", "RefSwitch", {"v", "p"}, "DT_FLOAT") +
            "node { name: 'set' op: 'Assign' input: 'rs:1' input: 'five' attr { key: 'T' value { type: DT_FLOAT } } "
            "}\n";
        RuntimeFixture f;
        std::string error;
        tensorflow::ConfigProto config;
        (*config.mutable_device_count())["CPU"] = 2;
        auto session = f.session(graph, config, &error);
        QVERIFY2(session, error.c_str());
        QCOMPARE(session->assignedDevice("set"), session->assignedDevice("v"));
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"init"}, &out).isOk());
        QVERIFY(session->run({{"p", boolScalar(false)}}, {}, {"set"}, &out).isOk());
        QCOMPARE(f.log.count("set"), 0);
        QVERIFY(session->run({}, {"v"}, {}, &out).isOk());
        QCOMPARE(out[0].scalar<float>(), 0.0f);
        QVERIFY(session->run({{"p", boolScalar(true)}}, {}, {"set"}, &out).isOk());
        QVERIFY(session->run({}, {"v"}, {}, &out).isOk());
        QCOMPARE(out[0].scalar<float>(), 5.0f);
    }

    void switchPredicateMustBeAScalar()
    {
        const std::string graph =
            constNode("x", 1) + "node { name: 'p' op: 'Placeholder' attr { key: 'dtype' value { type: DT_BOOL } } }\n" +
            opNode("s", "Switch", {"x", "p"}, "DT_FLOAT");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        auto pred = *Tensor::allocate(testAllocator(), tensorflow::DT_BOOL, TensorShape{2});
        std::vector<Tensor> out;
        const Status s = session->run({{"p", pred}}, {"s:1"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(s.message(),
                 std::string("node 's' (op 'Switch'): The second input must be a scalar, but it has shape [2]"));
    }

    void framesOfNestedLoops()
    {
        tensorflow::GraphDef def;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(nestedWhileGraph(), &def));
        auto graph = Graph::fromGraphDef(def);
        QVERIFY(graph.has_value());
        const std::vector<bool> all(static_cast<std::size_t>(graph->nodeCount()), true);
        auto info = buildControlFlowInfo(*graph, all, [](const GraphEdge&) { return true; });
        QVERIFY2(info.has_value(), info ? "" : info.error().toString().c_str());
        auto frameOf = [&](const char* node) {
            return info
                ->frames[static_cast<std::size_t>(info->nodeFrame[static_cast<std::size_t>(*graph->findNode(node))])]
                .name;
        };
        QCOMPARE(frameOf("zero"), std::string());
        QCOMPARE(frameOf("outer/Enter"), std::string()); // an Enter runs in the frame it reads from
        QCOMPARE(frameOf("outer/Merge"), std::string("outer"));
        QCOMPARE(frameOf("inner/Enter"), std::string("outer"));
        QCOMPARE(frameOf("inner/Merge"), std::string("inner"));
        QCOMPARE(frameOf("inner/Exit_1"), std::string("inner")); // an Exit runs in the frame it leaves
        QCOMPARE(frameOf("outer/NextIteration_1"), std::string("outer"));
        QCOMPARE(frameOf("outer/Exit_1"), std::string("outer"));
        const auto inner =
            static_cast<std::size_t>(info->enterFrame[static_cast<std::size_t>(*graph->findNode("inner/Enter"))]);
        QCOMPARE(info->frames[inner].name, std::string("inner"));
        QCOMPARE(info->frames[static_cast<std::size_t>(info->frames[inner].parent)].name, std::string("outer"));
    }

    void inputsFromDifferentFramesAreRejected()
    {
        // 'bad' reads a value inside the loop and one from outside without an Enter.
        const std::string graph = whileGraph(10) + binaryNode("bad", "Add", "while/Identity_1", "step");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        const Status s = session->run({}, {}, {"bad"}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().find("Node 'bad' has inputs from different frames") != std::string::npos,
                 s.message().c_str());
        // Fetching a tensor computed inside the loop is refused with the frame's name.
        const Status fetch = session->run({}, {"while/add"}, {}, &out);
        QCOMPARE(fetch.code(), StatusCode::kInvalidArgument);
        QVERIFY2(fetch.message().find("while/while_context") != std::string::npos, fetch.message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestControlFlow)
#include "test_control_flow.moc"
