// GPU kernels of MaxPool, AvgPool, MaxPoolGrad and AvgPoolGrad: TensorFlow's checks (shared with
// the CPU kernels) and hand-written CUDA kernels that compute every element in the CPU kernels'
// order of operations, in NHWC and NCHW directly. MaxPoolGrad finds each window's first maximum,
// then gathers the gradients per input element, so the result is deterministic.
#include "kernels/nn/pooling_cuda.h"
#include "kernels/nn/conv_pool_cuda.h"
#include "kernels/nn/pool_shape.h"
#include "kernels/nn/pooling.h"

#include "devices/cuda/cuda_kernel.h"

namespace tstudio::nn {

namespace {

Expected<gpu::PoolElement> poolElement(DataType dtype)
{
    switch (dtype) {
    case tensorflow::DT_HALF: return gpu::PoolElement::kHalf;
    case tensorflow::DT_FLOAT: return gpu::PoolElement::kFloat;
    case tensorflow::DT_DOUBLE: return gpu::PoolElement::kDouble;
    default: return unexpected(internalError("GPU pooling kernel called for " + dataTypeString(dtype)));
    }
}

const void* devicePointer(const Tensor& t)
{
    return t.tensorData().data();
}

void* devicePointer(Tensor& t)
{
    return t.tensorData().data();
}

/// The status of a launcher call: false means it queued nothing although there was work.
Status launched(bool queued, const char* kernel)
{
    if (!queued)
        return internalError(std::string(kernel) + " was not launched");
    return cuda::lastLaunchStatus(kernel);
}

/// MaxPool and AvgPool: output (fully written) = the pooling of input 0.
template <bool kMax> class PoolGpuOp : public NnKernel {
public:
    explicit PoolGpuOp(OpKernelConstruction& c) : NnKernel(c) { read(poolParams(c.node()), m_params); }

    Status compute(OpKernelContext& ctx) override
    {
        auto device = cuda::gpuOf(ctx);
        if (!device)
            return device.error();
        const Tensor& input = ctx.input(0);
        auto g = kMax ? poolGeometry(m_params, input.shape()) : avgPoolGeometry(m_params, input.shape());
        if (!g)
            return g.error();
        const gpu::PoolShape shape = poolShapeOf(*g, m_params.format);
        if (shape.outputElements() == 0) {
            auto out = ctx.allocateOutput(0, g->outputShape(m_params.format));
            return out ? Status::ok() : out.error();
        }
        auto element = poolElement(input.dtype());
        if (!element)
            return element.error();
        auto out = Tensor::allocateUninitialized(ctx.allocator(), input.dtype(), g->outputShape(m_params.format));
        if (!out)
            return out.error();
        const cudaStream_t stream = (*device)->computeStream();
        const bool queued =
            kMax ? gpu::launchMaxPool(stream, shape, *element, devicePointer(input), devicePointer(*out))
                 : gpu::launchAvgPool(stream, shape, *element, devicePointer(input), devicePointer(*out));
        if (Status s = launched(queued, kMax ? "maxPoolKernel" : "avgPoolKernel"); !s.isOk())
            return s;
        return ctx.setOutput(0, std::move(*out));
    }

private:
    PoolParams m_params;
};

class MaxPoolGradGpuOp : public MaxPoolGradKernelBase {
public:
    explicit MaxPoolGradGpuOp(OpKernelConstruction& c) : MaxPoolGradKernelBase(c, "MaxPoolingGrad") {}

    Status compute(OpKernelContext& ctx) override
    {
        auto device = cuda::gpuOf(ctx);
        if (!device)
            return device.error();
        const Tensor& input = ctx.input(0);
        const Tensor& grad = ctx.input(2);
        auto g = geometry(ctx, "out_backprop");
        if (!g)
            return g.error();
        if (Status s = expectShape("grad", g->outputShape(m_params.format), grad.shape()); !s.isOk())
            return s;
        const gpu::PoolShape shape = poolShapeOf(*g, m_params.format);
        if (shape.inputElements() == 0 || shape.outputElements() == 0) {
            auto out = ctx.allocateZeroedOutput(0, input.shape()); // zeros: no gradient to route
            return out ? Status::ok() : out.error();
        }
        auto element = poolElement(input.dtype());
        if (!element)
            return element.error();
        // As the CPU kernel, the maxima are found again in orig_input; orig_output is only checked.
        auto argmax = Tensor::allocateUninitialized(ctx.allocator(), tensorflow::DT_INT64, grad.shape());
        if (!argmax)
            return argmax.error();
        auto out = Tensor::allocateUninitialized(ctx.allocator(), input.dtype(), input.shape());
        if (!out)
            return out.error();
        const cudaStream_t stream = (*device)->computeStream();
        auto* positions = reinterpret_cast<std::int64_t*>(devicePointer(*argmax));
        if (Status s = launched(gpu::launchMaxPoolArgmax(stream, shape, *element, devicePointer(input), positions),
                                "maxPoolArgmaxKernel");
            !s.isOk())
            return s;
        if (Status s = launched(
                gpu::launchMaxPoolGrad(stream, shape, *element, positions, devicePointer(grad), devicePointer(*out)),
                "maxPoolGradKernel");
            !s.isOk())
            return s;
        return ctx.setOutput(0, std::move(*out));
    }
};

class AvgPoolGradGpuOp : public NnKernel {
public:
    explicit AvgPoolGradGpuOp(OpKernelConstruction& c) : NnKernel(c) { read(poolParams(c.node()), m_params); }

    Status compute(OpKernelContext& ctx) override
    {
        auto device = cuda::gpuOf(ctx);
        if (!device)
            return device.error();
        const Tensor& grad = ctx.input(1);
        auto shapes = avgPoolGradShapes(m_params, ctx.input(0), grad); // orig_input_shape: host memory
        if (!shapes)
            return shapes.error();
        const gpu::PoolShape shape = poolShapeOf(shapes->geometry, m_params.format);
        if (shape.inputElements() == 0 || shape.outputElements() == 0) {
            auto out = ctx.allocateZeroedOutput(0, shapes->input);
            return out ? Status::ok() : out.error();
        }
        auto element = poolElement(grad.dtype());
        if (!element)
            return element.error();
        auto out = Tensor::allocateUninitialized(ctx.allocator(), grad.dtype(), shapes->input);
        if (!out)
            return out.error();
        if (Status s = launched(gpu::launchAvgPoolGrad((*device)->computeStream(), shape, *element, devicePointer(grad),
                                                       devicePointer(*out)),
                                "avgPoolGradKernel");
            !s.isOk())
            return s;
        return ctx.setOutput(0, std::move(*out));
    }

private:
    PoolParams m_params;
};

} // namespace

Status registerPoolingGpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers all four for half, float and double on the GPU; AvgPoolGrad keeps
    // orig_input_shape in host memory.
    const std::vector<DataType> types{tensorflow::DT_HALF, tensorflow::DT_FLOAT, tensorflow::DT_DOUBLE};
    KernelAdder r(registry);
    r.add<PoolGpuOp<true>>(gpuKernelDef("MaxPool", types))
        .add<PoolGpuOp<false>>(gpuKernelDef("AvgPool", types))
        .add<MaxPoolGradGpuOp>(gpuKernelDef("MaxPoolGrad", types))
        .add<AvgPoolGradGpuOp>(gpuKernelDef("AvgPoolGrad", types, {"orig_input_shape"}));
    return r.status();
}

} // namespace tstudio::nn
