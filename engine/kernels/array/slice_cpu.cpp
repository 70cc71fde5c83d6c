// CPU kernels of Slice, StridedSlice and StridedSliceGrad: strided IndexMaps over the input
// (gathered) or over the gradient's output (scattered). StridedSlice's index spec is resolved by
// ops/strided_slice_spec.h, the code its shape function uses.
#include "framework/node_attrs.h"
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"
#include "kernels/array/movement.h"
#include "ops/strided_slice_spec.h"

namespace tstudio::array {

namespace {

class SliceOp : public OpKernel {
public:
    SliceOp(OpKernelConstruction& construction, const Movement* movement)
        : OpKernel(construction), m_movement(*movement)
    {
    }
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        const Tensor& beginTensor = context.input(1);
        const Tensor& sizeTensor = context.input(2);
        const int rank = input.rank();
        if (beginTensor.rank() != 1 || sizeTensor.rank() != 1 || beginTensor.numElements() != rank ||
            sizeTensor.numElements() != rank)
            return invalidArgumentError("Expected begin and size arguments to be 1-D tensors of size " +
                                        std::to_string(rank) + ", but got shapes " + beginTensor.shape().toString() +
                                        " and " + sizeTensor.shape().toString() + " instead.");
        const std::vector<std::int64_t> inDims = dimsOf(input.shape());
        const std::vector<std::int64_t> begin = indexValues(beginTensor);
        std::vector<std::int64_t> size = indexValues(sizeTensor);
        for (std::size_t i = 0; i < size.size(); ++i) {
            if (size[i] == -1) // to the end of the dimension
                size[i] = inDims[i] - begin[i];
        }
        for (std::size_t i = 0; i < inDims.size(); ++i) {
            const std::int64_t b = begin[i];
            const std::int64_t s = size[i];
            const std::string d = std::to_string(i);
            if (inDims[i] == 0) {
                if (b != 0 || s != 0)
                    return invalidArgumentError("Expected begin[" + d + "] == 0 (got " + std::to_string(b) +
                                                ") and size[" + d + "] == 0 (got " + std::to_string(s) +
                                                ") when input.dim_size(" + d + ") == 0");
            } else {
                if (b < 0 || b > inDims[i])
                    return invalidArgumentError("Expected begin[" + d + "] in [0, " + std::to_string(inDims[i]) +
                                                "], but got " + std::to_string(b));
                if (s < 0 || s > inDims[i] - b)
                    return invalidArgumentError("Expected size[" + d + "] in [0, " + std::to_string(inDims[i] - b) +
                                                "], but got " + std::to_string(s));
            }
        }
        auto out = context.allocateOutput(0, TensorShape(size));
        if (!out)
            return out.error();
        return m_movement.gather(context, stridedMap(inDims, begin, std::vector<std::int64_t>(inDims.size(), 1), size),
                                 input, **out);
    }

private:
    const Movement& m_movement;
};

/// The five mask attrs shared by StridedSlice and StridedSliceGrad.
class StridedSliceBase : public ArrayKernel {
public:
    StridedSliceBase(OpKernelConstruction& construction, const Movement* movement)
        : ArrayKernel(construction), m_movement(*movement)
    {
        (void)(read(attrInt(node(), "begin_mask"), m_masks.begin) && read(attrInt(node(), "end_mask"), m_masks.end) &&
               read(attrInt(node(), "ellipsis_mask"), m_masks.ellipsis) &&
               read(attrInt(node(), "new_axis_mask"), m_masks.newAxis) &&
               read(attrInt(node(), "shrink_axis_mask"), m_masks.shrinkAxis));
    }

protected:
    /// The resolution's per-dimension ranges as an IndexMap over an array of `inDims`.
    static IndexMap mapOf(const std::vector<std::int64_t>& inDims, const StridedSliceResolution& r)
    {
        return stridedMap(inDims, r.begin, r.strides, dimsOf(r.processingShape));
    }

    const Movement& m_movement;
    StridedSliceMasks m_masks;
};

class StridedSliceOp : public StridedSliceBase {
public:
    using StridedSliceBase::StridedSliceBase;
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        auto resolution =
            resolveStridedSlice(input.shape(), &context.input(1), &context.input(2), context.input(3), m_masks);
        if (!resolution)
            return resolution.error();
        auto out = context.allocateOutput(0, resolution->finalShape);
        if (!out)
            return out.error();
        return m_movement.gather(context, mapOf(dimsOf(input.shape()), *resolution), input, **out);
    }
};

/// StridedSliceGrad: dy scattered into zeros of the original input's shape.
class StridedSliceGradOp : public StridedSliceBase {
public:
    using StridedSliceBase::StridedSliceBase;
    Status compute(OpKernelContext& context) override
    {
        const Tensor& shapeTensor = context.input(0);
        const Tensor& dy = context.input(4);
        if (shapeTensor.rank() != 1)
            return invalidArgumentError("shape must be 1-D, got shape.shape = " + shapeTensor.shape().toString());
        auto inputShape = makeShape(shapeTensor);
        if (!inputShape)
            return inputShape.error();
        auto resolution =
            resolveStridedSlice(*inputShape, &context.input(1), &context.input(2), context.input(3), m_masks);
        if (!resolution)
            return resolution.error();
        if (!(resolution->finalShape == dy.shape()))
            return invalidArgumentError("shape of dy was " + dy.shape().toString() + " instead of " +
                                        resolution->finalShape.toString());
        auto out = context.allocateZeroedOutput(0, *inputShape);
        if (!out)
            return out.error();
        return m_movement.scatter(context, mapOf(dimsOf(*inputShape), *resolution), dy, **out);
    }
};

} // namespace

KernelFactory sliceKernel(const Movement& movement)
{
    return kernelFactory<SliceOp>(&movement);
}

KernelFactory stridedSliceKernel(const Movement& movement)
{
    return kernelFactory<StridedSliceOp>(&movement);
}

KernelFactory stridedSliceGradKernel(const Movement& movement)
{
    return kernelFactory<StridedSliceGradOp>(&movement);
}

Status registerSliceKernels(KernelRegistry& registry)
{
    const auto types = allDataTypes();
    const auto idx = indexDataTypes();
    KernelAdder adder(registry);
    const Movement& host = hostMovement();
    adder.addFactory(cpuDef("Slice", {{"T", types}, {"Index", idx}}), sliceKernel(host))
        .addFactory(cpuDef("StridedSlice", {{"T", types}, {"Index", idx}}), stridedSliceKernel(host))
        .addFactory(cpuDef("StridedSliceGrad", {{"T", types}, {"Index", idx}}), stridedSliceGradKernel(host));
    return adder.status();
}

} // namespace tstudio::array
