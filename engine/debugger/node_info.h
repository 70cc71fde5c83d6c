// NodeRelations: a node's attributes, inputs and consumers in a GraphDef, as tfdbg's `ni`, `li` and
// `lo` list them, for the terminal debugger and the GUI's node info.
#pragma once

#include "core/expected.h"
#include "proto/graph.pb.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace tstudio::debugger {

/// One edge of a tree of inputs (li) or of consumers (lo), with the nodes beyond it.
struct NodeLink {
    std::string node;     ///< the node at this end
    std::string op;       ///< its op ("" when the graph has no such node)
    std::string tensor;   ///< the edge's tensor ("x:1"; "^x" for a control edge)
    bool control = false; ///< a control edge
    int depth = 1;        ///< 1 for direct inputs/consumers
    std::vector<NodeLink> children; ///< empty at the depth limit
    bool truncated = false; ///< the node has links of its own, cut off by the depth limit
    bool repeated = false;  ///< the node has links of its own, listed where it was expanded before
};

/// Index over one GraphDef (which must outlive it): name -> node and node -> consumers.
class NodeRelations {
public:
    explicit NodeRelations(const tensorflow::GraphDef& graph);

    const tensorflow::NodeDef* find(const std::string& name) const;
    /// The inputs of `node` (data then control, in NodeDef order), recursively up to `depth`
    /// levels (>= 1). A node reached twice is listed again but not expanded again (cycles of
    /// loops end). NotFound naming the node.
    Expected<std::vector<NodeLink>> inputs(const std::string& node, int depth, bool includeControl = true) const;
    /// The consumers of `node`'s outputs (and of its control edge), likewise.
    Expected<std::vector<NodeLink>> consumers(const std::string& node, int depth, bool includeControl = true) const;

private:
    const tensorflow::GraphDef& m_graph;
    std::unordered_map<std::string, int> m_index;
    std::unordered_map<std::string, std::vector<std::pair<int, std::string>>> m_consumers; ///< node -> (consumer, input text)
};

/// tfdbg-style `ni` text: "Node name: x", "Op: MatMul", "Device: ...", the attributes one per line
/// (AttrValue in short form: "T: float", "transpose_a: false", shapes as [2,3]), the inputs and
/// the consumers counted and listed.
std::string formatNodeInfo(const NodeRelations& relations, const tensorflow::NodeDef& node);

/// An li/lo tree as indented text, one line per link: "  |- (1) [MatMul] layer1/MatMul", control
/// edges marked "(Ctrl)", as tfdbg prints them.
std::string formatNodeTree(const std::string& root, const std::vector<NodeLink>& links, bool inputs);

} // namespace tstudio::debugger
