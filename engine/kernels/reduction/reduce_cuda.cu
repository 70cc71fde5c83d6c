// The GPU reduction passes: a warp per output for contiguous (row) reductions, a thread per output
// for strided (column) ones, both over chunks of the reduced dimension; and the empty-reduction fill.
#include "kernels/reduction/reduce_cuda.cuh"
#include "kernels/reduction/reduce_cuda.h"

namespace tstudio::cuda {
namespace {

constexpr int kThreads = 256;

/// Rounds `acc` to Out, dividing it first when `divide` (Mean's last pass).
template <typename Out, typename Acc> __device__ __forceinline__ Out finish(Acc acc, Acc divisor, bool divide)
{
    if constexpr (std::is_same_v<Acc, bool>) {
        return convert<Out>(acc);
    } else {
        if (divide)
            acc = acc / divisor;
        return convert<Out>(acc);
    }
}

/// inner == 1: a warp per (o, p) task reads its chunk of row o with consecutive lanes on
/// consecutive elements, then combines the lanes. Every lane of a warp runs the same tasks, so the
/// shuffles see a converged warp.
template <typename Op, typename Acc, typename In, typename Out>
__global__ void __launch_bounds__(kThreads)
    reduceRowsKernel(const In* __restrict__ in, Out* __restrict__ out, std::int64_t outer, std::int64_t R,
                     std::int64_t chunks, std::int64_t chunkSize, Acc divisor, bool divide)
{
    const int lane = static_cast<int>(threadIdx.x) % kWarpSize;
    const std::int64_t firstWarp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize;
    const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * blockDim.x / kWarpSize;
    const std::int64_t tasks = outer * chunks;
    for (std::int64_t task = firstWarp; task < tasks; task += warps) {
        const std::int64_t o = task / chunks;
        const std::int64_t p = task - o * chunks;
        const std::int64_t begin = p * chunkSize;
        const std::int64_t end = begin + chunkSize < R ? begin + chunkSize : R;
        const In* row = in + o * R;
        Acc acc = Op::identity();
        for (std::int64_t r = begin + lane; r < end; r += kWarpSize)
            acc = Op::combine(acc, convert<Acc>(row[r]));
        acc = warpAllReduce<Op>(acc);
        if (lane == 0)
            out[task] = finish<Out>(acc, divisor, divide);
    }
}

/// inner > 1: a thread per (o, p, i) task walks its chunk of column (o, i); neighbouring threads
/// have neighbouring i, so each step reads contiguous memory.
template <typename Op, typename Acc, typename In, typename Out>
__global__ void __launch_bounds__(kThreads)
    reduceColumnsKernel(const In* __restrict__ in, Out* __restrict__ out, std::int64_t outer, std::int64_t R,
                        std::int64_t inner, std::int64_t chunks, std::int64_t chunkSize, Acc divisor, bool divide)
{
    const std::int64_t tasks = outer * chunks * inner;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t task = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; task < tasks;
         task += stride) {
        const std::int64_t i = task % inner;
        const std::int64_t outerChunk = task / inner; // o * chunks + p
        const std::int64_t o = outerChunk / chunks;
        const std::int64_t p = outerChunk - o * chunks;
        const std::int64_t begin = p * chunkSize;
        const std::int64_t end = begin + chunkSize < R ? begin + chunkSize : R;
        const In* column = in + o * R * inner + i;
        Acc acc = Op::identity();
        for (std::int64_t r = begin; r < end; ++r)
            acc = Op::combine(acc, convert<Acc>(column[r * inner]));
        out[task] = finish<Out>(acc, divisor, divide);
    }
}

template <typename Op, typename Acc, typename In, typename Out>
cudaError_t launchWith(const In* in, Out* out, std::int64_t outer, std::int64_t R, std::int64_t inner,
                       std::int64_t chunks, double divisor, cudaStream_t stream)
{
    const std::int64_t chunkSize = (R + chunks - 1) / chunks;
    Acc accDivisor{};
    if constexpr (!std::is_same_v<Acc, bool>)
        accDivisor = static_cast<Acc>(divisor);
    const bool divide = divisor != 0.0;
    if (inner == 1) {
        const std::int64_t threads = outer * chunks * kWarpSize;
        reduceRowsKernel<Op, Acc><<<gridFor(threads, kThreads), kThreads, 0, stream>>>(in, out, outer, R, chunks,
                                                                                       chunkSize, accDivisor, divide);
    } else {
        reduceColumnsKernel<Op, Acc><<<gridFor(outer * chunks * inner, kThreads), kThreads, 0, stream>>>(
            in, out, outer, R, inner, chunks, chunkSize, accDivisor, divide);
    }
    return cudaGetLastError();
}

template <typename Acc, typename T>
__global__ void identityKernel(T* __restrict__ out, std::int64_t n, ReduceOp op, bool mean)
{
    Acc value{};
    if constexpr (std::is_same_v<Acc, bool>) {
        value = op == ReduceOp::kAll;
    } else {
        switch (op) {
        case ReduceOp::kSum: value = SumOp<Acc>::identity(); break;
        case ReduceOp::kProd: value = ProdOp<Acc>::identity(); break;
        case ReduceOp::kMax: value = MaxOp<Acc>::identity(); break;
        case ReduceOp::kMin: value = MinOp<Acc>::identity(); break;
        default: break;
        }
        if constexpr (std::is_floating_point_v<Acc>) {
            if (mean)
                value = std::numeric_limits<Acc>::quiet_NaN();
        }
    }
    const T converted = convert<T>(value);
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = converted;
}

} // namespace

