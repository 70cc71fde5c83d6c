// The GPU fills of the Philox random ops (CUDA builds only): the same groups of outputs, from the
// same generator positions, as the CPU's FillPhiloxRandom, one group per loop step of a thread.
#pragma once

#include "kernels/random/philox_random.h"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tstudio::random::cuda {

enum class RealDistribution { kUniform, kNormal, kTruncatedNormal };
enum class RealType { kHalf, kFloat, kDouble };

/// data[0, n) from `distribution` over `gen` (half, float or double elements). n > 0.
void launchFillReal(cudaStream_t stream, RealDistribution distribution, RealType type, PhiloxRandom gen, void* data,
                    std::int64_t n);
/// data[0, n) uniform in [lo, hi) (lo < hi), int64 elements when `wide`, else int32. n > 0.
void launchFillUniformInt(cudaStream_t stream, bool wide, std::int64_t lo, std::int64_t hi, PhiloxRandom gen,
                          void* data, std::int64_t n);

} // namespace tstudio::random::cuda
