// The arithmetic of the GPU batch-norm kernels (fused_batch_norm_cuda.cu): how the per-channel sums
// are split into chunks, and the per-channel and per-element formulas, written as host-and-device
// functions in the CPU kernel's order of operations so the CPU tests can run them against the CPU
// kernels. C++17, no engine headers.
#pragma once

#include "kernels/host_device.h"

#include <cmath>
#include <cstdint>

namespace tstudio::gpu {

/// x viewed as [outer, channels, inner]: element (o, c, i) at (o * channels + c) * inner + i
/// (NHWC: inner = 1; NCHW: outer = batch, inner = rows * cols).
struct BnLayout {
    std::int64_t outer = 0;
    std::int64_t channels = 0;
    std::int64_t inner = 0;

    TSTUDIO_HOST_DEVICE std::int64_t rest() const { return outer * inner; }
    TSTUDIO_HOST_DEVICE std::int64_t elements() const { return outer * channels * inner; }
};

/// The split of the per-channel sums: chunk k covers rows [k * rowsPerChunk, min(outer, (k + 1) *
/// rowsPerChunk)) of `outer` and leaves one partial sum per channel at partial[k * channels + c];
/// the partials are then added in chunk order. Fixed by the layout alone, so results are
/// deterministic.
struct BnReductionPlan {
    std::int64_t rowsPerChunk = 1;
    std::int64_t chunks = 1;
};

/// Channels per block when inner == 1 (a warp reads 32 neighbouring channels of a row).
inline constexpr std::int64_t kBnChannelsPerBlock = 32;
/// The most chunks: the grid's y dimension, and a bound on the partial sums' memory.
inline constexpr std::int64_t kBnMaxChunks = 65535;
inline constexpr std::int64_t kBnMaxPartials = std::int64_t(1) << 22;

/// About 16K elements per block of threads, at most kBnMaxChunks chunks and kBnMaxPartials partials.
/// Requires outer, channels and inner > 0.
inline BnReductionPlan bnReductionPlan(const BnLayout& l)
{
    constexpr std::int64_t kElementsPerBlock = 16384;
    const std::int64_t wanted = l.inner == 1 ? kElementsPerBlock / kBnChannelsPerBlock : kElementsPerBlock / l.inner;
    std::int64_t rows = wanted > 1 ? wanted : 1;
    std::int64_t maxChunks = kBnMaxPartials / l.channels;
    maxChunks = maxChunks < 1 ? 1 : (maxChunks > kBnMaxChunks ? kBnMaxChunks : maxChunks);
    if ((l.outer + rows - 1) / rows > maxChunks)
        rows = (l.outer + maxChunks - 1) / maxChunks;
    return {rows, (l.outer + rows - 1) / rows};
}

/// The channel of element e.
TSTUDIO_HOST_DEVICE inline std::int64_t bnChannel(const BnLayout& l, std::int64_t e)
{
    return (e / l.inner) % l.channels;
}

/// 1 / sqrt(variance + epsilon) in float, as the CPU kernel.
TSTUDIO_HOST_DEVICE inline float bnInverseStddev(float variance, float epsilon)
{
    return 1.0f / std::sqrt(variance + epsilon);
}

/// The training statistics of one channel from the sum of its values and of its squared
/// deviations from `mean` (= sum / rest, in double).
struct BnTrainingStats {
    float mean;          ///< batch_mean and reserve_space_1
    float variance;      ///< the biased variance: reserve_space_2
    float batchVariance; ///< Bessel-corrected: batch_variance
    float factor;        ///< scale / sqrt(variance + epsilon)
};

TSTUDIO_HOST_DEVICE inline BnTrainingStats bnTrainingStats(double mean, double squares, std::int64_t rest, float scale,
                                                           float epsilon)
{
    BnTrainingStats s;
    s.mean = static_cast<float>(mean);
    s.variance = static_cast<float>(squares / static_cast<double>(rest));
    const float adjust = static_cast<float>(rest) / static_cast<float>(rest > 1 ? rest - 1 : 1);
    s.batchVariance = s.variance * adjust;
    s.factor = bnInverseStddev(s.variance, epsilon) * scale;
    return s;
}

/// y = (x - mean) * factor + offset, in float.
TSTUDIO_HOST_DEVICE inline float bnApply(float x, float mean, float factor, float offset)
{
    return (x - mean) * factor + offset;
}

/// The per-channel values of the gradient: scale and offset backprops and the coefficients of
/// bnGradApply.
struct BnGradCoefficients {
    float scaleBackprop;
    float offsetBackprop;
    float k1;     ///< scale / sqrt(variance + epsilon)
    float k2;     ///< training: sum(dy * (x - mean)) / (rest * (variance + epsilon)), in the CPU's order
    float dyMean; ///< training: sum(dy) / rest
};

TSTUDIO_HOST_DEVICE inline BnGradCoefficients bnGradCoefficients(double sumDy, double sumDyCentered, std::int64_t rest,
                                                                 float scale, float variance, float epsilon)
{
    BnGradCoefficients k;
    const float coef0 = bnInverseStddev(variance, epsilon);
    k.scaleBackprop = static_cast<float>(sumDyCentered) * coef0;
    k.offsetBackprop = static_cast<float>(sumDy);
    k.k1 = scale * coef0;
    const float restInv = 1.0f / static_cast<float>(rest);
    k.k2 = coef0 * coef0 * static_cast<float>(sumDyCentered) * restInv;
    k.dyMean = static_cast<float>(sumDy) * restInv;
    return k;
}

/// x_backprop of one element: training k1 * ((dy - dyMean) - (x - mean) * k2), else dy * k1.
TSTUDIO_HOST_DEVICE inline float bnGradApply(bool training, float dy, float x, float mean, float k1, float k2,
                                             float dyMean)
{
    if (!training)
        return dy * k1;
    return k1 * ((dy - dyMean) - (x - mean) * k2);
}

} // namespace tstudio::gpu
