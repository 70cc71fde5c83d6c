// CPU kernels of Concat, ConcatV2, Pack (rows copied side by side) and ConcatOffset.
#include "framework/node_attrs.h"
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"
#include "kernels/array/movement.h"

namespace tstudio::array {

namespace {

/// Concat (axis first, named concat_dim) and ConcatV2 (axis last, named axis), as TensorFlow's
/// ConcatBaseOp: every input is seen as [prod(dims before axis), rest] and the rows are joined.
class ConcatOp : public OpKernel {
public:
    ConcatOp(OpKernelConstruction& construction, const Movement* movement, bool axisFirst)
        : OpKernel(construction), m_movement(*movement), m_axisFirst(axisFirst),
          m_axisName(axisFirst ? "concat_dim" : "axis")
    {
    }
    Status compute(OpKernelContext& context) override
    {
        const int n = context.numInputs() - 1;
        const int axisInput = m_axisFirst ? 0 : n;
        const int firstValue = m_axisFirst ? 1 : 0;
        const Tensor& axisTensor = context.input(axisInput);
        if (!(axisTensor.rank() == 0 || (axisTensor.rank() == 1 && axisTensor.shape().dim(0) == 1)))
            return invalidArgumentError(m_axisName + " tensor should be a scalar integer, but got shape " +
                                        axisTensor.shape().toString());
        const std::int64_t concatDim = indexValue(axisTensor, 0);
        const Tensor& first = context.input(firstValue);
        const int inputDims = first.rank();
        const std::int64_t axis = concatDim < 0 ? concatDim + inputDims : concatDim;
        // concat_dim == 0 allows concatenating a list of scalars into a vector.
        if (!((0 <= axis && axis < inputDims) || concatDim == 0))
            return invalidArgumentError("ConcatOp : Expected concatenating dimensions in the range [" +
                                        std::to_string(-inputDims) + ", " + std::to_string(inputDims) + "), but got " +
                                        std::to_string(concatDim));
        std::int64_t rows = 1;
        for (int d = 0; d < axis; ++d)
            rows *= first.shape().dim(d);
        std::int64_t outputConcatDim = 0;
        std::vector<const Tensor*> inputs;
        for (int i = 0; i < n; ++i) {
            const Tensor& in = context.input(firstValue + i);
            if (in.rank() != inputDims)
                return invalidArgumentError(
                    "ConcatOp : Ranks of all input tensors should match: shape[0] = " + first.shape().toString() +
                    " vs. shape[" + std::to_string(i) + "] = " + in.shape().toString());
            for (int j = 0; j < inputDims; ++j) {
                if (j != axis && in.shape().dim(j) != first.shape().dim(j))
                    return invalidArgumentError(
                        "ConcatOp : Dimensions of inputs should match: shape[0] = " + first.shape().toString() +
                        " vs. shape[" + std::to_string(i) + "] = " + in.shape().toString());
            }
            outputConcatDim += inputDims > 0 ? in.shape().dim(static_cast<int>(axis)) : 1;
            inputs.push_back(&in);
        }
        std::vector<std::int64_t> outDims = dimsOf(first.shape());
        if (outDims.empty())
            outDims.push_back(outputConcatDim);
        else
            outDims[static_cast<std::size_t>(axis)] = outputConcatDim;
        auto out = context.allocateOutput(0, TensorShape(outDims));
        if (!out)
            return out.error();
        return m_movement.concatRows(context, rows, inputs, **out);
    }

private:
    const Movement& m_movement;
    bool m_axisFirst;
    std::string m_axisName;
};

/// Pack: N tensors of one shape stacked along a new axis; the output seen as
/// [prod(dims before axis), N * rest] holds the inputs side by side.
class PackOp : public ArrayKernel {
public:
    PackOp(OpKernelConstruction& construction, const Movement* movement)
        : ArrayKernel(construction), m_movement(*movement)
    {
        read(attrInt(node(), "axis"), m_axis);
    }
    Status compute(OpKernelContext& context) override
    {
        const int n = context.numInputs();
        const Tensor& first = context.input(0);
        const int outputDims = first.rank() + 1;
        std::int64_t axis = m_axis < 0 ? m_axis + outputDims : m_axis;
        if (axis < 0 || axis >= outputDims)
            return invalidArgumentError("axis = " + std::to_string(m_axis) + " not in [" + std::to_string(-outputDims) +
                                        ", " + std::to_string(outputDims) + ")");
        std::vector<const Tensor*> inputs;
        for (int i = 0; i < n; ++i) {
            const Tensor& in = context.input(i);
            if (!(in.shape() == first.shape()))
                return invalidArgumentError(
                    "Shapes of all inputs must match: values[0].shape = " + first.shape().toString() + " != values[" +
                    std::to_string(i) + "].shape = " + in.shape().toString());
            inputs.push_back(&in);
        }
        std::vector<std::int64_t> outDims = dimsOf(first.shape());
        outDims.insert(outDims.begin() + axis, n);
        auto out = context.allocateOutput(0, TensorShape(outDims));
        if (!out)
            return out.error();
        return m_movement.concatRows(context, product(outDims, 0, static_cast<std::size_t>(axis)), inputs, **out);
    }

private:
    const Movement& m_movement;
    std::int64_t m_axis = 0;
};

/// ConcatOffset: where each input of a concatenation along concat_dim starts in the output.
class ConcatOffsetOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        const Tensor& concatDim = context.input(0);
        if (concatDim.rank() != 0)
            return invalidArgumentError("Concat dim tensor should be a scalar integer, but got shape " +
                                        concatDim.shape().toString());
        for (int i = 1; i < context.numInputs(); ++i) {
            const Tensor& in = context.input(i);
            if (in.rank() != 1)
                return invalidArgumentError("input " + std::to_string(i) + " should be a vector, but got shape " +
                                            in.shape().toString());
        }
        const int n = context.numInputs() - 1;
        const auto first = context.input(1).values<std::int32_t>();
        const std::int64_t cdim = concatDim.scalar<std::int32_t>();
        const auto dims = static_cast<std::int64_t>(first.size());
        const std::int64_t axis = cdim < 0 ? cdim + dims : cdim;
        if (axis < 0 || axis >= dims)
            return invalidArgumentError("Concat dim is out of range: " + std::to_string(cdim) + " vs. " +
                                        std::to_string(dims));
        auto summarize = [](std::span<const std::int32_t> v) {
            std::string s;
            for (std::size_t k = 0; k < v.size() && k < 10; ++k)
                s += (k ? " " : "") + std::to_string(v[k]);
            if (v.size() > 10)
                s += "...";
            return s;
        };
        std::int32_t offset = 0;
        for (int i = 0; i < n; ++i) {
            const Tensor& in = context.input(1 + i);
            if (in.numElements() != dims)
                return invalidArgumentError("input " + std::to_string(i) + " should contain " + std::to_string(dims) +
                                            " elements, but got " + std::to_string(in.numElements()));
            const auto values = in.values<std::int32_t>();
            auto out = context.allocateOutput(i, TensorShape{dims});
            if (!out)
                return out.error();
            std::int32_t* o = (*out)->data<std::int32_t>();
            for (std::int64_t j = 0; j < dims; ++j) {
                const auto at = static_cast<std::size_t>(j);
                if (j == axis) {
                    o[j] = offset;
                    offset += values[at];
                } else {
                    if (first[at] != values[at])
                        return invalidArgumentError("All dimensions except " + std::to_string(axis) +
                                                    " must match. Input " + std::to_string(i) + " has shape [" +
                                                    summarize(values) + "] and doesn't match input 0 with shape [" +
                                                    summarize(first) + "].");
                    o[j] = 0;
                }
            }
        }
        return Status::ok();
    }
};

} // namespace

KernelFactory concatKernel(const Movement& movement, bool axisFirst)
{
    return kernelFactory<ConcatOp>(&movement, axisFirst);
}

KernelFactory packKernel(const Movement& movement)
{
    return kernelFactory<PackOp>(&movement);
}

Status registerConcatKernels(KernelRegistry& registry)
{
    const auto types = allAndQuantizedDataTypes();
    KernelAdder adder(registry);
    const Movement& host = hostMovement();
    adder.addFactory(cpuDef("Concat", {{"T", types}}), concatKernel(host, true))
        .addFactory(cpuDef("ConcatV2", {{"T", types}, {"Tidx", indexDataTypes()}}), concatKernel(host, false))
        .add<ConcatOffsetOp>(cpuDef("ConcatOffset"))
        .addFactory(cpuDef("Pack", {{"T", types}}), packKernel(host));
    return adder.status();
}

} // namespace tstudio::array
