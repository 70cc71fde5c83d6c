// Launchers of the GPU batch-norm kernels (fused_batch_norm_cuda.cu): per-channel sums in double
// split by BnReductionPlan, per-channel statistics and the element-wise steps of
// fused_batch_norm_cuda_math.h. C++17 and free of engine headers: nvcc compiles it.
#pragma once

#include "kernels/nn/fused_batch_norm_cuda_math.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tstudio::gpu {

/// x's element type (the statistics are float).
enum class BnElement { kHalf, kFloat };

/// FusedBatchNorm's pointers, all GPU memory. Outputs: y (x's layout), and per channel batchMean,
/// batchVariance, reserve1 and reserve2. Temporaries: partial (plan.chunks x channels doubles),
/// channelMean (channels doubles; training only) and factor (channels floats).
struct BnForward {
    BnLayout layout;
    BnReductionPlan plan;
    float epsilon = 0.0f;
    const void* x = nullptr;
    const float* scale = nullptr;
    const float* offset = nullptr;
    const float* mean = nullptr;     ///< inference: the estimated mean
    const float* variance = nullptr; ///< inference: the estimated variance
    void* y = nullptr;
    float* batchMean = nullptr;
    float* batchVariance = nullptr;
    float* reserve1 = nullptr;
    float* reserve2 = nullptr;
    double* partial = nullptr;
    double* channelMean = nullptr;
    float* factor = nullptr;
};

/// FusedBatchNormGrad's pointers: dx (x's layout), scaleBackprop and offsetBackprop per channel;
/// mean and variance are reserve_space_1 and 2. Temporaries: partialDy and partialDyCentered
/// (plan.chunks x channels doubles each) and coefficients (3 x channels floats).
struct BnBackward {
    BnLayout layout;
    BnReductionPlan plan;
    float epsilon = 0.0f;
    bool training = true;
    const void* dy = nullptr;
    const void* x = nullptr;
    const float* scale = nullptr;
    const float* mean = nullptr;
    const float* variance = nullptr;
    void* dx = nullptr;
    float* scaleBackprop = nullptr;
    float* offsetBackprop = nullptr;
    double* partialDy = nullptr;
    double* partialDyCentered = nullptr;
    float* coefficients = nullptr;
};

// Each launcher queues its kernels on `stream` (stopping at the first failed launch, whose error
// the caller reads with cuda::lastLaunchStatus) and returns false, with nothing queued, when the
// layout is empty.

/// Training: batch statistics (two passes over x), then y.
bool launchBnForwardTraining(cudaStream_t stream, BnElement type, const BnForward& args);
/// Inference: the given statistics copied to the four statistics outputs, then y.
bool launchBnForwardInference(cudaStream_t stream, BnElement type, const BnForward& args);
/// The gradients (one pass for the sums, then dx).
bool launchBnBackward(cudaStream_t stream, BnElement type, const BnBackward& args);
/// data[0, n) = value; false for n <= 0.
bool launchFillFloat(cudaStream_t stream, float* data, std::int64_t n, float value);

} // namespace tstudio::gpu
