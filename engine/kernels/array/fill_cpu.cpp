// CPU kernels of Fill, ZerosLike and OnesLike.
#define EIGEN_USE_THREADS

#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"
#include "kernels/array/movement.h"

#include <unsupported/Eigen/CXX11/Tensor>

namespace tstudio::array {

namespace {

class FillOp : public OpKernel {
public:
    FillOp(OpKernelConstruction& construction, const Movement* movement) : OpKernel(construction), m_movement(*movement)
    {
    }
    Status compute(OpKernelContext& context) override
    {
        const Tensor& dims = context.input(0);
        const Tensor& value = context.input(1);
        if (dims.rank() != 1)
            return invalidArgumentError("dims must be a vector, got shape " + dims.shape().toString());
        if (value.rank() != 0)
            return invalidArgumentError("value must be a scalar, got shape " + value.shape().toString());
        auto shape = makeShape(dims);
        if (!shape)
            return shape.error();
        auto out = context.allocateOutput(0, *shape);
        if (!out)
            return out.error();
        return m_movement.fill(context, value, **out);
    }

private:
    const Movement& m_movement;
};

/// ZerosLike: the output is allocated zero-filled (empty strings for DT_STRING).
class ZerosLikeOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        auto out = context.allocateZeroedOutput(0, context.input(0).shape());
        return out ? Status::ok() : out.error();
    }
};

class OnesLikeOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        auto out = context.allocateOutput(0, input.shape());
        if (!out)
            return out.error();
        Tensor& result = **out;
        const auto& device = cpuDevice(context);
        return dispatchDataType<PodTypes>(input.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            if (result.numElements() > 0)
                result.flat<T>().device(device) = result.flat<T>().constant(T(1));
        });
    }
};

} // namespace

KernelFactory fillKernel(const Movement& movement)
{
    return kernelFactory<FillOp>(&movement);
}

KernelFactory zerosLikeKernel()
{
    return kernelFactory<ZerosLikeOp>();
}

Status registerFillKernels(KernelRegistry& registry)
{
    KernelAdder adder(registry);
    adder
        .addFactory(cpuDef("Fill", {{"T", allAndQuantizedDataTypes()}, {"index_type", indexDataTypes()}}),
                    fillKernel(hostMovement()))
        .add<ZerosLikeOp>(cpuDef("ZerosLike", {{"T", allDataTypes()}}))
        .add<OnesLikeOp>(cpuDef("OnesLike", {{"T", podDataTypes()}}));
    return adder.status();
}

} // namespace tstudio::array
