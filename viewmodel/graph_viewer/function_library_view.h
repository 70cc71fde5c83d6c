// FunctionLibraryView: a GraphDef's function library as the graph viewer draws it: bodies as groups, calls linked (Qt-free).
#pragma once

#include "proto/graph.pb.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::graph_viewer {

/// The name scope the view graph puts the function library under (TensorBoard's prefix for library functions).
/// Each function F becomes the group "__function_library__/F".
inline constexpr std::string_view kFunctionLibraryScope = "__function_library__";

/// Op types of the nodes the view graph adds to a function body: one per input argument (attrs `T` when the
/// argument's type is fixed, `index`; named after the argument, as TensorFlow's instantiation names them), one
/// per output argument (named "<output>_RetVal", input: what `ret` maps the output to) and one per control
/// output (named "<name>_ControlRet", a control input from what `control_ret` names). `_Arg` and `_Retval` are
/// TensorFlow's names for a function's argument and result nodes; `_ControlRet` exists only in the viewer.
inline constexpr std::string_view kFunctionArgOp = "_Arg";
inline constexpr std::string_view kFunctionRetvalOp = "_Retval";
inline constexpr std::string_view kFunctionControlRetOp = "_ControlRet";

/// One function a node calls.
struct FunctionCall {
    /// The attr that names it: "f", "then_branch", "body", "branches[1]" (a list(func) attr); empty when the
    /// node's op is the function (a call by name).
    std::string attr;
    std::string function; ///< the function's name, byte-exact
    int index = -1;       ///< into FunctionLibraryView::functions(); -1 when the library has no such function
};

/// One FunctionDef of the library, with what the view made of it.
struct LibraryFunction {
    std::string name;
    std::string scope;    ///< its group's path in the view graph and the hierarchy: "__function_library__/<name>"
    int libraryIndex = -1; ///< index into GraphDef.library.function
    std::vector<std::string> inputs;         ///< "x: float", "xs: N * T", "ys: Tlist" (signature order)
    std::vector<std::string> outputs;        ///< the same for the output arguments
    std::vector<std::string> controlOutputs; ///< control_ret names (signature's control_output order)
    int bodyNodeCount = 0;                   ///< FunctionDef.node_def size
    std::string gradient;                    ///< the GradientDef's gradient_func for this function, or ""
    std::vector<int> callers; ///< view-graph indices of the nodes that call it (main graph and bodies), ascending
    std::vector<int> callees; ///< indices of the functions its body calls (directly), ascending, unique
    int firstNode = 0;        ///< view-graph index of its first node (its nodes are contiguous)
    int nodeCount = 0;        ///< view-graph nodes of this function: arguments, body, results, control results
};

/// The graph the viewer lays out for a GraphDef with a function library: the GraphDef's own nodes first (same
/// indices), then every function's nodes under "__function_library__/<function>/", the body nodes renamed and
/// their FunctionDef inputs ("x" an argument, "x:1" one tensor of a list argument, "node:out_arg:index" an
/// output of a body node) rewritten to graph inputs ("prefix/node:k", k the flat output index when the op's
/// OpDef is known, from the registry or the library's own signatures; else `index`). Edges therefore come out
/// of GraphHierarchy as for any graph. Call nodes are found in both parts: an op that is a library function,
/// and every func or list(func) attr (PartitionedCall's `f`, If's then_branch/else_branch, While's cond/body,
/// Case's branches, MapDataset's `f`, SymbolicGradient's `f`, ...).
///
/// Building never fails: odd input (duplicate function names, inputs naming nothing, calls of functions the
/// library lacks) is listed in problems(), each line naming the function and node. Immutable after build; may be
/// shared between threads.
class FunctionLibraryView {
public:
    /// `ops` (may be null) gives output argument lists for flat output indices. Without a library and without
    /// calls, viewGraph() is `graph` itself (no copy).
    static FunctionLibraryView build(std::shared_ptr<const tensorflow::GraphDef> graph, const OpRegistry* ops = nullptr);
    /// The same for a graph the caller keeps (copied).
    static FunctionLibraryView build(const tensorflow::GraphDef& graph, const OpRegistry* ops = nullptr);

    /// The GraphDef's nodes, then the functions' nodes. Never null after build.
    const std::shared_ptr<const tensorflow::GraphDef>& viewGraph() const { return m_viewGraph; }
    /// Nodes of the GraphDef itself: view-graph indices below this are the GraphDef's own.
    int mainNodeCount() const { return m_mainNodeCount; }
    const std::vector<LibraryFunction>& functions() const { return m_functions; }
    /// Index of the function named `name`, or -1.
    int find(std::string_view name) const;
    /// Index of the function whose group has hierarchy path `scope` ("__function_library__/f"), or -1.
    int findScope(std::string_view scope) const;
    /// Functions the view-graph node `viewIndex` calls, in attr order (empty for most nodes).
    const std::vector<FunctionCall>& callsOf(int viewIndex) const;
    /// Index of the function whose body holds view-graph node `viewIndex`; -1 for the GraphDef's own nodes.
    int functionOfNode(int viewIndex) const;
    /// Every view-graph node that calls at least one function, ascending.
    std::vector<int> callNodes() const;
    /// Readable notes about the library, each naming the function and node concerned.
    const std::vector<std::string>& problems() const { return m_problems; }

private:
    class Builder;
    std::shared_ptr<const tensorflow::GraphDef> m_viewGraph;
    int m_mainNodeCount = 0;
    std::vector<LibraryFunction> m_functions;
    std::unordered_map<std::string, int> m_byName;
    std::unordered_map<int, std::vector<FunctionCall>> m_calls;
    std::vector<std::string> m_problems;
};

/// The functions `node` names: its op when `indexOf(op)` >= 0 (a call by name), then each func attr and each
/// element of a list(func) attr, attrs in name order; empty function names are skipped. `indexOf(name)` gives a
/// function's index or -1 (the call is still listed, with index -1).
std::vector<FunctionCall> functionCallsOf(const tensorflow::NodeDef& node,
                                          const std::function<int(const std::string&)>& indexOf);

/// True for tf.data ops: op types ending in "Dataset" or "DatasetV<n>", starting with "Dataset"
/// (DatasetToGraph, DatasetCardinality...), and iterator ops ("Iterator", "IteratorV2", "MakeIterator",
/// "IteratorGetNext", "AnonymousIteratorV3", "MultiDeviceIterator...", "OneShotIterator"...).
bool isDatasetOp(std::string_view op);

} // namespace tstudio::graph_viewer
