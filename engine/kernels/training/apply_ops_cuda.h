// The launchers of the GPU optimizer updates (apply_ops_cuda.cu), callable from host code. Every
// pointer is GPU memory: the variables and slots [n] updated in place, the gradient [n], and each
// hyper-parameter a one-element tensor read by the kernel (TensorFlow's GPU kernels read them on
// the device too, so no step waits for the host). n > 0.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tstudio::training::cuda {

enum class ApplyType { kHalf, kFloat, kDouble };

/// var -= grad * lr.
void launchApplyGradientDescent(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, const void* lr,
                                const void* grad);
/// accum = accum * momentum + grad; var -= accum * lr (Nesterov: var -= grad * lr + accum * momentum * lr).
void launchApplyMomentum(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* accum, const void* lr,
                         const void* grad, const void* momentum, bool useNesterov);
/// Adam with the bias correction folded into the step size (apply_functors.h).
void launchApplyAdam(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* m, void* v,
                     const void* beta1Power, const void* beta2Power, const void* lr, const void* beta1,
                     const void* beta2, const void* epsilon, const void* grad, bool useNesterov);
void launchApplyRmsProp(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* ms, void* mom,
                        const void* lr, const void* rho, const void* momentum, const void* epsilon, const void* grad);
void launchApplyCenteredRmsProp(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* mg, void* ms,
                                void* mom, const void* lr, const void* rho, const void* momentum, const void* epsilon,
                                const void* grad);
void launchApplyAdagrad(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* accum, const void* lr,
                        const void* grad, bool updateSlots);
void launchApplyAdadelta(cudaStream_t stream, ApplyType type, std::int64_t n, void* var, void* accum, void* accumUpdate,
                         const void* lr, const void* rho, const void* epsilon, const void* grad);

} // namespace tstudio::training::cuda
