// CPU kernels of Gather, GatherV2 (with batch_dims) and OneHot.
#define EIGEN_USE_THREADS

#include "framework/node_attrs.h"
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"
#include "kernels/array/gather.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <limits>

namespace tstudio::array {

namespace {

/// TensorFlow's SliceDebugString: the multi-index of flat element `flat` of `shape`, "[1,2]"
/// ("" for a scalar, "[7]" for a vector).
std::string sliceDebugString(const TensorShape& shape, std::int64_t flat)
{
    const int rank = shape.rank();
    if (rank == 0)
        return "";
    std::vector<std::int64_t> index(static_cast<std::size_t>(rank));
    for (int d = rank - 1; d >= 0; --d) {
        const std::int64_t size = shape.dim(d);
        index[static_cast<std::size_t>(d)] = size > 0 ? flat % size : 0;
        flat = size > 0 ? flat / size : 0;
    }
    return bracketJoin(index);
}

/// Gather (axis 0) and GatherV2 (axis input, batch_dims attr), as TensorFlow's GatherOp. An index
/// outside [0, params.shape[axis]) is an error on the CPU, as in TensorFlow.
class GatherOp : public ArrayKernel {
public:
    explicit GatherOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        if (findAttr(node(), "batch_dims") != nullptr)
            read(attrInt(node(), "batch_dims"), m_batchDims);
    }
    Status compute(OpKernelContext& context) override
    {
        const Tensor& params = context.input(0);
        const Tensor& indices = context.input(1);
        auto plan = planGather(params, indices, context.numInputs() == 3 ? &context.input(2) : nullptr, m_batchDims);
        if (!plan)
            return plan.error();
        const GatherShape& shape = plan->shape;
        const std::int64_t limit = shape.limit;
        const std::int64_t n = indices.numElements();
        auto out = context.allocateOutput(0, plan->outputShape);
        if (!out)
            return out.error();
        // TensorFlow looks at the indices only when there is something to copy.
        if ((*out)->numElements() == 0)
            return Status::ok();
        const std::vector<std::int64_t> idx = indexValues(indices);
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t v = idx[static_cast<std::size_t>(i)];
            if (v < 0 || v >= limit)
                return invalidArgumentError("indices" + sliceDebugString(indices.shape(), i) + " = " +
                                            std::to_string(v) + " is not in [0, " + std::to_string(limit) + ")");
        }
        const auto& device = cpuDevice(context);
        Tensor& result = **out;
        return dispatchByElementBytes(params.dtype(), [&](auto tag) {
            using E = typename decltype(tag)::type;
            GatherFunctor<Eigen::ThreadPoolDevice, E>()(device, shape, elementsAs<E>(params), idx.data(),
                                                        mutableElementsAs<E>(result));
        });
    }

private:
    std::int64_t m_batchDims = 0;
};

class OneHotOp : public ArrayKernel {
public:
    explicit OneHotOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        read(attrInt(node(), "axis"), m_axis);
    }
    Status compute(OpKernelContext& context) override
    {
        const Tensor& indices = context.input(0);
        const Tensor& on = context.input(2);
        const Tensor& off = context.input(3);
        auto plan = planOneHot(m_axis, indices, context.input(1), on, off);
        if (!plan)
            return plan.error();
        auto out = context.allocateOutput(0, plan->outputShape);
        if (!out)
            return out.error();
        if ((*out)->numElements() == 0)
            return Status::ok();
        std::vector<std::int64_t> idx;
        idx.reserve(static_cast<std::size_t>(indices.numElements()));
        if (indices.dtype() == tensorflow::DT_UINT8) {
            for (std::uint8_t v : indices.values<std::uint8_t>())
                idx.push_back(v);
        } else {
            idx = indexValues(indices);
        }
        const auto& device = cpuDevice(context);
        Tensor& result = **out;
        return dispatchByElementBytes(on.dtype(), [&](auto tag) {
            using E = typename decltype(tag)::type;
            OneHotFunctor<Eigen::ThreadPoolDevice, E>()(device, plan->prefix, plan->depth, plan->suffix, idx.data(),
                                                        *elementsAs<E>(on), *elementsAs<E>(off),
                                                        mutableElementsAs<E>(result));
        });
    }

private:
    std::int64_t m_axis = -1;
};

} // namespace

