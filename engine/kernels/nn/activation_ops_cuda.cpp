// GPU kernels of the activations Relu, Relu6, Elu, Selu, LeakyRelu, Softplus, Softsign and their *Grad
// ops for half, float and double (TensorFlow 1.15's TF_CALL_GPU_NUMBER_TYPES), validated as the CPU's.
#define EIGEN_USE_THREADS
#include "kernels/nn/activation_ops_cuda.h"

#include "framework/node_attrs.h"
#include "kernels/math/cwise_kernels_cuda.h"
#include "kernels/nn/nn_kernel_util.h"

#include <string>
#include <utility>

namespace tstudio::nn {

namespace {

using gpu::Activation;

/// features -> activations (Grad = false), or (gradients, features or outputs) -> backprops with
/// both inputs of the same shape, as TensorFlow's BinaryElementWiseOp checks (Grad = true).
template <bool Grad> class ActivationGpuKernel final : public NnKernel {
public:
    ActivationGpuKernel(OpKernelConstruction& c, Activation activation) : NnKernel(c), m_activation(activation)
    {
        if (activation == Activation::kLeakyRelu)
            read(attrFloat(c.node(), "alpha"), m_alpha);
    }

    Status compute(OpKernelContext& ctx) override
    {
        auto device = cuda::gpuOf(ctx);
        if (!device)
            return device.error();
        const Tensor& first = ctx.input(0);
        if constexpr (Grad) {
            if (!(first.shape() == ctx.input(1).shape()))
                return sameShapeError(*this, first.shape(), ctx.input(1).shape());
        }
        auto out = gpu_cwise::uninitializedOutput(*this, ctx, 0, first.shape());
        if (!out)
            return out.error();
        const std::int64_t n = first.numElements();
        if (n > 0) {
            const cudaStream_t stream = (*device)->computeStream();
            Status status = dispatchDataType<HalfFloatDouble>(first.dtype(), [&](auto tag) {
                using T = typename decltype(tag)::type;
                if constexpr (Grad)
                    gpu::launchActivationGrad<T>(stream, m_activation, out->template data<T>(), first.data<T>(),
                                                 ctx.input(1).data<T>(), n, m_alpha);
                else
                    gpu::launchActivation<T>(stream, m_activation, out->template data<T>(), first.data<T>(), n,
                                             m_alpha);
            });
            if (!status.isOk())
                return status;
            if (Status s = cuda::lastLaunchStatus(op()); !s.isOk())
                return s;
        }
        return ctx.setOutput(0, std::move(*out));
    }

private:
    Activation m_activation;
    float m_alpha = 0.2f;
};

template <bool Grad> Status addActivation(KernelRegistry& registry, std::string op, Activation activation)
{
    return registry.registerKernel(gpu_cwise::gpuKernelDef(std::move(op), dataTypes(HalfFloatDouble{})),
                                   [activation](OpKernelConstruction& c) -> Expected<std::unique_ptr<OpKernel>> {
                                       auto kernel = std::make_unique<ActivationGpuKernel<Grad>>(c, activation);
                                       if (!kernel->constructionStatus().isOk())
                                           return unexpected(kernel->constructionStatus());
                                       return std::unique_ptr<OpKernel>(std::move(kernel));
                                   });
}

} // namespace

Status registerActivationGpuKernels(KernelRegistry& registry)
{
    const std::pair<const char*, Activation> activations[] = {
        {"Relu", Activation::kRelu},         {"Relu6", Activation::kRelu6},         {"Elu", Activation::kElu},
        {"Selu", Activation::kSelu},         {"LeakyRelu", Activation::kLeakyRelu}, {"Softplus", Activation::kSoftplus},
        {"Softsign", Activation::kSoftsign},
    };
    for (const auto& [name, activation] : activations) {
        if (Status s = addActivation<false>(registry, name, activation); !s.isOk())
            return s;
        if (Status s = addActivation<true>(registry, std::string(name) + "Grad", activation); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio::nn
