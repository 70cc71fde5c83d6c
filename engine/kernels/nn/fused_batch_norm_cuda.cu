// Device code of the batch-norm kernels: per-channel partial sums in double (one block per chunk of
// rows and channel, or per 32 channels when they are innermost), per-channel statistics that add the
// partials in chunk order, and element-wise kernels, all in grid-stride or fixed-partition form so
// results do not depend on scheduling.
#include "kernels/array/grid_stride_cuda.h"
#include "kernels/nn/fused_batch_norm_cuda.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace tstudio::gpu {

namespace {

constexpr unsigned kThreads = kThreadsPerBlock;
/// The block of the partial sums: 32 x 8 threads (x over channels when inner == 1).
constexpr unsigned kSumBlockX = 32;
constexpr unsigned kSumBlockY = kThreads / kSumBlockX;

static_assert(kSumBlockX == kBnChannelsPerBlock, "one block covers kBnChannelsPerBlock channels");

template <typename T> __device__ __forceinline__ float toFloat(T v)
{
    return static_cast<float>(v);
}

enum class SumKind { kX, kSquares, kGrad };

/// Adds element e (channel c) to the thread's sums: x; (x - mean)^2 with the double mean; or dy and
/// dy * (x - mean) with the float mean, each in double as the CPU kernel.
template <typename T, SumKind kKind>
__device__ __forceinline__ void accumulate(std::int64_t e, std::int64_t c, const T* x, const T* dy, const double* meanD,
                                           const float* meanF, double& a0, double& a1)
{
    if constexpr (kKind == SumKind::kX) {
        a0 += static_cast<double>(toFloat(x[e]));
    } else if constexpr (kKind == SumKind::kSquares) {
        const double d = static_cast<double>(toFloat(x[e])) - meanD[c];
        a0 += d * d;
    } else {
        const double g = static_cast<double>(toFloat(dy[e]));
        a0 += g;
        a1 += g * (static_cast<double>(toFloat(x[e])) - static_cast<double>(meanF[c]));
    }
}

/// partial0/1[chunk * channels + c] = the sums of chunk blockIdx.y's rows of channel c. Blocks of
/// kSumBlockX x kSumBlockY threads; grid (ceil(channels / kSumBlockX), chunks) when inner == 1,
/// else (channels, chunks).
template <typename T, SumKind kKind>
__global__ void __launch_bounds__(kThreads)
    channelPartialSums(BnLayout l, BnReductionPlan plan, const T* __restrict__ x, const T* __restrict__ dy,
                       const double* __restrict__ meanD, const float* __restrict__ meanF, double* __restrict__ partial0,
                       double* __restrict__ partial1)
{
    __shared__ double shared0[kThreads];
    __shared__ double shared1[kThreads];
    const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
    const std::int64_t r0 = static_cast<std::int64_t>(blockIdx.y) * plan.rowsPerChunk;
    const std::int64_t r1 = r0 + plan.rowsPerChunk < l.outer ? r0 + plan.rowsPerChunk : l.outer;
    double a0 = 0.0;
    double a1 = 0.0;
    const bool channelsInner = l.inner == 1;
    const std::int64_t c =
        channelsInner ? static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x : blockIdx.x;
    if (channelsInner) {
        if (c < l.channels) {
            for (std::int64_t o = r0 + threadIdx.y; o < r1; o += blockDim.y)
                accumulate<T, kKind>(o * l.channels + c, c, x, dy, meanD, meanF, a0, a1);
        }
    } else {
        const std::int64_t count = (r1 - r0) * l.inner;
        const unsigned threads = blockDim.x * blockDim.y;
        for (std::int64_t j = tid; j < count; j += threads) {
            const std::int64_t row = j / l.inner;
            const std::int64_t i = j - row * l.inner;
            accumulate<T, kKind>(((r0 + row) * l.channels + c) * l.inner + i, c, x, dy, meanD, meanF, a0, a1);
        }
    }
    shared0[tid] = a0;
    shared1[tid] = a1;
    __syncthreads();
    if (channelsInner) {
        if (threadIdx.y == 0 && c < l.channels) {
            double t0 = 0.0;
            double t1 = 0.0;
            for (unsigned y = 0; y < blockDim.y; ++y) {
                t0 += shared0[y * blockDim.x + threadIdx.x];
                t1 += shared1[y * blockDim.x + threadIdx.x];
            }
            partial0[static_cast<std::int64_t>(blockIdx.y) * l.channels + c] = t0;
            if constexpr (kKind == SumKind::kGrad)
                partial1[static_cast<std::int64_t>(blockIdx.y) * l.channels + c] = t1;
        }
        return;
    }
    for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
        if (tid < stride) {
            shared0[tid] += shared0[tid + stride];
            shared1[tid] += shared1[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) {
        partial0[static_cast<std::int64_t>(blockIdx.y) * l.channels + c] = shared0[0];
        if constexpr (kKind == SumKind::kGrad)
            partial1[static_cast<std::int64_t>(blockIdx.y) * l.channels + c] = shared1[0];
    }
}

/// The sum of channel c's partials, in chunk order.
__device__ __forceinline__ double chunkSum(const double* partial, std::int64_t chunks, std::int64_t channels,
                                           std::int64_t c)
{
    double s = 0.0;
    for (std::int64_t k = 0; k < chunks; ++k)
        s += partial[k * channels + c];
    return s;
}

__global__ void meanKernel(BnLayout l, std::int64_t chunks, const double* __restrict__ partial,
                           double* __restrict__ channelMean)
{
    for (std::int64_t c = firstIndex<std::int64_t>(); c < l.channels; c += gridStride<std::int64_t>())
        channelMean[c] = chunkSum(partial, chunks, l.channels, c) / static_cast<double>(l.rest());
}

__global__ void trainingStatsKernel(BnLayout l, std::int64_t chunks, float epsilon, const double* __restrict__ squares,
                                    const double* __restrict__ channelMean, const float* __restrict__ scale,
                                    float* __restrict__ batchMean, float* __restrict__ batchVariance,
                                    float* __restrict__ reserve1, float* __restrict__ reserve2,
                                    float* __restrict__ factor)
{
    for (std::int64_t c = firstIndex<std::int64_t>(); c < l.channels; c += gridStride<std::int64_t>()) {
        const BnTrainingStats s =
            bnTrainingStats(channelMean[c], chunkSum(squares, chunks, l.channels, c), l.rest(), scale[c], epsilon);
        batchMean[c] = s.mean;
        reserve1[c] = s.mean;
        reserve2[c] = s.variance;
        batchVariance[c] = s.batchVariance;
        factor[c] = s.factor;
    }
}

__global__ void inferenceStatsKernel(BnLayout l, float epsilon, const float* __restrict__ mean,
                                     const float* __restrict__ variance, const float* __restrict__ scale,
                                     float* __restrict__ batchMean, float* __restrict__ batchVariance,
                                     float* __restrict__ reserve1, float* __restrict__ reserve2,
                                     float* __restrict__ factor)
{
    for (std::int64_t c = firstIndex<std::int64_t>(); c < l.channels; c += gridStride<std::int64_t>()) {
        batchMean[c] = mean[c];
        reserve1[c] = mean[c];
        batchVariance[c] = variance[c];
        reserve2[c] = variance[c];
        factor[c] = bnInverseStddev(variance[c], epsilon) * scale[c];
    }
}

template <typename T>
__global__ void applyKernel(BnLayout l, std::int64_t total, const T* __restrict__ x, const float* __restrict__ mean,
                            const float* __restrict__ factor, const float* __restrict__ offset, T* __restrict__ y)
{
    for (std::int64_t e = firstIndex<std::int64_t>(); e < total; e += gridStride<std::int64_t>()) {
        const std::int64_t c = bnChannel(l, e);
        y[e] = static_cast<T>(bnApply(toFloat(x[e]), mean[c], factor[c], offset[c]));
    }
}

__global__ void gradCoefficientsKernel(BnLayout l, std::int64_t chunks, float epsilon,
                                       const double* __restrict__ partialDy,
                                       const double* __restrict__ partialDyCentered, const float* __restrict__ scale,
                                       const float* __restrict__ variance, float* __restrict__ scaleBackprop,
                                       float* __restrict__ offsetBackprop, float* __restrict__ coefficients)
{
    for (std::int64_t c = firstIndex<std::int64_t>(); c < l.channels; c += gridStride<std::int64_t>()) {
        const BnGradCoefficients k = bnGradCoefficients(chunkSum(partialDy, chunks, l.channels, c),
                                                        chunkSum(partialDyCentered, chunks, l.channels, c), l.rest(),
                                                        scale[c], variance[c], epsilon);
        scaleBackprop[c] = k.scaleBackprop;
        offsetBackprop[c] = k.offsetBackprop;
        coefficients[c] = k.k1;
        coefficients[l.channels + c] = k.k2;
        coefficients[2 * l.channels + c] = k.dyMean;
    }
}

template <typename T>
__global__ void gradApplyKernel(BnLayout l, std::int64_t total, bool training, const T* __restrict__ dy,
                                const T* __restrict__ x, const float* __restrict__ mean,
                                const float* __restrict__ coefficients, T* __restrict__ dx)
{
    const float* k1 = coefficients;
    const float* k2 = coefficients + l.channels;
    const float* dyMean = coefficients + 2 * l.channels;
    for (std::int64_t e = firstIndex<std::int64_t>(); e < total; e += gridStride<std::int64_t>()) {
        const std::int64_t c = bnChannel(l, e);
        dx[e] = static_cast<T>(bnGradApply(training, toFloat(dy[e]), toFloat(x[e]), mean[c], k1[c], k2[c], dyMean[c]));
    }
}

__global__ void fillKernel(float* __restrict__ data, std::int64_t n, float value)
{
    for (std::int64_t i = firstIndex<std::int64_t>(); i < n; i += gridStride<std::int64_t>())
        data[i] = value;
}

bool launchFailed()
{
    return cudaPeekAtLastError() != cudaSuccess;
}

/// Queues the partial sums of `kKind` over the plan's chunks.
template <typename T, SumKind kKind>
void queuePartialSums(cudaStream_t stream, const BnLayout& l, const BnReductionPlan& plan, const T* x, const T* dy,
                      const double* meanD, const float* meanF, double* partial0, double* partial1)
{
    const bool channelsInner = l.inner == 1;
    const dim3 block = channelsInner ? dim3(kSumBlockX, kSumBlockY) : dim3(kThreads, 1);
    const std::int64_t gridX = channelsInner ? (l.channels + kSumBlockX - 1) / kSumBlockX : l.channels;
    const dim3 grid(static_cast<unsigned>(gridX), static_cast<unsigned>(plan.chunks));
    channelPartialSums<T, kKind><<<grid, block, 0, stream>>>(l, plan, x, dy, meanD, meanF, partial0, partial1);
}

bool validPlan(const BnLayout& l, const BnReductionPlan& plan)
{
    // The grid's x and y limits (2^31 - 1 and 65535) and the chunks covering all rows.
    return l.elements() > 0 && plan.rowsPerChunk > 0 && plan.chunks > 0 && plan.chunks <= kBnMaxChunks &&
           plan.chunks * plan.rowsPerChunk >= l.outer && l.channels <= std::int64_t(0x7fffffff);
}

template <typename T> bool forwardTraining(cudaStream_t stream, const BnForward& a)
{
    const BnLayout& l = a.layout;
    const auto* x = static_cast<const T*>(a.x);
    const unsigned channelBlocks = blocksFor(l.channels);
    queuePartialSums<T, SumKind::kX>(stream, l, a.plan, x, nullptr, nullptr, nullptr, a.partial, nullptr);
    if (launchFailed())
        return true;
    meanKernel<<<channelBlocks, kThreads, 0, stream>>>(l, a.plan.chunks, a.partial, a.channelMean);
    if (launchFailed())
        return true;
    queuePartialSums<T, SumKind::kSquares>(stream, l, a.plan, x, nullptr, a.channelMean, nullptr, a.partial, nullptr);
    if (launchFailed())
        return true;
    trainingStatsKernel<<<channelBlocks, kThreads, 0, stream>>>(l, a.plan.chunks, a.epsilon, a.partial, a.channelMean,
                                                                a.scale, a.batchMean, a.batchVariance, a.reserve1,
                                                                a.reserve2, a.factor);
    if (launchFailed())
        return true;
    applyKernel<T><<<blocksFor(l.elements()), kThreads, 0, stream>>>(l, l.elements(), x, a.reserve1, a.factor, a.offset,
                                                                     static_cast<T*>(a.y));
    return true;
}

template <typename T> bool forwardInference(cudaStream_t stream, const BnForward& a)
{
    const BnLayout& l = a.layout;
    inferenceStatsKernel<<<blocksFor(l.channels), kThreads, 0, stream>>>(
        l, a.epsilon, a.mean, a.variance, a.scale, a.batchMean, a.batchVariance, a.reserve1, a.reserve2, a.factor);
    if (launchFailed())
        return true;
    applyKernel<T><<<blocksFor(l.elements()), kThreads, 0, stream>>>(l, l.elements(), static_cast<const T*>(a.x),
                                                                     a.mean, a.factor, a.offset, static_cast<T*>(a.y));
    return true;
}

template <typename T> bool backward(cudaStream_t stream, const BnBackward& a)
{
    const BnLayout& l = a.layout;
    const auto* x = static_cast<const T*>(a.x);
    const auto* dy = static_cast<const T*>(a.dy);
    queuePartialSums<T, SumKind::kGrad>(stream, l, a.plan, x, dy, nullptr, a.mean, a.partialDy, a.partialDyCentered);
    if (launchFailed())
        return true;
    gradCoefficientsKernel<<<blocksFor(l.channels), kThreads, 0, stream>>>(
        l, a.plan.chunks, a.epsilon, a.partialDy, a.partialDyCentered, a.scale, a.variance, a.scaleBackprop,
        a.offsetBackprop, a.coefficients);
    if (launchFailed())
        return true;
    gradApplyKernel<T><<<blocksFor(l.elements()), kThreads, 0, stream>>>(l, l.elements(), a.training, dy, x, a.mean,
                                                                         a.coefficients, static_cast<T*>(a.dx));
    return true;
}

} // namespace

bool launchBnForwardTraining(cudaStream_t stream, BnElement type, const BnForward& args)
{
    if (!validPlan(args.layout, args.plan))
        return false;
    return type == BnElement::kHalf ? forwardTraining<__half>(stream, args) : forwardTraining<float>(stream, args);
}

bool launchBnForwardInference(cudaStream_t stream, BnElement type, const BnForward& args)
{
    if (args.layout.elements() <= 0)
        return false;
    return type == BnElement::kHalf ? forwardInference<__half>(stream, args) : forwardInference<float>(stream, args);
}

bool launchBnBackward(cudaStream_t stream, BnElement type, const BnBackward& args)
{
    if (!validPlan(args.layout, args.plan))
        return false;
    return type == BnElement::kHalf ? backward<__half>(stream, args) : backward<float>(stream, args);
}

bool launchFillFloat(cudaStream_t stream, float* data, std::int64_t n, float value)
{
    if (n <= 0)
        return false;
    fillKernel<<<blocksFor(n), kThreads, 0, stream>>>(data, n, value);
    return true;
}

} // namespace tstudio::gpu