Expected<GatherPlan> planGather(const Tensor& params, const Tensor& indices, const Tensor* axisTensor,
                                std::int64_t batchDimsAttr)
{
    if (params.rank() < 1)
        return unexpected(invalidArgumentError("params must be at least 1 dimensional"));
    std::int64_t axis = 0;
    const bool axisIsSet = axisTensor != nullptr;
    if (axisIsSet) {
        if (axisTensor->rank() != 0)
            return unexpected(invalidArgumentError("axis must be scalar"));
        axis = indexValue(*axisTensor, 0);
    }
    const std::int64_t minParamsDim = axis < 0 ? -axis : axis + 1;
    if (params.rank() < minParamsDim)
        return unexpected(invalidArgumentError("Shape must be at least rank " + std::to_string(minParamsDim) +
                                               " but is rank " + std::to_string(params.rank())));
    if (axis < 0)
        axis += params.rank();
    std::int64_t batchDims = batchDimsAttr;
    if (batchDims != 0) {
        const int indicesRank = indices.rank();
        if (batchDims < -indicesRank || batchDims > indicesRank)
            return unexpected(invalidArgumentError("Expected batch_dims in the range [" + std::to_string(-indicesRank) +
                                                   ", " + std::to_string(indicesRank) + "], but got " +
                                                   std::to_string(batchDims)));
        if (batchDims < 0)
            batchDims += indicesRank;
        if (!axisIsSet)
            axis = batchDims;
        if (batchDims >= params.rank())
            return unexpected(invalidArgumentError("batch_dims (" + std::to_string(batchDims) +
                                                   ") must be less than rank(params) (" +
                                                   std::to_string(params.rank()) + ")."));
        if (axis < batchDims)
            return unexpected(invalidArgumentError("batch_dims (" + std::to_string(batchDims) +
                                                   ") must be less than or equal to axis (" + std::to_string(axis) +
                                                   ")."));
        for (int i = 0; i < batchDims; ++i) {
            if (params.shape().dim(i) != indices.shape().dim(i))
                return unexpected(invalidArgumentError("params.shape[" + std::to_string(i) +
                                                       "]: " + std::to_string(params.shape().dim(i)) +
                                                       " should be equal to indices.shape[" + std::to_string(i) +
                                                       "]: " + std::to_string(indices.shape().dim(i))));
        }
    }
    const std::int64_t limit = params.shape().dim(static_cast<int>(axis));
    if (indices.dtype() == tensorflow::DT_INT32 && limit > std::numeric_limits<std::int32_t>::max())
        return unexpected(invalidArgumentError("params.shape[" + std::to_string(axis) +
                                               "] too large for int32 indexing: " + std::to_string(limit) + " > " +
                                               std::to_string(std::numeric_limits<std::int32_t>::max())));

    // Output: params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:].
    GatherPlan plan;
    GatherShape& shape = plan.shape;
    shape.limit = limit;
    std::vector<std::int64_t> outDims;
    for (int i = 0; i < batchDims; ++i) {
        outDims.push_back(params.shape().dim(i));
        shape.batch *= params.shape().dim(i);
    }
    for (int i = static_cast<int>(batchDims); i < axis; ++i) {
        outDims.push_back(params.shape().dim(i));
        shape.outer *= params.shape().dim(i);
    }
    for (int i = static_cast<int>(batchDims); i < indices.rank(); ++i)
        outDims.push_back(indices.shape().dim(i));
    for (int i = static_cast<int>(axis) + 1; i < params.rank(); ++i) {
        outDims.push_back(params.shape().dim(i));
        shape.inner *= params.shape().dim(i);
    }
    shape.count = shape.batch > 0 ? indices.numElements() / shape.batch : 0;
    plan.outputShape = TensorShape(outDims);
    return plan;
}

Expected<OneHotPlan> planOneHot(std::int64_t axisAttr, const Tensor& indices, const Tensor& depth, const Tensor& on,
                                const Tensor& off)
{
    const int indicesDims = indices.rank();
    const int outputDims = indicesDims + 1;
    if (!(axisAttr == -1 || (axisAttr >= 0 && axisAttr < outputDims)))
        return unexpected(invalidArgumentError("Expected axis to be -1 or between [0, " + std::to_string(outputDims) +
                                               ").  But received: " + std::to_string(axisAttr)));
    if (depth.rank() != 0)
        return unexpected(invalidArgumentError("depth must be a scalar, but got: " + depth.shape().toString()));
    if (on.rank() != 0)
        return unexpected(invalidArgumentError("on_value must be a scalar, but got: " + on.shape().toString()));
    if (off.rank() != 0)
        return unexpected(invalidArgumentError("off_value must be a scalar, but got: " + off.shape().toString()));
    const int axis = axisAttr == -1 ? indicesDims : static_cast<int>(axisAttr);
    const std::int64_t depthValue = depth.scalar<std::int32_t>();
    if (depthValue < 0)
        return unexpected(invalidArgumentError("depth must be non-negative, got: " + std::to_string(depthValue)));
    std::vector<std::int64_t> outDims = dimsOf(indices.shape());
    outDims.insert(outDims.begin() + axis, depthValue);
    auto shape = TensorShape::fromDims(outDims);
    if (!shape)
        return unexpected(shape.error());
    if (auto count = shape->numElements(); !count)
        return unexpected(invalidArgumentError("OneHot result would have shape " + indices.shape().toString() + " + [" +
                                               std::to_string(depthValue) + "], which exceeds 2**63 - 1 elements"));
    OneHotPlan plan;
    plan.prefix = product(outDims, 0, static_cast<std::size_t>(axis));
    plan.depth = depthValue;
    plan.suffix = plan.prefix > 0 ? indices.numElements() / plan.prefix : 0;
    plan.outputShape = std::move(*shape);
    return plan;
}

Status registerGatherKernels(KernelRegistry& registry)
{
    const auto types = allAndQuantizedDataTypes();
    const auto idx = indexDataTypes();
    KernelAdder adder(registry);
    adder.add<GatherOp>(cpuDef("Gather", {{"Tparams", types}, {"Tindices", idx}}))
        .add<GatherOp>(cpuDef("GatherV2", {{"Tparams", types}, {"Tindices", idx}, {"Taxis", idx}}))
        .add<OneHotOp>(cpuDef("OneHot", {{"T", allDataTypes()},
                                         {"TI", {tensorflow::DT_UINT8, tensorflow::DT_INT32, tensorflow::DT_INT64}}}));
    return adder.status();
}

} // namespace tstudio::array
