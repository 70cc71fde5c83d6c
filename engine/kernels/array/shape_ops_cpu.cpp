// CPU kernels of the shape ops: Shape, ShapeN, Size, Rank, Reshape, ExpandDims, Squeeze.
#include "framework/node_attrs.h"
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"

#include <algorithm>
#include <limits>
#include <set>

namespace tstudio::array {

namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

/// Writes `values` into output `index` as a vector of the output's dtype (int32 or int64).
Status setIndexVector(OpKernelContext& context, int index, DataType dtype, const std::vector<std::int64_t>& values)
{
    auto out = context.allocateOutput(index, TensorShape{static_cast<std::int64_t>(values.size())});
    if (!out)
        return out.error();
    if (dtype == tensorflow::DT_INT32)
        std::copy(values.begin(), values.end(), (*out)->data<std::int32_t>());
    else
        std::copy(values.begin(), values.end(), (*out)->data<std::int64_t>());
    return Status::ok();
}

class ShapeOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        const std::vector<std::int64_t> dims = dimsOf(context.input(0).shape());
        const DataType outType = outputTypes().at(0);
        for (std::size_t i = 0; i < dims.size(); ++i) {
            if (outType == tensorflow::DT_INT32 && dims[i] > kInt32Max)
                return invalidArgumentError("Shape output type is 32-bit  but dim " + std::to_string(i) + " is " +
                                            std::to_string(dims[i]));
        }
        return setIndexVector(context, 0, outType, dims);
    }
};

class ShapeNOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        for (int i = 0; i < context.numInputs(); ++i) {
            const std::vector<std::int64_t> dims = dimsOf(context.input(i).shape());
            const DataType outType = outputTypes().at(static_cast<std::size_t>(i));
            for (std::size_t j = 0; j < dims.size(); ++j) {
                if (outType == tensorflow::DT_INT32 && dims[j] > kInt32Max)
                    return invalidArgumentError("ShapeN output type is 32-bit but shape " + std::to_string(i) +
                                                " dim " + std::to_string(j) + " is " + std::to_string(dims[j]));
            }
            if (Status s = setIndexVector(context, i, outType, dims); !s.isOk())
                return s;
        }
        return Status::ok();
    }
};

class SizeOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        const std::int64_t size = context.input(0).numElements();
        auto out = context.allocateOutput(0, TensorShape::scalar());
        if (!out)
            return out.error();
        if (outputTypes().at(0) == tensorflow::DT_INT32) {
            if (size > kInt32Max)
                return invalidArgumentError("Number of elements was larger than representable by 32-bit output type");
            (*out)->scalar<std::int32_t>() = static_cast<std::int32_t>(size);
        } else {
            (*out)->scalar<std::int64_t>() = size;
        }
        return Status::ok();
    }
};

class RankOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        auto out = context.allocateOutput(0, TensorShape::scalar());
        if (!out)
            return out.error();
        (*out)->scalar<std::int32_t>() = context.input(0).rank();
        return Status::ok();
    }
};

/// Reshape with TensorFlow's rules: one -1 is inferred; zero-sized requested dimensions are left
/// out of the inference so that [0, -1] still has a defined answer.
class ReshapeOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        const Tensor& sizes = context.input(1);
        if (sizes.rank() != 1)
            return invalidArgumentError("sizes input must be 1-D, not " + sizes.shape().toString());
        std::vector<std::int64_t> dims = indexValues(sizes);
        std::int64_t product = 1;
        int unknownIndex = -1;
        bool sizesHaveZero = false;
        for (std::size_t d = 0; d < dims.size(); ++d) {
            const std::int64_t size = dims[d];
            if (size == -1) {
                if (unknownIndex != -1)
                    return invalidArgumentError("Only one input size may be -1, not both " +
                                                std::to_string(unknownIndex) + " and " + std::to_string(d));
                unknownIndex = static_cast<int>(d);
                dims[d] = 1;
            } else if (size < 0) {
                return invalidArgumentError("Size " + std::to_string(d) + " must be non-negative, not " +
                                            std::to_string(size));
            } else if (size == 0) {
                sizesHaveZero = true;
            } else {
                if (product > std::numeric_limits<std::int64_t>::max() / size)
                    return invalidArgumentError("Reshape: requested shape " + bracketJoin(indexValues(sizes)) +
                                                " has too many elements");
                product *= size;
            }
        }
        if (unknownIndex != -1) {
            std::int64_t inputElements = 1;
            bool inputHasZero = false;
            for (std::int64_t d : input.shape().dims()) {
                if (d > 0 || !sizesHaveZero)
                    inputElements *= d;
                else
                    inputHasZero = true;
            }
            const std::int64_t missing = inputElements / product;
            if (!inputHasZero && product * missing != inputElements)
                return invalidArgumentError("Input to reshape is a tensor with " + std::to_string(inputElements) +
                                            " values, but the requested shape requires a multiple of " +
                                            std::to_string(product));
            dims[static_cast<std::size_t>(unknownIndex)] = missing;
        }
        auto shape = TensorShape::fromDims(dims);
        if (!shape)
            return shape.error();
        auto count = shape->numElements();
        if (!count)
            return count.error();
        if (*count != input.numElements())
            return invalidArgumentError("Input to reshape is a tensor with " + std::to_string(input.numElements()) +
                                        " values, but the requested shape has " + std::to_string(*count));
        return setReshapedOutput(context, 0, input, *shape);
    }
};

class ExpandDimsOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        const Tensor& dimTensor = context.input(1);
        if (dimTensor.numElements() != 1)
            return invalidArgumentError("'dim' must be a tensor with a single value");
        std::int64_t dim = indexValue(dimTensor, 0);
        const int rank = input.rank();
        if (dim < -1 - rank || dim > rank)
            return invalidArgumentError("Tried to expand dim index " + std::to_string(dim) + " for tensor with " +
                                        std::to_string(rank) + " dimensions.");
        if (dim < 0)
            dim += rank + 1;
        std::vector<std::int64_t> dims = dimsOf(input.shape());
        dims.insert(dims.begin() + dim, 1);
        return setReshapedOutput(context, 0, input, TensorShape(dims));
    }
};

class SqueezeOp : public ArrayKernel {
public:
    explicit SqueezeOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        read(attrIntList(node(), "squeeze_dims"), m_squeezeDims);
    }
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        const int rank = input.rank();
        std::set<std::int64_t> wrapped;
        for (std::int64_t dim : m_squeezeDims) {
            if (dim < -rank || dim >= rank)
                return invalidArgumentError("Tried to squeeze dim index " + std::to_string(dim) + " for tensor with " +
                                            std::to_string(rank) + " dimensions.");
            wrapped.insert(dim < 0 ? dim + rank : dim);
        }
        std::vector<std::int64_t> dims;
        for (int i = 0; i < rank; ++i) {
            const std::int64_t size = input.shape().dim(i);
            if (!wrapped.empty()) {
                if (wrapped.count(i) > 0) {
                    if (size != 1)
                        return invalidArgumentError("Can not squeeze dim[" + std::to_string(i) +
                                                    "], expected a dimension of 1, got " + std::to_string(size));
                } else {
                    dims.push_back(size);
                }
            } else if (size != 1) {
                dims.push_back(size);
            }
        }
        return setReshapedOutput(context, 0, input, TensorShape(dims));
    }

private:
    std::vector<std::int64_t> m_squeezeDims;
};

} // namespace

KernelFactory shapeKernel()
{
    return kernelFactory<ShapeOp>();
}

KernelFactory shapeNKernel()
{
    return kernelFactory<ShapeNOp>();
}

KernelFactory sizeKernel()
{
    return kernelFactory<SizeOp>();
}

KernelFactory rankKernel()
{
    return kernelFactory<RankOp>();
}

KernelFactory reshapeKernel()
{
    return kernelFactory<ReshapeOp>();
}

KernelFactory expandDimsKernel()
{
    return kernelFactory<ExpandDimsOp>();
}

KernelFactory squeezeKernel()
{
    return kernelFactory<SqueezeOp>();
}

Status registerShapeKernels(KernelRegistry& registry)
{
    const auto idx = indexDataTypes();
    KernelAdder adder(registry);
    adder.add<ShapeOp>(cpuDef("Shape", {{"out_type", idx}}))
        .add<ShapeNOp>(cpuDef("ShapeN", {{"out_type", idx}}))
        .add<SizeOp>(cpuDef("Size", {{"out_type", idx}}))
        .add<RankOp>(cpuDef("Rank"))
        .addFactory(cpuDef("Reshape", {{"Tshape", idx}}), reshapeKernel())
        .addFactory(cpuDef("ExpandDims", {{"Tdim", idx}}), expandDimsKernel())
        .addFactory(cpuDef("Squeeze"), squeezeKernel());
    return adder.status();
}

} // namespace tstudio::array
