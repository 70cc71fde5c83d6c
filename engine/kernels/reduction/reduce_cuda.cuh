// Device-side building blocks of the GPU reductions, softmax and losses: accumulator types,
// conversions, the reduction operators with their identities, and warp / block all-reduces.
// Included by .cu files only.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace tstudio::cuda {

/// The type a reduction of T accumulates in: float for half (as TensorFlow's GPU kernels and
/// Eigen's AccumulatorType), T itself otherwise.
template <typename T> struct AccumulatorOf {
    using type = T;
};
template <> struct AccumulatorOf<__half> {
    using type = float;
};
template <typename T> using AccumulatorT = typename AccumulatorOf<T>::type;

/// Conversions between element and accumulator types; half rounds to nearest even, as Eigen's.
template <typename To, typename From> __device__ __forceinline__ To convert(From value)
{
    if constexpr (std::is_same_v<From, __half>)
        return static_cast<To>(__half2float(value));
    else if constexpr (std::is_same_v<To, __half>)
        return __float2half_rn(static_cast<float>(value));
    else
        return static_cast<To>(value);
}

template <typename T> __device__ __forceinline__ bool isNan(T value)
{
    if constexpr (std::is_floating_point_v<T>)
        return value != value;
    else
        return false;
}

template <typename T> __device__ __forceinline__ T positiveInfinity()
{
    if constexpr (std::is_floating_point_v<T>)
        return std::numeric_limits<T>::infinity();
    else
        return std::numeric_limits<T>::max();
}
template <typename T> __device__ __forceinline__ T negativeInfinity()
{
    if constexpr (std::is_floating_point_v<T>)
        return -std::numeric_limits<T>::infinity();
    else
        return std::numeric_limits<T>::lowest();
}

/// The reduction operators over accumulators, each with the value of an empty reduction. Max and
/// Min propagate NaN, as the CPU kernels (Eigen::PropagateNaN) do; for integers the identities are
/// the extreme values, as Eigen's.
template <typename Acc> struct SumOp {
    static __device__ __forceinline__ Acc identity() { return Acc(0); }
    static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return a + b; }
};
template <typename Acc> struct ProdOp {
    static __device__ __forceinline__ Acc identity() { return Acc(1); }
    static __device__ __forceinline__ Acc combine(Acc a, Acc b) { return a * b; }
};
template <typename Acc> struct MaxOp {
    static __device__ __forceinline__ Acc identity() { return negativeInfinity<Acc>(); }
    static __device__ __forceinline__ Acc combine(Acc a, Acc b)
    {
        if (isNan(a))
            return a;
        if (isNan(b))
            return b;
        return a > b ? a : b;
    }
};
template <typename Acc> struct MinOp {
    static __device__ __forceinline__ Acc identity() { return positiveInfinity<Acc>(); }
    static __device__ __forceinline__ Acc combine(Acc a, Acc b)
    {
        if (isNan(a))
            return a;
        if (isNan(b))
            return b;
        return a < b ? a : b;
    }
};
struct AllOp {
    static __device__ __forceinline__ bool identity() { return true; }
    static __device__ __forceinline__ bool combine(bool a, bool b) { return a && b; }
};
struct AnyOp {
    static __device__ __forceinline__ bool identity() { return false; }
    static __device__ __forceinline__ bool combine(bool a, bool b) { return a || b; }
};

/// __shfl_xor_sync for every accumulator type (bool travels as int, 64-bit integers as long long).
template <typename T> __device__ __forceinline__ T shuffleXor(T value, int laneMask)
{
    constexpr unsigned kFullMask = 0xffffffffu;
    if constexpr (std::is_same_v<T, bool>)
        return __shfl_xor_sync(kFullMask, static_cast<int>(value), laneMask) != 0;
    else if constexpr (std::is_integral_v<T> && sizeof(T) == 8)
        return static_cast<T>(__shfl_xor_sync(kFullMask, static_cast<long long>(value), laneMask));
    else
        return __shfl_xor_sync(kFullMask, value, laneMask);
}

inline constexpr int kWarpSize = 32;

/// Every lane of the (full, converged) warp gets Op over the 32 lanes' values.
template <typename Op, typename T> __device__ __forceinline__ T warpAllReduce(T value)
{
    for (int mask = kWarpSize / 2; mask > 0; mask /= 2)
        value = Op::combine(value, shuffleXor(value, mask));
    return value;
}

/// Every thread of the block (kThreads threads, a multiple of 32, all calling it) gets Op over the
/// block's values. `scratch` holds kThreads / 32 values; it may be reused after the call returns.
template <typename Op, int kThreads, typename T> __device__ __forceinline__ T blockAllReduce(T value, T* scratch)
{
    static_assert(kThreads % kWarpSize == 0, "whole warps only");
    constexpr int kWarps = kThreads / kWarpSize;
    value = warpAllReduce<Op>(value);
    if constexpr (kWarps == 1) {
        return value;
    } else {
        const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
        __syncthreads(); // earlier readers of scratch are done
        if (static_cast<int>(threadIdx.x) % kWarpSize == 0)
            scratch[warp] = value;
        __syncthreads();
        T result = scratch[0];
        for (int w = 1; w < kWarps; ++w)
            result = Op::combine(result, scratch[w]);
        return result;
    }
}

/// Op over a group of kGroup threads that work on one row together: a warp (kGroup == 32) or the
/// whole block (kGroup == blockDim.x). Every thread of the group gets the result.
template <typename Op, int kGroup, typename T> __device__ __forceinline__ T groupAllReduce(T value, T* scratch)
{
    if constexpr (kGroup == kWarpSize)
        return warpAllReduce<Op>(value);
    else
        return blockAllReduce<Op, kGroup>(value, scratch);
}

/// The rows a group of kGroup threads works on together in a grid-stride loop: a warp per row
/// (kGroup == 32; blocks hold several warps) or a block per row (kGroup == blockDim.x). Every thread
/// of a group sees the same rows, so the group stays converged for groupAllReduce.
template <int kGroup> struct RowGroup {
    static __device__ __forceinline__ int lane()
    {
        return kGroup == kWarpSize ? static_cast<int>(threadIdx.x) % kWarpSize : static_cast<int>(threadIdx.x);
    }
    static __device__ __forceinline__ std::int64_t first()
    {
        return kGroup == kWarpSize ? (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize
                                   : static_cast<std::int64_t>(blockIdx.x);
    }
    static __device__ __forceinline__ std::int64_t stride()
    {
        return kGroup == kWarpSize ? static_cast<std::int64_t>(gridDim.x) * blockDim.x / kWarpSize
                                   : static_cast<std::int64_t>(gridDim.x);
    }
};

/// exp and log in the accumulator's precision (expf/logf for float: full precision, not the
/// fast intrinsics).
template <typename Acc> __device__ __forceinline__ Acc accExp(Acc x)
{
    if constexpr (std::is_same_v<Acc, float>)
        return expf(x);
    else
        return exp(x);
}
template <typename Acc> __device__ __forceinline__ Acc accLog(Acc x)
{
    if constexpr (std::is_same_v<Acc, float>)
        return logf(x);
    else
        return log(x);
}

/// Blocks for a grid-stride loop over `work` items with `threads` threads a block: enough to fill
/// an H100/H200 several times over; the loops stride over the rest. work > 0.
inline unsigned gridFor(std::int64_t work, int threads)
{
    constexpr std::int64_t kMaxBlocks = 132 * 32;
    const std::int64_t blocks = (work + threads - 1) / threads;
    return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > kMaxBlocks ? kMaxBlocks : blocks));
}

} // namespace tstudio::cuda
