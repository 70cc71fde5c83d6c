// CPU kernel of MaxPoolGradGrad (the gradient of MaxPoolGrad with respect to its gradient input):
// for each window of MaxPool, the value of `grad` (shaped as orig_input) at the window's maximum,
// giving a tensor shaped as orig_output. NHWC, and NCHW by transposing (as MaxPoolGrad here).
#define EIGEN_USE_THREADS

#include "kernels/nn/nn_kernels_internal.h"
#include "kernels/nn/pooling.h"

#include <unsupported/Eigen/CXX11/Tensor>

namespace tstudio::nn {

namespace {

class MaxPoolGradGradOp : public MaxPoolGradKernelBase {
public:
    explicit MaxPoolGradGradOp(OpKernelConstruction& c) : MaxPoolGradKernelBase(c, "MaxPoolingGradGrad") {}

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& input = ctx.input(0);
        const Tensor& output = ctx.input(1);
        const Tensor& grad = ctx.input(2);
        auto g = geometry(ctx, "out_grad_backprop");
        if (!g)
            return g.error();
        // grad is shaped as orig_input (TensorFlow 1.15 does not check and reads out of bounds).
        if (Status s = expectShape("grad", input.shape(), grad.shape()); !s.isOk())
            return s;
        const TensorShape outShape = g->outputShape(m_params.format);
        return computeInNhwc(ctx, m_params.format, {&input, &output, &grad}, outShape, NhwcOutput::kOverwritten,
                             [&](const auto& in, Tensor& out) {
                                 if (out.numElements() == 0)
                                     return Status::ok();
                                 return dispatchDataType<RealTypes>(input.dtype(), [&](auto tag) {
                                     using T = typename decltype(tag)::type;
                                     PoolCpu<T>::maxPoolGradGrad(cpuDevice(ctx), *g, in[0]->template data<T>(),
                                                                 in[1]->template data<T>(), in[2]->template data<T>(),
                                                                 out.data<T>());
                                 });
                             });
    }
};

} // namespace

Status registerMaxPoolGradGradKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers the CPU kernel for TF_CALL_REAL_NUMBER_TYPES, as MaxPoolGrad.
    KernelAdder r(registry);
    r.add<MaxPoolGradGradOp>("MaxPoolGradGrad", dataTypes(RealTypes{}));
    return r.status();
}

} // namespace tstudio::nn
