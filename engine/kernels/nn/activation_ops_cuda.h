// The GPU launchers of the activations and their gradients (activation_ops_cuda.cu), for the host
// kernels in activation_ops_cuda.cpp. C++17: nvcc compiles it.
#pragma once

#include <Eigen/Core>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace tstudio::nn::gpu {

/// The element-wise activations with a GPU kernel; each has a gradient of the same name + "Grad".
enum class Activation { kRelu, kRelu6, kElu, kSelu, kLeakyRelu, kSoftplus, kSoftsign };

/// out[i] = activation(x[i]) for i < n (n > 0), queued on `stream`; `alpha` is LeakyRelu's.
/// T: Eigen::half, float or double.
template <typename T>
void launchActivation(cudaStream_t stream, Activation activation, T* out, const T* x, std::int64_t n, float alpha);

/// out[i] = activation's gradient from gradients[i] and x[i] (the forward features, or the forward
/// outputs for Elu and Selu) for i < n (n > 0), queued on `stream`.
template <typename T>
void launchActivationGrad(cudaStream_t stream, Activation activation, T* out, const T* gradients, const T* x,
                          std::int64_t n, float alpha);

} // namespace tstudio::nn::gpu
