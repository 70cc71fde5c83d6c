// CPU kernels of Split, SplitV and Unpack: the input seen as [prod(dims before axis), rest] is cut
// into side-by-side column blocks.
#include "framework/node_attrs.h"
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"
#include "kernels/array/movement.h"

namespace tstudio::array {

namespace {

/// Allocates one output per size in `sizes` (the input's shape with `axis` set to the size, or
/// removed when `dropAxis`) and cuts the input into them.
Status splitAlong(OpKernelContext& context, const Movement& movement, const Tensor& input, int axis,
                  const std::vector<std::int64_t>& sizes, bool dropAxis)
{
    const std::vector<std::int64_t> inDims = dimsOf(input.shape());
    std::vector<Tensor*> outs;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        std::vector<std::int64_t> dims = inDims;
        if (dropAxis)
            dims.erase(dims.begin() + axis);
        else
            dims[static_cast<std::size_t>(axis)] = sizes[i];
        auto out = context.allocateOutput(static_cast<int>(i), TensorShape(dims));
        if (!out)
            return out.error();
        outs.push_back(*out);
    }
    return movement.splitRows(context, product(inDims, 0, static_cast<std::size_t>(axis)), input, outs);
}

Status splitDimError(std::int64_t rank, std::int64_t splitDim)
{
    return invalidArgumentError("-input rank(-" + std::to_string(rank) + ") <= split_dim < input rank (" +
                                std::to_string(rank) + "), but got " + std::to_string(splitDim));
}

class SplitOp : public OpKernel {
public:
    SplitOp(OpKernelConstruction& construction, const Movement* movement)
        : OpKernel(construction), m_movement(*movement)
    {
    }
    Status compute(OpKernelContext& context) override
    {
        const Tensor& splitDimTensor = context.input(0);
        const Tensor& input = context.input(1);
        if (splitDimTensor.rank() != 0)
            return invalidArgumentError("split_dim must be a scalar but has rank " +
                                        std::to_string(splitDimTensor.rank()));
        const std::int64_t splitDimOrig = splitDimTensor.scalar<std::int32_t>();
        const int rank = input.rank();
        const std::int64_t splitDim = splitDimOrig < 0 ? splitDimOrig + rank : splitDimOrig;
        const int numSplit = numOutputs();
        if (splitDim < 0 || splitDim >= rank)
            return splitDimError(rank, splitDimOrig);
        const std::int64_t size = input.shape().dim(static_cast<int>(splitDim));
        if (size % numSplit != 0)
            return invalidArgumentError("Number of ways to split should evenly divide the split dimension, but got "
                                        "split_dim " +
                                        std::to_string(splitDim) + " (size = " + std::to_string(size) +
                                        ") and num_split " + std::to_string(numSplit));
        return splitAlong(context, m_movement, input, static_cast<int>(splitDim),
                          std::vector<std::int64_t>(static_cast<std::size_t>(numSplit), size / numSplit), false);
    }

private:
    const Movement& m_movement;
};

class SplitVOp : public OpKernel {
public:
    SplitVOp(OpKernelConstruction& construction, const Movement* movement)
        : OpKernel(construction), m_movement(*movement)
    {
    }
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        const Tensor& splitTensor = context.input(1);
        const Tensor& splitDimTensor = context.input(2);
        const int numSplit = numOutputs();
        if (splitDimTensor.numElements() != 1)
            return invalidArgumentError("split_dim_tensor must have exactly one element.");
        const std::int64_t splitDimOrig = splitDimTensor.values<std::int32_t>()[0];
        const int rank = input.rank();
        const std::int64_t splitDim = splitDimOrig < 0 ? splitDimOrig + rank : splitDimOrig;
        if (splitTensor.rank() != 1 || splitTensor.numElements() != numSplit)
            return invalidArgumentError("size of the split_tensor must be 1-D and have the same elements as outputs "
                                        "got " +
                                        std::to_string(splitTensor.rank()) + " -D and " +
                                        std::to_string(splitTensor.numElements()) + " elements");
        std::vector<std::int64_t> sizes = indexValues(splitTensor);
        if (splitDim < 0 || splitDim >= rank)
            return splitDimError(rank, splitDimOrig);
        const std::int64_t inputSize = input.shape().dim(static_cast<int>(splitDim));
        if (numSplit == 1) {
            if (sizes[0] != inputSize)
                return invalidArgumentError("If there is only one output, it must have the same size as the input. "
                                            "Input size: " +
                                            std::to_string(inputSize) + " output size: " + std::to_string(sizes[0]));
            return context.setOutput(0, input);
        }
        int negOne = -1;
        std::int64_t determined = 0;
        for (std::size_t d = 0; d < sizes.size(); ++d) {
            if (sizes[d] == -1) {
                if (negOne != -1)
                    return invalidArgumentError("There can only be one -1 in the input.");
                negOne = static_cast<int>(d);
            } else if (sizes[d] < 0) {
                // TensorFlow 1.15 goes on and reads out of bounds; later versions reject this.
                return invalidArgumentError("Split size at index " + std::to_string(d) +
                                            " must be >= 0. Got: " + std::to_string(sizes[d]));
            } else {
                determined += sizes[d];
            }
        }
        if (!((negOne == -1 && determined == inputSize) || (negOne >= 0 && determined <= inputSize)))
            return invalidArgumentError("Determined shape must either match input shape along split_dim exactly if "
                                        "fully specified, or be less than the size of the input along split_dim if "
                                        "not fully specified.  Got: " +
                                        std::to_string(determined));
        if (negOne >= 0)
            sizes[static_cast<std::size_t>(negOne)] = inputSize - determined;
        return splitAlong(context, m_movement, input, static_cast<int>(splitDim), sizes, false);
    }

private:
    const Movement& m_movement;
};

