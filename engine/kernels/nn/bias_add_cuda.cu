// Device code of BiasAdd: one grid-stride pass adding the bias of each element's channel.
#include "kernels/nn/bias_add_cuda.h"

#include "kernels/math/cwise_cuda.cuh"

#include <limits>

namespace tstudio::nn::gpu {

namespace {

using tstudio::gpu::blocksFor;
using tstudio::gpu::firstIndex;
using tstudio::gpu::gridStride;
using tstudio::gpu::kThreadsPerBlock;

/// Channel of element i: (i / inner) % channels; channels last (inner == 1) skips the division.
template <typename T, typename Index>
__global__ void __launch_bounds__(kThreadsPerBlock)
    biasAddKernel(T* __restrict__ out, const T* __restrict__ value, const T* __restrict__ bias, Index n, Index channels,
                  Index inner)
{
    if (inner == 1) {
        for (Index i = firstIndex<Index>(); i < n; i += gridStride<Index>())
            out[i] = value[i] + bias[i % channels];
    } else {
        for (Index i = firstIndex<Index>(); i < n; i += gridStride<Index>())
            out[i] = value[i] + bias[(i / inner) % channels];
    }
}

} // namespace

template <typename T>
void launchBiasAdd(cudaStream_t stream, T* out, const T* value, const T* bias, std::int64_t n, std::int64_t channels,
                   std::int64_t inner)
{
    if (n <= 0)
        return;
    if (n <= std::int64_t(std::numeric_limits<std::int32_t>::max())) {
        biasAddKernel<T, std::uint32_t><<<blocksFor(n), kThreadsPerBlock, 0, stream>>>(
            out, value, bias, std::uint32_t(n), std::uint32_t(channels), std::uint32_t(inner));
    } else {
        biasAddKernel<T, std::uint64_t><<<blocksFor(n), kThreadsPerBlock, 0, stream>>>(
            out, value, bias, std::uint64_t(n), std::uint64_t(channels), std::uint64_t(inner));
    }
}

template void launchBiasAdd<Eigen::half>(cudaStream_t, Eigen::half*, const Eigen::half*, const Eigen::half*,
                                         std::int64_t, std::int64_t, std::int64_t);
template void launchBiasAdd<float>(cudaStream_t, float*, const float*, const float*, std::int64_t, std::int64_t,
                                   std::int64_t);
template void launchBiasAdd<double>(cudaStream_t, double*, const double*, const double*, std::int64_t, std::int64_t,
                                    std::int64_t);

} // namespace tstudio::nn::gpu
