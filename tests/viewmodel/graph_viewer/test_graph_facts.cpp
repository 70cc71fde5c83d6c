// Tests for computeGraphFacts: output dtypes and shapes, `_output_shapes`, problems of broken graphs
// (cycle, dangling input, unknown op, no CPU kernel, shape errors), placement, and the book's MNIST graph.
#include "../../support/graph_def_nodes.h"
#include "graph_viewer/graph_facts.h"

#include "model/meta_graph.h"
#include "registries/default_registries.h"

#include "test_files.h"

#include <QDir>
#include <QTest>

#include <initializer_list>
#include <map>

using namespace tstudio;
using namespace tstudio::graph_viewer;

using tstudio::testing::addNode;

namespace {

const std::string kCpu0 = "/job:localhost/replica:0/task:0/device:CPU:0";
constexpr const char* kOnCycle = "on a cycle that does not pass through a NextIteration node";

void setType(tensorflow::NodeDef* n, const std::string& attr, tensorflow::DataType type)
{
    (*n->mutable_attr())[attr].set_type(type);
}

tensorflow::TensorShapeProto shapeProto(std::initializer_list<std::int64_t> dims)
{
    tensorflow::TensorShapeProto shape;
    for (auto d : dims)
        shape.add_dim()->set_size(d);
    return shape;
}

tensorflow::NodeDef* placeholder(tensorflow::GraphDef& g, const std::string& name,
                                 std::initializer_list<std::int64_t> dims)
{
    auto* n = addNode(g, name, "Placeholder");
    setType(n, "dtype", tensorflow::DT_FLOAT);
    *(*n->mutable_attr())["shape"].mutable_shape() = shapeProto(dims);
    return n;
}

tensorflow::NodeDef* variable(tensorflow::GraphDef& g, const std::string& name,
                              std::initializer_list<std::int64_t> dims)
{
    auto* n = addNode(g, name, "VariableV2");
    setType(n, "dtype", tensorflow::DT_FLOAT);
    *(*n->mutable_attr())["shape"].mutable_shape() = shapeProto(dims);
    return n;
}

tensorflow::NodeDef* floatOp(tensorflow::GraphDef& g, const std::string& name, const std::string& op,
                             std::initializer_list<std::string> inputs)
{
    auto* n = addNode(g, name, op, inputs);
    setType(n, "T", tensorflow::DT_FLOAT);
    return n;
}

tensorflow::NodeDef* int32Const(tensorflow::GraphDef& g, const std::string& name, std::initializer_list<int> values)
{
    auto* n = addNode(g, name, "Const");
    setType(n, "dtype", tensorflow::DT_INT32);
    auto* tensor = (*n->mutable_attr())["value"].mutable_tensor();
    tensor->set_dtype(tensorflow::DT_INT32);
    tensor->mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(values.size()));
    for (int v : values)
        tensor->add_int_val(v);
    return n;
}

void setOutputShapes(tensorflow::NodeDef* n, std::initializer_list<std::initializer_list<std::int64_t>> shapes)
{
    auto* list = (*n->mutable_attr())["_output_shapes"].mutable_list();
    for (auto dims : shapes)
        *list->add_shape() = shapeProto(dims);
}

/// x [?,4] -> MatMul w [4,3] -> BiasAdd b [3] -> Relu -> MatMul w2 [3,2] -> Softmax; and Reshape(x, [-1,2]).
tensorflow::GraphDef mlp()
{
    tensorflow::GraphDef g;
    placeholder(g, "x", {-1, 4});
    variable(g, "w", {4, 3});
    variable(g, "b", {3});
    variable(g, "w2", {3, 2});
    floatOp(g, "mm", "MatMul", {"x", "w"});
    floatOp(g, "add", "BiasAdd", {"mm", "b"});
    floatOp(g, "relu", "Relu", {"add"});
    floatOp(g, "logits", "MatMul", {"relu", "w2"});
    floatOp(g, "softmax", "Softmax", {"logits"});
    int32Const(g, "shape", {-1, 2});
    auto* reshape = floatOp(g, "flat", "Reshape", {"x", "shape"});
    setType(reshape, "Tshape", tensorflow::DT_INT32);
    return g;
}

