// GraphHierarchy: the graph viewer's data model of name-scope groups, series and aggregated edges (Qt-free).
#pragma once

#include "proto/graph.pb.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace tstudio::graph_viewer {

/// Rules for building the hierarchy; the defaults follow TensorBoard's graph dashboard.
struct HierarchyOptions {
    /// Fewest members a numbered run needs to fold into a series node (TensorBoard: 5). 0 or 1 disables folding.
    int seriesMinSize = 5;
    /// Also match names without an underscore before the number ("conv7"); TensorBoard's classic rule needs "_".
    bool seriesWithoutUnderscore = true;
    /// Move auxiliary nodes to each group's side area.
    bool extractAuxiliary = true;
    /// A group needs at least this many children before high-degree children are extracted (TensorBoard: 15).
    int minNodeCountForExtraction = 15;
    /// A child needs a degree of at least this to be extracted for high degree (TensorBoard: 5).
    int minDegreeForExtraction = 5;
    /// Op types always moved out as sinks (TensorBoard: NoOp) or in as sources (TensorBoard: none).
    std::vector<std::string> outExtractTypes{"NoOp"};
    std::vector<std::string> inExtractTypes{};
    /// Embeddings (TensorBoard): ops of these types that have a consumer are drawn attached to each consumer
    /// instead of as nodes (TensorBoard: Const); their own inputs become inputs of the consumer. A node whose name
    /// is also a scope ("dense/kernel" beside "dense/kernel/read") is never embedded: it is drawn inside that scope.
    bool enableEmbedding = true;
    std::vector<std::string> inEmbeddingTypes{"Const"};
    /// Summary ops ("ScalarSummary", "HistogramSummary": letters then "Summary") with an input are drawn
    /// attached to their inputs; a consumer of a summary gets edges from the summary's inputs.
    bool embedSummaries = true;
    /// A group whose children never fold into series nor move to its side area: the function library's
    /// "__function_library__" (see function_library_view.h), where every function must stay a group of its own,
    /// as TensorBoard never extracts library functions. Empty: none.
    std::string unfoldedScope = "__function_library__";
};

enum class HierarchyNodeKind { kGroup, kOp, kSeries };

/// Aggregate of all graph edges between two siblings, oriented from `from` to `to`.
struct HierarchyEdge {
    int from = -1;
    int to = -1;
    int dataCount = 0;          ///< data edges that are not reference edges
    int controlCount = 0;       ///< "^name" inputs
    int refCount = 0;           ///< data edges into an input the consumer writes (Assign's "ref", ...)
    std::int64_t totalSize = 0; ///< elements over data edges with a known "_output_shapes" (-1 dims count as 1)
    int sizedCount = 0;         ///< data edges whose size was known
};

/// One node of the hierarchy: the root, a name-scope group, an op or a series of similar siblings.
struct HierarchyNode {
    int id = -1;
    HierarchyNodeKind kind = HierarchyNodeKind::kGroup;
    /// Hierarchical path: "a/b" for a group, "a/b/MatMul" for an op, "a/conv_[1-9]" for a series; "" for the root.
    /// An op named like a scope ("a" when "a/b" exists) becomes "a/(a)" inside group "a", as in TensorBoard.
    std::string name;
    std::string nodeName; ///< the GraphDef name (ops only)
    std::string op;       ///< op type (ops only)
    std::string device;   ///< requested device (ops only)
    int graphIndex = -1;  ///< index into GraphDef::node (ops only)
    int parent = -1;
    std::vector<int> children;                  ///< groups, ops and series directly inside (series: its members)
    std::int64_t opCount = 0;                   ///< ops inside, at any depth (1 for an op)
    std::map<std::string, int> opHistogram;     ///< op type -> count, at any depth
    std::map<std::string, int> deviceHistogram; ///< device -> count, at any depth (ops without device left out)
    bool hasControlInput = false;               ///< op with a "^" input
    bool hasRefInput = false;                   ///< op that writes one of its inputs
    std::uint64_t signature = 0;         ///< structure signature: equal for ops of one type / groups of equal structure
    std::vector<HierarchyEdge> edges;    ///< edges between this node's children (groups and series)
    std::vector<int> inExtract;          ///< children moved to the side area as sources (high in-degree, in-types)
    std::vector<int> outExtract;         ///< children moved to the side area as sinks (high out-degree, NoOp)
    int seriesFirst = 0, seriesLast = 0; ///< numbers of a series' first and last member
    std::vector<int> inEmbeddings;       ///< GraphDef indices of embedded constants this op consumes (ops only)
    std::vector<int> outEmbeddings;      ///< GraphDef indices of embedded summaries reading this op (ops only)
    /// Data and reference edges crossing the parent's border: from outside into this node (or something in it),
    /// and from it to outside. Drawn as short stubs when the parent is expanded (TensorBoard's bridge edges).
    int externalInputs = 0;
    int externalOutputs = 0;
};

/// The hierarchy of a GraphDef. Building never fails: odd input is listed in problems().
class GraphHierarchy {
public:
    /// Builds in time near-linear in the graph size (times the scope depth); no recursion.
    static GraphHierarchy build(const tensorflow::GraphDef& graph, const HierarchyOptions& options = {});

    const std::vector<HierarchyNode>& nodes() const { return m_nodes; }
    const HierarchyNode& node(int id) const { return m_nodes[static_cast<std::size_t>(id)]; }
    int root() const { return 0; }
    /// Id of the node with this hierarchical path or GraphDef name, or -1.
    int find(const std::string& name) const;
    /// Id of the op drawn for the GraphDef node `nodeName`, or -1 (absent, or drawn as an embedding). Unlike
    /// find(), never a group: "dense/kernel" is the op "dense/kernel/(kernel)" even though a scope has that path.
    int findOp(const std::string& nodeName) const;
    /// For a GraphDef node drawn as an embedding (a constant attached to its consumer, a summary to its input):
    /// the op it is drawn on (its first consumer or input), else -1.
    int embeddingHost(const std::string& nodeName) const;
    /// Edge between siblings `from` and `to` (in their parent's list), or nullptr.
    const HierarchyEdge* edge(int from, int to) const;
    /// Number of GraphDef nodes drawn as embeddings rather than hierarchy ops.
    int embeddedCount() const { return m_embeddedCount; }
    /// Readable notes about the input: duplicate names, inputs naming missing nodes, malformed inputs.
    const std::vector<std::string>& problems() const { return m_problems; }
    /// Hierarchical path a GraphDef name gets after the scope rule ("a" -> "a/(a)" when "a/b" exists).
    static std::vector<std::string> strictPaths(const std::vector<std::string>& names);

private:
    class Builder;
    std::vector<HierarchyNode> m_nodes;
    std::unordered_map<std::string, int> m_byName;
    std::unordered_map<std::string, int> m_opByNodeName;
    std::unordered_map<std::string, int> m_embeddedIn;
    std::vector<std::string> m_problems;
    int m_embeddedCount = 0;
};

/// Whether input `index` of op type `op` is a reference input the op writes (Assign's first input, ...).
bool isRefInput(const std::string& op, int index);

} // namespace tstudio::graph_viewer
