// Equivalent nodes: what TensorFlow's Grappler arithmetic optimizer does in its dedup stage (on by
// default before a Session runs a graph) — nodes that must compute the same values are computed once.
#pragma once

#include "graph/graph.h"
#include "runtime/executor_plan.h"

#include <set>
#include <vector>

namespace tstudio {

/// The result of findEquivalentNodes, by NodeId.
struct EquivalentNodes {
    /// The node that computes in place of each node: itself, or an earlier equivalent node.
    std::vector<NodeId> representative;
    /// For each representative, the nodes it stands for (empty for most).
    std::vector<std::vector<NodeId>> merged;
    int mergedCount = 0;

    bool isMergedAway(NodeId id) const { return representative[static_cast<std::size_t>(id)] != id; }
};

/// Finds, among the `needed` nodes, those equivalent to an earlier one in the graph's stable
/// topological order: the same op, device, attributes (compared value by value), data inputs
/// (the same tensors after merging, or the same feeds, in the same order) and control inputs
/// (the same set). Only nodes that may be merged take part, as Grappler's dedup allows:
/// kernel nodes of the root frame that are free of side effects — not stateful, no reference or
/// resource inputs or outputs, no function attributes — and that the run does not name: not a
/// placeholder, not fetched, no output fed, not in `keep` (the run's targets).
/// `nodeFrame` is ControlFlowInfo::nodeFrame. A node whose runtime cannot be looked up is left as
/// it is (the plan reports the error).
EquivalentNodes findEquivalentNodes(const Graph& graph, const std::vector<bool>& needed,
                                    const std::vector<int>& nodeFrame, const std::set<TensorRef>& fed,
                                    const std::vector<TensorRef>& fetches, const std::vector<NodeId>& keep,
                                    const NodeRuntimeLookup& lookup);

} // namespace tstudio
