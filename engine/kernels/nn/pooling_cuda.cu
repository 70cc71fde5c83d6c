// Device code of the pooling kernels: one thread per output element (forward, argmax) or input
// element (gradients, gathered so that no two threads write the same element), in grid-stride loops.
#include "kernels/array/grid_stride_cuda.h"
#include "kernels/nn/pooling_cuda.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace tstudio::gpu {

namespace {

template <typename T, typename Acc>
__global__ void maxPoolKernel(PoolShape s, std::int64_t total, const T* __restrict__ in, T* __restrict__ out)
{
    for (std::int64_t i = firstIndex<std::int64_t>(); i < total; i += gridStride<std::int64_t>())
        out[i] = maxPoolAt<T, Acc>(s, in, i);
}

template <typename T, typename Acc>
__global__ void avgPoolKernel(PoolShape s, std::int64_t total, const T* __restrict__ in, T* __restrict__ out)
{
    for (std::int64_t i = firstIndex<std::int64_t>(); i < total; i += gridStride<std::int64_t>())
        out[i] = avgPoolAt<T, Acc>(s, in, i);
}

template <typename T, typename Acc>
__global__ void maxPoolArgmaxKernel(PoolShape s, std::int64_t total, const T* __restrict__ in,
                                    std::int64_t* __restrict__ argmax)
{
    for (std::int64_t i = firstIndex<std::int64_t>(); i < total; i += gridStride<std::int64_t>())
        argmax[i] = maxPoolArgmaxAt<T, Acc>(s, in, i);
}

template <typename T, typename Acc>
__global__ void maxPoolGradKernel(PoolShape s, std::int64_t total, const std::int64_t* __restrict__ argmax,
                                  const T* __restrict__ grad, T* __restrict__ dx)
{
    for (std::int64_t j = firstIndex<std::int64_t>(); j < total; j += gridStride<std::int64_t>())
        dx[j] = maxPoolGradAt<T, Acc>(s, argmax, grad, j);
}

template <typename T, typename Acc>
__global__ void avgPoolGradKernel(PoolShape s, std::int64_t total, const T* __restrict__ grad, T* __restrict__ dx)
{
    for (std::int64_t j = firstIndex<std::int64_t>(); j < total; j += gridStride<std::int64_t>())
        dx[j] = avgPoolGradAt<T, Acc>(s, grad, j);
}

/// Calls queue(T{}, Acc{}) for the element type, which queues a kernel over `total` items; false,
/// with nothing queued, when there are no items or the type is unknown.
template <typename F> bool queueFor(PoolElement type, std::int64_t total, F queue)
{
    if (total <= 0)
        return false;
    switch (type) {
    case PoolElement::kHalf: queue(__half(), float()); return true;
    case PoolElement::kFloat: queue(float(), float()); return true;
    case PoolElement::kDouble: queue(double(), double()); return true;
    }
    return false;
}

} // namespace

bool launchMaxPool(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* in, void* out)
{
    const std::int64_t total = shape.outputElements();
    return queueFor(type, total, [&](auto t, auto a) {
        using T = decltype(t);
        using Acc = decltype(a);
        maxPoolKernel<T, Acc><<<blocksFor(total), kThreadsPerBlock, 0, stream>>>(
            shape, total, static_cast<const T*>(in), static_cast<T*>(out));
    });
}

bool launchAvgPool(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* in, void* out)
{
    const std::int64_t total = shape.outputElements();
    return queueFor(type, total, [&](auto t, auto a) {
        using T = decltype(t);
        using Acc = decltype(a);
        avgPoolKernel<T, Acc><<<blocksFor(total), kThreadsPerBlock, 0, stream>>>(
            shape, total, static_cast<const T*>(in), static_cast<T*>(out));
    });
}

bool launchMaxPoolArgmax(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* in,
                         std::int64_t* argmax)
{
    const std::int64_t total = shape.outputElements();
    return queueFor(type, total, [&](auto t, auto a) {
        using T = decltype(t);
        using Acc = decltype(a);
        maxPoolArgmaxKernel<T, Acc>
            <<<blocksFor(total), kThreadsPerBlock, 0, stream>>>(shape, total, static_cast<const T*>(in), argmax);
    });
}

bool launchMaxPoolGrad(cudaStream_t stream, const PoolShape& shape, PoolElement type, const std::int64_t* argmax,
                       const void* grad, void* dx)
{
    const std::int64_t total = shape.inputElements();
    return queueFor(type, total, [&](auto t, auto a) {
        using T = decltype(t);
        using Acc = decltype(a);
        maxPoolGradKernel<T, Acc><<<blocksFor(total), kThreadsPerBlock, 0, stream>>>(
            shape, total, argmax, static_cast<const T*>(grad), static_cast<T*>(dx));
    });
}

bool launchAvgPoolGrad(cudaStream_t stream, const PoolShape& shape, PoolElement type, const void* grad, void* dx)
{
    const std::int64_t total = shape.inputElements();
    return queueFor(type, total, [&](auto t, auto a) {
        using T = decltype(t);
        using Acc = decltype(a);
        avgPoolGradKernel<T, Acc><<<blocksFor(total), kThreadsPerBlock, 0, stream>>>(
            shape, total, static_cast<const T*>(grad), static_cast<T*>(dx));
    });
}

} // namespace tstudio::gpu
