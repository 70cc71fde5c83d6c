// graphDiff: what changed between two graphs, node by node: nodes added and removed, nodes whose op,
// attrs, inputs, device or output shapes changed (matched by name), and nodes renamed (matched by
// structure: the same op, attrs and inputs under the names matched so far). Qt-free.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tensorflow {
class GraphDef;
}

namespace tstudio::diff {

/// One difference of a node present in both graphs.
struct NodeChange {
    /// "op", "device", "inputs", "output shapes", "attr <name>".
    std::string what;
    std::string before; ///< as text ("" when the attr is absent on that side)
    std::string after;
};

/// A node in both graphs (by name, or by structure when renamed) that differs.
struct ChangedNode {
    std::string name; ///< in the first graph
    std::string op;   ///< in the second graph
    std::vector<NodeChange> changes;
};

struct GraphDiff {
    std::vector<std::string> added;                           ///< only in the second graph, by name
    std::vector<std::string> removed;                         ///< only in the first
    std::vector<std::pair<std::string, std::string>> renamed; ///< (first name, second name)
    std::vector<ChangedNode> changed;                         ///< by first name
    std::size_t unchanged = 0;
    std::size_t firstNodes = 0;
    std::size_t secondNodes = 0;
    bool identical() const { return added.empty() && removed.empty() && renamed.empty() && changed.empty(); }
};

/// Compares `first` with `second`. Nodes of the same name are compared op, device, inputs (in
/// order, a renamed producer counting as the same), each attr (its text; `_output_shapes` as
/// "output shapes") and listed when any differs. The rest are paired by structure, repeatedly
/// until nothing more pairs: an unmatched node of the first graph and one of the second with the
/// same op, device, attrs and inputs (through the pairs found so far), when exactly one candidate
/// has that signature; such pairs are "renamed", and their differences, if any, are not
/// computed again. What remains is removed or added. Every list is sorted by name.
GraphDiff graphDiff(const tensorflow::GraphDef& first, const tensorflow::GraphDef& second);

} // namespace tstudio::diff
