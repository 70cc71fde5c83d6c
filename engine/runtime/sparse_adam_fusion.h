// Sparse Adam fusion: a rewrite of execution plans, as Grappler's remapper fuses op patterns into
// one kernel. TensorFlow 1.x's AdamOptimizer updates a variable from a sparse gradient with eleven
// ops, five of them passes over the whole variable or a slot (_apply_sparse_shared with
// scatter_add); the plan runs them as one node (kernels/training/fused_sparse_adam_cpu.h) with the
// same results, bit for bit. The GraphDef is not changed.
#pragma once

#include "graph/graph.h"
#include "kernels/training/fused_sparse_adam_cpu.h"
#include "runtime/executor_plan.h"

#include <array>
#include <set>
#include <utility>
#include <vector>

namespace tstudio {

/// One fused update. The anchor (the AssignSub that moves the variable) keeps its place in the
/// plan and runs the fused kernel; the other members leave the plan.
struct SparseAdamFusion {
    NodeId anchor = -1;
    std::vector<NodeId> members; ///< the eleven nodes, the anchor first
    /// Per fused input (training::FusedSparseAdamInput): the member and input slot whose in-edge
    /// delivers it. The members' other data inputs are not delivered.
    std::array<std::pair<NodeId, int>, training::kFusedInputCount> inputs{};
    /// Per fused output (var, m, v): the member whose output 0 it stands for.
    std::array<NodeId, 3> outputs{};
    tensorflow::NodeDef def; ///< the fused node: op training::kFusedSparseAdamOp, the anchor's name
};

/// The fusions of one plan, with lookups by NodeId.
struct SparseAdamFusions {
    std::vector<SparseAdamFusion> fusions;
    std::vector<int> fusionOf; ///< by NodeId: index into fusions, or -1

    bool empty() const { return fusions.empty(); }
    /// Whether `id` leaves the plan (a member that is not its fusion's anchor).
    bool isAbsorbed(NodeId id) const;
    /// The fusion `id` belongs to, or nullptr.
    const SparseAdamFusion* of(NodeId id) const;
    /// The fused input an edge into (`member`, `slot`) delivers, or -1 when it is not delivered.
    static int fusedInput(const SparseAdamFusion& fusion, NodeId member, int slot);
    /// The fused output that output 0 of `member` stands for, or -1.
    static int fusedOutput(const SparseAdamFusion& fusion, NodeId member);
};

/// Finds, among the `needed` nodes of the root frame or any one frame, every sparse Adam update of a
/// ref variable exactly as TensorFlow 1.x's AdamOptimizer._apply_sparse_shared builds it:
///   AssignSub(var, RealDiv(Mul(lr, ScatterAdd(m, i, mu)), Add(Sqrt(ScatterAdd(v, i, vu)), eps)))
/// where each ScatterAdd waits (control input) on Assign(m, Mul(m's value, beta1)) (v: beta2), for
/// T float or double, both ScatterAdds on the same indices, every member on one CPU device and in
/// one frame, and every intermediate value read only inside the pattern (control edges out of the
/// members may go anywhere: they leave the fused node). Nothing the run names takes part: no member
/// is fetched, fed, a target or `keep`, and no member is merged by `equivalent` (may be null).
/// Members whose runtime cannot be looked up are left alone.
SparseAdamFusions findSparseAdamFusions(const Graph& graph, const std::vector<bool>& needed,
                                        const std::vector<int>& nodeFrame, const std::set<TensorRef>& fed,
                                        const std::vector<TensorRef>& fetches, const std::vector<NodeId>& keep,
                                        const NodeRuntimeLookup& lookup, const std::vector<bool>* mergedOrMerging);

} // namespace tstudio