int indexOf(const tensorflow::GraphDef& g, const std::string& name)
{
    for (int i = 0; i < g.node_size(); ++i)
        if (g.node(i).name() == name)
            return i;
    return -1;
}

const NodeFacts& factsOf(const GraphFacts& facts, const tensorflow::GraphDef& g, const std::string& name)
{
    static const NodeFacts none;
    const int i = indexOf(g, name);
    return i < 0 ? none : facts.nodes[static_cast<std::size_t>(i)];
}

std::string shapeOf(const GraphFacts& facts, const tensorflow::GraphDef& g, const std::string& name, int output = 0)
{
    const NodeFacts& f = factsOf(facts, g, name);
    if (output >= static_cast<int>(f.outputs.size()))
        return "<no output>";
    return f.outputs[static_cast<std::size_t>(output)].shape.toString();
}

} // namespace

class TestGraphFacts : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY2(registries, registries ? "" : registries.error().toString().c_str());
        m_registries = std::move(*registries);
    }

    void mlpShapesDtypesAndPlacement()
    {
        const tensorflow::GraphDef g = mlp();
        const GraphFacts facts = computeGraphFacts(g, *m_registries);
        QCOMPARE(facts.nodes.size(), std::size_t(g.node_size()));
        QVERIFY(facts.problems.empty());
        QVERIFY(!facts.cancelled);
        const std::map<std::string, std::string> expected{{"x", "[?,4]"},    {"w", "[4,3]"},      {"b", "[3]"},
                                                          {"w2", "[3,2]"},   {"mm", "[?,3]"},     {"add", "[?,3]"},
                                                          {"relu", "[?,3]"}, {"logits", "[?,2]"}, {"softmax", "[?,2]"},
                                                          {"shape", "[2]"},  {"flat", "[?,2]"}};
        for (const auto& [name, shape] : expected) {
            const NodeFacts& f = factsOf(facts, g, name);
            QVERIFY2(f.problem.empty(), (name + ": " + f.problem).c_str());
            QCOMPARE(f.outputs.size(), std::size_t(1));
            QCOMPARE(shapeOf(facts, g, name), shape);
            QVERIFY(f.outputs[0].shapeKnown);
            QVERIFY(f.runnable);
            QCOMPARE(f.placedDevice, kCpu0);
        }
        QCOMPARE(factsOf(facts, g, "w").outputs[0].dtype, tensorflow::DT_FLOAT_REF);
        QCOMPARE(factsOf(facts, g, "w").outputs[0].elements, std::int64_t(12));
        QCOMPARE(factsOf(facts, g, "mm").outputs[0].dtype, tensorflow::DT_FLOAT);
        QCOMPARE(factsOf(facts, g, "mm").outputs[0].elements, std::int64_t(-1));
        QCOMPARE(factsOf(facts, g, "shape").outputs[0].dtype, tensorflow::DT_INT32);
        QCOMPARE(factsOf(facts, g, "shape").outputs[0].elements, std::int64_t(2));
    }

    void outputShapesAttrWins()
    {
        tensorflow::GraphDef g = mlp();
        setOutputShapes(g.mutable_node(indexOf(g, "mm")), {{5, 3}});
        // An unknown rank written by TensorFlow stays unknown.
        (*g.mutable_node(indexOf(g, "relu"))->mutable_attr())["_output_shapes"]
            .mutable_list()
            ->add_shape()
            ->set_unknown_rank(true);
        const GraphFacts facts = computeGraphFacts(g, *m_registries);
        QCOMPARE(shapeOf(facts, g, "mm"), std::string("[5,3]"));
        QCOMPARE(factsOf(facts, g, "mm").outputs[0].elements, std::int64_t(15));
        QCOMPARE(shapeOf(facts, g, "relu"), std::string("<unknown>"));
        QVERIFY(!factsOf(facts, g, "relu").outputs[0].shapeKnown);
        QCOMPARE(shapeOf(facts, g, "add"), std::string("[?,3]")); // inference does not read the attr
    }

    void cycleIsNamedAndTheRestGetsFacts()
    {
        tensorflow::GraphDef g;
        placeholder(g, "a", {2, 3});
        floatOp(g, "b", "Add", {"a", "d"});
        floatOp(g, "c", "Identity", {"b"});
        floatOp(g, "d", "Identity", {"c"});
        floatOp(g, "e", "Identity", {"d"});
        floatOp(g, "f", "Relu", {"a"});
        const GraphFacts facts = computeGraphFacts(g, *m_registries);
        QCOMPARE(facts.problems,
                 std::vector<std::string>{
                     "Graph has a cycle that does not pass through a NextIteration node: 'b' -> 'c' -> 'd' -> 'b'"});
        for (const char* name : {"b", "c", "d"})
            QCOMPARE(factsOf(facts, g, name).problem, std::string(kOnCycle));
        for (const char* name : {"a", "e", "f"})
            QCOMPARE(factsOf(facts, g, name).problem, std::string());
        QCOMPARE(shapeOf(facts, g, "f"), std::string("[2,3]"));
        QCOMPARE(factsOf(facts, g, "e").outputs[0].dtype, tensorflow::DT_FLOAT);
        QVERIFY(factsOf(facts, g, "e").runnable);
        QCOMPARE(factsOf(facts, g, "f").placedDevice, std::string()); // not a valid Graph: not placed
    }

    void nextIterationBackEdgeIsNoCycle()
    {
        tensorflow::GraphDef g;
        placeholder(g, "x", {});
        auto* enter = floatOp(g, "enter", "Enter", {"x"});
        (*enter->mutable_attr())["frame_name"].set_s("loop");
        auto* merge = floatOp(g, "merge", "Merge", {"enter", "next"});
        (*merge->mutable_attr())["N"].set_i(2);
        floatOp(g, "body", "Identity", {"merge"});
        floatOp(g, "next", "NextIteration", {"body"});
        const GraphFacts facts = computeGraphFacts(g, *m_registries);
        QVERIFY(facts.problems.empty());
        QCOMPARE(factsOf(facts, g, "merge").problem, std::string());
        QCOMPARE(factsOf(facts, g, "merge").outputs.size(), std::size_t(2)); // output, value_index
        QCOMPARE(factsOf(facts, g, "merge").outputs[1].dtype, tensorflow::DT_INT32);
        QCOMPARE(factsOf(facts, g, "next").placedDevice, kCpu0);
    }

    void danglingInputIsReported()
    {
        tensorflow::GraphDef g;
        placeholder(g, "x", {2});
        floatOp(g, "y", "Identity", {"missing:0"});
        floatOp(g, "z", "Relu", {"x"});
        const GraphFacts facts = computeGraphFacts(g, *m_registries);
        QVERIFY(facts.problems.empty());
        QCOMPARE(factsOf(facts, g, "y").problem, std::string("Unknown input node 'missing:0'"));
        QCOMPARE(factsOf(facts, g, "y").outputs[0].dtype, tensorflow::DT_FLOAT);
        QVERIFY(!factsOf(facts, g, "y").outputs[0].shapeKnown);
        QCOMPARE(factsOf(facts, g, "z").problem, std::string());
        QCOMPARE(shapeOf(facts, g, "z"), std::string("[2]"));
    }

    void unknownOpIsReported()
    {
        tensorflow::GraphDef g;
        placeholder(g, "x", {2});
        setOutputShapes(addNode(g, "foo", "Foo", {"x"}), {{7}});
        floatOp(g, "z", "Relu", {"x"});
        const GraphFacts facts = computeGraphFacts(g, *m_registries);
        QVERIFY(facts.problems.empty());
        const NodeFacts& foo = factsOf(facts, g, "foo");
        QCOMPARE(foo.problem, std::string("Op type not registered 'Foo'"));
        QVERIFY(!foo.runnable);
        QCOMPARE(foo.placedDevice, std::string());
        QCOMPARE(foo.outputs.size(), std::size_t(1)); // counted by _output_shapes
        QCOMPARE(foo.outputs[0].dtype, tensorflow::DT_INVALID);
        QCOMPARE(foo.outputs[0].shape.toString(), std::string("[7]"));
        QCOMPARE(factsOf(facts, g, "z").problem, std::string());
        QCOMPARE(shapeOf(facts, g, "z"), std::string("[2]"));
        QCOMPARE(factsOf(facts, g, "z").placedDevice, kCpu0);
    }

    void shapeFunctionErrorIsReported()
    {
        tensorflow::GraphDef g;
        placeholder(g, "v", {3});
        variable(g, "w", {3, 4});
        floatOp(g, "mm", "MatMul", {"v", "w"});
        floatOp(g, "after", "Relu", {"mm"});
        const GraphFacts facts = computeGraphFacts(g, *m_registries);
        QCOMPARE(
            factsOf(facts, g, "mm").problem,
            std::string("Shape must be rank 2 but is rank 1 for 'mm' (op: 'MatMul') with input shapes: [3], [3,4]."));
        QCOMPARE(factsOf(facts, g, "after").problem, std::string());
        QCOMPARE(factsOf(facts, g, "after").outputs[0].dtype, tensorflow::DT_FLOAT);
        QCOMPARE(factsOf(facts, g, "after").placedDevice, kCpu0);
    }

    void missingCpuKernelIsReported()
    {
        tensorflow::GraphDef g;
        auto* x = addNode(g, "x", "Placeholder");
        setType(x, "dtype", tensorflow::DT_UINT32);
        auto* relu = addNode(g, "r", "Relu", {"x"}); // Relu's OpDef allows uint32; the engine has no kernel for it
        setType(relu, "T", tensorflow::DT_UINT32);
        // The premise: the engine has no CPU kernel for this node.
        tensorflow::NodeDef probe = *relu;
        QVERIFY(!m_registries->kernels.supports(probe, "CPU"));
        const GraphFacts facts = computeGraphFacts(g, *m_registries);
        QCOMPARE(factsOf(facts, g, "r").problem,
                 std::string("not runnable here: no CPU kernel for op Relu with T=DT_UINT32"));
        QVERIFY(!factsOf(facts, g, "r").runnable);
        QVERIFY(factsOf(facts, g, "x").runnable);
    }

    void invalidAttrIsReported()
    {
        tensorflow::GraphDef g;
        placeholder(g, "x", {2});
        auto* bad = addNode(g, "bad", "Relu", {"x"});
        setType(bad, "T", tensorflow::DT_STRING);
        const GraphFacts facts = computeGraphFacts(g, *m_registries);
        QVERIFY(factsOf(facts, g, "bad")
                    .problem.starts_with("Value for attr 'T' of string is not in the list of allowed values"));
        QVERIFY(factsOf(facts, g, "bad").problem.ends_with("; NodeDef: {{node bad}}"));
        QVERIFY(!factsOf(facts, g, "bad").runnable);
        QCOMPARE(factsOf(facts, g, "x").problem, std::string());
    }

    void cancelledBeforeStarting()
    {
        std::atomic<bool> cancelled{true};
        const GraphFacts facts = computeGraphFacts(mlp(), *m_registries, &cancelled);
        QVERIFY(facts.cancelled);
    }

    void bookMnistGraph()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        const QString path = fixtures + "/tf1-mnist-book/mnist_model-29001.meta";
        if (fixtures.isEmpty() || !QFile::exists(path))
            QSKIP("fixtures/tf1-mnist-book not found (set TSTUDIO_FIXTURES or provide ../shared/fixtures)");
        auto meta = readMetaGraphFile(path.toStdString());
        QVERIFY2(meta, meta ? "" : meta.error().toString().c_str());
        const tensorflow::GraphDef& g = meta->graph_def();
        QCOMPARE(g.node_size(), 331);
        const GraphFacts facts = computeGraphFacts(g, *m_registries);
        QVERIFY(!facts.cancelled);
        for (const std::string& p : facts.problems)
            qWarning("graph problem: %s", p.c_str());
        QVERIFY(facts.problems.empty());
        int withShapes = 0;
        for (int i = 0; i < g.node_size(); ++i) {
            const NodeFacts& f = facts.nodes[static_cast<std::size_t>(i)];
            const std::string& name = g.node(i).name();
            QVERIFY2(f.problem.empty(), (name + ": " + f.problem).c_str());
            QVERIFY2(f.runnable, name.c_str());
            QCOMPARE(f.placedDevice, kCpu0);
            for (const OutputFact& out : f.outputs) {
                QVERIFY2(out.dtype != tensorflow::DT_INVALID, name.c_str());
                withShapes += out.shapeKnown ? 1 : 0;
            }
        }
        QCOMPARE(shapeOf(facts, g, "x-input"), std::string("[?,784]"));
        QCOMPARE(shapeOf(facts, g, "layer2/add"), std::string("[?,10]"));
        QCOMPARE(factsOf(facts, g, "layer1/weights").outputs[0].dtype, tensorflow::DT_FLOAT_REF);
        QCOMPARE(shapeOf(facts, g, "layer1/weights"), std::string("[784,500]"));
        QVERIFY(withShapes > 300);

        // Without the `_output_shapes` TensorFlow wrote, the engine's inference must agree with them.
        tensorflow::GraphDef stripped = g;
        for (auto& node : *stripped.mutable_node())
            node.mutable_attr()->erase("_output_shapes");
        const GraphFacts inferred = computeGraphFacts(stripped, *m_registries);
        int compared = 0, exact = 0;
        for (int i = 0; i < g.node_size(); ++i) {
            const NodeFacts& f = inferred.nodes[static_cast<std::size_t>(i)];
            QVERIFY2(f.problem.empty(), (g.node(i).name() + ": " + f.problem).c_str());
            const auto it = g.node(i).attr().find("_output_shapes");
            if (it == g.node(i).attr().end())
                continue;
            QCOMPARE(it->second.list().shape_size(), static_cast<int>(f.outputs.size()));
            for (int k = 0; k < it->second.list().shape_size(); ++k) {
                auto tfShape = TensorShape::fromProto(it->second.list().shape(k));
                QVERIFY(tfShape);
                const TensorShape& ours = f.outputs[static_cast<std::size_t>(k)].shape;
                QVERIFY2(ours.isCompatibleWith(*tfShape),
                         (g.node(i).name() + ": " + ours.toString() + " vs TF " + tfShape->toString()).c_str());
                ++compared;
                exact += ours == *tfShape ? 1 : 0;
                // Where they differ, ours is more specific (constant folding by kernels: the gradients'
                // BroadcastGradientArgs give [0]; Merge of the moving-average conds keeps the variable's shape).
                auto merged = tfShape->merge(ours);
                QVERIFY(merged && *merged == ours);
            }
        }
        qInfo("book MNIST: %d outputs compared with TF's _output_shapes, %d identical", compared, exact);
        QVERIFY(compared > 300);
        QVERIFY(exact >= compared - 20);
    }
};

QTEST_GUILESS_MAIN(TestGraphFacts)
#include "test_graph_facts.moc"
