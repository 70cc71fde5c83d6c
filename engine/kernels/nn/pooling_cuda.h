// Launchers of the GPU pooling kernels (pooling_cuda.cu): MaxPool, AvgPool and their gradients as
// grid-stride loops over the per-element functions of pooling_cuda_math.h. C++17 and free of
// engine headers: nvcc compiles it.
#pragma once

#include "kernels/nn/pooling_cuda_math.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tstudio::gpu {

/// The element types the pooling kernels are compiled for (TensorFlow 1.15's GPU registrations);
/// half is accumulated in float.
enum class PoolElement { kHalf, kFloat, kDouble };

// Each launcher queues its kernel on `stream` and returns false, with nothing queued, when there
// is nothing to compute; the caller checks the launch with cuda::lastLaunchStatus. Pointers are GPU
// memory laid out as PoolShape says.

/// out (shape.outputElements()) = maxPoolAt for every output element.
bool launchMaxPool(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* in, void* out);
/// out = avgPoolAt for every output element.
bool launchAvgPool(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* in, void* out);
/// argmax (one per output element) = maxPoolArgmaxAt.
bool launchMaxPoolArgmax(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* in,
                         std::int64_t* argmax);
/// dx (shape.inputElements()) = maxPoolGradAt for every input element.
bool launchMaxPoolGrad(cudaStream_t stream, const PoolShape& shape, PoolElement type, const std::int64_t* argmax,
                       const void* grad, void* dx);
/// dx = avgPoolGradAt for every input element.
bool launchAvgPoolGrad(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* grad, void* dx);

} // namespace tstudio::gpu
