// graphDiff (diff/graph_diff.h) on graphs the test writes: identical graphs, a changed attr, op,
// device, input and output shapes, nodes added and removed, renames found by structure (a chain
// renamed as a whole, its consumers unchanged), and an ambiguous pair left as removed + added.
#include "diff/graph_diff.h"
#include "proto/graph.pb.h"

#include <QtTest>

#include <google/protobuf/text_format.h>

using namespace tstudio;
using namespace tstudio::diff;

namespace {

tensorflow::GraphDef parse(const char* text)
{
    tensorflow::GraphDef g;
    if (!google::protobuf::TextFormat::ParseFromString(text, &g))
        qWarning("the test graph does not parse");
    return g;
}

const char* kBase = R"(
    node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
    node { name: "w" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } } }
    node { name: "layer/MatMul" op: "MatMul" input: "x" input: "w"
           attr { key: "transpose_a" value { b: false } } }
    node { name: "layer/Relu" op: "Relu" input: "layer/MatMul" }
    node { name: "loss" op: "Sum" input: "layer/Relu" input: "w" device: "/device:CPU:0" }
)";

} // namespace

class TestGraphDiff : public QObject {
    Q_OBJECT
private slots:
    void identicalGraphs()
    {
        const GraphDiff d = graphDiff(parse(kBase), parse(kBase));
        QVERIFY(d.identical());
        QCOMPARE(d.unchanged, std::size_t(5));
        QCOMPARE(d.firstNodes, std::size_t(5));
    }

    void changesByName()
    {
        auto second = parse(kBase);
        (*second.mutable_node(2)->mutable_attr())["transpose_a"].set_b(true);
        second.mutable_node(3)->set_op("Relu6");
        second.mutable_node(4)->set_device("/device:GPU:0");
        second.mutable_node(4)->set_input(1, "x");
        (*second.mutable_node(0)->mutable_attr())["_output_shapes"].mutable_list()->add_shape()->add_dim()->set_size(2);
        auto* extra = second.add_node();
        extra->set_name("summary");
        extra->set_op("ScalarSummary");
        auto first = parse(kBase);
        auto* gone = first.add_node();
        gone->set_name("old_metric");
        gone->set_op("Mean");
        gone->add_input("loss");
        const GraphDiff d = graphDiff(first, second);
        QCOMPARE(d.added, std::vector<std::string>({"summary"}));
        QCOMPARE(d.removed, std::vector<std::string>({"old_metric"}));
        QVERIFY(d.renamed.empty());
        QCOMPARE(d.changed.size(), std::size_t(4));
        QCOMPARE(d.changed[0].name, std::string("layer/MatMul"));
        QCOMPARE(d.changed[0].changes.size(), std::size_t(1));
        QCOMPARE(d.changed[0].changes[0].what, std::string("attr transpose_a"));
        QCOMPARE(d.changed[0].changes[0].before, std::string("b: false"));
        QCOMPARE(d.changed[0].changes[0].after, std::string("b: true"));
        QCOMPARE(d.changed[1].name, std::string("layer/Relu"));
        QCOMPARE(d.changed[1].op, std::string("Relu6"));
        QCOMPARE(d.changed[1].changes[0].what, std::string("op"));
        QCOMPARE(d.changed[2].name, std::string("loss"));
        QCOMPARE(d.changed[2].changes.size(), std::size_t(2));
        QCOMPARE(d.changed[2].changes[0].what, std::string("device"));
        QCOMPARE(d.changed[2].changes[1].what, std::string("inputs"));
        QCOMPARE(d.changed[2].changes[1].before, std::string("[layer/Relu, w]"));
        QCOMPARE(d.changed[2].changes[1].after, std::string("[layer/Relu, x]"));
        QCOMPARE(d.changed[3].name, std::string("x"));
        QCOMPARE(d.changed[3].changes[0].what, std::string("output shapes"));
        QCOMPARE(d.changed[3].changes[0].before, std::string());
        QCOMPARE(d.unchanged, std::size_t(1)); // w
    }

    void renamesFoundByStructure()
    {
        // The layer's scope renamed: both nodes pair by structure, in two rounds (Relu after MatMul),
        // and "loss", whose input is the renamed Relu, is unchanged.
        std::string text = kBase;
        for (const char* from : {"\"layer/MatMul\"", "\"layer/Relu\""}) {
            std::string f = from;
            std::string to = f;
            to.replace(1, 5, "dense");
            for (auto at = text.find(f); at != std::string::npos; at = text.find(f, at + to.size()))
                text.replace(at, f.size(), to);
        }
        const GraphDiff d = graphDiff(parse(kBase), parse(text.c_str()));
        QVERIFY(d.added.empty());
        QVERIFY(d.removed.empty());
        QVERIFY(d.changed.empty());
        QCOMPARE(d.renamed.size(), std::size_t(2));
        QCOMPARE(d.renamed[0], std::make_pair(std::string("layer/MatMul"), std::string("dense/MatMul")));
        QCOMPARE(d.renamed[1], std::make_pair(std::string("layer/Relu"), std::string("dense/Relu")));
        QCOMPARE(d.unchanged, std::size_t(5));
        QVERIFY(!d.identical());
    }

    void ambiguousPairsStayAddedAndRemoved()
    {
        // Two identical new nodes for one removed one: no unique pair.
        auto first = parse(kBase);
        auto* a = first.add_node();
        a->set_name("a");
        a->set_op("NoOp");
        auto second = parse(kBase);
        for (const char* name : {"b", "c"}) {
            auto* n = second.add_node();
            n->set_name(name);
            n->set_op("NoOp");
        }
        const GraphDiff d = graphDiff(first, second);
        QCOMPARE(d.removed, std::vector<std::string>({"a"}));
        QCOMPARE(d.added, std::vector<std::string>({"b", "c"}));
        QVERIFY(d.renamed.empty());
    }
};

QTEST_GUILESS_MAIN(TestGraphDiff)
#include "test_graph_diff.moc"
