// ExecutorPlan: the immutable part of running one (feeds, fetches, targets) signature of a graph:
// the pruned nodes, their kernels and devices, frames, input slots, edges and pending counts.
#pragma once

#include "core/expected.h"
#include "framework/op_kernel.h"
#include "graph/graph.h"
#include "runtime/control_flow_primitives.h"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {

/// A tensor of the graph: (node, output index).
using TensorRef = std::pair<NodeId, int>;

/// The nodes a run needs, as TensorFlow prunes (subgraph::RewriteGraphForExecution): everything
/// from which a fetched tensor or a target node can be reached walking inputs backwards, except
/// that a fed tensor cuts the walk (its producer is needed only if something else needs it).
/// `fetchNodes` lists the producers of fetched tensors that are not fed. By NodeId.
std::vector<bool> pruneForRun(const Graph& graph, const std::vector<TensorRef>& feeds,
                              const std::vector<NodeId>& fetchNodes, const std::vector<NodeId>& targets);

/// What the executor needs to know of one node besides the graph: its device and, for nodes that
/// are not control-flow primitives, its kernel. The session owns all of it.
struct NodeRuntime {
    int deviceIndex = 0;
    Device* device = nullptr;
    OpKernel* kernel = nullptr;        ///< nullptr for the control-flow primitives
    std::mutex* kernelMutex = nullptr; ///< set for stateful kernels: compute() is serialised with it
    const std::vector<DataType>* inputTypes = nullptr;
    const std::vector<DataType>* outputTypes = nullptr;
};
/// Supplies the NodeRuntime of a node (creating its kernel on first use).
using NodeRuntimeLookup = std::function<Expected<NodeRuntime>(NodeId)>;

/// An edge between two plan nodes (indices into ExecutorPlan::nodes).
struct PlanEdge {
    int dst = -1;
    int srcSlot = 0;
    int dstSlot = 0; ///< TensorId::kControlSlot for a control edge
    bool crossDevice = false;
    /// A data edge after which no edge of the node reads its output slot: the executor moves the
    /// value along it instead of copying.
    bool lastReader = false;
    bool isControl() const { return dstSlot == TensorId::kControlSlot; }
};

struct PlanNode {
    NodeId id = -1;
    const tensorflow::NodeDef* def = nullptr;
    int topoIndex = 0; ///< position in the Graph's stable topological order (the single-threaded order)
    NodeRuntime runtime;
    PrimitiveKind primitive = PrimitiveKind::kNone;
    bool isConstantEnter = false; ///< an Enter with is_constant: a loop invariant
    int frame = 0;                ///< static frame the node runs in
    int enterFrame = -1;          ///< for Enter: the frame its outputs go into
    int outputFrame = 0;          ///< the frame its outputs belong to (an Enter's child frame, an Exit's parent)
    int localIndex = 0;           ///< index among its frame's nodes (pending and dead counts)
    int inputStart = 0;           ///< first of its input slots in its frame's input vector
    int numInputs = 0;            ///< data inputs
    int numOutputs = 0;
    /// Non-Merge: the number of inputs (data and control) to wait for. Merge: 1 + 2 x control
    /// inputs (bit 0 is "still waiting for a live data input", as TensorFlow's PendingCounts).
    int initialPending = 0;
    int numForwardInputs = 0; ///< Merge: data inputs not from NextIteration (fed inputs count here)
    int numBackInputs = 0;    ///< Merge: data inputs from NextIteration
    std::vector<PlanEdge> outEdges;
    std::vector<std::pair<int, int>> fetches; ///< (output slot, fetch index)
    /// Set by markControlOnlyNodes: the node's outputs go nowhere, it is run only for the control
    /// edges leaving it, so the executor completes it without running its kernel.
    bool controlOnly = false;
    /// On a device whose memory the host cannot read (a GPU): per data input, whether the kernel
    /// takes it in host memory (KernelDef::hostMemoryArgs). Empty on host-memory devices.
    std::vector<bool> inputInHostMemory;
    bool onDeviceMemory = false;
    /// Whether input `slot` is wanted in host memory.
    bool wantsHostInput(int slot) const
    {
        return !onDeviceMemory || (static_cast<std::size_t>(slot) < inputInHostMemory.size() &&
                                   inputInHostMemory[static_cast<std::size_t>(slot)]);
    }
};

struct PlanFrame {
    std::string name;
    int parent = -1;
    int parallelIterations = 10;
    int enterCount = 0; ///< Enter nodes that deliver into this frame (each once per parent iteration)
    int numNodes = 0;
    int totalInputs = 0;
    std::vector<int> initialPending; ///< by local index: each node's PlanNode::initialPending
};

