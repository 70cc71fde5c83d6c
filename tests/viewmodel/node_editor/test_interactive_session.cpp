// Tests for InteractiveSession and the console's line syntax: variables keep the values runs give
// them, new nodes join by Session.extend (new variables initialised, old ones kept), a changed node
// puts the session out of date until it is re-initialised, feeds typed as text, and the errors.
#include "node_editor/interactive_session.h"

#include "../../support/document_test_support.h"
#include "../../support/model_test_support.h"
#include "../../support/shared_registries.h"
#include "builder/attr_values.h"
#include "builder/tensor_proto_values.h"
#include "document/document_commands.h"
#include "document/graph_document.h"

#include <QTest>
#include <QUndoStack>

using namespace tstudio;
using namespace tstudio::node_editor;
using tstudio::testing::floatValuesOf;
namespace tf = tensorflow;
using Params = std::map<std::string, tf::AttrValue>;

namespace {

DocNodeId op(GraphDocument& doc, const std::string& type, const std::string& name, const Params& attrs = {})
{
    return testing::addDocumentNode(doc, NodeKind::kOp, type, name, attrs);
}

bool link(GraphDocument& doc, DocNodeId from, int output, DocNodeId to, int slot)
{
    return testing::connectDocumentPorts(doc, from, output, to, slot);
}

Params floats(const TensorShape& shape, const std::vector<double>& values)
{
    auto proto = makeTensorProto(tf::DT_FLOAT, shape, values);
    if (!proto)
        qFatal("%s", proto.error().toString().c_str());
    return {{"dtype", attr::type(tf::DT_FLOAT)}, {"value", attr::tensor(*proto)}};
}

Params variableAttrs(const TensorShape& shape)
{
    return {{"dtype", attr::type(tf::DT_FLOAT)}, {"shape", attr::shape(shape)}};
}

/// The values of the one fetch of `line`, or empty with a warning.
std::vector<float> fetch(InteractiveSession& session, const GraphDocument& doc, const std::string& line)
{
    auto request = parseConsoleLine(line);
    if (!request) {
        qWarning("%s: %s", line.c_str(), request.error().toString().c_str());
        return {};
    }
    auto report = session.run(doc, *request);
    if (!report || report->values.size() != 1) {
        qWarning("%s: %s", line.c_str(), report ? "not one value" : report.error().toString().c_str());
        return {};
    }
    return floatValuesOf(report->values.front().tensor);
}

/// v = [1, 2] (initialised by "assign_v", grouped by "init"), "bump" adds [1, 1] to it.
struct CounterDocument {
    GraphDocument doc{&testing::sharedRegistries().ops};
    DocNodeId v = kNoNode, c = kNoNode;
    bool ok = false;

    CounterDocument()
    {
        v = op(doc, "VariableV2", "v", variableAttrs(TensorShape({2})));
        c = op(doc, "Const", "c", floats(TensorShape({2}), {1, 2}));
        const DocNodeId assign = op(doc, "Assign", "assign_v");
        const DocNodeId one = op(doc, "Const", "one", floats(TensorShape({2}), {1, 1}));
        const DocNodeId bump = op(doc, "AssignAdd", "bump");
        const DocNodeId init = op(doc, "NoOp", "init");
        ok = link(doc, v, 0, assign, 0) && link(doc, c, 0, assign, 1) && link(doc, v, 0, bump, 0) &&
             link(doc, one, 0, bump, 1);
        auto control = ConnectCommand::create(&doc, Connection::control(assign, init));
        ok = ok && control.has_value();
        if (control)
            doc.undoStack()->push(control->release());
    }
};

} // namespace

