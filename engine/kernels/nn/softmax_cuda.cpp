// Softmax and LogSoftmax GPU kernels, and registerSoftmaxGpuKernels (which also registers the
// cross-entropy and BiasAddGrad GPU kernels of xent_cuda.cpp and bias_add_grad_cuda.cpp).
#include "kernels/nn/softmax_cuda.h"
#include "devices/cuda/cuda_kernel.h"
#include "framework/kernel_registry.h"
#include "kernels/gpu_kernels.h"
#include "kernels/reduction/reduce_runs_cuda.h"

#include <string>
#include <vector>

namespace tstudio {

namespace nn {
Status registerXentGpuKernels(KernelRegistry& registry);        // xent_cuda.cpp
Status registerBiasAddGradGpuKernels(KernelRegistry& registry); // bias_add_grad_cuda.cpp
} // namespace nn

namespace {

/// logits: T of rank >= 1 -> its softmax (or log-softmax) along the last axis.
template <typename T, bool kLog> class SoftmaxGpuOp : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        const Tensor& logits = ctx.input(0);
        if (logits.rank() < 1)
            return invalidArgumentError("logits must have >= 1 dimension, got " + logits.shape().toString());
        auto out = Tensor::allocateUninitialized(ctx.allocator(), logits.dtype(), logits.shape());
        if (!out)
            return out.error();
        if (logits.numElements() > 0) {
            using D = cuda::DeviceType<T>;
            const std::int64_t classes = logits.shape().dim(logits.rank() - 1);
            const cudaError_t error = nn::launchSoftmax<D>(
                reinterpret_cast<const D*>(logits.data<T>()), reinterpret_cast<D*>(out->template data<T>()),
                logits.numElements() / classes, classes, kLog, (*gpu)->computeStream());
            if (Status s = cuda::cudaStatus(error, op() + " kernel launch"); !s.isOk())
                return s;
        }
        return ctx.setOutput(0, std::move(*out));
    }
};

template <typename T, bool kLog> Status addSoftmax(KernelRegistry& registry, const std::string& op)
{
    return registry.add<SoftmaxGpuOp<T, kLog>>(KernelDef{op, "GPU", {{"T", {kDataTypeOf<T>}}}, {}});
}

} // namespace

Status registerSoftmaxGpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 (softmax_op_gpu.cu.cc): Softmax for half, float and double; LogSoftmax for
    // half and float only.
    for (auto add : {addSoftmax<Eigen::half, false>, addSoftmax<float, false>, addSoftmax<double, false>}) {
        if (Status s = add(registry, "Softmax"); !s.isOk())
            return s;
    }
    for (auto add : {addSoftmax<Eigen::half, true>, addSoftmax<float, true>}) {
        if (Status s = add(registry, "LogSoftmax"); !s.isOk())
            return s;
    }
    if (Status s = nn::registerXentGpuKernels(registry); !s.isOk())
        return s;
    return nn::registerBiasAddGradGpuKernels(registry);
}

} // namespace tstudio
