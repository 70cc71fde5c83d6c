// CPU kernels of BiasAdd, BiasAddV1 and BiasAddGrad (NHWC: bias on the last dimension; NCHW: on
// dimension 1), for TensorFlow 1.15's TF_CALL_NUMBER_TYPES.
#define EIGEN_USE_THREADS

#include "kernels/nn/bias_add_functor.h"
#include "kernels/nn/nn_kernel_util.h"
#include "kernels/nn/nn_kernels_internal.h"

namespace tstudio::nn {

namespace {

class BiasAddOp : public NnKernel {
public:
    explicit BiasAddOp(OpKernelConstruction& c) : NnKernel(c) { read(dataFormatAttr(c.node()), m_format); }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& value = ctx.input(0);
        const Tensor& bias = ctx.input(1);
        auto checked = checkBiasAddInputs(value, bias, m_format);
        if (!checked)
            return checked.error();
        const std::array<std::int64_t, 3>& dims = *checked;
        auto out = ctx.allocateOutput(0, value.shape());
        if (!out)
            return out.error();
        if (value.numElements() == 0)
            return Status::ok();
        return dispatchDataType<NumberTypes>(value.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            BiasAddFunctor<Eigen::ThreadPoolDevice, T>()(cpuDevice(ctx), value.shaped<T, 3>(dims), bias.flat<T>(),
                                                         (*out)->template shaped<T, 3>(dims));
        });
    }

private:
    DataFormat m_format = DataFormat::kNhwc;
};

class BiasAddGradOp : public NnKernel {
public:
    explicit BiasAddGradOp(OpKernelConstruction& c) : NnKernel(c) { read(dataFormatAttr(c.node()), m_format); }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& backprop = ctx.input(0);
        auto checked = checkBiasAddGradInput(backprop, m_format);
        if (!checked)
            return checked.error();
        const std::array<std::int64_t, 3>& dims = *checked;
        auto out = ctx.allocateOutput(0, TensorShape{dims[1]});
        if (!out)
            return out.error();
        if (backprop.numElements() == 0) {
            return (*out)->setZero(); // a sum over nothing (or nothing, for zero channels)
        }
        return dispatchDataType<NumberTypes>(backprop.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            BiasAddGradFunctor<Eigen::ThreadPoolDevice, T, AccumulatorT<T>>()(
                cpuDevice(ctx), backprop.shaped<T, 3>(dims), (*out)->template flat<T>());
        });
    }

private:
    DataFormat m_format = DataFormat::kNhwc;
};

} // namespace

Status registerBiasKernels(KernelRegistry& registry)
{
    const auto types = dataTypes(NumberTypes{});
    KernelAdder r(registry);
    r.add<BiasAddOp>("BiasAdd", types).add<BiasAddOp>("BiasAddV1", types).add<BiasAddGradOp>("BiasAddGrad", types);
    return r.status();
}

} // namespace tstudio::nn
