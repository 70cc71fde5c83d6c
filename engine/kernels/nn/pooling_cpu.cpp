// CPU kernels of MaxPool, AvgPool, MaxPoolGrad and AvgPoolGrad (NHWC, and NCHW by transposing).
#define EIGEN_USE_THREADS

#include "kernels/nn/nn_kernels_internal.h"
#include "kernels/nn/pooling.h"

#include <unsupported/Eigen/CXX11/Tensor>

namespace tstudio::nn {

namespace {

using AvgTypes = HalfFloatDouble;

class MaxPoolOp : public NnKernel {
public:
    explicit MaxPoolOp(OpKernelConstruction& c) : NnKernel(c) { read(poolParams(c.node()), m_params); }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& input = ctx.input(0);
        auto g = poolGeometry(m_params, input.shape());
        if (!g)
            return g.error();
        return computeInNhwc(ctx, m_params.format, {&input}, g->outputShape(m_params.format), NhwcOutput::kOverwritten,
                             [&](const auto& in, Tensor& out) {
                                 if (out.numElements() == 0)
                                     return Status::ok();
                                 return dispatchDataType<RealTypes>(input.dtype(), [&](auto tag) {
                                     using T = typename decltype(tag)::type;
                                     PoolCpu<T>::maxPool(cpuDevice(ctx), *g, in[0]->template data<T>(), out.data<T>());
                                 });
                             });
    }

private:
    PoolParams m_params;
};

class AvgPoolOp : public NnKernel {
public:
    explicit AvgPoolOp(OpKernelConstruction& c) : NnKernel(c) { read(poolParams(c.node()), m_params); }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& input = ctx.input(0);
        auto g = avgPoolGeometry(m_params, input.shape());
        if (!g)
            return g.error();
        return computeInNhwc(ctx, m_params.format, {&input}, g->outputShape(m_params.format), NhwcOutput::kOverwritten,
                             [&](const auto& in, Tensor& out) {
                                 if (out.numElements() == 0)
                                     return Status::ok();
                                 return dispatchDataType<AvgTypes>(input.dtype(), [&](auto tag) {
                                     using T = typename decltype(tag)::type;
                                     PoolCpu<T>::avgPool(cpuDevice(ctx), *g, in[0]->template data<T>(), out.data<T>());
                                 });
                             });
    }

private:
    PoolParams m_params;
};

class MaxPoolGradOp : public MaxPoolGradKernelBase {
public:
    explicit MaxPoolGradOp(OpKernelConstruction& c) : MaxPoolGradKernelBase(c, "MaxPoolingGrad") {}

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& input = ctx.input(0);
        const Tensor& grad = ctx.input(2);
        auto g = geometry(ctx, "out_backprop");
        if (!g)
            return g.error();
        if (Status s = expectShape("grad", g->outputShape(m_params.format), grad.shape()); !s.isOk())
            return s;
        // orig_output is only checked: the maxima are found again in orig_input, as TensorFlow's CPU kernel does.
        // Windows that tile the input write every element of the result themselves.
        const NhwcOutput output = maxPoolGradWritesEverything(*g) ? NhwcOutput::kOverwritten : NhwcOutput::kZeroed;
        return computeInNhwc(ctx, m_params.format, {&input, &grad}, input.shape(), output,
                             [&](const auto& in, Tensor& out) {
                                 if (out.numElements() == 0 || grad.numElements() == 0)
                                     return Status::ok();
                                 return dispatchDataType<RealTypes>(input.dtype(), [&](auto tag) {
                                     using T = typename decltype(tag)::type;
                                     PoolCpu<T>::maxPoolGrad(cpuDevice(ctx), *g, in[0]->template data<T>(),
                                                             in[1]->template data<T>(), out.data<T>());
                                 });
                             });
    }
};

class AvgPoolGradOp : public NnKernel {
public:
    explicit AvgPoolGradOp(OpKernelConstruction& c) : NnKernel(c) { read(poolParams(c.node()), m_params); }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& grad = ctx.input(1);
        auto shapes = avgPoolGradShapes(m_params, ctx.input(0), grad);
        if (!shapes)
            return shapes.error();
        const PoolGeometry* g = &shapes->geometry;
        return computeInNhwc(
            ctx, m_params.format, {&grad}, shapes->input, NhwcOutput::kZeroed, [&](const auto& in, Tensor& out) {
                if (out.numElements() == 0 || grad.numElements() == 0)
                    return Status::ok();
                return dispatchDataType<AvgTypes>(grad.dtype(), [&](auto tag) {
                    using T = typename decltype(tag)::type;
                    PoolCpu<T>::avgPoolGrad(cpuDevice(ctx), *g, in[0]->template data<T>(), out.data<T>());
                });
            });
    }

private:
    PoolParams m_params;
};

} // namespace

Status registerPoolingKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15: MaxPool and MaxPoolGrad for TF_CALL_REAL_NUMBER_TYPES, AvgPool and
    // AvgPoolGrad for half, float and double.
    const auto real = dataTypes(RealTypes{});
    const auto avg = dataTypes(AvgTypes{});
    KernelAdder r(registry);
    r.add<MaxPoolOp>("MaxPool", real)
        .add<AvgPoolOp>("AvgPool", avg)
        .add<MaxPoolGradOp>("MaxPoolGrad", real)
        .add<AvgPoolGradOp>("AvgPoolGrad", avg);
    return r.status();
}

} // namespace tstudio::nn