template <typename Acc, typename In, typename Out>
cudaError_t launchReducePass(ReduceOp op, const In* in, Out* out, std::int64_t outer, std::int64_t R,
                             std::int64_t inner, std::int64_t chunks, double divisor, cudaStream_t stream)
{
    if constexpr (std::is_same_v<Acc, bool>) {
        switch (op) {
        case ReduceOp::kAll: return launchWith<AllOp, Acc>(in, out, outer, R, inner, chunks, divisor, stream);
        case ReduceOp::kAny: return launchWith<AnyOp, Acc>(in, out, outer, R, inner, chunks, divisor, stream);
        default: return cudaErrorInvalidValue;
        }
    } else {
        switch (op) {
        case ReduceOp::kSum: return launchWith<SumOp<Acc>, Acc>(in, out, outer, R, inner, chunks, divisor, stream);
        case ReduceOp::kProd: return launchWith<ProdOp<Acc>, Acc>(in, out, outer, R, inner, chunks, divisor, stream);
        case ReduceOp::kMax: return launchWith<MaxOp<Acc>, Acc>(in, out, outer, R, inner, chunks, divisor, stream);
        case ReduceOp::kMin: return launchWith<MinOp<Acc>, Acc>(in, out, outer, R, inner, chunks, divisor, stream);
        default: return cudaErrorInvalidValue;
        }
    }
}

template <typename T>
cudaError_t launchReduceIdentity(ReduceOp op, bool mean, T* out, std::int64_t n, cudaStream_t stream)
{
    identityKernel<AccumulatorT<T>><<<gridFor(n, kThreads), kThreads, 0, stream>>>(out, n, op, mean);
    return cudaGetLastError();
}

#define TSTUDIO_REDUCE_PASS(Acc, In, Out)                                                                              \
    template cudaError_t launchReducePass<Acc, In, Out>(ReduceOp, const In*, Out*, std::int64_t, std::int64_t,         \
                                                        std::int64_t, std::int64_t, double, cudaStream_t)
TSTUDIO_REDUCE_PASS(float, float, float);
TSTUDIO_REDUCE_PASS(double, double, double);
TSTUDIO_REDUCE_PASS(std::int32_t, std::int32_t, std::int32_t);
TSTUDIO_REDUCE_PASS(std::int64_t, std::int64_t, std::int64_t);
TSTUDIO_REDUCE_PASS(bool, bool, bool);
TSTUDIO_REDUCE_PASS(float, __half, __half);
TSTUDIO_REDUCE_PASS(float, __half, float);
TSTUDIO_REDUCE_PASS(float, float, __half);
#undef TSTUDIO_REDUCE_PASS

template cudaError_t launchReduceIdentity<float>(ReduceOp, bool, float*, std::int64_t, cudaStream_t);
template cudaError_t launchReduceIdentity<double>(ReduceOp, bool, double*, std::int64_t, cudaStream_t);
template cudaError_t launchReduceIdentity<__half>(ReduceOp, bool, __half*, std::int64_t, cudaStream_t);
template cudaError_t launchReduceIdentity<std::int32_t>(ReduceOp, bool, std::int32_t*, std::int64_t, cudaStream_t);
template cudaError_t launchReduceIdentity<std::int64_t>(ReduceOp, bool, std::int64_t*, std::int64_t, cudaStream_t);
template cudaError_t launchReduceIdentity<bool>(ReduceOp, bool, bool*, std::int64_t, cudaStream_t);

} // namespace tstudio::cuda
