// Tests for the graph viewer's function library: bodies as groups, rewritten inputs, calls, callers, colours, links.
#include "common/op_style.h"
#include "framework/op_registry.h"
#include "graph_viewer/function_library_view.h"
#include "graph_viewer/graph_canvas.h"
#include "graph_viewer/graph_hierarchy.h"
#include "graph_viewer/graph_viewer.h"
#include "graph_viewer/node_properties_panel.h"
#include "registries/register_all_ops.h"
#include "registries/default_registries.h"

#include <google/protobuf/text_format.h>

#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

#include <algorithm>

using namespace tstudio;
using namespace tstudio::graph_viewer;

namespace {

/// A call by name (y = times_two(x)), a StatefulPartitionedCall of `outer`, whose body calls `inner` through a
/// PartitionedCall and by name and reads output "b" of a call of `pair` ("p:b:0" is output 1), a function with
/// a control output, an If, a Case, and a small tf.data pipeline.
const char* const kGraph = R"pb(
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "y" op: "times_two" input: "x" }
node {
  name: "call" op: "StatefulPartitionedCall" input: "x"
  attr { key: "f" value { func { name: "outer" } } }
  attr { key: "Tin" value { list { type: DT_FLOAT } } }
  attr { key: "Tout" value { list { type: DT_FLOAT } } }
}
node { name: "flag" op: "Placeholder" attr { key: "dtype" value { type: DT_BOOL } } }
node {
  name: "cond/If" op: "If" input: "flag" input: "x"
  attr { key: "then_branch" value { func { name: "times_two" } } }
  attr { key: "else_branch" value { func { name: "inner" } } }
}
node { name: "which" op: "Placeholder" attr { key: "dtype" value { type: DT_INT32 } } }
node {
  name: "case" op: "Case" input: "which" input: "x"
  attr { key: "branches" value { list { func { name: "inner" } func { name: "missing_fn" } } } }
}
node { name: "data/TensorSliceDataset" op: "TensorSliceDataset" input: "x" }
node {
  name: "data/MapDataset" op: "MapDataset" input: "data/TensorSliceDataset"
  attr { key: "f" value { func { name: "inner" } } }
}
node { name: "data/BatchDatasetV2" op: "BatchDatasetV2" input: "data/MapDataset" }
node { name: "data/IteratorV2" op: "IteratorV2" }
node { name: "data/MakeIterator" op: "MakeIterator" input: "data/BatchDatasetV2" input: "data/IteratorV2" }
library {
  function {
    signature {
      name: "times_two"
      input_arg { name: "x" type: DT_FLOAT }
      output_arg { name: "y" type: DT_FLOAT }
    }
    node_def {
      name: "two" op: "Const"
      attr { key: "dtype" value { type: DT_FLOAT } }
      attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 2 } } }
    }
    node_def { name: "mul" op: "Mul" input: "x" input: "two:output:0" attr { key: "T" value { type: DT_FLOAT } } }
    ret { key: "y" value: "mul:z:0" }
  }
  function {
    signature {
      name: "inner"
      input_arg { name: "v" type: DT_FLOAT }
      output_arg { name: "out" type: DT_FLOAT }
    }
    node_def { name: "neg" op: "Neg" input: "v" attr { key: "T" value { type: DT_FLOAT } } }
    ret { key: "out" value: "neg:y:0" }
  }
  function {
    signature {
      name: "pair"
      input_arg { name: "a_in" type: DT_FLOAT }
      output_arg { name: "a" type: DT_FLOAT }
      output_arg { name: "b" type: DT_FLOAT }
    }
    ret { key: "a" value: "a_in" }
    ret { key: "b" value: "a_in" }
  }
  function {
    signature {
      name: "outer"
      input_arg { name: "t" type: DT_FLOAT }
      output_arg { name: "r" type: DT_FLOAT }
    }
    node_def {
      name: "inner_call" op: "PartitionedCall" input: "t"
      attr { key: "f" value { func { name: "inner" } } }
    }
    node_def { name: "direct" op: "inner" input: "inner_call:output:0" }
    node_def { name: "p" op: "pair" input: "direct:out:0" }
    node_def { name: "u" op: "Unique" input: "p:b:0" attr { key: "T" value { type: DT_FLOAT } } }
    node_def { name: "sum" op: "AddV2" input: "u:y:0" input: "u:idx:0" attr { key: "T" value { type: DT_FLOAT } } }
    ret { key: "r" value: "sum:z:0" }
  }
  function {
    signature {
      name: "with_side_effect"
      input_arg { name: "v" type: DT_FLOAT }
      control_output: "updated"
    }
    node_def { name: "print" op: "PrintV2" input: "v" }
    control_ret { key: "updated" value: "print" }
  }
  gradient { function_name: "inner" gradient_func: "times_two" }
}
)pb";

