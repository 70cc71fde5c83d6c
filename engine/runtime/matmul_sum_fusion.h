// Weight-gradient sum fusion: a rewrite of execution plans in the manner of Grappler's remapper. A
// weight used at many places (every timestep of an unrolled RNN, as TensorFlow's PTB model or
// static_rnn builds it) gets from tf.gradients one MatMul(x_t, grad_t, transpose_a=True) per use
// and an AddN of them; the plan runs them as one node (kernels/linalg/matmul_sum_cpu.h) that
// multiplies all uses' rows at once, as a fused LSTM's backward pass does. The GraphDef is not
// changed; the values agree with the op-by-op run within float rounding.
#pragma once

#include "runtime/plan_fusion.h"

namespace tstudio {

/// Finds every AddN (T float or double) with at least two inputs that are each output 0 of a
/// MatMul (the same T, transpose_a true, transpose_b false) read by nothing else, directly or
/// through a tuple Identity of tf.gradients' GATE_OP, and at most one other input, within `scope`'s
/// rules (no MatMul fetched, fed or a target; all on one CPU device, in one frame; the AddN may be
/// fetched). Each becomes a PlanFusion of op linalg::kFusedMatMulSumOp anchored at the AddN: inputs
/// each MatMul's two, then the AddN's other inputs; attrs T, N, `_products` and `_slots`.
void findMatMulSumFusions(const FusionScope& scope, PlanFusions& into);

} // namespace tstudio
