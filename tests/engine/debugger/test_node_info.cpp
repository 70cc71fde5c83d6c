// Tests for NodeRelations (inputs and consumers as trees, loops) and the ni / li / lo text.
#include "debugger/node_info.h"

#include "io/proto_parse.h"

#include <QTest>

using namespace tstudio;
using namespace tstudio::debugger;

namespace {

// x, w -> layer1/MatMul (after ^init) -> split (2 outputs) -> add(split:1, split) -> out (after ^layer1/MatMul).
const char* const kGraph = R"(
node { name: "x" op: "Placeholder"
       attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: -1 } dim { size: 3 } } } } }
node { name: "w" op: "Const"
       attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } dim { size: 2 } } } } } }
node { name: "init" op: "NoOp" }
node { name: "layer1/MatMul" op: "MatMul" input: "x" input: "w:0" input: "^init" device: "/device:CPU:0"
       attr { key: "transpose_b" value { b: true } }
       attr { key: "T" value { type: DT_FLOAT } }
       attr { key: "transpose_a" value { b: false } } }
node { name: "dim" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
       attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { } int_val: 1 } } } }
node { name: "split" op: "Split" input: "dim" input: "layer1/MatMul"
       attr { key: "num_split" value { i: 2 } } attr { key: "T" value { type: DT_FLOAT } } }
node { name: "add" op: "AddV2" input: "split:1" input: "split" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "out" op: "Identity" input: "add" input: "^layer1/MatMul" attr { key: "T" value { type: DT_FLOAT } } }
)";

// A while loop's cycle: merge <- next <- body <- switch:1 <- merge.
const char* const kLoop = R"(
node { name: "i" op: "Const" }
node { name: "enter" op: "Enter" input: "i" }
node { name: "merge" op: "Merge" input: "enter" input: "next" }
node { name: "switch" op: "Switch" input: "merge" input: "cond" }
node { name: "body" op: "Identity" input: "switch:1" }
node { name: "next" op: "NextIteration" input: "body" }
node { name: "exit" op: "Exit" input: "switch" }
node { name: "self" op: "Identity" input: "self" }
)";

tensorflow::GraphDef graphOf(const char* text)
{
    tensorflow::GraphDef graph;
    std::string error;
    if (!parseTextProto(text, graph, &error))
        qFatal("bad test graph: %s", error.c_str());
    return graph;
}

/// "name(op)[flags]{children}" for compact comparisons of whole trees.
std::string describe(const std::vector<NodeLink>& links)
{
    std::string text;
    for (const NodeLink& link : links) {
        if (!text.empty())
            text += " ";
        text += link.tensor + "(" + link.op + "@" + std::to_string(link.depth) + ")";
        if (link.truncated)
            text += "...";
        if (link.repeated)
            text += "*";
        if (!link.children.empty())
            text += "{" + describe(link.children) + "}";
    }
    return text;
}

std::string inputsOf(const NodeRelations& relations, const std::string& node, int depth, bool control = true)
{
    auto links = relations.inputs(node, depth, control);
    if (!links)
        qFatal("%s", links.error().toString().c_str());
    return describe(*links);
}

std::string consumersOf(const NodeRelations& relations, const std::string& node, int depth, bool control = true)
{
    auto links = relations.consumers(node, depth, control);
    if (!links)
        qFatal("%s", links.error().toString().c_str());
    return describe(*links);
}

} // namespace

class TestNodeInfo : public QObject {
    Q_OBJECT
private slots:
    void find()
    {
        const tensorflow::GraphDef graph = graphOf(kGraph);
        const NodeRelations relations(graph);
        QVERIFY(relations.find("split"));
        QCOMPARE(relations.find("split")->op(), std::string("Split"));
        QVERIFY(relations.find("split") == &graph.node(5));
        QVERIFY(!relations.find("nope"));
        QVERIFY(!relations.find("split:1"));
    }

