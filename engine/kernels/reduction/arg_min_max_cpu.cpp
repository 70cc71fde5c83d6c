// ArgMax's and ArgMin's CPU kernels.
#define EIGEN_USE_THREADS
#include "framework/kernel_registry.h"
#include "framework/op_kernel.h"
#include "kernels/reduction/arg_min_max.h"
#include "kernels/reduction/reduction_kernels.h"
#include "kernels/reduction/reduction_op_cpu.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <string>
#include <vector>

namespace tstudio::reduction {

Expected<ArgMinMaxShape> argMinMaxShape(const TensorShape& shape, const Tensor& dimension)
{
    if (dimension.rank() != 0) {
        return unexpected(invalidArgumentError("dim must be a scalar, but received tensor of shape: " +
                                               dimension.shape().toString()));
    }
    std::int64_t dim = 0;
    if (dimension.dtype() == tensorflow::DT_INT32)
        dim = dimension.scalar<std::int32_t>();
    else if (dimension.dtype() == tensorflow::DT_INT64)
        dim = dimension.scalar<std::int64_t>();
    else
        return unexpected(
            invalidArgumentError("dimension must be int32 or int64, not " + dataTypeString(dimension.dtype())));
    const int rank = shape.rank();
    const std::int64_t axis = dim < 0 ? dim + rank : dim;
    if (axis < 0 || axis >= rank) {
        return unexpected(invalidArgumentError("Expected dimension in the range [" + std::to_string(-rank) + ", " +
                                               std::to_string(rank) + "), but got " + std::to_string(dim)));
    }
    if (shape.dim(static_cast<int>(axis)) == 0) {
        return unexpected(
            invalidArgumentError("Reduction axis " + std::to_string(axis) + " is empty in shape " + shape.toString()));
    }
    ArgMinMaxShape result;
    result.axisSize = shape.dim(static_cast<int>(axis));
    std::vector<std::int64_t> outDims;
    for (int i = 0; i < rank; ++i) {
        if (i == axis)
            continue;
        outDims.push_back(shape.dim(i));
        (i < axis ? result.outer : result.inner) *= shape.dim(i);
    }
    result.output = TensorShape(outDims);
    return result;
}

Expected<DataType> argMinMaxOutputType(const tensorflow::NodeDef& node)
{
    auto outputType = attrType(node, "output_type");
    if (!outputType)
        return unexpected(outputType.error());
    if (*outputType != tensorflow::DT_INT32 && *outputType != tensorflow::DT_INT64)
        return unexpected(
            invalidArgumentError("output_type must be int32 or int64, not " + dataTypeString(*outputType)));
    return *outputType;
}

namespace {

/// input: T, dimension: Tidx (a scalar) -> output: output_type (int32 or int64), the input's
/// shape without that dimension.
template <typename T, bool kMax> class ArgMinMaxOp : public OpKernel {
public:
    explicit ArgMinMaxOp(OpKernelConstruction& construction) : OpKernel(construction)
    {
        auto outputType = argMinMaxOutputType(construction.node());
        if (!outputType)
            m_attrStatus = outputType.error();
        else
            m_outputType = *outputType;
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_attrStatus.isOk())
            return m_attrStatus;
        const Tensor& input = ctx.input(0);
        auto shape = argMinMaxShape(input.shape(), ctx.input(1));
        if (!shape)
            return shape.error();
        auto out = ctx.allocateOutput(0, shape->output);
        if (!out)
            return out.error();
        if ((*out)->numElements() == 0)
            return Status::ok();
        const std::int64_t outer = shape->outer, inner = shape->inner;
        const Eigen::ThreadPoolDevice& d = *ctx.device().eigenCpuDevice();
        const ConstShapedTensor<T, 3> in(input.data<T>(), outer, shape->axisSize, inner);
        if (m_outputType == tensorflow::DT_INT32) {
            ArgMinMaxFunctor<Eigen::ThreadPoolDevice, T, std::int32_t, kMax>()(
                d, in, ShapedTensor<std::int32_t, 2>((*out)->template data<std::int32_t>(), outer, inner));
        } else {
            ArgMinMaxFunctor<Eigen::ThreadPoolDevice, T, std::int64_t, kMax>()(
                d, in, ShapedTensor<std::int64_t, 2>((*out)->template data<std::int64_t>(), outer, inner));
        }
        return Status::ok();
    }

private:
    Status m_attrStatus;
    DataType m_outputType = tensorflow::DT_INT64;
};

template <typename... Ts> Status registerArgTypes(KernelRegistry& registry, TypeList<Ts...>)
{
    Status status;
    auto add = [&](auto tag) {
        using T = typename decltype(tag)::type;
        const std::vector<std::pair<std::string, std::vector<DataType>>> constraints{
            {"T", {kDataTypeOf<T>}},
            {"Tidx", {tensorflow::DT_INT32, tensorflow::DT_INT64}},
            {"output_type", {tensorflow::DT_INT32, tensorflow::DT_INT64}}};
        if (status.isOk())
            status = registry.add<ArgMinMaxOp<T, true>>(KernelDef{"ArgMax", "CPU", constraints, {"dimension"}});
        if (status.isOk())
            status = registry.add<ArgMinMaxOp<T, false>>(KernelDef{"ArgMin", "CPU", constraints, {"dimension"}});
    };
    (add(TypeTag<Ts>{}), ...);
    return status;
}

} // namespace

Status registerArgMinMaxCpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers the real number types (argmax_op.cc).
    return registerArgTypes(registry, RealNumberKernelTypes{});
}

} // namespace tstudio::reduction
