// MaxPoolGrad's float loop for windows that do not overlap, compiled once per x86 instruction set
// (max_pool_grad_rows_<isa>.cpp, see kernels/isa/isa_unit_begin.h) and picked at run time: the
// engine's SSE2 build compares and selects four channels at a time, AVX2 eight and AVX-512 sixteen.
#pragma once

#include "kernels/nn/pooling_cuda_math.h"

#include <cstdint>

namespace tstudio::nn {

/// A MaxPoolGrad over NHWC float buffers whose windows do not overlap (stride >= filter in rows and
/// columns), its geometry as the pooling kernels' plain PoolShape (poolShapeOf): windows start at
/// o * stride - pad before and are clipped to the input.
struct DisjointMaxPoolGrad {
    const float* input = nullptr; ///< [batch, inRows, inCols, depth]
    const float* grad = nullptr;  ///< [batch, outRows, outCols, depth]
    float* inputBackprop = nullptr;
    gpu::PoolShape shape;
};

struct MaxPoolGradRowKernels {
    const char* isa;
    /// Output pixels [first, end) (counted over batch, rows and columns): each channel's gradient
    /// goes, as 0 + gradient, to the first maximum of its window in row-major order (NaN never
    /// wins; a window of NaN and -inf routes to its first -inf), 0 to the window's other elements.
    /// Elements in no window are not written. Single-threaded; ranges of one call may run at once.
    void (*disjointRange)(const DisjointMaxPoolGrad& job, std::int64_t first, std::int64_t end);
};

const MaxPoolGradRowKernels& maxPoolGradRowKernelsBaseline();
const MaxPoolGradRowKernels& maxPoolGradRowKernelsAvx2();
const MaxPoolGradRowKernels& maxPoolGradRowKernelsAvx512();

/// The build for this CPU (detectCpuIsa).
const MaxPoolGradRowKernels& maxPoolGradRowKernels();

} // namespace tstudio::nn