    void inputsOneLevel()
    {
        const tensorflow::GraphDef graph = graphOf(kGraph);
        const NodeRelations relations(graph);
        // "w:0" reads as "w"; control inputs last and marked; each cut by the depth limit.
        QCOMPARE(inputsOf(relations, "layer1/MatMul", 1), std::string("x(Placeholder@1) w(Const@1) ^init(NoOp@1)"));
        QCOMPARE(inputsOf(relations, "out", 1), std::string("add(AddV2@1)... ^layer1/MatMul(MatMul@1)..."));
        QCOMPARE(inputsOf(relations, "out", 1, false), std::string("add(AddV2@1)..."));
        QCOMPARE(inputsOf(relations, "x", 3), std::string());
        auto links = relations.inputs("out", 1);
        QVERIFY(links);
        QVERIFY(!(*links)[0].control);
        QCOMPARE((*links)[1].node, std::string("layer1/MatMul"));
        QVERIFY((*links)[1].control);
    }

    void inputsDeep()
    {
        const tensorflow::GraphDef graph = graphOf(kGraph);
        const NodeRelations relations(graph);
        // split is reached twice: expanded the first time, marked the second.
        QCOMPARE(inputsOf(relations, "add", 3),
                 std::string("split:1(Split@1){dim(Const@2) layer1/MatMul(MatMul@2){x(Placeholder@3) w(Const@3) "
                             "^init(NoOp@3)}} split(Split@1)*"));
        QCOMPARE(inputsOf(relations, "add", 2),
                 std::string("split:1(Split@1){dim(Const@2) layer1/MatMul(MatMul@2)...} split(Split@1)*"));
        // Without control edges, out -> add -> split -> ... and no ^init anywhere.
        QCOMPARE(inputsOf(relations, "out", 10, false),
                 std::string("add(AddV2@1){split:1(Split@2){dim(Const@3) layer1/MatMul(MatMul@3){x(Placeholder@4) "
                             "w(Const@4)}} split(Split@2)*}"));
    }

    void consumers()
    {
        const tensorflow::GraphDef graph = graphOf(kGraph);
        const NodeRelations relations(graph);
        // Data consumers first, then control ones; the edge is the consumer's input text.
        QCOMPARE(consumersOf(relations, "layer1/MatMul", 1),
                 std::string("layer1/MatMul(Split@1)... ^layer1/MatMul(Identity@1)"));
        auto links = relations.consumers("layer1/MatMul", 1);
        QVERIFY(links);
        QCOMPARE((*links)[0].node, std::string("split"));
        QCOMPARE((*links)[1].node, std::string("out"));
        QVERIFY((*links)[1].control);
        QCOMPARE(consumersOf(relations, "layer1/MatMul", 1, false), std::string("layer1/MatMul(Split@1)..."));
        // A consumer reading two outputs is listed once per edge.
        QCOMPARE(consumersOf(relations, "split", 1), std::string("split:1(AddV2@1)... split(AddV2@1)..."));
        QCOMPARE(consumersOf(relations, "x", 10),
                 std::string("x(MatMul@1){layer1/MatMul(Split@2){split:1(AddV2@3){add(Identity@4)} split(AddV2@3)*} "
                             "^layer1/MatMul(Identity@2)}"));
        QCOMPARE(consumersOf(relations, "out", 4), std::string());
    }

    void errors()
    {
        const tensorflow::GraphDef graph = graphOf(kGraph);
        const NodeRelations relations(graph);
        auto missing = relations.inputs("nope", 1);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code(), StatusCode::kNotFound);
        QCOMPARE(missing.error().message(), std::string("node 'nope' not found in the graph"));
        QCOMPARE(relations.consumers("nope", 1).error().code(), StatusCode::kNotFound);
        auto zero = relations.inputs("add", 0);
        QVERIFY(!zero);
        QCOMPARE(zero.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(relations.consumers("add", -1).error().code(), StatusCode::kInvalidArgument);
    }

    void loopsEnd()
    {
        const tensorflow::GraphDef graph = graphOf(kLoop);
        const NodeRelations relations(graph);
        // Back at merge after four edges: listed, not expanded again. "cond" is not in the graph.
        QCOMPARE(inputsOf(relations, "merge", 100),
                 std::string("enter(Enter@1){i(Const@2)} next(NextIteration@1){body(Identity@2){switch:1(Switch@3){"
                             "merge(Merge@4)* cond(@4)}}}"));
        QCOMPARE(consumersOf(relations, "merge", 100),
                 std::string("merge(Switch@1){switch:1(Identity@2){body(NextIteration@3){next(Merge@4)*}} "
                             "switch(Exit@2)}"));
        QCOMPARE(inputsOf(relations, "self", 1000000), std::string("self(Identity@1)*"));
        QCOMPARE(consumersOf(relations, "self", 5), std::string("self(Identity@1)*"));
    }

