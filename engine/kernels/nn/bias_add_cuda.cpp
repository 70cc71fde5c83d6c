// GPU kernels of BiasAdd (NHWC and NCHW) and BiasAddV1 for half, float and double (TensorFlow 1.15's
// TF_CALL_GPU_NUMBER_TYPES), with the CPU kernel's checks and texts.
#define EIGEN_USE_THREADS
#include "kernels/nn/bias_add_cuda.h"

#include "kernels/math/cwise_kernels_cuda.h"
#include "kernels/nn/nn_kernel_util.h"

namespace tstudio::nn {

namespace {

class BiasAddGpuKernel final : public NnKernel {
public:
    explicit BiasAddGpuKernel(OpKernelConstruction& c) : NnKernel(c) { read(dataFormatAttr(c.node()), m_format); }

    Status compute(OpKernelContext& ctx) override
    {
        auto device = cuda::gpuOf(ctx);
        if (!device)
            return device.error();
        const Tensor& value = ctx.input(0);
        const Tensor& bias = ctx.input(1);
        auto checked = checkBiasAddInputs(value, bias, m_format);
        if (!checked)
            return checked.error();
        const std::array<std::int64_t, 3>& dims = *checked;
        auto out = gpu_cwise::uninitializedOutput(*this, ctx, 0, value.shape());
        if (!out)
            return out.error();
        const std::int64_t n = value.numElements();
        if (n > 0) {
            Status status = dispatchDataType<HalfFloatDouble>(value.dtype(), [&](auto tag) {
                using T = typename decltype(tag)::type;
                gpu::launchBiasAdd<T>((*device)->computeStream(), out->template data<T>(), value.data<T>(),
                                      bias.data<T>(), n, dims[1], dims[2]);
            });
            if (!status.isOk())
                return status;
            if (Status s = cuda::lastLaunchStatus(op()); !s.isOk())
                return s;
        }
        return ctx.setOutput(0, std::move(*out));
    }

private:
    DataFormat m_format = DataFormat::kNhwc;
};

} // namespace

Status registerBiasAddGpuKernels(KernelRegistry& registry)
{
    const auto types = dataTypes(HalfFloatDouble{});
    return gpu_cwise::firstError({
        addKernel<BiasAddGpuKernel>(registry, gpu_cwise::gpuKernelDef("BiasAdd", types)),
        addKernel<BiasAddGpuKernel>(registry, gpu_cwise::gpuKernelDef("BiasAddV1", types)),
    });
}

} // namespace tstudio::nn
