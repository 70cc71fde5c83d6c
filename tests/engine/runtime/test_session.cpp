// Tests for Session: feeds, fetches and targets with TensorFlow's pruning, control dependencies,
// placeholders and feed checks with TensorFlow's messages, kernel errors, variables and extend.
#include "runtime_test_support.h"

#include "runtime/execution_observer.h"

#include <google/protobuf/text_format.h>

#include <QTest>

#include <algorithm>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

const std::string kArithmetic =
    constNode("a", 2) + constNode("b", 3) + binaryNode("sum", "Add", "a", "b") + binaryNode("unused", "Mul", "a", "b");

const std::string kVariable =
    "node { name: 'v' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } }"
    " attr { key: 'shape' value { shape { } } } }\n" +
    constNode("init", 7) + constNode("one", 1) +
    "node { name: 'assign' op: 'Assign' input: 'v' input: 'init' attr { key: 'T' value { type: DT_FLOAT } } }\n" +
    unaryNode("read", "Identity", "v") + binaryNode("inc", "Add", "read", "one") +
    "node { name: 'assign_inc' op: 'Assign' input: 'v' input: 'inc' attr { key: 'T' value { type: DT_FLOAT } } }\n";

float scalarOf(const Tensor& t)
{
    return t.scalar<float>();
}

} // namespace

class TestSession : public QObject {
    Q_OBJECT

private slots:
    void fetchesByNameAndByIndex()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kArithmetic, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        const Status s = session->run({}, {"sum", "sum:0", "a", "b:0"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out.size(), std::size_t(4));
        QCOMPARE(scalarOf(out[0]), 5.0f);
        QCOMPARE(scalarOf(out[1]), 5.0f);
        QCOMPARE(scalarOf(out[2]), 2.0f);
        QCOMPARE(scalarOf(out[3]), 3.0f);
    }

