// Device code of the element-wise launchers (cwise_cuda.h): grid-stride kernels that apply a scalar
// functor over flat or broadcast layouts. Included only by *_cuda.cu files, which instantiate the
// launchers explicitly for the (functor, dtype) pairs they register. C++17.
#pragma once

#include "kernels/array/grid_stride_cuda.h"
#include "kernels/math/binary_functors.h"
#include "kernels/math/cwise_cuda.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace tstudio::gpu {

/// The helpers and kernels behind the launchers (launch shapes and loop indices are
/// grid_stride_cuda.h's, shared with the other GPU families).
namespace elementwise {

/// True when every element index and input offset of `layout` fits 32-bit unsigned arithmetic
/// (the inputs never hold more elements than the output), which divides several times faster.
inline bool fits32(const BroadcastLayout& layout)
{
    return layout.numElements <= std::int64_t(std::numeric_limits<std::int32_t>::max());
}

/// The element offsets of inputs 0..Inputs-1 for output element i of a layout of rank >= 2:
/// i is split into its row-major index from the innermost dimension outwards.
template <int Inputs, typename Index>
__device__ __forceinline__ void broadcastOffsets(const BroadcastLayout& layout, Index i, Index (&offsets)[Inputs])
{
#pragma unroll
    for (int k = 0; k < Inputs; ++k)
        offsets[k] = 0;
    Index rest = i;
#pragma unroll
    for (int d = kMaxBroadcastRank - 1; d >= 0; --d) {
        if (d < layout.rank) {
            const Index dim = static_cast<Index>(layout.dims[d]);
            const Index quotient = rest / dim;
            const Index position = rest - quotient * dim;
            rest = quotient;
#pragma unroll
            for (int k = 0; k < Inputs; ++k)
                offsets[k] += position * static_cast<Index>(layout.strides[k][d]);
        }
    }
}

// --- Kernels -------------------------------------------------------------------------------------------

template <typename F, typename In, typename Out>
__global__ void __launch_bounds__(kThreadsPerBlock)
    unaryKernel(F f, Out* __restrict__ out, const In* __restrict__ in, std::int64_t n)
{
    for (std::int64_t i = firstIndex<std::int64_t>(); i < n; i += gridStride<std::int64_t>())
        out[i] = f(in[i]);
}

/// Flat binary layout: each input advances by its step (1) or repeats its first element (0).
template <typename F, typename In, typename Out>
__global__ void __launch_bounds__(kThreadsPerBlock)
    binaryFlatKernel(F f, Out* __restrict__ out, const In* __restrict__ x, const In* __restrict__ y, std::int64_t n,
                     std::int64_t xStep, std::int64_t yStep)
{
    for (std::int64_t i = firstIndex<std::int64_t>(); i < n; i += gridStride<std::int64_t>())
        out[i] = f(x[i * xStep], y[i * yStep]);
}

template <typename F, typename In, typename Out, typename Index>
__global__ void __launch_bounds__(kThreadsPerBlock)
    binaryBroadcastKernel(F f, const BroadcastLayout layout, Out* __restrict__ out, const In* __restrict__ x,
                          const In* __restrict__ y)
{
    const Index n = static_cast<Index>(layout.numElements);
    for (Index i = firstIndex<Index>(); i < n; i += gridStride<Index>()) {
        Index offsets[2];
        broadcastOffsets<2>(layout, i, offsets);
        out[i] = f(x[offsets[0]], y[offsets[1]]);
    }
}

template <typename T>
__global__ void __launch_bounds__(kThreadsPerBlock)
    selectFlatKernel(T* __restrict__ out, const bool* __restrict__ condition, const T* __restrict__ t,
                     const T* __restrict__ e, std::int64_t n, std::int64_t cStep, std::int64_t tStep,
                     std::int64_t eStep)
{
    for (std::int64_t i = firstIndex<std::int64_t>(); i < n; i += gridStride<std::int64_t>())
        out[i] = condition[i * cStep] ? t[i * tStep] : e[i * eStep];
}

template <typename T, typename Index>
__global__ void __launch_bounds__(kThreadsPerBlock)
    selectBroadcastKernel(const BroadcastLayout layout, T* __restrict__ out, const bool* __restrict__ condition,
                          const T* __restrict__ t, const T* __restrict__ e)
{
    const Index n = static_cast<Index>(layout.numElements);
    for (Index i = firstIndex<Index>(); i < n; i += gridStride<Index>()) {
        Index offsets[3];
        broadcastOffsets<3>(layout, i, offsets);
        out[i] = condition[offsets[0]] ? t[offsets[1]] : e[offsets[2]];
    }
}

/// Up to this many AddN inputs per kernel launch (their pointers travel in the kernel's arguments).
inline constexpr int kAddNInputsPerLaunch = 8;

template <typename T> struct AddNInputs {
    const T* in[kAddNInputsPerLaunch];
    int count;
};

/// out[i] = in[0][i] + ... + in[count-1][i] added left to right, or, when `accumulate`, out[i] +
/// in[0][i] + ... (the continuation of a longer sum). Not __restrict__: out is read when accumulating.
template <typename T>
__global__ void __launch_bounds__(kThreadsPerBlock)
    addNKernel(T* out, const AddNInputs<T> inputs, bool accumulate, std::int64_t n)
{
    const functor::AddOp<T> add;
    for (std::int64_t i = firstIndex<std::int64_t>(); i < n; i += gridStride<std::int64_t>()) {
        T sum = accumulate ? add(out[i], inputs.in[0][i]) : inputs.in[0][i];
#pragma unroll
        for (int k = 1; k < kAddNInputsPerLaunch; ++k) {
            if (k < inputs.count)
                sum = add(sum, inputs.in[k][i]);
        }
        out[i] = sum;
    }
}

} // namespace elementwise

