// The CPU kernel of a weight gradient summed over its uses: AddN of N products a_i^T b_i (the
// MatMul(a, grad, transpose_a=True) TensorFlow's MatMul gradient gives a weight at every use, as
// each timestep of an unrolled RNN), computed as one product over all of them, [a_1; ...; a_N]^T
// [b_1; ...; b_N]: one GEMM with k = the rows of all uses instead of N thin ones and a pass of
// AddN over N weight-sized tensors. Only execution plans hold it (runtime/matmul_sum_fusion.h); a
// GraphDef never names its op.
#pragma once

#include "core/expected.h"
#include "framework/op_kernel.h"

#include <memory>

namespace tstudio::linalg {

/// The op name of the fused node in an execution plan (and so in step stats and timelines).
inline constexpr const char* kFusedMatMulSumOp = "_FusedMatMulSum";

/// The kernel for `def` (op kFusedMatMulSumOp; attrs T (float or double), N (the products, at least
/// 2), `_products` (the names of the N MatMuls) and `_slots` (the AddN's input number of each
/// product, then of each further input), both for errors; inputs a_1, b_1, ..., a_N, b_N, then
/// any further inputs of the AddN, which are added to the products' sum; the plan gives it at
/// most one, so that the inputs alone say which are products: profiler/float_ops.h). Each a_i is [r_i, p] and
/// b_i [r_i, q]; the output is [p, q]. Errors name the MatMul or AddN whose check fails, with
/// their messages (Matrix size-incompatible; AddN's inputs of different shapes). The sum runs in
/// another order than MatMul then AddN: the values agree within float rounding, not bit for bit.
/// They are the same bits whatever the number of threads.
Expected<std::unique_ptr<OpKernel>> makeMatMulSumKernel(const tensorflow::NodeDef& def, Device& device);

} // namespace tstudio::linalg