class UnpackOp : public ArrayKernel {
public:
    UnpackOp(OpKernelConstruction& construction, const Movement* movement)
        : ArrayKernel(construction), m_movement(*movement)
    {
        read(attrInt(node(), "axis"), m_axis);
    }
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        const int num = numOutputs();
        const int rank = input.rank();
        const std::int64_t axis = m_axis < 0 ? m_axis + rank : m_axis;
        if (axis < 0 || axis >= rank)
            return invalidArgumentError("axis = " + std::to_string(m_axis) + " not in [" + std::to_string(-rank) +
                                        ", " + std::to_string(rank) + ")");
        if (input.shape().dim(static_cast<int>(axis)) != num)
            return invalidArgumentError("Input shape axis " + std::to_string(axis) + " must equal " +
                                        std::to_string(num) + ", got shape " + input.shape().toString());
        return splitAlong(context, m_movement, input, static_cast<int>(axis),
                          std::vector<std::int64_t>(static_cast<std::size_t>(num), 1), true);
    }

private:
    const Movement& m_movement;
    std::int64_t m_axis = 0;
};

} // namespace

KernelFactory splitKernel(const Movement& movement)
{
    return kernelFactory<SplitOp>(&movement);
}

KernelFactory splitVKernel(const Movement& movement)
{
    return kernelFactory<SplitVOp>(&movement);
}

KernelFactory unpackKernel(const Movement& movement)
{
    return kernelFactory<UnpackOp>(&movement);
}

Status registerSplitKernels(KernelRegistry& registry)
{
    const auto types = allAndQuantizedDataTypes();
    KernelAdder adder(registry);
    const Movement& host = hostMovement();
    adder.addFactory(cpuDef("Split", {{"T", types}}), splitKernel(host))
        .addFactory(cpuDef("SplitV", {{"T", types}, {"Tlen", indexDataTypes()}}), splitVKernel(host))
        .addFactory(cpuDef("Unpack", {{"T", types}}), unpackKernel(host));
    return adder.status();
}

} // namespace tstudio::array