    void runsOnlyWhatTheFetchesNeed()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kArithmetic, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {"sum"}, {}, &out).isOk());
        QCOMPARE(f.log.count("unused"), 0);
        QCOMPARE(f.log.count("a"), 1);
        QCOMPARE(f.log.count("b"), 1);
        QCOMPARE(f.log.count("sum"), 1);
        // Fetching only a constant runs only that constant.
        f.log.clear();
        QVERIFY(session->run({}, {"b"}, {}, &out).isOk());
        QCOMPARE(f.log.order(), std::vector<std::string>{"b"});
    }

    void aFedTensorReplacesItsProducer()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kArithmetic, &error);
        QVERIFY2(session, error.c_str());
        for (const char* name : {"a", "a:0"}) {
            f.log.clear();
            std::vector<Tensor> out;
            const Status s = session->run({{name, floatScalar(10)}}, {"sum", "a"}, {}, &out);
            QVERIFY2(s.isOk(), s.toString().c_str());
            QCOMPARE(scalarOf(out[0]), 13.0f);
            QCOMPARE(scalarOf(out[1]), 10.0f); // a fetched fed tensor is the fed value
            QCOMPARE(f.log.count("a"), 0);
            QCOMPARE(f.log.count("b"), 1);
        }
        // Feeding a node's output that nothing needs is harmless.
        std::vector<Tensor> out;
        QVERIFY(session->run({{"unused", floatScalar(1)}}, {"b"}, {}, &out).isOk());
    }

    /// TensorFlow moves a fed Placeholder's control edges to the feed: an op that waits on it runs
    /// without the Placeholder (which cannot run) and after the feed.
    void aFedPlaceholderSatisfiesControlEdges()
    {
        const std::string graph = "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n" +
                                  constNode("c", 2) + unaryNode("after", "Identity", "c", "DT_FLOAT", "input: '^x'");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        Status s = session->run({{"x", floatScalar(1)}}, {"after"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(scalarOf(out[0]), 2.0f);
        // Unfed, the Placeholder must run first and fails as TensorFlow's does.
        s = session->run({}, {"after"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
    }

    void controlDependenciesOrderExecution()
    {
        // 'late' comes first in the GraphDef, so only its control input makes 'early' run before it.
        const std::string graph = constNode("c", 1) +
                                  unaryNode("late", "Identity", "c", "DT_FLOAT", "input: '^early'") +
                                  unaryNode("early", "Identity", "c") + unaryNode("free", "Identity", "c");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        // 'early' is fetched too, so it runs (needed only for its control edge it would be a no-op,
        // see aNodeNeededOnlyForItsControlEdgeIsNotRun).
        QVERIFY(session->run({}, {"late", "early"}, {}, &out).isOk());
        const std::vector<std::string> expected{"c", "early", "late"};
        QCOMPARE(f.log.order(), expected);
        QCOMPARE(f.log.count("free"), 0);
    }

    /// As Grappler's dependency optimizer: a side-effect-free node whose outputs nothing reads,
    /// needed only through a control edge, completes without running its kernel; a node that
    /// writes through a reference, a target, and every node under a debugger still run.
    void aNodeNeededOnlyForItsControlEdgeIsNotRun()
    {
        const std::string graph =
            constNode("c", 1) + unaryNode("unread", "Identity", "c") +
            "node { name: 'v' op: 'VariableV2' attr { key: 'dtype' value { type: DT_FLOAT } }"
            " attr { key: 'shape' value { shape { } } } }\n"
            "node { name: 'assign' op: 'Assign' input: 'v' input: 'c' attr { key: 'T' value { type: DT_FLOAT } } }\n" +
            unaryNode("after", "Identity", "c", "DT_FLOAT", "input: '^unread' input: '^assign'");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {"after"}, {}, &out).isOk());
        QCOMPARE(f.log.count("unread"), 0);
        QCOMPARE(f.log.count("assign"), 1);
        QCOMPARE(f.log.count("after"), 1);
        // The Assign ran: the variable holds c.
        QVERIFY(session->run({}, {"v"}, {}, &out).isOk());
        QCOMPARE(scalarOf(out[0]), 1.0f);

        // Named as a target, it runs.
        QVERIFY(session->run({}, {"after"}, {"unread"}, &out).isOk());
        QCOMPARE(f.log.count("unread"), 1);

        // Under an observer (the debugger) it does not run either, and the observer does not see it:
        // the debugger shows the run as it happens.
        class Watch : public ExecutionObserver {
        public:
            ObserverAction beforeNode(const NodeExecution& e) override
            {
                seen.push_back(e.node->name());
                return ObserverAction::kContinue;
            }
            ObserverAction afterNode(const NodeExecution&) override { return ObserverAction::kContinue; }
            std::vector<std::string> seen;
        } watch;
        QVERIFY(session->run({}, {"after"}, {}, &out, &watch).isOk());
        QCOMPARE(f.log.count("unread"), 1);
        QVERIFY(std::find(watch.seen.begin(), watch.seen.end(), "unread") == watch.seen.end());
        QVERIFY(std::find(watch.seen.begin(), watch.seen.end(), "after") != watch.seen.end());
    }

    void singleThreadedOrderIsTheStableTopologicalOrder()
    {
        const std::string graph = constNode("z", 1) + constNode("y", 2) + binaryNode("x", "Add", "z", "y") +
                                  binaryNode("w", "Mul", "y", "z") + binaryNode("v", "Add", "x", "w");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        for (int i = 0; i < 3; ++i) {
            f.log.clear();
            QVERIFY(session->run({}, {"v"}, {}, &out).isOk());
            QCOMPARE(f.log.order(), (std::vector<std::string>{"z", "y", "x", "w", "v"}));
            QCOMPARE(scalarOf(out[0]), 5.0f);
        }
    }

    void unfedPlaceholderFailsInTensorFlowsWords()
    {
        const std::string graph =
            "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
            " attr { key: 'shape' value { shape { dim { size: -1 } dim { size: 784 } } } } }\n"
            "node { name: 'u' op: 'Placeholder' attr { key: 'dtype' value { type: DT_INT32 } } }\n" +
            unaryNode("y", "Identity", "x") + unaryNode("uy", "Identity", "u", "DT_INT32");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        Status s = session->run({}, {"y"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(s.message(), std::string("You must feed a value for placeholder tensor 'x' with dtype float and "
                                          "shape [?,784]"));
        QCOMPARE(f.log.count("y"), 0);
        // Without a shape attr (the default is unknown rank) TensorFlow names only the dtype.
        s = session->run({}, {"uy"}, {}, &out);
        QCOMPARE(s.message(), std::string("You must feed a value for placeholder tensor 'u' with dtype int32"));
        // A placeholder nothing needs does not have to be fed.
        QVERIFY(session->run({{"u", intScalar(1)}}, {"uy"}, {}, &out).isOk());
    }

    void feedsAreCheckedAgainstDtypeAndShape()
    {
        const std::string graph = "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
                                  " attr { key: 'shape' value { shape { dim { size: -1 } dim { size: 3 } } } } }\n" +
                                  unaryNode("y", "Identity", "x");
        RuntimeFixture f;
        std::string error;
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        Status s = session->run({{"x", floatTensor({3}, {1, 2, 3})}}, {"y"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(s.message(),
                 std::string("Cannot feed value of shape (3,) for Tensor 'x:0', which has shape '(?, 3)'"));
        s = session->run({{"x:0", intScalar(1)}}, {"y"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(s.message(), std::string("Cannot feed value of dtype int32 for Tensor 'x:0', which has dtype float"));
        s = session->run({{"x", floatTensor({2, 3}, {1, 2, 3, 4, 5, 6})}}, {"y"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].shape(), TensorShape({2, 3}));
        QCOMPARE(out[0].values<float>()[5], 6.0f);
        s = session->run({{"x", floatTensor({1, 3}, {1, 2, 3})}, {"x:0", floatTensor({1, 3}, {1, 2, 3})}}, {"y"}, {},
                         &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY(s.message().find("'x:0'") != std::string::npos);
    }

    void legacyPlaceholderShapeIsUnknown()
    {
        // GraphDefs of version 21 and older (TensorFlow 0.x) wrote an unknown Placeholder shape as
        // an empty one; TensorFlow reads such a rank-0 shape as unknown there, as a scalar after.
        const std::string placeholder = "node { name: 'x' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
                                        " attr { key: 'shape' value { shape { } } } }\n" +
                                        unaryNode("y", "Identity", "x");
        std::vector<Tensor> out;
        for (const int producer : {8, 21, 22, 26}) {
            RuntimeFixture f;
            std::string error;
            auto session = f.session(placeholder + "versions { producer: " + std::to_string(producer) + " }\n", &error);
            QVERIFY2(session, error.c_str());
            const Status s = session->run({{"x", floatTensor({2, 3}, {1, 2, 3, 4, 5, 6})}}, {"y"}, {}, &out);
            if (producer <= 21) {
                QVERIFY2(s.isOk(), s.toString().c_str());
                QCOMPARE(out[0].shape(), TensorShape({2, 3}));
            } else {
                QCOMPARE(s.message(),
                         std::string("Cannot feed value of shape (2, 3) for Tensor 'x:0', which has shape '()'"));
            }
        }
    }

    void unknownTensorsAreNamed()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kArithmetic, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        Status s = session->run({}, {"nope:1"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kNotFound);
        QVERIFY2(s.message().find("nope:1") != std::string::npos, s.message().c_str());
        s = session->run({{"ghost", floatScalar(1)}}, {"sum"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kNotFound);
        QVERIFY2(s.message().find("ghost:0") != std::string::npos, s.message().c_str());
        s = session->run({}, {}, {"phantom"}, &out);
        QCOMPARE(s.code(), StatusCode::kNotFound);
        QVERIFY2(s.message().find("phantom") != std::string::npos, s.message().c_str());
        s = session->run({}, {"sum:1"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().find("sum:1") != std::string::npos, s.message().c_str());
        s = session->run({}, {"^sum"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY(out.empty());
    }

    void kernelErrorsNameTheNodeAndOp()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(constNode("a", 1) + unaryNode("broken", "TestFail", "a") +
                                     unaryNode("after", "Identity", "broken"),
                                 &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        const Status s = session->run({}, {"after"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(s.message(), std::string("node 'broken' (op 'TestFail'): TestFail always fails"));
        QCOMPARE(f.log.count("after"), 0);
    }

    void aFailedStepReleasesTheValuesItLeftWaiting()
    {
        // The fed x reaches 'after' at the start of the step; 'broken' fails before 'after' can run.
        // The step's input slots are released when it ends: nothing but the caller holds x then.
        RuntimeFixture f;
        std::string error;
        auto session = f.session(constNode("x", 0) + constNode("a", 1) + unaryNode("broken", "TestFail", "a") +
                                     binaryNode("after", "Add", "x", "broken"),
                                 &error);
        QVERIFY2(session, error.c_str());
        std::vector<std::pair<std::string, Tensor>> feeds{{"x", floatTensor(TensorShape{2}, {3, 4})}};
        std::vector<Tensor> out;
        for (int run = 0; run < 2; ++run) { // the second run reuses the first's recycled state
            const Status s = session->run(feeds, {"after"}, {}, &out);
            QCOMPARE(s.message(), std::string("node 'broken' (op 'TestFail'): TestFail always fails"));
            QVERIFY(!feeds[0].second.bufferIsShared());
        }
        QVERIFY(session->run(feeds, {"a", "x"}, {}, &out).isOk());
        QCOMPARE(scalarOf(out[0]), 1.0f);
        QCOMPARE(out[1].values<float>()[1], 4.0f);
        QCOMPARE(f.log.count("after"), 0);
    }

    void variablesLiveForTheSessionAndKernelsAreCreatedOnce()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kVariable, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        Status s = session->run({}, {"read"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kFailedPrecondition);
        QVERIFY2(s.message().find("Attempting to use uninitialized value v") != std::string::npos, s.message().c_str());

        s = session->run({}, {}, {"assign"}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(out.empty());
        for (int i = 1; i <= 3; ++i) {
            QVERIFY(session->run({}, {}, {"assign_inc"}, &out).isOk());
            QVERIFY(session->run({}, {"v"}, {}, &out).isOk());
            QCOMPARE(scalarOf(out[0]), 7.0f + float(i));
        }
        QCOMPARE(f.log.constructions("v"), 1);
        QCOMPARE(f.log.constructions("assign_inc"), 1);
        // A fetched variable is a copy: later assignments do not change it.
        const Tensor kept = out[0];
        QVERIFY(session->run({}, {}, {"assign"}, &out).isOk());
        QCOMPARE(scalarOf(kept), 10.0f);
    }

    void resultsOutliveTheSession()
    {
        std::vector<Tensor> out;
        {
            RuntimeFixture f;
            std::string error;
            auto session = f.session(kArithmetic, &error);
            QVERIFY2(session, error.c_str());
            QVERIFY(session->run({}, {"sum"}, {}, &out).isOk());
        }
        QCOMPARE(scalarOf(out[0]), 5.0f);
    }

    void extendAddsNodesAndKeepsState()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kVariable, &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"assign"}, &out).isOk());

        tensorflow::GraphDef more;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(binaryNode("twice", "Add", "read", "read"), &more));
        Status s = session->extend(more);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(session->run({}, {"twice"}, {}, &out).isOk());
        QCOMPARE(scalarOf(out[0]), 14.0f);
        QCOMPARE(f.log.constructions("v"), 1);

        s = session->extend(more);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QVERIFY2(s.message().find("'twice'") != std::string::npos, s.message().c_str());
    }

    void createAndRunPreconditions()
    {
        RuntimeFixture f;
        Session session(SessionOptions{tensorflow::ConfigProto(), &f.ops, &f.kernels});
        std::vector<Tensor> out;
        Status s = session.run({}, {"a"}, {}, &out);
        QCOMPARE(s.code(), StatusCode::kInvalidArgument);
        QCOMPARE(s.message(), std::string("Session was not created with a graph before Run()!"));
        tensorflow::GraphDef graph;
        QVERIFY(google::protobuf::TextFormat::ParseFromString(kArithmetic, &graph));
        QVERIFY(session.create(graph).isOk());
        QCOMPARE(session.create(graph).code(), StatusCode::kAlreadyExists);

        Session bad(SessionOptions{tensorflow::ConfigProto(), &f.ops, &f.kernels});
        QVERIFY(google::protobuf::TextFormat::ParseFromString("node { name: 'q' op: 'NoSuchOp' }", &graph));
        s = bad.create(graph);
        QCOMPARE(s.code(), StatusCode::kNotFound);
        QVERIFY2(s.message().find("NoSuchOp") != std::string::npos, s.message().c_str());
    }

    void stripsDefaultsBackIn()
    {
        // Placeholder without its shape attr and Enter without is_constant/parallel_iterations
        // (strip_default_attrs) are accepted with TensorFlow's defaults.
        RuntimeFixture f;
        std::string error;
        auto session =
            f.session("node { name: 'p' op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } } }\n" +
                          unaryNode("q", "Identity", "p"),
                      &error);
        QVERIFY2(session, error.c_str());
        std::vector<Tensor> out;
        QVERIFY(session->run({{"p", floatTensor({2}, {1, 2})}}, {"q"}, {}, &out).isOk());
        QCOMPARE(out[0].values<float>()[1], 2.0f);
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "test_session.moc"