class TestInteractiveSession : public QObject {
    Q_OBJECT
private slots:
    void consoleLineSyntax()
    {
        auto request = parseConsoleLine("  logits, split:1 with x=1, 2, 3; images[2,2]=random ; y = zeros ");
        QVERIFY2(request, testing::err(request));
        QCOMPARE(request->fetches, (std::vector<std::string>{"logits", "split:1"}));
        QCOMPARE(request->feeds.size(), std::size_t{3});
        QCOMPARE(request->feeds[0].name, std::string("x"));
        QCOMPARE(request->feeds[0].text, std::string("1, 2, 3"));
        QVERIFY(!request->feeds[0].shape);
        QCOMPARE(request->feeds[1].name, std::string("images"));
        QCOMPARE(request->feeds[1].shape->toString(), std::string("[2,2]"));
        QCOMPARE(request->feeds[2].name, std::string("y"));
        QCOMPARE(request->feeds[2].text, std::string("zeros"));

        QVERIFY(!parseConsoleLine("   "));
        QVERIFY(!parseConsoleLine("a,,b"));
        auto noEquals = parseConsoleLine("a with x 1");
        QVERIFY(!noEquals);
        QVERIFY(noEquals.error().message().find("has no '='") != std::string::npos);
        QVERIFY(!parseConsoleLine("a with x[2,q]=1"));
    }

    void variablesKeepTheirValuesBetweenRuns()
    {
        CounterDocument counter;
        QVERIFY(counter.ok);
        InteractiveSession session(testing::sharedRegistries());
        QVERIFY(!session.isOpen());
        QCOMPARE(fetch(session, counter.doc, "v"), (std::vector<float>{1, 2}));
        QVERIFY(session.isOpen());
        // An assignment's output is the new value; the variable keeps it for the next evaluation.
        QCOMPARE(fetch(session, counter.doc, "bump"), (std::vector<float>{2, 3}));
        QCOMPARE(fetch(session, counter.doc, "bump"), (std::vector<float>{3, 4}));
        QCOMPARE(fetch(session, counter.doc, "v"), (std::vector<float>{3, 4}));
        // An operation without outputs is run as a target: "init" puts v back to [1, 2].
        auto init = session.run(counter.doc, *parseConsoleLine("init"));
        QVERIFY2(init, testing::err(init));
        QCOMPARE(init->targets, (std::vector<std::string>{"init"}));
        QVERIFY(init->values.empty());
        QCOMPARE(fetch(session, counter.doc, "v"), (std::vector<float>{1, 2}));
        QCOMPARE(session.runCount(), 6);
        // Re-initialising drops the session; the next run starts a new one from the initial values.
        QCOMPARE(fetch(session, counter.doc, "bump"), (std::vector<float>{2, 3}));
        session.reset();
        QVERIFY(!session.isOpen());
        QCOMPARE(fetch(session, counter.doc, "v"), (std::vector<float>{1, 2}));
    }

    void newNodesJoinByExtendAndOldVariablesStay()
    {
        CounterDocument counter;
        QVERIFY(counter.ok);
        GraphDocument& doc = counter.doc;
        InteractiveSession session(testing::sharedRegistries());
        QCOMPARE(fetch(session, doc, "bump"), (std::vector<float>{2, 3}));
        const int held = session.nodeCount();

        // v * k, added after the session started.
        const DocNodeId read = op(doc, "Identity", "read_v");
        const DocNodeId k = op(doc, "Const", "k", floats(TensorShape({2}), {10, 100}));
        const DocNodeId mul = op(doc, "Mul", "scaled");
        QVERIFY(link(doc, counter.v, 0, read, 0) && link(doc, read, 0, mul, 0) && link(doc, k, 0, mul, 1));
        // A second variable with its own initializer (found as the Assign writing it).
        const DocNodeId w = op(doc, "VariableV2", "w", variableAttrs(TensorShape({1})));
        const DocNodeId wValue = op(doc, "Const", "w_value", floats(TensorShape({1}), {7}));
        const DocNodeId wAssign = op(doc, "Assign", "w_assign");
        QVERIFY(link(doc, w, 0, wAssign, 0) && link(doc, wValue, 0, wAssign, 1));

        auto synced = session.sync(doc);
        QVERIFY2(synced, testing::err(synced));
        QVERIFY(!synced->created);
        QCOMPARE(synced->added, 6);
        QCOMPARE(synced->initialized, (std::vector<std::string>{"w"}));
        QCOMPARE(session.nodeCount(), held + 6);
        QCOMPARE(fetch(session, doc, "scaled"), (std::vector<float>{20, 300}));
        QCOMPARE(fetch(session, doc, "w"), (std::vector<float>{7}));
        QCOMPARE(fetch(session, doc, "v"), (std::vector<float>{2, 3}));
    }