    void deepChain()
    {
        // A long chain, walked to its end (the walk keeps its own stack, not the call stack's).
        tensorflow::GraphDef graph;
        constexpr int kCount = 20000;
        for (int i = 0; i < kCount; ++i) {
            tensorflow::NodeDef* node = graph.add_node();
            node->set_name("n" + std::to_string(i));
            node->set_op("Identity");
            if (i > 0)
                node->add_input("n" + std::to_string(i - 1));
        }
        const NodeRelations relations(graph);
        auto links = relations.inputs("n" + std::to_string(kCount - 1), kCount);
        QVERIFY(links);
        int depth = 0;
        const NodeLink* link = &links->front();
        for (;;) {
            ++depth;
            QCOMPARE(link->depth, depth);
            if (link->children.empty())
                break;
            QCOMPARE(link->children.size(), std::size_t(1));
            link = &link->children.front();
        }
        QCOMPARE(depth, kCount - 1);
        QCOMPARE(link->node, std::string("n0"));
        auto consumers = relations.consumers("n0", 5);
        QVERIFY(consumers);
        QCOMPARE(describe(*consumers), std::string("n0(Identity@1){n1(Identity@2){n2(Identity@3){n3(Identity@4){"
                                                   "n4(Identity@5)...}}}}"));
    }

