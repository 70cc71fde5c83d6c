// ArgMax and ArgMin on the GPU: a warp per output for a contiguous axis, a thread per output otherwise.
#include "kernels/reduction/reduce_cuda.cuh"
#include "kernels/reduction/reduce_cuda.h"

namespace tstudio::cuda {
namespace {

constexpr int kThreads = 256;

/// A candidate (index along the axis, value as its comparison type).
template <typename V> struct Candidate {
    std::int64_t index;
    V value;
};

/// Eigen's ArgMax/ArgMin tuple reducers: the start is (0, lowest) for max and (0, highest) for
/// min (startFor); a value replaces the best when it is strictly better, or equal with a lower index. NaN
/// compares neither better nor equal, so it never wins. The rule is commutative and associative,
/// so any split of the axis gives the CPU's answer.
template <bool kMax, typename V> struct ArgRule {
    static __device__ __forceinline__ Candidate<V> better(Candidate<V> best, Candidate<V> c)
    {
        const bool strictly = kMax ? c.value > best.value : c.value < best.value;
        if (strictly || (c.value == best.value && c.index < best.index))
            return c;
        return best;
    }
};

/// The comparison type of T: float for half (exact), T otherwise; its lowest and highest are those
/// of T (half's are +-65504, which float represents exactly).
template <typename T> struct CompareType {
    using type = T;
    static __device__ __forceinline__ type lowest() { return std::numeric_limits<T>::lowest(); }
    static __device__ __forceinline__ type highest() { return std::numeric_limits<T>::max(); }
};
template <> struct CompareType<__half> {
    using type = float;
    static __device__ __forceinline__ float lowest() { return -65504.0f; }
    static __device__ __forceinline__ float highest() { return 65504.0f; }
};

template <bool kMax, typename T> __device__ __forceinline__ Candidate<typename CompareType<T>::type> startFor()
{
    using C = CompareType<T>;
    return {0, kMax ? C::lowest() : C::highest()};
}

/// inner == 1: a warp per slice; the lanes' best candidates are combined with shuffles.
template <bool kMax, typename T, typename Tout>
__global__ void __launch_bounds__(kThreads)
    argRowsKernel(const T* __restrict__ in, Tout* __restrict__ out, std::int64_t outer, std::int64_t axis)
{
    using V = typename CompareType<T>::type;
    using Rule = ArgRule<kMax, V>;
    const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
    const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * blockDim.x / kWarpSize;
    for (std::int64_t o = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize; o < outer;
         o += warps) {
        const T* row = in + o * axis;
        Candidate<V> best = startFor<kMax, T>();
        for (std::int64_t j = lane; j < axis; j += kWarpSize)
            best = Rule::better(best, {j, convert<V>(row[j])});
        for (int mask = kWarpSize / 2; mask > 0; mask /= 2) {
            const Candidate<V> other{shuffleXor(best.index, mask), shuffleXor(best.value, mask)};
            best = Rule::better(best, other);
        }
        if (lane == 0)
            out[o] = static_cast<Tout>(best.index);
    }
}

/// inner > 1: a thread per (o, i) walks the axis; neighbouring threads read neighbouring elements.
template <bool kMax, typename T, typename Tout>
__global__ void __launch_bounds__(kThreads) argColumnsKernel(const T* __restrict__ in, Tout* __restrict__ out,
                                                             std::int64_t outer, std::int64_t axis, std::int64_t inner)
{
    using V = typename CompareType<T>::type;
    using Rule = ArgRule<kMax, V>;
    const std::int64_t total = outer * inner;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < total; t += stride) {
        const std::int64_t o = t / inner;
        const std::int64_t i = t - o * inner;
        const T* column = in + o * axis * inner + i;
        Candidate<V> best = startFor<kMax, T>();
        for (std::int64_t j = 0; j < axis; ++j)
            best = Rule::better(best, {j, convert<V>(column[j * inner])});
        out[t] = static_cast<Tout>(best.index);
    }
}

template <bool kMax, typename T, typename Tout>
cudaError_t launchArg(const T* in, Tout* out, std::int64_t outer, std::int64_t axis, std::int64_t inner,
                      cudaStream_t stream)
{
    if (inner == 1)
        argRowsKernel<kMax><<<gridFor(outer * kWarpSize, kThreads), kThreads, 0, stream>>>(in, out, outer, axis);
    else
        argColumnsKernel<kMax><<<gridFor(outer * inner, kThreads), kThreads, 0, stream>>>(in, out, outer, axis, inner);
    return cudaGetLastError();
}

} // namespace

template <typename T, typename Tout>
cudaError_t launchArgMinMax(bool max, const T* in, Tout* out, std::int64_t outer, std::int64_t axis, std::int64_t inner,
                            cudaStream_t stream)
{
    return max ? launchArg<true>(in, out, outer, axis, inner, stream)
               : launchArg<false>(in, out, outer, axis, inner, stream);
}

#define TSTUDIO_ARG_MIN_MAX(T, Tout)                                                                                   \
    template cudaError_t launchArgMinMax<T, Tout>(bool, const T*, Tout*, std::int64_t, std::int64_t, std::int64_t,     \
                                                  cudaStream_t)
TSTUDIO_ARG_MIN_MAX(float, std::int32_t);
TSTUDIO_ARG_MIN_MAX(float, std::int64_t);
TSTUDIO_ARG_MIN_MAX(double, std::int32_t);
TSTUDIO_ARG_MIN_MAX(double, std::int64_t);
TSTUDIO_ARG_MIN_MAX(__half, std::int32_t);
TSTUDIO_ARG_MIN_MAX(__half, std::int64_t);
TSTUDIO_ARG_MIN_MAX(std::int32_t, std::int32_t);
TSTUDIO_ARG_MIN_MAX(std::int32_t, std::int64_t);
#undef TSTUDIO_ARG_MIN_MAX

} // namespace tstudio::cuda
