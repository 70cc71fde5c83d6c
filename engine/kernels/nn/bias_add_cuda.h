// The GPU launcher of BiasAdd (bias_add_cuda.cu), for the host kernel in bias_add_cuda.cpp. C++17.
#pragma once

#include <Eigen/Core>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace tstudio::nn::gpu {

/// out[o, c, i] = value[o, c, i] + bias[c] over a value viewed as [outer, channels, inner] with
/// n = outer * channels * inner > 0 elements, queued on `stream`. T: Eigen::half, float or double.
template <typename T>
void launchBiasAdd(cudaStream_t stream, T* out, const T* value, const T* bias, std::int64_t n, std::int64_t channels,
                   std::int64_t inner);

} // namespace tstudio::nn::gpu