/// A fed value delivered to one input of a plan node at the start of the step (root frame).
struct PlanFeedEdge {
    int feedIndex = 0;
    int dst = -1;
    int dstSlot = 0;
};

/// Where a fetched value comes from: a plan node's output, or a feed.
struct PlanFetch {
    int node = -1;
    int slot = 0;
    int feedIndex = -1;
};

/// What a step of a plan makes per loop iteration (executor.cpp's IterationState: a slot per node
/// input, pending counts), kept when the step drops it so that the plan's next step reuses it
/// instead of allocating and clearing it again. Type-erased (the executor owns the type); shared by
/// copies of the plan; guarded by `mutex`.
struct PlanStatePool {
    std::mutex mutex;
    std::vector<std::vector<std::unique_ptr<void, void (*)(void*)>>> byFrame; ///< free states by static frame
};

struct ExecutorPlan {
    std::vector<PlanNode> nodes;
    std::vector<PlanFrame> frames; ///< frames[0] is the root frame
    std::vector<PlanFeedEdge> feedEdges;
    std::vector<PlanFetch> fetches;
    std::vector<int> roots;     ///< plan nodes ready at the start (no inputs)
    std::vector<int> planIndex; ///< by NodeId: index into nodes, or -1
    /// Some node runs on a device with memory of its own: values may have to move between host
    /// and device memory on their way to a consumer (checked per delivery).
    bool hasDeviceMemory = false;
    /// Nodes of the graph that findEquivalentNodes merged into an equivalent node: they are not
    /// plan nodes, their consumers read the equivalent node's outputs.
    int mergedNodes = 0;
    /// Fused nodes: patterns of ops the remapper's rewrite runs as one node each (plan_fusion.h).
    int fusedNodes = 0;
    /// The kernels of fused nodes, which belong to the plan rather than to a graph node.
    std::vector<std::shared_ptr<OpKernel>> ownedKernels;
    std::shared_ptr<PlanStatePool> statePool = std::make_shared<PlanStatePool>();
};

/// What buildExecutorPlan may rewrite, as TensorFlow's Grappler does before a Session runs a graph.
struct PlanRewrites {
    /// Grappler's arithmetic optimizer (dedup stage): compute equivalent nodes once (see
    /// findEquivalentNodes in equivalent_nodes.h).
    bool mergeEquivalentNodes = false;
    /// Grappler's remapper, for the patterns it fuses on the CPU: a convolution with its bias and
    /// activation (contraction_fusion.h) and TensorFlow 1.x's sparse Adam update of a ref variable
    /// (sparse_adam_fusion.h), each run as one fused node.
    bool remapping = false;
    std::vector<NodeId> targets; ///< the run's target nodes: never merged away or fused
};

/// Builds the plan for `needed` (from pruneForRun). `feeds[i]` is fed with value i; `fetches`
/// are resolved tensors (a fetch of a fed tensor returns the fed value). InvalidArgument for
/// control-flow structure errors (see buildControlFlowInfo), for a fed tensor consumed inside a
/// while loop and for a fetch from inside a while loop; errors of `lookup` are returned as they are.
Expected<ExecutorPlan> buildExecutorPlan(const Graph& graph, const std::vector<bool>& needed,
                                         const std::vector<TensorRef>& feeds, const std::vector<TensorRef>& fetches,
                                         const NodeRuntimeLookup& lookup, const PlanRewrites& rewrites = {});

/// Whether any of `types` (a NodeRuntime's input or output dtypes; null counts as none) is a
/// reference or a resource: an op with such an argument may act through it even when it is not
/// marked stateful (Assign, the TensorArray ops), so Grappler's IsFreeOfSideEffect excludes it.
bool hasRefOrResourceType(const std::vector<DataType>* types);

/// What TensorFlow's Grappler dependency optimizer does by default before a Session runs a graph:
/// a node whose outputs no node of the plan consumes and that is needed only through the control
/// edges leaving it becomes a no-op. Marked (PlanNode::controlOnly): kernel nodes (not control-flow
/// primitives) of the root frame, free of side effects (stateless, no reference input, not
/// CheckNumerics, Assert or ControlTrigger), neither fetched nor among `targets`,
/// with at least one out edge and every out edge a control edge. The typical case is the gradient
/// of a network's input placeholder, which tf.gradients' gating (GATE_OP) groups with the weights'
/// gradients but nothing reads. Returns how many nodes were marked.
int markControlOnlyNodes(ExecutorPlan& plan, const std::vector<NodeId>& targets);

} // namespace tstudio
