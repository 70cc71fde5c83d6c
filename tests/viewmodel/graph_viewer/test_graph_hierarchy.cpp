// Tests for the graph viewer's hierarchy: scopes, sibling edges, series folding and side-area extraction.
#include "../../support/graph_def_nodes.h"
#include "graph_viewer/graph_hierarchy.h"
#include "model/meta_graph.h"

#include "../../support/test_files.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <initializer_list>

using namespace tstudio;
using namespace tstudio::graph_viewer;

using tstudio::testing::addChain;
using tstudio::testing::addNode;

namespace {

void setShape(tensorflow::NodeDef* n, std::initializer_list<std::int64_t> dims)
{
    auto* shape = (*n->mutable_attr())["_output_shapes"].mutable_list()->add_shape();
    for (auto d : dims)
        shape->add_dim()->set_size(d);
}

std::vector<std::string> childNames(const GraphHierarchy& h, int id)
{
    std::vector<std::string> names;
    for (int c : h.node(id).children)
        names.push_back(h.node(c).name);
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<std::string> namesOf(const GraphHierarchy& h, const std::vector<int>& ids)
{
    std::vector<std::string> names;
    for (int c : ids)
        names.push_back(h.node(c).name);
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

class TestGraphHierarchy : public QObject {
    Q_OBJECT
private slots:
    void emptyGraph()
    {
        const auto h = GraphHierarchy::build(tensorflow::GraphDef{});
        QCOMPARE(h.nodes().size(), std::size_t(1));
        QCOMPARE(h.node(h.root()).opCount, std::int64_t(0));
        QVERIFY(h.problems().empty());
    }

    void scopesAndHistograms()
    {
        tensorflow::GraphDef g;
        addNode(g, "x", "Placeholder", {}, "/device:CPU:0");
        addNode(g, "a/w", "VariableV2", {}, "/device:GPU:0");
        addNode(g, "a/b/MatMul", "MatMul", {"x", "a/w"}, "/device:GPU:0");
        addNode(g, "a/b/Relu", "Relu", {"a/b/MatMul"});
        addNode(g, "a/b/Relu_1", "Relu", {"a/b/Relu"});
        const auto h = GraphHierarchy::build(g);
        QVERIFY(h.problems().empty());
        QCOMPARE(childNames(h, h.root()), (std::vector<std::string>{"a", "x"}));
        const int a = h.find("a");
        const int ab = h.find("a/b");
        QVERIFY(a > 0 && ab > 0);
        QCOMPARE(h.node(a).kind, HierarchyNodeKind::kGroup);
        QCOMPARE(h.node(ab).parent, a);
        QCOMPARE(childNames(h, a), (std::vector<std::string>{"a/b", "a/w"}));
        QCOMPARE(h.node(a).opCount, std::int64_t(4));
        QCOMPARE(h.node(h.root()).opCount, std::int64_t(5));
        QCOMPARE(h.node(ab).opHistogram, (std::map<std::string, int>{{"MatMul", 1}, {"Relu", 2}}));
        QCOMPARE(h.node(a).deviceHistogram, (std::map<std::string, int>{{"/device:GPU:0", 2}}));
        QCOMPARE(h.node(h.root()).deviceHistogram.at("/device:CPU:0"), 1);
    }

    void nodeNamedLikeScope()
    {
        // "a" is an op and also the scope of "a/b": it becomes "a/(a)" inside group "a", as TensorBoard does.
        tensorflow::GraphDef g;
        addNode(g, "a", "Placeholder");
        addNode(g, "a/b", "Identity", {"a"});
        addNode(g, "c", "Identity", {"a"});
        const auto h = GraphHierarchy::build(g);
        QVERIFY(h.problems().empty());
        const int a = h.find("a");
        QCOMPARE(h.node(a).kind, HierarchyNodeKind::kGroup);
        const int op = h.find("a/(a)");
        QVERIFY(op > 0);
        QCOMPARE(h.node(op).nodeName, std::string("a"));
        QCOMPARE(h.node(op).parent, a);
        QCOMPARE(childNames(h, a), (std::vector<std::string>{"a/(a)", "a/b"}));
        // The edge from op "a" to "c" appears between group a and op c; the one to a/b inside group a.
        const auto* top = h.edge(a, h.find("c"));
        QVERIFY(top);
        QCOMPARE(top->dataCount, 1);
        QVERIFY(h.edge(op, h.find("a/b")));
        QCOMPARE(GraphHierarchy::strictPaths({"a", "a/b", "ab"}), (std::vector<std::string>{"a/(a)", "a/b", "ab"}));
    }

    void siblingEdgesAggregated()
    {
        tensorflow::GraphDef g;
        setShape(addNode(g, "a/x", "Placeholder"), {-1, 10});
        setShape(addNode(g, "a/y", "Placeholder"), {3, 4});
        addNode(g, "a/init", "NoOp");
        addNode(g, "b/p", "Add", {"a/x", "a/y"});
        addNode(g, "b/q", "Mul", {"a/x:0", "^a/init"});
        addNode(g, "b/v", "VariableV2");
        addNode(g, "b/assign", "Assign", {"b/v", "a/y"});
        addNode(g, "c/deep/z", "Identity", {"b/p", "^b/q"});
        const auto h = GraphHierarchy::build(g);
        QVERIFY(h.problems().empty());
        const int a = h.find("a"), b = h.find("b"), c = h.find("c");
        const auto* ab = h.edge(a, b);
        QVERIFY(ab);
        QCOMPARE(ab->dataCount, 4); // x->p, y->p, x->q, y->assign (value input)
        QCOMPARE(ab->controlCount, 1);
        QCOMPARE(ab->refCount, 0);
        QCOMPARE(ab->totalSize, std::int64_t(10 + 12 + 10 + 12));
        QCOMPARE(ab->sizedCount, 4);
        const auto* bc = h.edge(b, c);
        QVERIFY(bc);
        QCOMPARE(bc->dataCount, 1);
        QCOMPARE(bc->controlCount, 1);
        QCOMPARE(bc->sizedCount, 0);
        QVERIFY(!h.edge(b, a));
        QVERIFY(!h.edge(a, c));
        // Inside b: the reference edge v -> assign.
        const auto* ref = h.edge(h.find("b/v"), h.find("b/assign"));
        QVERIFY(ref);
        QCOMPARE(ref->refCount, 1);
        QCOMPARE(ref->dataCount, 0);
        QVERIFY(h.node(h.find("b/assign")).hasRefInput);
        QVERIFY(h.node(h.find("b/q")).hasControlInput);
        QVERIFY(!h.node(h.find("b/p")).hasControlInput);
        QCOMPARE(h.node(h.root()).edges.size(), std::size_t(2));
        QCOMPARE(h.node(b).edges.size(), std::size_t(1));
    }

    void seriesFolding()
    {
        tensorflow::GraphDef g;
        addNode(g, "input", "Placeholder");
        std::string prev = "input";
        for (int i = 1; i <= 9; ++i) {
            const std::string scope = "conv_" + std::to_string(i);
            addChain(g, scope, prev, {"Conv2D", "BiasAdd", "Relu"});
            prev = scope + "/Relu2";
        }
        // conv_10 has a different structure, so it stays out of the series.
        addChain(g, "conv_10", prev, {"Conv2D", "Relu"});
        const auto h = GraphHierarchy::build(g);
        QVERIFY(h.problems().empty());
        const int series = h.find("conv_[1-9]");
        QVERIFY(series > 0);
        QCOMPARE(h.node(series).kind, HierarchyNodeKind::kSeries);
        QCOMPARE(h.node(series).parent, h.root());
        QCOMPARE(h.node(series).children.size(), std::size_t(9));
        QCOMPARE(h.node(series).opCount, std::int64_t(27));
        QCOMPARE(h.node(h.find("conv_4")).parent, series);
        QCOMPARE(childNames(h, h.root()), (std::vector<std::string>{"conv_10", "conv_[1-9]", "input"}));
        // Edges: input -> series, series -> conv_10 at the top; the chain inside the series.
        QVERIFY(h.edge(h.find("input"), series));
        QCOMPARE(h.edge(series, h.find("conv_10"))->dataCount, 1);
        QCOMPARE(h.node(series).edges.size(), std::size_t(8));
        QCOMPARE(h.node(h.root()).edges.size(), std::size_t(2));

        // Below the minimum size nothing folds.
        HierarchyOptions strict;
        strict.seriesMinSize = 10;
        const auto h2 = GraphHierarchy::build(g, strict);
        QCOMPARE(h2.find("conv_[1-9]"), -1);
        QCOMPARE(h2.node(h2.root()).children.size(), std::size_t(11));
    }

    void seriesNeedsConsecutiveNumbers()
    {
        // Ops: add_1..add_3 and add_7..add_9 form two runs; unnumbered "add" counts as number 0.
        tensorflow::GraphDef g;
        addNode(g, "add", "Add");
        for (int i : {1, 2, 3, 7, 8, 9})
            addNode(g, "add_" + std::to_string(i), "Add");
        addNode(g, "add_4", "Sub"); // same name pattern, other op type
        HierarchyOptions options;
        options.seriesMinSize = 3;
        const auto h = GraphHierarchy::build(g, options);
        QCOMPARE(childNames(h, h.root()), (std::vector<std::string>{"add_4", "add_[0-3]", "add_[7-9]"}));
        QCOMPARE(h.node(h.find("add_[0-3]")).children.size(), std::size_t(4));
        // Without underscore: node1..node5.
        tensorflow::GraphDef g2;
        for (int i = 1; i <= 5; ++i)
            addNode(g2, "layer" + std::to_string(i), "Relu");
        QVERIFY(GraphHierarchy::build(g2).find("layer[1-5]") > 0);
        HierarchyOptions classic;
        classic.seriesWithoutUnderscore = false;
        QCOMPARE(GraphHierarchy::build(g2, classic).find("layer[1-5]"), -1);
    }

    void auxiliaryExtraction()
    {
        // 20 ops in a chain, a NoOp "init" with control inputs from all, and a "save" op reading all of them.
        tensorflow::GraphDef g;
        std::string prev;
        for (int i = 0; i < 20; ++i) {
            const std::string name = "op" + std::string(1, char('a' + i));
            if (prev.empty())
                addNode(g, name, "Placeholder");
            else
                addNode(g, name, "Relu", {prev});
            prev = name;
        }
        auto* init = addNode(g, "init", "NoOp");
        auto* save = addNode(g, "save", "SaveV2");
        addNode(g, "fanout", "Placeholder");
        for (int i = 0; i < 20; ++i) {
            const std::string name = "op" + std::string(1, char('a' + i));
            init->add_input("^" + name);
            save->add_input(name);
        }
        for (int i = 0; i < 12; ++i)
            addNode(g, "use" + std::string(1, char('a' + i)), "Add", {"fanout"});
        // Out-degree 6 stays: the out-degree bound is Q3 + 4 (Q3 - Q1) = 10 here, unlike the in-degree rule.
        addNode(g, "mid", "Placeholder");
        for (int i = 0; i < 6; ++i)
            addNode(g, "midsink" + std::string(1, char('a' + i)), "Relu", {"mid"});
        const auto h = GraphHierarchy::build(g);
        QVERIFY(h.problems().empty());
        const auto& root = h.node(h.root());
        QCOMPARE(namesOf(h, root.outExtract), (std::vector<std::string>{"fanout", "init"}));
        QCOMPARE(namesOf(h, root.inExtract), (std::vector<std::string>{"save"}));
        // A small group extracts only the predefined NoOp.
        HierarchyOptions options;
        options.minNodeCountForExtraction = 100;
        const auto small = GraphHierarchy::build(g, options);
        QCOMPARE(namesOf(small, small.node(small.root()).outExtract), (std::vector<std::string>{"init"}));
        QVERIFY(small.node(small.root()).inExtract.empty());
        options.extractAuxiliary = false;
        QVERIFY(GraphHierarchy::build(g, options).node(0).outExtract.empty());
    }

    void edgesCrossingScopeBordersAreCounted()
    {
        // x -> s/a -> s/b -> y, and a control edge x -> s/b: only data edges count as crossing s's border.
        tensorflow::GraphDef g;
        addNode(g, "x", "Placeholder");
        addNode(g, "s/a", "Relu", {"x"});
        addNode(g, "s/b", "Relu", {"s/a", "^x"});
        addNode(g, "s/t/c", "Relu", {"s/b"});
        addNode(g, "y", "Relu", {"s/t/c"});
        const auto h = GraphHierarchy::build(g);
        const auto& a = h.node(h.find("s/a"));
        const auto& b = h.node(h.find("s/b"));
        const auto& c = h.node(h.find("s/t/c"));
        QCOMPARE(a.externalInputs, 1);
        QCOMPARE(a.externalOutputs, 0);
        QCOMPARE(b.externalInputs, 0);
        QCOMPARE(b.externalOutputs, 0);
        QCOMPARE(c.externalOutputs, 1);               // leaves t and s
        QCOMPARE(h.node(h.find("s/t")).externalOutputs, 1);
        QCOMPARE(h.node(h.find("s/t")).externalInputs, 0); // s/b -> s/t/c is inside s
        QCOMPARE(c.externalInputs, 1);                // s/b is outside t
        QCOMPARE(h.node(h.find("s")).externalInputs, 0); // s is a child of the root: nothing is outside it
    }

    void mainPathStaysInTheMainArea()
    {
        // "hub" feeds 12 leaves besides the chain in -> hub -> mid -> out: its out-degree is far above the bound,
        // but it is inside the longest data path, so it stays; "fan" with the same degree off the path goes.
        tensorflow::GraphDef g;
        addNode(g, "in", "Placeholder");
        addNode(g, "hub", "Relu", {"in"});
        addNode(g, "mid", "Relu", {"hub"});
        addNode(g, "out", "Relu", {"mid"});
        addNode(g, "fan", "Placeholder");
        for (int i = 0; i < 12; ++i) {
            addNode(g, "leaf" + std::string(1, char('a' + i)), "Add", {"hub"});
            addNode(g, "fanleaf" + std::string(1, char('a' + i)), "Add", {"fan"});
        }
        const auto h = GraphHierarchy::build(g);
        const auto& root = h.node(h.root());
        QCOMPARE(namesOf(h, root.outExtract), (std::vector<std::string>{"fan"}));
        QVERIFY(root.inExtract.empty());
    }

    void embeddings()
    {
        // Constants attach to their consumers and summaries to what they read, as in TensorBoard.
        tensorflow::GraphDef g;
        addNode(g, "x", "Placeholder");
        addNode(g, "dep", "NoOp");
        addNode(g, "k", "Const", {"^dep"});
        addNode(g, "scope/mul", "Mul", {"x", "k"});
        addNode(g, "scope/add", "Add", {"scope/mul", "k"});
        addNode(g, "loss", "ScalarSummary", {"scope/add"});
        addNode(g, "merged", "MergeSummary", {"loss"}); // reads only a summary: stays a node
        addNode(g, "reader", "Identity", {"loss"});
        addNode(g, "unused", "Const");
        const auto h = GraphHierarchy::build(g);
        QVERIFY(h.problems().empty());
        QCOMPARE(h.embeddedCount(), 2);
        QCOMPARE(h.find("k"), -1);
        QCOMPARE(h.find("loss"), -1);
        QVERIFY(h.find("unused") > 0); // a constant nobody reads stays a node
        QCOMPARE(h.node(h.find("scope/mul")).inEmbeddings, (std::vector<int>{2}));
        QCOMPARE(h.node(h.find("scope/add")).inEmbeddings, (std::vector<int>{2}));
        QCOMPARE(h.node(h.find("scope/add")).outEmbeddings, (std::vector<int>{5}));
        QCOMPARE(h.node(h.root()).opCount, std::int64_t(7));
        QVERIFY(h.find("merged") > 0);
        // The constant's control input reaches its consumers; the summary's reader is fed from scope/add.
        const int scope = h.find("scope");
        QCOMPARE(h.edge(h.find("dep"), scope)->controlCount, 2);
        QCOMPARE(h.edge(scope, h.find("reader"))->dataCount, 1);
        QCOMPARE(h.edge(scope, h.find("merged"))->dataCount, 1);
        HierarchyOptions off;
        off.enableEmbedding = false;
        const auto plain = GraphHierarchy::build(g, off);
        QCOMPARE(plain.embeddedCount(), 0);
        QVERIFY(plain.find("k") > 0 && plain.find("loss") > 0);
        QVERIFY(!plain.edge(plain.find("dep"), plain.find("scope")));
    }

    void constNamedLikeScopeStaysANode()
    {
        // A frozen graph's weights: Const "dense/kernel" read by "dense/kernel/read". Embedded, it would be
        // drawn nowhere and its name would only find the scope.
        tensorflow::GraphDef g;
        addNode(g, "x", "Placeholder");
        addNode(g, "dense/kernel", "Const");
        addNode(g, "dense/kernel/read", "Identity", {"dense/kernel"});
        addNode(g, "dense/MatMul", "MatMul", {"x", "dense/kernel/read"});
        addNode(g, "dense/bias", "Const");
        addNode(g, "dense/BiasAdd", "BiasAdd", {"dense/MatMul", "dense/bias"});
        addNode(g, "loss", "ScalarSummary", {"dense/BiasAdd"});
        const auto h = GraphHierarchy::build(g);
        QVERIFY(h.problems().empty());
        QCOMPARE(h.embeddedCount(), 2); // dense/bias and the summary only
        const int kernel = h.findOp("dense/kernel");
        QVERIFY(kernel > 0);
        QCOMPARE(h.node(kernel).name, std::string("dense/kernel/(kernel)"));
        QCOMPARE(h.node(kernel).graphIndex, 1);
        QCOMPARE(h.node(h.node(kernel).parent).name, std::string("dense/kernel"));
        // find() keeps answering the scope for the path; findOp() the op for the GraphDef name.
        QCOMPARE(h.node(h.find("dense/kernel")).kind, HierarchyNodeKind::kGroup);
        QCOMPARE(h.findOp("dense/kernel/read"), h.find("dense/kernel/read"));
        QCOMPARE(h.findOp("dense/kernel/read") > 0, true);
        QCOMPARE(h.edge(kernel, h.find("dense/kernel/read"))->dataCount, 1);
        // Embedded nodes have no op but a host.
        QCOMPARE(h.findOp("dense/bias"), -1);
        QCOMPARE(h.embeddingHost("dense/bias"), h.findOp("dense/BiasAdd"));
        QCOMPARE(h.embeddingHost("loss"), h.findOp("dense/BiasAdd"));
        QCOMPARE(h.embeddingHost("dense/kernel"), -1);
        QCOMPARE(h.findOp("nothing"), -1);
        QCOMPARE(h.embeddingHost("nothing"), -1);
    }

    void problemsAndCycles()
    {
        tensorflow::GraphDef g;
        addNode(g, "loop/a", "Merge", {"loop/b", "missing"});
        addNode(g, "loop/b", "NextIteration", {"loop/a"});
        addNode(g, "loop/b", "Identity");
        addNode(g, "self", "Identity", {"self", "^gone", ""});
        const auto h = GraphHierarchy::build(g);
        QCOMPARE(h.problems().size(), std::size_t(4));
        QVERIFY(h.problems()[0].find("duplicate node name 'loop/b'") != std::string::npos);
        QVERIFY(h.problems()[1].find("'missing'") != std::string::npos);
        QVERIFY(h.problems()[2].find("'^gone'") != std::string::npos);
        QVERIFY(h.problems()[3].find("empty input") != std::string::npos);
        const int loop = h.find("loop");
        QCOMPARE(h.node(loop).opCount, std::int64_t(2));
        QCOMPARE(h.node(loop).edges.size(), std::size_t(2)); // a->b and b->a
    }

    void deepScopes()
    {
        // 5,000 nested scopes: nothing recursive, so this cannot overflow the stack.
        tensorflow::GraphDef g;
        std::string path;
        for (int i = 0; i < 5000; ++i)
            path += "s/";
        addNode(g, path + "leaf", "Placeholder");
        addNode(g, "top", "Identity", {path + "leaf"});
        const auto h = GraphHierarchy::build(g);
        QCOMPARE(h.nodes().size(), std::size_t(1 + 5000 + 2));
        QCOMPARE(h.node(h.find("s")).opCount, std::int64_t(1));
        QVERIFY(h.edge(h.find("s"), h.find("top")));
    }

    void mnistFixture()
    {
        const QString dir = tstudio::testing::fixturesDir();
        if (dir.isEmpty())
            QSKIP("fixtures not found: set TSTUDIO_FIXTURES or provide ../shared/fixtures");
        const QString path = QDir(dir).filePath("tf1-mnist-book/mnist_model-29001.meta");
        if (!QFile::exists(path))
            QSKIP("fixture tf1-mnist-book/mnist_model-29001.meta is absent");
        const auto meta = readMetaGraphFile(path.toStdString());
        QVERIFY2(meta.has_value(), meta ? "" : meta.error().message().c_str());
        const auto h = GraphHierarchy::build(meta->graph_def());
        QVERIFY(h.problems().empty());
        QVERIFY(h.embeddedCount() > 0);
        QCOMPARE(h.node(h.root()).opCount + h.embeddedCount(), std::int64_t(meta->graph_def().node_size()));
        std::string top;
        for (int c : h.node(h.root()).children)
            top += h.node(c).name + "(" + std::to_string(h.node(c).opCount) + ") ";
        std::string side;
        for (int c : h.node(h.root()).inExtract)
            side += "in:" + h.node(c).name + " ";
        for (int c : h.node(h.root()).outExtract)
            side += "out:" + h.node(c).name + " ";
        qInfo("mnist: %d ops, top level: %s; side area: %s", meta->graph_def().node_size(), top.c_str(), side.c_str());
        QVERIFY(std::find(h.node(h.root()).outExtract.begin(), h.node(h.root()).outExtract.end(), h.find("init")) !=
                h.node(h.root()).outExtract.end());
        QVERIFY(h.find("save") > 0);
        QCOMPARE(h.node(h.find("save")).kind, HierarchyNodeKind::kGroup);
        QVERIFY(h.node(h.root()).children.size() < 40);
        QVERIFY(!h.node(h.root()).edges.empty());
    }

    void largeGraph()
    {
        // 100,000 ops: 1,000 layers of 100 ops in nested scopes with cross-layer edges.
        tensorflow::GraphDef g;
        addNode(g, "input", "Placeholder");
        for (int layer = 0; layer < 1000; ++layer) {
            const std::string scope = "model/block" + std::to_string(layer / 10) + "/layer_" + std::to_string(layer);
            const std::string prevOut = layer == 0 ? std::string("input")
                                                   : "model/block" + std::to_string((layer - 1) / 10) + "/layer_" +
                                                         std::to_string(layer - 1) + "/op99";
            for (int k = 0; k < 100; ++k) {
                const std::string name = scope + "/op" + std::to_string(k);
                if (k == 0)
                    addNode(g, name, "Conv2D", {prevOut});
                else
                    addNode(g, name, k % 2 ? "Relu" : "Add", {scope + "/op" + std::to_string(k - 1)});
            }
        }
        QElapsedTimer timer;
        timer.start();
        const auto h = GraphHierarchy::build(g);
        qInfo("built hierarchy of %d ops (%zu hierarchy nodes) in %lld ms", g.node_size(), h.nodes().size(),
              static_cast<long long>(timer.elapsed()));
        QCOMPARE(h.node(h.root()).opCount, std::int64_t(g.node_size()));
        QVERIFY(h.problems().empty());
        QCOMPARE(h.node(h.find("model")).opCount, std::int64_t(100000));
    }
};

QTEST_GUILESS_MAIN(TestGraphHierarchy)
#include "test_graph_hierarchy.moc"
