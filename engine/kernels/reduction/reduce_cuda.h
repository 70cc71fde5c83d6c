// Launchers of the GPU reduction kernels (reduce_cuda.cu, arg_min_max_cuda.cu): one pass over an
// [outer, R, inner] view, the value of an empty reduction, and ArgMax/ArgMin along one axis.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace tstudio::cuda {

/// Sum, Prod, Max and Min for numbers; All and Any for bool. Mean is a Sum whose last pass
/// divides (see launchReducePass).
enum class ReduceOp { kSum, kProd, kMax, kMin, kAll, kAny };

/// Queues on `stream`: for o < outer, p < chunks, i < inner,
///   out[(o * chunks + p) * inner + i] = op over r in chunk p of in[(o * R + r) * inner + i],
/// where chunk p covers r in [p * c, min(R, (p + 1) * c)) with c = ceil(R / chunks). The values
/// are converted to Acc and combined in Acc; when `divisor` is not 0 the result is divided by it
/// (Mean); then it is converted to Out. R > 0, chunks in [1, R]; all sizes positive.
/// Instantiated for (Acc, In, Out) = (T, T, T) with T in float, double, int32_t, int64_t, bool
/// (bool: kAll and kAny only; the others: kSum .. kMin), and for half: (float, __half, __half),
/// (float, __half, float), (float, float, __half). Returns the launch error.
template <typename Acc, typename In, typename Out>
cudaError_t launchReducePass(ReduceOp op, const In* in, Out* out, std::int64_t outer, std::int64_t R,
                             std::int64_t inner, std::int64_t chunks, double divisor, cudaStream_t stream);

/// Fills out[0, n) with the value of `op` over no elements: 0, 1, -inf (the lowest integer), +inf
/// (the highest integer), true, false; NaN instead when `mean` (Mean of floating types). n > 0.
/// T in float, double, __half, int32_t, int64_t, bool.
template <typename T>
cudaError_t launchReduceIdentity(ReduceOp op, bool mean, T* out, std::int64_t n, cudaStream_t stream);

/// out[o, i] = the index j < axis of the largest (max) or smallest element in[o, j, i], as the CPU
/// kernel's Eigen tuple reducer picks it: ties go to the lower index, NaN is never picked, and a
/// slice with nothing above the type's lowest value (below its highest, for min) gives 0.
/// T in float, double, __half, int32_t; Tout in int32_t, int64_t. outer * inner > 0, axis > 0.
template <typename T, typename Tout>
cudaError_t launchArgMinMax(bool max, const T* in, Tout* out, std::int64_t outer, std::int64_t axis, std::int64_t inner,
                            cudaStream_t stream);

} // namespace tstudio::cuda
