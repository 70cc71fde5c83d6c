// registerTrainingGpuKernels: the dense Apply* and ResourceApply* optimizer ops on the GPU: the
// kernels of apply_ops.h (the CPU's checks and words) in both forms (apply_forms.h), with updates
// launched on the GPU (apply_ops_cuda.cu) and variable copies made there (gpuCopy). Half, float and
// double, as TensorFlow 1.15 registers them on the GPU; it has no GPU Ftrl, nor do we.
#include "devices/cuda/cuda_kernel.h"
#include "kernels/gpu_kernels.h"
#include "kernels/state/state_kernels_cuda.h"
#include "kernels/training/apply_forms.h"
#include "kernels/training/apply_ops_cuda.h"

#include <type_traits>

namespace tstudio {

namespace {

using training::cuda::ApplyType;

template <typename T> constexpr ApplyType applyTypeOf()
{
    if constexpr (std::is_same_v<T, Eigen::half>)
        return ApplyType::kHalf;
    else if constexpr (std::is_same_v<T, float>)
        return ApplyType::kFloat;
    else
        return ApplyType::kDouble;
}

void* at(Tensor& t)
{
    return t.tensorData().data();
}
const void* at(const Tensor& t)
{
    return t.tensorData().data();
}

/// The GPU's update functions for the Apply* kernels: one launch on the compute stream each.
template <typename T> struct GpuApplyUpdates {
    /// Runs `launch(stream, type, n)` for the n elements of `var` (nothing for an empty variable).
    template <typename Launch>
    static Status run(OpKernelContext& ctx, const Tensor& var, const char* op, Launch&& launch)
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        if (var.numElements() == 0)
            return Status::ok();
        launch((*gpu)->computeStream(), applyTypeOf<T>(), var.numElements());
        return cuda::lastLaunchStatus(op);
    }

    static Status gradientDescent(OpKernelContext& ctx, Tensor& var, const Tensor& alpha, const Tensor& delta)
    {
        return run(ctx, var, "ApplyGradientDescent", [&](cudaStream_t s, ApplyType type, std::int64_t n) {
            training::cuda::launchApplyGradientDescent(s, type, n, at(var), at(alpha), at(delta));
        });
    }
    static Status momentum(OpKernelContext& ctx, Tensor& var, Tensor& accum, const Tensor& lr, const Tensor& grad,
                           const Tensor& momentum, bool useNesterov)
    {
        return run(ctx, var, "ApplyMomentum", [&](cudaStream_t s, ApplyType type, std::int64_t n) {
            training::cuda::launchApplyMomentum(s, type, n, at(var), at(accum), at(lr), at(grad), at(momentum),
                                                useNesterov);
        });
    }
    static Status adam(OpKernelContext& ctx, Tensor& var, Tensor& m, Tensor& v, const Tensor& beta1Power,
                       const Tensor& beta2Power, const Tensor& lr, const Tensor& beta1, const Tensor& beta2,
                       const Tensor& epsilon, const Tensor& grad, bool useNesterov)
    {
        return run(ctx, var, "ApplyAdam", [&](cudaStream_t s, ApplyType type, std::int64_t n) {
            training::cuda::launchApplyAdam(s, type, n, at(var), at(m), at(v), at(beta1Power), at(beta2Power), at(lr),
                                            at(beta1), at(beta2), at(epsilon), at(grad), useNesterov);
        });
    }
    static Status rmsProp(OpKernelContext& ctx, Tensor& var, Tensor& ms, Tensor& mom, const Tensor& lr,
                          const Tensor& rho, const Tensor& momentum, const Tensor& epsilon, const Tensor& grad)
    {
        return run(ctx, var, "ApplyRMSProp", [&](cudaStream_t s, ApplyType type, std::int64_t n) {
            training::cuda::launchApplyRmsProp(s, type, n, at(var), at(ms), at(mom), at(lr), at(rho), at(momentum),
                                               at(epsilon), at(grad));
        });
    }
    static Status centeredRmsProp(OpKernelContext& ctx, Tensor& var, Tensor& mg, Tensor& ms, Tensor& mom,
                                  const Tensor& lr, const Tensor& rho, const Tensor& momentum, const Tensor& epsilon,
                                  const Tensor& grad)
    {
        return run(ctx, var, "ApplyCenteredRMSProp", [&](cudaStream_t s, ApplyType type, std::int64_t n) {
            training::cuda::launchApplyCenteredRmsProp(s, type, n, at(var), at(mg), at(ms), at(mom), at(lr), at(rho),
                                                       at(momentum), at(epsilon), at(grad));
        });
    }
    static Status adagrad(OpKernelContext& ctx, Tensor& var, Tensor& accum, const Tensor& lr, const Tensor& grad,
                          bool updateSlots)
    {
        return run(ctx, var, "ApplyAdagrad", [&](cudaStream_t s, ApplyType type, std::int64_t n) {
            training::cuda::launchApplyAdagrad(s, type, n, at(var), at(accum), at(lr), at(grad), updateSlots);
        });
    }
    static Status adadelta(OpKernelContext& ctx, Tensor& var, Tensor& accum, Tensor& accumUpdate, const Tensor& lr,
                           const Tensor& rho, const Tensor& epsilon, const Tensor& grad)
    {
        return run(ctx, var, "ApplyAdadelta", [&](cudaStream_t s, ApplyType type, std::int64_t n) {
            training::cuda::launchApplyAdadelta(s, type, n, at(var), at(accum), at(accumUpdate), at(lr), at(rho),
                                                at(epsilon), at(grad));
        });
    }
    /// Not registered on the GPU (its checks read the hyper-parameters on the host).
    static Status ftrl(OpKernelContext&, Tensor&, Tensor&, Tensor&, const Tensor&, const Tensor&, const Tensor&,
                       const Tensor&, const Tensor&)
    {
        return unimplementedError("ApplyFtrl has no GPU kernel");
    }
};

/// The GPU as a device of the Apply* forms.
struct GpuApplyDevice {
    template <typename T> using Updates = GpuApplyUpdates<T>;
    static const DeviceCopy& copier() { return gpuCopy(); }
};

template <typename T> using GpuRefApplyKernel = training::RefApplyKernel<T, GpuApplyDevice>;
template <typename T> using GpuResourceApplyKernel = training::ResourceApplyKernel<T, GpuApplyDevice>;

} // namespace

Status registerTrainingGpuKernels(KernelRegistry& registry)
{
    if (Status s = training::addApplyKernels<GpuRefApplyKernel>(registry, "GPU", "Apply",
                                                                /*variablesInHostMemory=*/false, /*withFtrl=*/false);
        !s.isOk())
        return s;
    return training::addApplyKernels<GpuResourceApplyKernel>(registry, "GPU", "ResourceApply",
                                                             /*variablesInHostMemory=*/true, /*withFtrl=*/false);
}

} // namespace tstudio
