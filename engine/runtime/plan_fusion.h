// Plan fusions: Grappler's remapper as a rewrite of execution plans. A pattern of ops becomes one
// node that runs one kernel; the GraphDef is not changed. The finders (sparse_adam_fusion.h,
// contraction_fusion.h) describe each fusion as a PlanFusion; buildExecutorPlan runs it.
#pragma once

#include "core/expected.h"
#include "framework/op_kernel.h"
#include "graph/graph.h"
#include "runtime/executor_plan.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {

/// One fused node. The anchor keeps its place in the plan and runs the fused kernel; the other
/// members leave the plan.
struct PlanFusion {
    NodeId anchor = -1;
    std::vector<NodeId> members; ///< the anchor first
    /// Per fused input: the member and input slot whose in-edge delivers it. The members' other
    /// data inputs are not delivered (they come from inside the fusion).
    std::vector<std::pair<NodeId, int>> inputs;
    /// Per fused output: the member whose output 0 it stands for (outputs[0] is the anchor).
    std::vector<NodeId> outputs;
    /// Control edges (src, dst) of the graph the plan leaves out: the gates TensorFlow's gradients
    /// put between the gradients of one op (control_flow_ops.tuple: a NoOp waiting for each of them,
    /// which each gradient's Identity waits for), where one gradient is fused into a node that runs
    /// after the others are needed. Only scheduling edges: no value depends on them.
    std::vector<std::pair<NodeId, NodeId>> ignoredControl;
    tensorflow::NodeDef def; ///< the fused node: its op, and the anchor's name and device
    /// Makes the fused kernel for `def` on the anchor's device.
    using KernelMaker = Expected<std::unique_ptr<OpKernel>> (*)(const tensorflow::NodeDef&, Device&);
    KernelMaker makeKernel = nullptr;
};

/// The fusions of one plan, with lookups by NodeId.
struct PlanFusions {
    std::vector<PlanFusion> fusions;
    std::vector<int> fusionOf; ///< by NodeId: index into fusions, or -1 (empty until a finder ran)
    std::set<std::pair<NodeId, NodeId>> ignoredControl; ///< every fusion's PlanFusion::ignoredControl

    bool empty() const { return fusions.empty(); }
    /// Whether `e` is a control edge a fusion has the plan leave out.
    bool ignores(const GraphEdge& e) const
    {
        return !ignoredControl.empty() && e.isControl() && ignoredControl.count({e.src, e.dst}) > 0;
    }
    /// How many fused nodes run `op`.
    int count(const std::string& op) const;
    /// Whether `id` leaves the plan (a member that is not its fusion's anchor).
    bool isAbsorbed(NodeId id) const;
    /// The fusion `id` belongs to, or nullptr.
    const PlanFusion* of(NodeId id) const;
    /// The fused input an edge into (`member`, `slot`) delivers, or -1 when it is not delivered.
    static int fusedInput(const PlanFusion& fusion, NodeId member, int slot);
    /// The fused output that output 0 of `member` stands for, or -1.
    static int fusedOutput(const PlanFusion& fusion, NodeId member);
};

/// What a finder needs to know of the run, and the rules every fusion obeys: its members are
/// needed, in one frame, not already fused, not named by the run (fetched, fed, a target or `keep`;
/// the anchor alone may be fetched or a target where the finder allows it), reading a fed tensor
/// only through a fused input, not merged by the arithmetic optimizer (`mergedOrMerging`, may be null), and all on one
/// device whose memory the host reads, each with a kernel.
class FusionScope {
public:
    FusionScope(const Graph& graph, const std::vector<bool>& needed, const std::vector<int>& nodeFrame,
                const std::set<TensorRef>& fed, const std::vector<TensorRef>& fetches, const std::vector<NodeId>& keep,
                const NodeRuntimeLookup& lookup, const std::vector<bool>* mergedOrMerging);

    const Graph& graph() const { return m_graph; }
    const std::vector<bool>& neededNodes() const { return m_needed; }
    bool needed(NodeId id) const { return m_needed[static_cast<std::size_t>(id)]; }
    /// Adds `fusion` to `into` when it obeys the rules; returns whether it did.
    bool admit(PlanFusion fusion, PlanFusions& into, bool anchorMayBeNamed = false) const;

private:
    bool named(NodeId id, bool allowFetchedOrTarget) const;

    const Graph& m_graph;
    const std::vector<bool>& m_needed;
    const std::vector<int>& m_nodeFrame;
    const std::set<TensorRef>& m_fed;
    const std::vector<TensorRef>& m_fetches;
    const std::vector<NodeId>& m_keep;
    const NodeRuntimeLookup& m_lookup;
    const std::vector<bool>* m_mergedOrMerging;
};

/// Reading a pattern in a graph: inputs and consumers, counting only needed nodes as consumers.
class PatternReader {
public:
    using Source = std::pair<NodeId, int>; ///< a tensor: (producer, output)

    PatternReader(const Graph& graph, const std::vector<bool>& needed) : m_graph(graph), m_needed(needed) {}

    const Graph& graph() const { return m_graph; }
    const std::string& op(NodeId id) const { return m_graph.node(id).op(); }
    /// The data in-edge of `id` at input `slot`.
    std::optional<Source> input(NodeId id, int slot) const;
    /// Whether the needed data consumers of `id` are exactly one edge, from output 0 into `consumer`.
    bool readOnlyBy(NodeId id, NodeId consumer) const;
    /// Whether no needed node reads a value of `id` (control edges may leave it).
    bool unread(NodeId id) const;
    /// The one needed node that reads output 0 of `id` (through one edge, into input 0), or -1.
    NodeId soleConsumer(NodeId id) const;

private:
    const Graph& m_graph;
    const std::vector<bool>& m_needed;
};

} // namespace tstudio