    void aChangedNodePutsTheSessionOutOfDate()
    {
        CounterDocument counter;
        QVERIFY(counter.ok);
        GraphDocument& doc = counter.doc;
        InteractiveSession session(testing::sharedRegistries());
        QCOMPARE(fetch(session, doc, "bump"), (std::vector<float>{2, 3}));
        auto proto = makeTensorProto(tf::DT_FLOAT, TensorShape({2}), std::vector<double>{5, 6});
        QVERIFY(proto);
        auto set = SetAttrCommand::create(&doc, counter.c, "value", attr::tensor(*proto));
        QVERIFY2(set, testing::err(set));
        doc.undoStack()->push(set->release());
        auto stale = session.run(doc, *parseConsoleLine("v"));
        QVERIFY(!stale);
        QCOMPARE(stale.error().code(), StatusCode::kFailedPrecondition);
        QVERIFY2(stale.error().message().find("node 'c' is not the node the session holds") != std::string::npos,
                 stale.error().message().c_str());
        QVERIFY(!session.outOfDate().empty());
        QVERIFY(!session.run(doc, *parseConsoleLine("v")));
        session.reset();
        QVERIFY(session.outOfDate().empty());
        QCOMPARE(fetch(session, doc, "v"), (std::vector<float>{5, 6}));
    }

    void feedsTypedAsText()
    {
        GraphDocument doc(&testing::sharedRegistries().ops);
        const DocNodeId x = op(doc, "Placeholder", "x",
                               {{"dtype", attr::type(tf::DT_FLOAT)}, {"shape", attr::shape(TensorShape({-1, 3}))}});
        const DocNodeId relu = op(doc, "Relu", "r");
        QVERIFY(link(doc, x, 0, relu, 0));
        InteractiveSession session(testing::sharedRegistries());
        // The unknown batch dimension comes from the count of numbers.
        auto two = session.run(doc, *parseConsoleLine("r with x=1,-2,3,-4,5,-6"));
        QVERIFY2(two, testing::err(two));
        QCOMPARE(two->values.front().name, std::string("r:0"));
        QCOMPARE(two->values.front().tensor.shape().toString(), std::string("[2,3]"));
        QCOMPARE(floatValuesOf(two->values.front().tensor), (std::vector<float>{1, 0, 3, 0, 5, 0}));
        auto shaped = session.run(doc, *parseConsoleLine("r, x with x[1,3]=ones"));
        QVERIFY2(shaped, testing::err(shaped));
        QCOMPARE(shaped->values.size(), std::size_t{2});
        QCOMPARE(floatValuesOf(shaped->values[1].tensor), (std::vector<float>{1, 1, 1}));

        auto unshaped = session.run(doc, *parseConsoleLine("r with x=random"));
        QVERIFY(!unshaped);
        QVERIFY2(unshaped.error().message().find("give its shape, e.g. x[2,784]=random") != std::string::npos,
                 unshaped.error().message().c_str());
        auto missing = session.run(doc, *parseConsoleLine("r"));
        QVERIFY(!missing);
        QVERIFY2(missing.error().message().find("x") != std::string::npos, missing.error().message().c_str());
        auto unknown = session.run(doc, *parseConsoleLine("nope"));
        QVERIFY(!unknown);
        QCOMPARE(unknown.error().message(),
                 std::string("The name 'nope' refers to an operation or tensor which does not exist. The operation, "
                             "'nope', does not exist in the graph."));
        auto badIndex = session.run(doc, *parseConsoleLine("r:3"));
        QVERIFY(!badIndex);
        auto badFeed = session.run(doc, *parseConsoleLine("r with x[1,3]=1,2"));
        QVERIFY(!badFeed);
        QVERIFY2(badFeed.error().message().find("feed 'x'") != std::string::npos, badFeed.error().message().c_str());
    }

    void evaluateSharesTheSession()
    {
        CounterDocument counter;
        QVERIFY(counter.ok);
        InteractiveSession session(testing::sharedRegistries());
        QCOMPARE(fetch(session, counter.doc, "bump"), (std::vector<float>{2, 3}));
        auto value = session.evaluate(counter.doc, counter.v, {});
        QVERIFY2(value, testing::err(value));
        QCOMPARE(floatValuesOf(value->front()), (std::vector<float>{2, 3}));
    }
};

QTEST_GUILESS_MAIN(TestInteractiveSession)
#include "test_interactive_session.moc"