tensorflow::GraphDef parse(const char* text)
{
    tensorflow::GraphDef graph;
    if (!google::protobuf::TextFormat::ParseFromString(text, &graph))
        qFatal("test graph does not parse");
    return graph;
}

int viewIndexOf(const FunctionLibraryView& view, const std::string& name)
{
    const auto& nodes = view.viewGraph()->node();
    for (int i = 0; i < nodes.size(); ++i)
        if (nodes[i].name() == name)
            return i;
    return -1;
}

std::vector<std::string> inputsOf(const FunctionLibraryView& view, const std::string& name)
{
    const int i = viewIndexOf(view, name);
    if (i < 0)
        return {"<no node " + name + ">"};
    const auto& inputs = view.viewGraph()->node(i).input();
    return {inputs.begin(), inputs.end()};
}

std::vector<std::string> namesOf(const FunctionLibraryView& view, const std::vector<int>& indices)
{
    std::vector<std::string> names;
    for (int i : indices)
        names.push_back(view.viewGraph()->node(i).name());
    return names;
}

const std::string kLib = "__function_library__/";

} // namespace

class TestFunctionLibraryView : public QObject {
    Q_OBJECT

    OpRegistry m_ops;
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        QVERIFY(registerAllOps(m_ops).isOk());
        auto registries = makeDefaultRegistries();
        QVERIFY(registries.has_value());
        m_registries = std::move(*registries);
    }

    void graphWithoutLibraryIsNotCopied()
    {
        auto graph = std::make_shared<const tensorflow::GraphDef>(parse(R"pb(
            node { name: "a" op: "Placeholder" }
            node { name: "b" op: "Neg" input: "a" }
        )pb"));
        const auto view = FunctionLibraryView::build(graph, &m_ops);
        QCOMPARE(view.viewGraph().get(), graph.get());
        QVERIFY(view.functions().empty());
        QVERIFY(view.callNodes().empty());
        QVERIFY(view.problems().empty());
        QCOMPARE(view.functionOfNode(1), -1);
    }

    void bodiesBecomeNodesUnderTheLibraryScope()
    {
        const auto graph = parse(kGraph);
        const auto view = FunctionLibraryView::build(graph, &m_ops);
        QCOMPARE(view.mainNodeCount(), graph.node_size());
        // The graph's own nodes keep their indices.
        for (int i = 0; i < graph.node_size(); ++i)
            QCOMPARE(view.viewGraph()->node(i).name(), graph.node(i).name());
        QCOMPARE(view.functions().size(), std::size_t(5));
        const int timesTwo = view.find("times_two");
        QVERIFY(timesTwo >= 0);
        const LibraryFunction& f = view.functions()[static_cast<std::size_t>(timesTwo)];
        QCOMPARE(f.scope, kLib + "times_two");
        QCOMPARE(f.inputs, (std::vector<std::string>{"x: float32"}));
        QCOMPARE(f.outputs, (std::vector<std::string>{"y: float32"}));
        QCOMPARE(f.bodyNodeCount, 2);
        // One _Arg, two body nodes, one _Retval, contiguous from firstNode.
        QCOMPARE(f.nodeCount, 4);
        QCOMPARE(f.firstNode, graph.node_size());
        const auto& arg = view.viewGraph()->node(f.firstNode);
        QCOMPARE(arg.name(), kLib + "times_two/x");
        QCOMPARE(arg.op(), std::string(kFunctionArgOp));
        QCOMPARE(arg.attr().at("T").type(), tensorflow::DT_FLOAT);
        QCOMPARE(arg.attr().at("index").i(), std::int64_t(0));
        // "x" is the argument, "two:output:0" Const's output 0.
        QCOMPARE(inputsOf(view, kLib + "times_two/mul"),
                 (std::vector<std::string>{kLib + "times_two/x", kLib + "times_two/two:0"}));
        const int retval = viewIndexOf(view, kLib + "times_two/y_RetVal");
        QCOMPARE(view.viewGraph()->node(retval).op(), std::string(kFunctionRetvalOp));
        QCOMPARE(inputsOf(view, kLib + "times_two/y_RetVal"), (std::vector<std::string>{kLib + "times_two/mul:0"}));
        // Every view node after the graph's belongs to the function whose range holds it.
        for (int i = f.firstNode; i < f.firstNode + f.nodeCount; ++i)
            QCOMPARE(view.functionOfNode(i), timesTwo);
        QCOMPARE(view.functionOfNode(0), -1);
        QCOMPARE(view.findScope(kLib + "times_two"), timesTwo);
        QCOMPARE(view.findScope("times_two"), -1);
        QCOMPARE(view.findScope(kLib + "times_two/mul"), -1);
        // The library's gradient entry.
        QCOMPARE(view.functions()[static_cast<std::size_t>(view.find("inner"))].gradient, std::string("times_two"));
    }

    void flatOutputIndicesFollowTheOpDef()
    {
        const auto view = FunctionLibraryView::build(parse(kGraph), &m_ops);
        // "p:b:0": output "b" of a call of `pair`, whose signature puts "a" first: flat index 1.
        QCOMPARE(inputsOf(view, kLib + "outer/u"), (std::vector<std::string>{kLib + "outer/p:1"}));
        // Unique's outputs are y, idx: "u:idx:0" is output 1; AddV2's "z" output 0.
        QCOMPARE(inputsOf(view, kLib + "outer/sum"), (std::vector<std::string>{kLib + "outer/u:0", kLib + "outer/u:1"}));
        QCOMPARE(inputsOf(view, kLib + "outer/r_RetVal"), (std::vector<std::string>{kLib + "outer/sum:0"}));
        // A ret that returns an argument as it is.
        QCOMPARE(inputsOf(view, kLib + "pair/b_RetVal"), (std::vector<std::string>{kLib + "pair/a_in"}));
    }

    void listOutputsCountTheirLength()
    {
        // "m:tail:0" of a call whose signature has "xs: N * float" first, N = 3: output 3.
        const auto view = FunctionLibraryView::build(parse(R"pb(
            library {
              function {
                signature {
                  name: "multi"
                  input_arg { name: "v" type: DT_FLOAT }
                  output_arg { name: "xs" type: DT_FLOAT number_attr: "N" }
                  output_arg { name: "tail" type: DT_FLOAT }
                  attr { name: "N" type: "int" }
                }
              }
              function {
                signature { name: "user" input_arg { name: "v" type: DT_FLOAT } output_arg { name: "o" type: DT_FLOAT } }
                node_def { name: "m" op: "multi" input: "v" attr { key: "N" value { i: 3 } } }
                node_def { name: "n" op: "Neg" input: "m:tail:0" attr { key: "T" value { type: DT_FLOAT } } }
                node_def { name: "k" op: "Neg" input: "m:xs:2" attr { key: "T" value { type: DT_FLOAT } } }
                ret { key: "o" value: "n:y:0" }
              }
            }
        )pb"),
                                                     &m_ops);
        QCOMPARE(inputsOf(view, kLib + "user/n"), (std::vector<std::string>{kLib + "user/m:3"}));
        QCOMPARE(inputsOf(view, kLib + "user/k"), (std::vector<std::string>{kLib + "user/m:2"}));
        QCOMPARE(view.functions()[0].outputs, (std::vector<std::string>{"xs: N * float32", "tail: float32"}));
        // multi has a ret missing for both outputs: listed, the result nodes kept without an input.
        QCOMPARE(view.problems().size(), std::size_t(2));
        QVERIFY(inputsOf(view, kLib + "multi/tail_RetVal").empty());
    }

    void callsCallersAndCallees()
    {
        const auto view = FunctionLibraryView::build(parse(kGraph), &m_ops);
        const int timesTwo = view.find("times_two"), inner = view.find("inner"), outer = view.find("outer"),
                  pair = view.find("pair");
        // A call by name.
        const auto& byName = view.callsOf(viewIndexOf(view, "y"));
        QCOMPARE(byName.size(), std::size_t(1));
        QCOMPARE(byName[0].attr, std::string());
        QCOMPARE(byName[0].function, std::string("times_two"));
        QCOMPARE(byName[0].index, timesTwo);
        // StatefulPartitionedCall's f.
        const auto& stateful = view.callsOf(viewIndexOf(view, "call"));
        QCOMPARE(stateful.size(), std::size_t(1));
        QCOMPARE(stateful[0].attr, std::string("f"));
        QCOMPARE(stateful[0].index, outer);
        // If: both branches, in attr name order (else_branch before then_branch).
        const auto& branches = view.callsOf(viewIndexOf(view, "cond/If"));
        QCOMPARE(branches.size(), std::size_t(2));
        QCOMPARE(branches[0].attr, std::string("else_branch"));
        QCOMPARE(branches[0].index, inner);
        QCOMPARE(branches[1].attr, std::string("then_branch"));
        QCOMPARE(branches[1].index, timesTwo);
        // Case's list(func): indexed attrs; a function the library lacks is listed with index -1.
        const auto& cases = view.callsOf(viewIndexOf(view, "case"));
        QCOMPARE(cases.size(), std::size_t(2));
        QCOMPARE(cases[0].attr, std::string("branches[0]"));
        QCOMPARE(cases[1].attr, std::string("branches[1]"));
        QCOMPARE(cases[1].function, std::string("missing_fn"));
        QCOMPARE(cases[1].index, -1);
        // Nested: outer's body calls inner twice (PartitionedCall and by name) and pair by name.
        const auto& outerFn = view.functions()[static_cast<std::size_t>(outer)];
        QCOMPARE(outerFn.callees, (std::vector<int>{std::min(inner, pair), std::max(inner, pair)}));
        QCOMPARE(namesOf(view, outerFn.callers), (std::vector<std::string>{"call"}));
        QCOMPARE(namesOf(view, view.functions()[static_cast<std::size_t>(inner)].callers),
                 (std::vector<std::string>{"cond/If", "case", "data/MapDataset", kLib + "outer/inner_call",
                                           kLib + "outer/direct"}));
        QCOMPARE(namesOf(view, view.functions()[static_cast<std::size_t>(timesTwo)].callers),
                 (std::vector<std::string>{"y", "cond/If"}));
        QCOMPARE(view.functionOfNode(viewIndexOf(view, kLib + "outer/direct")), outer);
        QVERIFY(view.functions()[static_cast<std::size_t>(timesTwo)].callees.empty());
        // Exactly the one missing function is a problem, naming the node and the attr.
        QCOMPARE(view.problems().size(), std::size_t(1));
        QCOMPARE(view.problems()[0], std::string("node 'case' calls function 'missing_fn' (attr 'branches[1]'), "
                                                 "which is not in the graph's library"));
        const std::vector<int> calls = view.callNodes();
        QCOMPARE(namesOf(view, calls),
                 (std::vector<std::string>{"y", "call", "cond/If", "case", "data/MapDataset", kLib + "outer/inner_call",
                                           kLib + "outer/direct", kLib + "outer/p"}));
    }

    void controlOutputsAreDrawnAsResults()
    {
        const auto view = FunctionLibraryView::build(parse(kGraph), &m_ops);
        const int f = view.find("with_side_effect");
        QCOMPARE(view.functions()[static_cast<std::size_t>(f)].controlOutputs, (std::vector<std::string>{"updated"}));
        const std::string name = kLib + "with_side_effect/updated_ControlRet";
        const int index = viewIndexOf(view, name);
        QVERIFY(index >= 0);
        QCOMPARE(view.viewGraph()->node(index).op(), std::string(kFunctionControlRetOp));
        QCOMPARE(inputsOf(view, name), (std::vector<std::string>{"^" + kLib + "with_side_effect/print"}));
        // In the hierarchy: a control edge from print to the control output, inside the function's group.
        const auto h = GraphHierarchy::build(*view.viewGraph());
        const HierarchyEdge* e = h.edge(h.find(kLib + "with_side_effect/print"), h.find(name));
        QVERIFY(e);
        QCOMPARE(e->controlCount, 1);
        QCOMPARE(e->dataCount, 0);
        QCOMPARE(h.node(h.find(name)).parent, h.find(kLib + "with_side_effect"));
    }

    void hierarchyOfTheViewGraph()
    {
        const auto view = FunctionLibraryView::build(parse(kGraph), &m_ops);
        const auto h = GraphHierarchy::build(*view.viewGraph());
        QVERIFY(h.problems().empty());
        const int library = h.find(std::string(kFunctionLibraryScope));
        QVERIFY(library > 0);
        QCOMPARE(h.node(library).parent, h.root());
        QCOMPARE(h.node(library).children.size(), std::size_t(5));
        for (const auto& function : view.functions()) {
            const int group = h.find(function.scope);
            QVERIFY2(group > 0, function.scope.c_str());
            QCOMPARE(h.node(group).kind, HierarchyNodeKind::kGroup);
            QCOMPARE(h.node(group).parent, library);
        }
        // Edges inside times_two: argument -> Mul -> result (the constant is embedded in Mul).
        const int x = h.find(kLib + "times_two/x"), mul = h.find(kLib + "times_two/mul"),
                  ret = h.find(kLib + "times_two/y_RetVal");
        QVERIFY(h.edge(x, mul) && h.edge(x, mul)->dataCount == 1);
        QVERIFY(h.edge(mul, ret) && h.edge(mul, ret)->dataCount == 1);
        QCOMPARE(h.node(mul).inEmbeddings.size(), std::size_t(1));
        // outer: u -> sum carries two tensors (outputs 0 and 1 of Unique).
        const HierarchyEdge* twoTensors = h.edge(h.find(kLib + "outer/u"), h.find(kLib + "outer/sum"));
        QVERIFY(twoTensors);
        QCOMPARE(twoTensors->dataCount, 2);
        // Nothing links the library to the graph's own nodes.
        QVERIFY(!h.edge(h.find("x"), library));
        QCOMPARE(h.node(library).externalInputs, 0);
    }

    void functionsOfEqualStructureStayGroups()
    {
        // Five numbered functions of one structure would fold into a series anywhere else.
        tensorflow::GraphDef graph;
        for (int k = 1; k <= 5; ++k) {
            auto* f = graph.mutable_library()->add_function();
            f->mutable_signature()->set_name("f_" + std::to_string(k));
            auto* arg = f->mutable_signature()->add_input_arg();
            arg->set_name("v");
            arg->set_type(tensorflow::DT_FLOAT);
            auto* node = f->add_node_def();
            node->set_name("neg");
            node->set_op("Neg");
            node->add_input("v");
        }
        const auto view = FunctionLibraryView::build(graph, &m_ops);
        const auto h = GraphHierarchy::build(*view.viewGraph());
        const int library = h.find(std::string(kFunctionLibraryScope));
        QCOMPARE(h.node(library).children.size(), std::size_t(5));
        for (int c : h.node(library).children)
            QCOMPARE(h.node(c).kind, HierarchyNodeKind::kGroup);
        QVERIFY(h.node(library).inExtract.empty() && h.node(library).outExtract.empty());
        // The same functions as ordinary scopes do fold (the rule is still on elsewhere).
        tensorflow::GraphDef plain;
        for (int k = 1; k <= 5; ++k) {
            auto* v = plain.add_node();
            v->set_name("s/f_" + std::to_string(k) + "/v");
            v->set_op("Placeholder");
            auto* n = plain.add_node();
            n->set_name("s/f_" + std::to_string(k) + "/neg");
            n->set_op("Neg");
            n->add_input(v->name());
        }
        const auto folded = GraphHierarchy::build(plain);
        QCOMPARE(folded.node(folded.find("s")).children.size(), std::size_t(1));
        QCOMPARE(folded.node(folded.node(folded.find("s")).children[0]).kind, HierarchyNodeKind::kSeries);
    }

    void badLibrariesAreListedNotFatal()
    {
        const auto view = FunctionLibraryView::build(parse(R"pb(
            node { name: "c" op: "PartitionedCall" attr { key: "f" value { func { name: "nowhere" } } } }
            library {
              function {
                signature { name: "f" input_arg { name: "a" type: DT_FLOAT } output_arg { name: "o" type: DT_FLOAT } }
                node_def { name: "n1" op: "Neg" input: "ghost" }
                node_def { name: "n2" op: "Neg" input: "n1:no_such_output:0" }
                node_def { name: "n3" op: "Neg" input: "n1:y:x" }
                node_def { name: "n1" op: "Neg" input: "a" }
                node_def { name: "a" op: "Neg" }
                ret { key: "o" value: "n2:y:0" }
                ret { key: "extra" value: "n1:y:0" }
                control_ret { key: "side" value: "ghost" }
              }
              function { signature { name: "f" } }
              function { signature { } }
            }
        )pb"),
                                                     &m_ops);
        const std::vector<std::string> expected = {
            "the library defines function 'f' more than once (function #1); the first one is shown",
            "function #2 of the library has no name; left out",
            "node 'c' calls function 'nowhere' (attr 'f'), which is not in the graph's library",
            "function 'f': the name 'n1' is used twice (arguments and nodes share names); the first is kept",
            "function 'f': the name 'a' is used twice (arguments and nodes share names); the first is kept",
            "function 'f': node 'n1' has input 'ghost', which names neither an argument nor a node of the function",
            "function 'f': node 'n2' has input 'n1:no_such_output:0', but op 'Neg' has no output argument "
            "'no_such_output'",
            "function 'f': node 'n3' has input 'n1:y:x', expected \"argument\", \"argument:index\" or "
            "\"node:output_argument:index\"",
            "function 'f': 'ret' maps 'extra', which is not an output argument",
            "function 'f': control output 'side' names 'ghost', which is not a node of the function",
        };
        QCOMPARE(view.problems(), expected);
        // What could be read is still drawn: n1 without its bad input, the result from n2.
        QVERIFY(inputsOf(view, kLib + "f/n1").empty());
        QCOMPARE(inputsOf(view, kLib + "f/o_RetVal"), (std::vector<std::string>{kLib + "f/n2:0"}));
        QCOMPARE(view.functions().size(), std::size_t(1));
    }

    void datasetOpsAreRecognised()
    {
        for (const char* op : {"TensorSliceDataset", "MapDataset", "BatchDatasetV2", "ParallelInterleaveDatasetV4",
                               "OptimizeDatasetV2", "DatasetToGraph", "DatasetCardinality", "IteratorV2",
                               "MakeIterator", "IteratorGetNext", "AnonymousIteratorV3", "OneShotIterator",
                               "MultiDeviceIteratorGetNextFromShard", "ExperimentalAssertNextDataset"})
            QVERIFY2(isDatasetOp(op), op);
        for (const char* op : {"MatMul", "Identity", "TensorArrayV3", "DecodeCSV", "ParseExampleV2", "QueueDequeueV2", ""})
            QVERIFY2(!isDatasetOp(op), op);
    }

    // --- the viewer -------------------------------------------------------------------------------------------

    void viewerColoursCallsAndDatasets()
    {
        GraphViewer viewer(m_registries.get());
        viewer.resize(1100, 700);
        viewer.show();
        QSignalSpy loaded(&viewer, &GraphViewer::loaded);
        viewer.showGraph(parse(kGraph), "functions");
        QVERIFY(loaded.wait(10000));
        QVERIFY(loaded.at(0).at(0).toBool());
        const GraphHierarchy& h = *viewer.hierarchy();
        const GraphColouring* colouring = viewer.colouring();
        QVERIFY(colouring);
        const QColor call = opCategoryColour(kFunctionCallCategory), data = opCategoryColour(kDatasetCategory);
        QVERIFY(call != data);
        for (const char* name : {"y", "call", "cond/If", "case", "__function_library__/outer/inner_call",
                                 "__function_library__/outer/direct"})
            QCOMPARE(colouring->fill(h.find(name)).primary(), call);
        // MapDataset calls a function but is drawn as part of its pipeline.
        for (const char* name : {"data/TensorSliceDataset", "data/MapDataset", "data/BatchDatasetV2", "data/IteratorV2",
                                 "data/MakeIterator"})
            QCOMPARE(colouring->fill(h.find(name)).primary(), data);
        QVERIFY(colouring->fill(h.find("__function_library__/times_two/mul")).primary() != call);
        QStringList legend;
        for (const auto& entry : colouring->legend())
            legend << entry.label;
        QVERIFY(legend.contains(opCategoryDisplayName(kFunctionCallCategory)));
        QVERIFY(legend.contains(opCategoryDisplayName(kDatasetCategory)));
        // The library's group is among the top level's boxes, collapsed, with the graph's own.
        const int library = h.find(std::string(kFunctionLibraryScope));
        QVERIFY(viewer.canvas()->itemIndexOf(library) >= 0);
        QVERIFY(viewer.canvas()->itemIndexOf(h.find("__function_library__/outer")) < 0);
    }

    void callNodeLinksOpenTheFunction()
    {
        GraphViewer viewer(m_registries.get());
        viewer.resize(1100, 700);
        viewer.show();
        QSignalSpy loaded(&viewer, &GraphViewer::loaded);
        viewer.showGraph(parse(kGraph), "functions");
        QVERIFY(loaded.wait(10000));
        const GraphHierarchy& h = *viewer.hierarchy();
        viewer.selectNode(h.find("call"));
        QCOMPARE(viewer.canvas()->selected(), h.find("call"));
        auto* tree = viewer.properties()->findChild<QTreeWidget*>("functionsTree");
        QVERIFY(tree);
        QVERIFY(!tree->isHidden());
        QCOMPARE(tree->topLevelItemCount(), 1);
        QTreeWidgetItem* item = tree->topLevelItem(0);
        QCOMPARE(item->text(0), QString("f"));
        QCOMPARE(item->text(1), QString("outer"));
        QCOMPARE(item->data(0, NodePropertiesPanel::kFunctionRole).toString(), QString("outer"));
        // A click opens it: the library and the function expanded, the function selected.
        QSignalSpy laidOut(&viewer, &GraphViewer::layoutFinished);
        emit tree->itemClicked(item, 1);
        QVERIFY(QTest::qWaitFor([&] { return !viewer.layoutPending() && laidOut.count() > 0; }, 10000));
        const int outer = h.find("__function_library__/outer");
        QCOMPARE(viewer.canvas()->selected(), outer);
        const LayoutSnapshot* s = viewer.canvas()->snapshot();
        QVERIFY(s->items[static_cast<std::size_t>(viewer.canvas()->itemIndexOf(outer))].expanded);
        QVERIFY(s->items[static_cast<std::size_t>(viewer.canvas()->itemIndexOf(h.find(std::string(kFunctionLibraryScope))))].expanded);
        QVERIFY(viewer.canvas()->itemIndexOf(h.find("__function_library__/outer/inner_call")) >= 0);
        // The function's panel: its signature and callers; a caller is a link to the node.
        QVERIFY(!tree->isHidden());
        QCOMPARE(viewer.properties()->findChild<QLabel*>("nameLabel")->text(), QString("outer"));
        QList<QTreeWidgetItem*> calledBy = tree->findItems(QString("Called by (1)"), Qt::MatchExactly);
        QCOMPARE(calledBy.size(), 1);
        QCOMPARE(calledBy[0]->childCount(), 1);
        QCOMPARE(calledBy[0]->child(0)->data(0, NodePropertiesPanel::kNodeNameRole).toString(), QString("call"));
        QList<QTreeWidgetItem*> calls = tree->findItems(QString("Calls (2)"), Qt::MatchExactly);
        QCOMPARE(calls.size(), 1);
        QCOMPARE(calls[0]->childCount(), 2);
        QCOMPARE(calls[0]->child(0)->data(0, NodePropertiesPanel::kFunctionRole).toString(), QString("inner"));
        // A caller inside a function is named by its node and function; the link holds its full name.
        viewer.selectNode(h.find("__function_library__/inner"));
        QList<QTreeWidgetItem*> innerCallers = tree->findItems(QString("Called by (5)"), Qt::MatchExactly);
        QCOMPARE(innerCallers.size(), 1);
        QCOMPARE(innerCallers[0]->child(3)->text(0), QString("inner_call (in outer)"));
        QCOMPARE(innerCallers[0]->child(3)->data(0, NodePropertiesPanel::kNodeNameRole).toString(),
                 QString("__function_library__/outer/inner_call"));
        viewer.selectNode(outer);
        calledBy = tree->findItems(QString("Called by (1)"), Qt::MatchExactly);
        QCOMPARE(calledBy.size(), 1);
        emit tree->itemClicked(calledBy[0]->child(0), 0);
        QVERIFY(QTest::qWaitFor([&] { return viewer.canvas()->selected() == h.find("call"); }, 10000));
        QVERIFY(!viewer.openFunction("missing_fn"));
    }
};

QTEST_MAIN(TestFunctionLibraryView)
#include "test_function_library_view.moc"
