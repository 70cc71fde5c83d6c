// Tests for merging equivalent nodes before a run (Grappler's dedup): equal constants and the
// nodes that compute the same thing from them run once, with the same results; stateful ops,
// placeholders, fetched and target nodes, nodes that differ in an attribute, an input or a control
// input, runs with an observer and sessions whose config turns the optimizer off run every node.
#include "runtime_test_support.h"

#include "runtime/execution_observer.h"

#include <QTest>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

/// c1 and c2 are equal, so a and b are too: sum = a + a.
const std::string kTwins = constNode("c1", 2) + constNode("c2", 2) + constNode("c3", 3) +
                           binaryNode("a", "Add", "c1", "c3") + binaryNode("b", "Add", "c2", "c3") +
                           binaryNode("sum", "Add", "a", "b");

class CountingObserver : public ExecutionObserver {
public:
    ObserverAction beforeNode(const NodeExecution&) override { return ObserverAction::kContinue; }
    ObserverAction afterNode(const NodeExecution&) override { return ObserverAction::kContinue; }
};

float runScalar(Session& session, const std::vector<std::pair<std::string, Tensor>>& feeds, const std::string& fetch,
                ExecutionObserver* observer = nullptr)
{
    std::vector<Tensor> out;
    const Status s = session.run(feeds, {fetch}, {}, &out, observer);
    if (!s.isOk())
        qFatal("run: %s", s.toString().c_str());
    return out.at(0).scalar<float>();
}

} // namespace

