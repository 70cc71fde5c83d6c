// BiasAddGrad on the GPU: out_backprop summed over every dimension but the channel one, as a
// reduction of its [outer, channels, inner] view (accumulated in float for half).
#include "devices/cuda/cuda_kernel.h"
#include "framework/kernel_registry.h"
#include "kernels/nn/nn_kernel_util.h"
#include "kernels/reduction/reduce_runs_cuda.h"

namespace tstudio::nn {

namespace {

template <typename T> class BiasAddGradGpuOp : public NnKernel {
public:
    explicit BiasAddGradGpuOp(OpKernelConstruction& c) : NnKernel(c) { read(dataFormatAttr(c.node()), m_format); }

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        const Tensor& backprop = ctx.input(0);
        auto checked = checkBiasAddGradInput(backprop, m_format);
        if (!checked)
            return checked.error();
        const std::array<std::int64_t, 3>& dims = *checked;
        if (backprop.numElements() == 0) {
            // Zeros (filled on the stream), or nothing for zero channels.
            auto out = ctx.allocateZeroedOutput(0, TensorShape{dims[1]});
            return out ? Status::ok() : out.error();
        }
        auto out = Tensor::allocateUninitialized(ctx.allocator(), backprop.dtype(), TensorShape{dims[1]});
        if (!out)
            return out.error();
        using D = cuda::DeviceType<T>;
        // Runs [outer (reduced), channels (kept), inner (reduced)]; size-1 runs cost a trivial pass.
        std::vector<std::int64_t> runs{dims[0], dims[1], dims[2]};
        bool reduceFirst = true;
        if (dims[2] == 1)
            runs.pop_back();
        if (dims[0] == 1) {
            runs.erase(runs.begin());
            reduceFirst = false;
        }
        const D* in = reinterpret_cast<const D*>(backprop.data<T>());
        D* result = reinterpret_cast<D*>(out->template data<T>());
        if (runs.size() == 1) {
            // Nothing to add up: a copy of the input.
            const cudaError_t error =
                cudaMemcpyAsync(result, in, backprop.totalBytes(), cudaMemcpyDeviceToDevice, (*gpu)->computeStream());
            if (Status s = cuda::cudaStatus(error, "cudaMemcpyAsync"); !s.isOk())
                return s;
        } else if (Status s = cuda::reduceRunsGpu<D>(cuda::ReduceOp::kSum, false, in, result, runs, reduceFirst,
                                                     ctx.allocator(), (*gpu)->computeStream(), op().c_str());
                   !s.isOk()) {
            return s;
        }
        return ctx.setOutput(0, std::move(*out));
    }

private:
    DataFormat m_format = DataFormat::kNhwc;
};

} // namespace

Status registerBiasAddGradGpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers half, float and double on GPU (bias_op.cc).
    KernelAdder r(registry);
    r.add<BiasAddGradGpuOp<Eigen::half>>(KernelDef{"BiasAddGrad", "GPU", {{"T", {tensorflow::DT_HALF}}}, {}})
        .add<BiasAddGradGpuOp<float>>(KernelDef{"BiasAddGrad", "GPU", {{"T", {tensorflow::DT_FLOAT}}}, {}})
        .add<BiasAddGradGpuOp<double>>(KernelDef{"BiasAddGrad", "GPU", {{"T", {tensorflow::DT_DOUBLE}}}, {}});
    return r.status();
}

} // namespace tstudio::nn
