// reduceRunsGpu: a whole reduction on the GPU as a sequence of reduce_cuda passes (used by the
// reduction kernels and BiasAddGrad).
#pragma once

#include "core/status.h"
#include "kernels/reduction/reduce_cuda.h"

#include <cstdint>
#include <vector>

namespace Eigen {
struct half;
}

namespace tstudio {
class Allocator;
}

namespace tstudio::cuda {

/// The type the device code uses for a host element type: CUDA's __half for Eigen::half (the same
/// 16 bits), the type itself otherwise.
template <typename T> struct DeviceTypeOf {
    using type = T;
};
template <> struct DeviceTypeOf<Eigen::half> {
    using type = __half;
};
template <typename T> using DeviceType = typename DeviceTypeOf<T>::type;

/// Queues on `stream` the reduction of `in` (GPU memory; the product of `runs` elements of T)
/// viewed as alternating runs of reduced and kept dimensions (`runs[0]` is reduced when
/// `reduceFirst`), as ReductionHelper::dataReshape() describes it, into `out` (GPU memory; the
/// product of the kept runs, in order). Runs may have size 1; at least one run is reduced and every
/// run is non-empty. With `mean` (op kSum), the result is divided by the number of reduced elements.
///
/// The passes are planReduction's (reduce_plan.h): the reduced runs are removed one at a time from
/// the innermost out, long ones in chunks, with partial results in temporary memory from
/// `allocator` in the accumulator type (float for half). The order of operations depends only on the shape, so results
/// are deterministic. T in float, double, __half, int32_t, int64_t (kSum..kMin), bool (kAll, kAny).
/// Errors: the allocator's ResourceExhausted, or a launch error naming `opName`.
template <typename T>
Status reduceRunsGpu(ReduceOp op, bool mean, const T* in, T* out, std::vector<std::int64_t> runs, bool reduceFirst,
                     Allocator& allocator, cudaStream_t stream, const char* opName);

} // namespace tstudio::cuda