class TestEquivalentNodes : public QObject {
    Q_OBJECT

private slots:
    void equalNodesRunOnce()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kTwins, &error);
        QVERIFY2(session, error.c_str());
        QCOMPARE(runScalar(*session, {}, "sum"), 10.0f);
        QCOMPARE(f.log.count("c1"), 1);
        QCOMPARE(f.log.count("c2"), 0);
        QCOMPARE(f.log.count("c3"), 1);
        QCOMPARE(f.log.count("a"), 1);
        QCOMPARE(f.log.count("b"), 0); // its inputs became a's once c2 was merged into c1
        QCOMPARE(f.log.count("sum"), 1);
        // Every later run of the same signature uses the same plan.
        QCOMPARE(runScalar(*session, {}, "sum"), 10.0f);
        QCOMPARE(f.log.count("c2"), 0);
        QCOMPARE(f.log.count("c1"), 2);
    }

    void differencesKeepNodesApart()
    {
        RuntimeFixture f;
        std::string error;
        // Another value, another dtype, another input order, another control input.
        const std::string graph =
            constNode("c1", 2) + constNode("c2", 2.5) + constNode("c3", 3) + intConstNode("i1", 2) +
            intConstNode("i2", 2) + binaryNode("a", "Sub", "c1", "c3") + binaryNode("b", "Sub", "c3", "c1") +
            unaryNode("x", "Identity", "c1", "DT_FLOAT", "input: '^i1'") +
            unaryNode("y", "Identity", "c1", "DT_FLOAT", "input: '^c3'") + binaryNode("ab", "Add", "a", "b") +
            binaryNode("xy", "Add", "x", "y") + binaryNode("abxy", "Add", "ab", "xy") +
            binaryNode("sum", "Add", "abxy", "c2") + binaryNode("ints", "Add", "i1", "i2", "DT_INT32");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        // (2 - 3) + (3 - 2) + 2 + 2 + 2.5
        QCOMPARE(runScalar(*session, {}, "sum"), 6.5f);
        for (const char* node : {"c1", "c2", "c3", "a", "b", "x", "y"})
            QVERIFY2(f.log.count(node) == 1, node);
        std::vector<Tensor> out;
        const Status s = session->run({}, {"ints"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(out[0].scalar<std::int32_t>(), 4);
        QCOMPARE(f.log.count("i2"), 0); // equal int32 constants do merge
    }

    void statefulOpsAreNeverMerged()
    {
        RuntimeFixture f;
        std::string error;
        const std::string graph = constNode("c", 1) + unaryNode("p1", "TestStatefulProbe", "c") +
                                  unaryNode("p2", "TestStatefulProbe", "c") + binaryNode("sum", "Add", "p1", "p2");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        QCOMPARE(runScalar(*session, {}, "sum"), 2.0f);
        QCOMPARE(f.log.count("p1"), 1);
        QCOMPARE(f.log.count("p2"), 1);
    }

    void namedNodesStay()
    {
        RuntimeFixture f;
        std::string error;
        const std::string graph = kTwins + unaryNode("t1", "Identity", "c3") + unaryNode("t2", "Identity", "c3") +
                                  binaryNode("u", "Add", "t1", "c3");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        // Both fetched: both run.
        std::vector<Tensor> out;
        Status s = session->run({}, {"c1", "c2"}, {}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(f.log.count("c1"), 1);
        QCOMPARE(f.log.count("c2"), 1);
        // A target is not merged away (into t1, its equal).
        f.log.clear();
        s = session->run({}, {"u"}, {"t2"}, &out);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QCOMPARE(f.log.count("t1"), 1);
        QCOMPARE(f.log.count("t2"), 1);
        // A fed tensor's producer is not merged, and nodes reading the same feed are.
        f.log.clear();
        const std::string fedGraph = kTwins + unaryNode("f1", "Identity", "c1") + unaryNode("f2", "Identity", "c1") +
                                     binaryNode("fsum", "Add", "f1", "f2");
        auto fed = f.session(fedGraph, &error);
        QVERIFY2(fed, error.c_str());
        QCOMPARE(runScalar(*fed, {{"c1", floatScalar(7)}}, "fsum"), 14.0f);
        QCOMPARE(f.log.count("c1"), 0);
        QCOMPARE(f.log.count("f1"), 1);
        QCOMPARE(f.log.count("f2"), 0);
        // c1 fed, c2 not: a and b now differ.
        f.log.clear();
        QCOMPARE(runScalar(*fed, {{"c1", floatScalar(7)}}, "sum"), 15.0f);
        QCOMPARE(f.log.count("c2"), 1);
        QCOMPARE(f.log.count("a"), 1);
        QCOMPARE(f.log.count("b"), 1);
    }

    void placeholdersAreNeverMerged()
    {
        RuntimeFixture f;
        std::string error;
        const std::string placeholder = "op: 'Placeholder' attr { key: 'dtype' value { type: DT_FLOAT } }"
                                        " attr { key: 'shape' value { shape { } } } }\n";
        const std::string graph =
            "node { name: 'x' " + placeholder + "node { name: 'y' " + placeholder + binaryNode("d", "Sub", "x", "y");
        auto session = f.session(graph, &error);
        QVERIFY2(session, error.c_str());
        QCOMPARE(runScalar(*session, {{"x", floatScalar(5)}, {"y", floatScalar(1.5)}}, "d"), 3.5f);
    }

    void observedRunsSeeEveryNode()
    {
        RuntimeFixture f;
        std::string error;
        auto session = f.session(kTwins, &error);
        QVERIFY2(session, error.c_str());
        CountingObserver observer;
        QCOMPARE(runScalar(*session, {}, "sum", &observer), 10.0f);
        QCOMPARE(f.log.count("c2"), 1);
        QCOMPARE(f.log.count("b"), 1);
        // An unobserved run of the same signature still merges.
        f.log.clear();
        QCOMPARE(runScalar(*session, {}, "sum"), 10.0f);
        QCOMPARE(f.log.count("c2"), 0);
        QCOMPARE(f.log.count("b"), 0);
    }

    void configTurnsItOff_data()
    {
        QTest::addColumn<bool>("disableMetaOptimizer");
        QTest::newRow("arithmetic_optimization OFF") << false;
        QTest::newRow("disable_meta_optimizer") << true;
    }

    void configTurnsItOff()
    {
        QFETCH(bool, disableMetaOptimizer);
        RuntimeFixture f;
        std::string error;
        tensorflow::ConfigProto config;
        tensorflow::RewriterConfig* rewriter = config.mutable_graph_options()->mutable_rewrite_options();
        if (disableMetaOptimizer)
            rewriter->set_disable_meta_optimizer(true);
        else
            rewriter->set_arithmetic_optimization(tensorflow::RewriterConfig::OFF);
        auto session = f.session(kTwins, config, &error);
        QVERIFY2(session, error.c_str());
        QCOMPARE(runScalar(*session, {}, "sum"), 10.0f);
        QCOMPARE(f.log.count("c2"), 1);
        QCOMPARE(f.log.count("b"), 1);
    }
};

QTEST_GUILESS_MAIN(TestEquivalentNodes)
#include "test_equivalent_nodes.moc"
