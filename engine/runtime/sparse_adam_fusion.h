// Sparse Adam fusion: a rewrite of execution plans, as Grappler's remapper fuses op patterns into
// one kernel. TensorFlow 1.x's AdamOptimizer updates a variable from a sparse gradient with eleven
// ops, five of them passes over the whole variable or a slot (_apply_sparse_shared with
// scatter_add); the plan runs them as one node (kernels/training/fused_sparse_adam_cpu.h) with the
// same results, bit for bit. The GraphDef is not changed.
#pragma once

#include "runtime/plan_fusion.h"

namespace tstudio {

/// Finds, among the `needed` nodes of the root frame or any one frame, every sparse Adam update of a
/// ref variable exactly as TensorFlow 1.x's AdamOptimizer._apply_sparse_shared builds it:
///   AssignSub(var, RealDiv(Mul(lr, ScatterAdd(m, i, mu)), Add(Sqrt(ScatterAdd(v, i, vu)), eps)))
/// where each ScatterAdd waits (control input) on Assign(m, Mul(m's value, beta1)) (v: beta2), for
/// T float or double, both ScatterAdds on the same indices, and every intermediate value read only
/// inside the pattern (control edges out of the members may go anywhere: they leave the fused
/// node), within `scope`'s rules (no member named by the run, all on one CPU device, in one frame).
/// Each becomes a PlanFusion of op training::kFusedSparseAdamOp anchored at the AssignSub, its
/// inputs in training::FusedSparseAdamInput order, its outputs (var, m, v) the AssignSub's and the
/// two ScatterAdds'.
void findSparseAdamFusions(const FusionScope& scope, PlanFusions& into);

} // namespace tstudio
