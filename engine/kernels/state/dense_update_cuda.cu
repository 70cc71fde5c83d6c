// The GPU loop of the in-place add/sub updates: one element per loop step, in the element type's
// own arithmetic (half rounds each sum to half, as Eigen does on the CPU).
#include "kernels/array/grid_stride_cuda.h"
#include "kernels/state/dense_update_cuda.h"

#include <Eigen/Core>

namespace tstudio::state::cuda {

namespace {

template <typename T, bool kSubtract>
__global__ void denseUpdateKernel(T* __restrict__ params, const T* __restrict__ update, std::int64_t n)
{
    for (std::int64_t i = gpu::firstIndex<std::int64_t>(); i < n; i += gpu::gridStride<std::int64_t>()) {
        if constexpr (kSubtract)
            params[i] = params[i] - update[i];
        else
            params[i] = params[i] + update[i];
    }
}

template <typename T> void launch(cudaStream_t stream, bool subtract, void* params, const void* update, std::int64_t n)
{
    auto* p = static_cast<T*>(params);
    const auto* u = static_cast<const T*>(update);
    if (subtract)
        denseUpdateKernel<T, true><<<gpu::blocksFor(n), gpu::kThreadsPerBlock, 0, stream>>>(p, u, n);
    else
        denseUpdateKernel<T, false><<<gpu::blocksFor(n), gpu::kThreadsPerBlock, 0, stream>>>(p, u, n);
}

} // namespace

void launchDenseUpdate(cudaStream_t stream, UpdateType type, bool subtract, void* params, const void* update,
                       std::int64_t n)
{
    switch (type) {
    case UpdateType::kHalf: launch<Eigen::half>(stream, subtract, params, update, n); break;
    case UpdateType::kFloat: launch<float>(stream, subtract, params, update, n); break;
    case UpdateType::kDouble: launch<double>(stream, subtract, params, update, n); break;
    case UpdateType::kInt64: launch<std::int64_t>(stream, subtract, params, update, n); break;
    }
}

} // namespace tstudio::state::cuda
