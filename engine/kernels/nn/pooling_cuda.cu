// Device code of the pooling kernels: one thread per output element (forward, argmax) or input
// element (gradients, gathered so that no two threads write the same element), in grid-stride loops.
#include "kernels/nn/pooling_cuda.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace tstudio::gpu {

namespace {

constexpr unsigned kThreads = 256;

unsigned blocksFor(std::int64_t n)
{
    constexpr std::int64_t kMaxBlocks = 132 * 8 * 4;
    return static_cast<unsigned>(std::clamp<std::int64_t>((n + kThreads - 1) / kThreads, 1, kMaxBlocks));
}

__device__ __forceinline__ std::int64_t firstIndex()
{
    return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ std::int64_t gridStride()
{
    return static_cast<std::int64_t>(gridDim.x) * blockDim.x;
}

template <typename T, typename Acc>
__global__ void maxPoolKernel(PoolShape s, std::int64_t total, const T* __restrict__ in, T* __restrict__ out)
{
    for (std::int64_t i = firstIndex(); i < total; i += gridStride())
        out[i] = maxPoolAt<T, Acc>(s, in, i);
}

template <typename T, typename Acc>
__global__ void avgPoolKernel(PoolShape s, std::int64_t total, const T* __restrict__ in, T* __restrict__ out)
{
    for (std::int64_t i = firstIndex(); i < total; i += gridStride())
        out[i] = avgPoolAt<T, Acc>(s, in, i);
}

template <typename T, typename Acc>
__global__ void maxPoolArgmaxKernel(PoolShape s, std::int64_t total, const T* __restrict__ in,
                                    std::int64_t* __restrict__ argmax)
{
    for (std::int64_t i = firstIndex(); i < total; i += gridStride())
        argmax[i] = maxPoolArgmaxAt<T, Acc>(s, in, i);
}

template <typename T, typename Acc>
__global__ void maxPoolGradKernel(PoolShape s, std::int64_t total, const std::int64_t* __restrict__ argmax,
                                  const T* __restrict__ grad, T* __restrict__ dx)
{
    for (std::int64_t j = firstIndex(); j < total; j += gridStride())
        dx[j] = maxPoolGradAt<T, Acc>(s, argmax, grad, j);
}

template <typename T, typename Acc>
__global__ void avgPoolGradKernel(PoolShape s, std::int64_t total, const T* __restrict__ grad, T* __restrict__ dx)
{
    for (std::int64_t j = firstIndex(); j < total; j += gridStride())
        dx[j] = avgPoolGradAt<T, Acc>(s, grad, j);
}

/// Calls f(T{}, Acc{}) for the element type, or returns false.
template <typename F> bool dispatch(PoolElement type, F f)
{
    switch (type) {
    case PoolElement::kHalf: f(__half(), float()); return true;
    case PoolElement::kFloat: f(float(), float()); return true;
    case PoolElement::kDouble: f(double(), double()); return true;
    }
    return false;
}

} // namespace

bool launchMaxPool(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* in, void* out)
{
    const std::int64_t total = shape.outputElements();
    if (total <= 0)
        return false;
    return dispatch(type, [&](auto t, auto a) {
        using T = decltype(t);
        using Acc = decltype(a);
        maxPoolKernel<T, Acc>
            <<<blocksFor(total), kThreads, 0, stream>>>(shape, total, static_cast<const T*>(in), static_cast<T*>(out));
    });
}

bool launchAvgPool(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* in, void* out)
{
    const std::int64_t total = shape.outputElements();
    if (total <= 0)
        return false;
    return dispatch(type, [&](auto t, auto a) {
        using T = decltype(t);
        using Acc = decltype(a);
        avgPoolKernel<T, Acc>
            <<<blocksFor(total), kThreads, 0, stream>>>(shape, total, static_cast<const T*>(in), static_cast<T*>(out));
    });
}

bool launchMaxPoolArgmax(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* in,
                         std::int64_t* argmax)
{
    const std::int64_t total = shape.outputElements();
    if (total <= 0)
        return false;
    return dispatch(type, [&](auto t, auto a) {
        using T = decltype(t);
        using Acc = decltype(a);
        maxPoolArgmaxKernel<T, Acc>
            <<<blocksFor(total), kThreads, 0, stream>>>(shape, total, static_cast<const T*>(in), argmax);
    });
}

bool launchMaxPoolGrad(cudaStream_t stream, const PoolShape& shape, PoolElement type, const std::int64_t* argmax,
                       const void* grad, void* dx)
{
    const std::int64_t total = shape.inputElements();
    if (total <= 0)
        return false;
    return dispatch(type, [&](auto t, auto a) {
        using T = decltype(t);
        using Acc = decltype(a);
        maxPoolGradKernel<T, Acc><<<blocksFor(total), kThreads, 0, stream>>>(
            shape, total, argmax, static_cast<const T*>(grad), static_cast<T*>(dx));
    });
}

bool launchAvgPoolGrad(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* grad, void* dx)
{
    const std::int64_t total = shape.inputElements();
    if (total <= 0)
        return false;
    return dispatch(type, [&](auto t, auto a) {
        using T = decltype(t);
        using Acc = decltype(a);
        avgPoolGradKernel<T, Acc>
            <<<blocksFor(total), kThreads, 0, stream>>>(shape, total, static_cast<const T*>(grad), static_cast<T*>(dx));
    });
}

} // namespace tstudio::gpu