    void nodeTreeText()
    {
        const tensorflow::GraphDef graph = graphOf(kGraph);
        const NodeRelations relations(graph);
        auto links = relations.inputs("add", 3);
        QVERIFY(links);
        QCOMPARE(formatNodeTree("add", *links, true), std::string(R"(Inputs of node "add":
  |- (1) [Split] split:1
  |  |- (2) [Const] dim
  |  |- (2) [MatMul] layer1/MatMul
  |     |- (3) [Placeholder] x
  |     |- (3) [Const] w
  |     |- (3) (Ctrl) [NoOp] init
  |- (1) [Split] split (expanded above)

Legend:
  (d): depth; [Op]: the node's op type; (Ctrl): control input
)"));
        links = relations.inputs("add", 1);
        QVERIFY(links);
        QCOMPARE(formatNodeTree("add", *links, true), std::string(R"(Inputs of node "add":
  |- (1) [Split] split:1
  |  |- ...
  |- (1) [Split] split
     |- ...

Legend:
  (d): depth; [Op]: the node's op type; ...: more beyond the depth limit
)"));
        links = relations.consumers("layer1/MatMul", 2);
        QVERIFY(links);
        QCOMPARE(formatNodeTree("layer1/MatMul", *links, false), std::string(R"(Consumers of node "layer1/MatMul":
  |- (1) [Split] split
  |  |- (2) [AddV2] add
  |  |  |- ...
  |  |- (2) [AddV2] add
  |     |- ...
  |- (1) (Ctrl) [Identity] out

Legend:
  (d): depth; [Op]: the node's op type; (Ctrl): control consumer; ...: more beyond the depth limit
)"));
        QCOMPARE(formatNodeTree("x", {}, true), std::string("Inputs of node \"x\":\n  (none)\n"));
    }

    void nodeInfoText()
    {
        const tensorflow::GraphDef graph = graphOf(kGraph);
        const NodeRelations relations(graph);
        QCOMPARE(formatNodeInfo(relations, *relations.find("layer1/MatMul")), std::string(R"(Node name: layer1/MatMul
  Op: MatMul
  Device: /device:CPU:0

  Attributes:
    T: float
    transpose_a: false
    transpose_b: true

  2 inputs + 1 control input:
    [Placeholder] x
    [Const] w
    (Ctrl) [NoOp] init

  1 consumer + 1 control consumer:
    [Split] split
    (Ctrl) [Identity] out
)"));
        QCOMPARE(formatNodeInfo(relations, *relations.find("split")), std::string(R"(Node name: split
  Op: Split
  Device: (not set)

  Attributes:
    T: float
    num_split: 2

  2 inputs + 0 control inputs:
    [Const] dim
    [MatMul] layer1/MatMul

  2 consumers + 0 control consumers:
    [AddV2] add (reads split:1)
    [AddV2] add
)"));
        const std::string init = formatNodeInfo(relations, *relations.find("init"));
        QVERIFY2(init.find("  Attributes: (none)\n") != std::string::npos, init.c_str());
        QVERIFY2(init.find("  0 inputs + 0 control inputs\n") != std::string::npos, init.c_str());
        QVERIFY2(init.find("  0 consumers + 1 control consumer:\n    (Ctrl) [MatMul] layer1/MatMul\n") !=
                     std::string::npos,
                 init.c_str());
    }

    void attributeForms()
    {
        const tensorflow::GraphDef graph = graphOf(R"(
node { name: "p" op: "AvgPool" input: "missing:2"
       attr { key: "ksize" value { list { i: [1, 2, 2, 1] } } }
       attr { key: "padding" value { s: "SAME" } }
       attr { key: "alpha" value { f: 0.2 } }
       attr { key: "shape" value { shape { dim { size: -1 } dim { size: 3 } } } }
       attr { key: "scalar_shape" value { shape { } } }
       attr { key: "any_shape" value { shape { unknown_rank: true } } }
       attr { key: "dtypes" value { list { type: [DT_FLOAT, DT_INT32] } } }
       attr { key: "shapes" value { list { shape { dim { size: 2 } } shape { unknown_rank: true } } } }
       attr { key: "empty" value { list { } } }
       attr { key: "value" value { tensor { dtype: DT_HALF tensor_shape { dim { size: 3 } dim { size: 2 } } } } }
       attr { key: "f" value { func { name: "my_fn" } } }
       attr { key: "ph" value { placeholder: "T" } }
       attr { key: "unset" value { } }
       attr { key: "bytes" value { s: "a\\b\n\001" } }
       attr { key: "long" value { list { i: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                            20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34] } } } }
)");
        const NodeRelations relations(graph);
        const std::string info = formatNodeInfo(relations, graph.node(0));
        const char* const expected[] = {
            "    ksize: [1, 2, 2, 1]\n",
            "    padding: \"SAME\"\n",
            "    alpha: 0.2\n",
            "    shape: [?,3]\n",
            "    scalar_shape: []\n",
            "    any_shape: <unknown>\n",
            "    dtypes: [float, int32]\n",
            "    shapes: [[2], <unknown>]\n",
            "    empty: []\n",
            "    value: half tensor [3,2]\n",
            "    f: my_fn\n",
            "    ph: $T\n",
            "    unset: <not set>\n",
            "    bytes: \"a\\\\b\\x0a\\x01\"\n",
            "    long: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, "
            "26, "
            "27, 28, 29, 30, 31, ... (35 in all)]\n",
            // An input from a node the graph lacks.
            "  1 input + 0 control inputs:\n    [?] missing:2\n",
        };
        for (const char* line : expected)
            QVERIFY2(info.find(line) != std::string::npos,
                     qPrintable(QString("%1 not in:\n%2").arg(line, info.c_str())));
        // Attributes are sorted by name.
        QVERIFY(info.find("    alpha:") < info.find("    any_shape:"));
        QVERIFY(info.find("    unset:") < info.find("    value:"));
    }

    void nodeOutsideTheGraph()
    {
        const tensorflow::GraphDef graph = graphOf(kGraph);
        const NodeRelations relations(graph);
        tensorflow::NodeDef stranger;
        stranger.set_name("stranger");
        stranger.set_op("Add");
        stranger.add_input("x");
        stranger.add_input("bad:input:");
        const std::string info = formatNodeInfo(relations, stranger);
        QVERIFY2(info.find("  2 inputs + 0 control inputs:\n    [Placeholder] x\n    [?] bad:input:\n") !=
                     std::string::npos,
                 info.c_str());
        QVERIFY2(info.find("  0 consumers + 0 control consumers\n") != std::string::npos, info.c_str());
    }
};

QTEST_GUILESS_MAIN(TestNodeInfo)
#include "test_node_info.moc"