// --- Launchers -----------------------------------------------------------------------------------------

template <typename F, typename In>
void UnaryLauncher<F, In>::launch(cudaStream_t stream, const F& f, Out* out, const In* in, std::int64_t n)
{
    if (n <= 0)
        return;
    elementwise::unaryKernel<F, In, Out><<<blocksFor(n), kThreadsPerBlock, 0, stream>>>(f, out, in, n);
}

template <typename F, typename In>
void BinaryLauncher<F, In>::launch(cudaStream_t stream, const F& f, const BroadcastLayout& layout, Out* out,
                                   const In* x, const In* y)
{
    const std::int64_t n = layout.numElements;
    if (n <= 0)
        return;
    const unsigned blocks = blocksFor(n);
    if (layout.rank <= 1) {
        const std::int64_t xStep = layout.rank == 0 ? 0 : layout.strides[0][0];
        const std::int64_t yStep = layout.rank == 0 ? 0 : layout.strides[1][0];
        elementwise::binaryFlatKernel<F, In, Out>
            <<<blocks, kThreadsPerBlock, 0, stream>>>(f, out, x, y, n, xStep, yStep);
    } else if (elementwise::fits32(layout)) {
        elementwise::binaryBroadcastKernel<F, In, Out, std::uint32_t>
            <<<blocks, kThreadsPerBlock, 0, stream>>>(f, layout, out, x, y);
    } else {
        elementwise::binaryBroadcastKernel<F, In, Out, std::uint64_t>
            <<<blocks, kThreadsPerBlock, 0, stream>>>(f, layout, out, x, y);
    }
}

template <typename F, typename In>
void FlatBinaryLauncher<F, In>::launch(cudaStream_t stream, const F& f, Out* out, const In* x, const In* y,
                                       std::int64_t n)
{
    if (n <= 0)
        return;
    elementwise::binaryFlatKernel<F, In, Out><<<blocksFor(n), kThreadsPerBlock, 0, stream>>>(f, out, x, y, n, 1, 1);
}

template <typename T>
void SelectLauncher<T>::launch(cudaStream_t stream, const BroadcastLayout& layout, T* out, const bool* condition,
                               const T* t, const T* e)
{
    const std::int64_t n = layout.numElements;
    if (n <= 0)
        return;
    const unsigned blocks = blocksFor(n);
    if (layout.rank <= 1) {
        auto step = [&](int k) { return layout.rank == 0 ? std::int64_t(0) : layout.strides[k][0]; };
        elementwise::selectFlatKernel<T>
            <<<blocks, kThreadsPerBlock, 0, stream>>>(out, condition, t, e, n, step(0), step(1), step(2));
    } else if (elementwise::fits32(layout)) {
        elementwise::selectBroadcastKernel<T, std::uint32_t>
            <<<blocks, kThreadsPerBlock, 0, stream>>>(layout, out, condition, t, e);
    } else {
        elementwise::selectBroadcastKernel<T, std::uint64_t>
            <<<blocks, kThreadsPerBlock, 0, stream>>>(layout, out, condition, t, e);
    }
}

template <typename T>
void AddNLauncher<T>::launch(cudaStream_t stream, T* out, const T* const* inputs, int count, std::int64_t n)
{
    if (n <= 0 || count < 2)
        return;
    const unsigned blocks = blocksFor(n);
    for (int first = 0; first < count; first += elementwise::kAddNInputsPerLaunch) {
        elementwise::AddNInputs<T> chunk{};
        chunk.count = std::min(elementwise::kAddNInputsPerLaunch, count - first);
        for (int k = 0; k < chunk.count; ++k)
            chunk.in[k] = inputs[first + k];
        // Launches after the first continue the sum in out, in the same left-to-right order.
        elementwise::addNKernel<T><<<blocks, kThreadsPerBlock, 0, stream>>>(out, chunk, first > 0, n);
    }
}

} // namespace tstudio::gpu
