// CPU kernels of Transpose (a gather through an IndexMap) and InvertPermutation.
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"
#include "kernels/array/movement.h"

namespace tstudio::array {

namespace {

class TransposeOp : public OpKernel {
public:
    TransposeOp(OpKernelConstruction& construction, const Movement* movement)
        : OpKernel(construction), m_movement(*movement)
    {
    }
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        const Tensor& permTensor = context.input(1);
        if (permTensor.rank() != 1)
            return invalidArgumentError("perm must be a vector, not " + permTensor.shape().toString());
        const int dims = input.rank();
        if (permTensor.numElements() != dims)
            return invalidArgumentError("transpose expects a vector of size " + std::to_string(dims) +
                                        ". But input(1) is a vector of size " +
                                        std::to_string(permTensor.numElements()));
        const std::vector<std::int64_t> values = indexValues(permTensor);
        std::vector<int> perm;
        std::vector<bool> seen(static_cast<std::size_t>(dims), false);
        std::vector<std::int64_t> outDims;
        for (std::int64_t d : values) {
            if (d < 0 || d >= dims)
                return invalidArgumentError(std::to_string(d) + " is out of range [0 .. " + std::to_string(dims) + ")");
            seen[static_cast<std::size_t>(d)] = true;
            perm.push_back(static_cast<int>(d));
            outDims.push_back(input.shape().dim(static_cast<int>(d)));
        }
        for (int i = 0; i < dims; ++i) {
            if (!seen[static_cast<std::size_t>(i)]) {
                std::string joined;
                for (std::size_t j = 0; j < values.size(); ++j)
                    joined += (j ? "," : "") + std::to_string(values[j]);
                return invalidArgumentError(std::to_string(i) + " is missing from {" + joined + "}.");
            }
        }
        auto out = context.allocateOutput(0, TensorShape(outDims));
        if (!out)
            return out.error();
        return m_movement.gather(context, transposeMap(dimsOf(input.shape()), perm), input, **out);
    }

private:
    const Movement& m_movement;
};

class InvertPermutationOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        if (input.rank() != 1)
            return invalidArgumentError("invert_permutation expects a 1D vector.");
        const std::vector<std::int64_t> values = indexValues(input);
        const auto n = static_cast<std::int64_t>(values.size());
        std::vector<std::int64_t> inverse(values.size(), -1);
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t d = values[static_cast<std::size_t>(i)];
            if (d < 0 || d >= n)
                return invalidArgumentError(std::to_string(d) + " is not between 0 and " + std::to_string(n));
            if (inverse[static_cast<std::size_t>(d)] != -1)
                return invalidArgumentError(std::to_string(d) + " is duplicated in the input.");
            inverse[static_cast<std::size_t>(d)] = i;
        }
        auto out = context.allocateOutput(0, input.shape());
        if (!out)
            return out.error();
        if (input.dtype() == tensorflow::DT_INT32)
            std::copy(inverse.begin(), inverse.end(), (*out)->data<std::int32_t>());
        else
            std::copy(inverse.begin(), inverse.end(), (*out)->data<std::int64_t>());
        return Status::ok();
    }
};

} // namespace

KernelFactory transposeKernel(const Movement& movement)
{
    return kernelFactory<TransposeOp>(&movement);
}

Status registerTransposeKernels(KernelRegistry& registry)
{
    KernelAdder adder(registry);
    adder
        .addFactory(cpuDef("Transpose", {{"T", allDataTypes()}, {"Tperm", indexDataTypes()}}),
                    transposeKernel(hostMovement()))
        .add<InvertPermutationOp>(cpuDef("InvertPermutation", {{"T", indexDataTypes()}}));
    return adder.status();
}

} // namespace tstudio::array
