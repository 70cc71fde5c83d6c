// CPU kernels of Tile and BroadcastTo: gathers through an IndexMap that repeats the input.
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"
#include "kernels/array/movement.h"

#include <limits>

namespace tstudio::array {

namespace {

class TileOp : public OpKernel {
public:
    TileOp(OpKernelConstruction& construction, const Movement* movement) : OpKernel(construction), m_movement(*movement)
    {
    }
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        const Tensor& multiples = context.input(1);
        if (multiples.rank() != 1)
            return invalidArgumentError("Expected multiples to be 1-D, but got shape " + multiples.shape().toString());
        const int rank = input.rank();
        if (multiples.numElements() != rank)
            return invalidArgumentError("Expected multiples argument to be a vector of length " + std::to_string(rank) +
                                        " but got length " + std::to_string(multiples.shape().dim(0)));
        if (rank == 0)
            return context.setOutput(0, input);
        const std::vector<std::int64_t> m = indexValues(multiples);
        const std::vector<std::int64_t> inDims = dimsOf(input.shape());
        std::vector<std::int64_t> outDims;
        for (int i = 0; i < rank; ++i) {
            const auto at = static_cast<std::size_t>(i);
            if (m[at] < 0)
                return invalidArgumentError("Expected multiples[" + std::to_string(i) + "] >= 0, but got " +
                                            std::to_string(m[at]));
            if (inDims[at] > 0 && m[at] > std::numeric_limits<std::int64_t>::max() / inDims[at])
                return invalidArgumentError("Tile: output dimension " + std::to_string(i) + " overflows");
            outDims.push_back(inDims[at] * m[at]);
        }
        auto out = context.allocateOutput(0, TensorShape(outDims));
        if (!out)
            return out.error();
        return m_movement.gather(context, tileMap(inDims, outDims), input, **out);
    }

private:
    const Movement& m_movement;
};

/// BroadcastTo with TensorFlow's checks and their order (an empty output is returned before the
/// shapes are compared, as TensorFlow 1.15 does).
class BroadcastToOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        auto shape = makeShape(context.input(1));
        if (!shape)
            return shape.error();
        if (*shape == input.shape())
            return context.setOutput(0, input);
        const int outRank = shape->rank();
        const int inRank = input.rank();
        if (inRank > outRank)
            return invalidArgumentError("Rank of input (" + std::to_string(inRank) +
                                        ") must be no greater than rank of output shape (" + std::to_string(outRank) +
                                        ").");
        auto out = context.allocateOutput(0, *shape);
        if (!out)
            return out.error();
        if ((*out)->numElements() == 0)
            return Status::ok();
        const std::vector<std::int64_t> outDims = dimsOf(*shape);
        // Right-align the input's dims to the output's.
        std::vector<std::int64_t> inDims(static_cast<std::size_t>(outRank - inRank), 1);
        for (std::int64_t d : input.shape().dims())
            inDims.push_back(d);
        for (std::size_t d = 0; d < outDims.size(); ++d) {
            if (inDims[d] != outDims[d] && inDims[d] != 1 && outDims[d] != 1)
                return invalidArgumentError("Incompatible shapes: " + input.shape().toString() + " vs. " +
                                            shape->toString());
        }
        for (std::size_t d = 0; d < outDims.size(); ++d) {
            if (inDims[d] != outDims[d] && inDims[d] != 1)
                return invalidArgumentError("Unable to broadcast tensor of shape " + input.shape().toString() +
                                            " to tensor of shape " + shape->toString());
        }
        gatherElements(cpuDevice(context), tileMap(inDims, outDims), input, **out);
        return Status::ok();
    }
};

} // namespace

KernelFactory tileKernel(const Movement& movement)
{
    return kernelFactory<TileOp>(&movement);
}

Status registerTileKernels(KernelRegistry& registry)
{
    KernelAdder adder(registry);
    adder
        .addFactory(cpuDef("Tile", {{"T", allDataTypes()}, {"Tmultiples", indexDataTypes()}}),
                    tileKernel(hostMovement()))
        .add<BroadcastToOp>(cpuDef("BroadcastTo", {{"T", allDataTypes()}, {"Tidx", indexDataTypes()}}));
    return adder.status();
}

} // namespace tstudio::array
