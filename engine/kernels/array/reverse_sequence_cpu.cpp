// CPU kernel of ReverseSequence: along `batch_dim`, slice i has its first seq_lengths[i] elements
// along `seq_dim` reversed and the rest copied in place; the dims after both axes move as one block.
#define EIGEN_USE_THREADS
#include "framework/node_attrs.h"
#include "devices/cpu/cpu_parallel.h"
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <string>
#include <vector>

namespace tstudio::array {

namespace {

/// out = in with each batch slice's leading `lengths[b]` positions along the sequence axis
/// reversed. `dims` are the input's dims up to and including the later of the two axes; `block`
/// elements (the dims after them) move together.
template <typename E>
void reverseSequences(const Eigen::ThreadPoolDevice& device, const std::vector<std::int64_t>& dims, int seqDim,
                      int batchDim, const std::vector<std::int64_t>& lengths, std::int64_t block, const E* in, E* out)
{
    std::int64_t blocks = 1;
    for (std::int64_t d : dims)
        blocks *= d;
    const std::vector<std::int64_t> strides = stridesOf(dims); // in blocks
    const int rank = static_cast<int>(dims.size());
    const auto work = [&](Eigen::Index first, Eigen::Index last) {
        for (Eigen::Index k = first; k < last; ++k) {
            // The batch and sequence coordinates of output block k.
            std::int64_t rest = k;
            std::int64_t batch = 0;
            std::int64_t seq = 0;
            for (int d = rank; d-- > 0;) {
                const std::int64_t i = rest % dims[static_cast<std::size_t>(d)];
                rest /= dims[static_cast<std::size_t>(d)];
                if (d == batchDim)
                    batch = i;
                else if (d == seqDim)
                    seq = i;
            }
            std::int64_t source = k;
            const std::int64_t length = lengths[static_cast<std::size_t>(batch)];
            if (seq < length)
                source += (length - 1 - 2 * seq) * strides[static_cast<std::size_t>(seqDim)];
            std::copy_n(in + source * block, block, out + k * block);
        }
    };
    const double bytes = static_cast<double>(block) * static_cast<double>(sizeof(E));
    cpuParallelFor(device, blocks, Eigen::TensorOpCost(bytes, bytes, static_cast<double>(rank)), work);
}

/// TensorFlow's checks and messages (reverse_sequence_op.cc), in its order; the lengths are read
/// from host memory. Any input rank from 2 works (TensorFlow handles ranks 2 to 5).
class ReverseSequenceOp : public ArrayKernel {
public:
    explicit ReverseSequenceOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        read(attrInt(node(), "batch_dim"), m_batchDim);
        read(attrInt(node(), "seq_dim"), m_seqDim);
        if (m_batchDim < 0)
            require(invalidArgumentError("Invalid batch_dim " + std::to_string(m_batchDim)));
        if (m_seqDim < 0)
            require(invalidArgumentError("Invalid seq_dim " + std::to_string(m_seqDim)));
    }

    Status compute(OpKernelContext& context) override
    {
        const Tensor& input = context.input(0);
        const Tensor& seqLengths = context.input(1);
        if (seqLengths.rank() != 1)
            return invalidArgumentError("seq_lengths must be 1-dim, not " + std::to_string(seqLengths.rank()));
        const std::int64_t rank = input.rank();
        if (m_batchDim == m_seqDim)
            return invalidArgumentError("batch_dim == seq_dim == " + std::to_string(m_seqDim));
        if (m_seqDim >= rank)
            return invalidArgumentError("seq_dim must be < input rank ( " + std::to_string(m_seqDim) + " vs. " +
                                        std::to_string(rank) + ")");
        if (m_batchDim >= rank)
            return invalidArgumentError("batch_dim must be < input rank ( " + std::to_string(m_batchDim) + " vs. " +
                                        std::to_string(rank) + ")");
        const int batchDim = static_cast<int>(m_batchDim);
        const int seqDim = static_cast<int>(m_seqDim);
        const std::int64_t batchSize = input.shape().dim(batchDim);
        const std::int64_t seqSize = input.shape().dim(seqDim);
        if (seqLengths.numElements() != batchSize)
            return invalidArgumentError("Length of seq_lengths != input.dims(" + std::to_string(m_batchDim) + "), (" +
                                        std::to_string(seqLengths.numElements()) + " vs. " + std::to_string(batchSize) +
                                        ")");
        const std::vector<std::int64_t> lengths = indexValues(seqLengths);
        for (std::size_t d = 0; d < lengths.size(); ++d) {
            if (lengths[d] < 0)
                return invalidArgumentError("seq_lens(" + std::to_string(d) + ") < 0");
            if (lengths[d] > seqSize)
                return invalidArgumentError("seq_lens(" + std::to_string(d) + ") > input.dims(" +
                                            std::to_string(m_seqDim) + ")");
        }
        auto out = context.allocateOutput(0, input.shape());
        if (!out)
            return out.error();
        if (input.numElements() == 0)
            return Status::ok();
        const std::vector<std::int64_t> all = dimsOf(input.shape());
        const std::size_t last = static_cast<std::size_t>(std::max(batchDim, seqDim)) + 1;
        const std::vector<std::int64_t> outer(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(last));
        const std::int64_t block = product(all, last, all.size());
        Tensor& output = **out;
        return dispatchByElementBytes(input.dtype(), [&](auto tag) {
            using E = typename decltype(tag)::type;
            reverseSequences(cpuDevice(context), outer, seqDim, batchDim, lengths, block, elementsAs<E>(input),
                             mutableElementsAs<E>(output));
        });
    }

private:
    std::int64_t m_batchDim = 0;
    std::int64_t m_seqDim = 0;
};

} // namespace

Status registerReverseSequenceKernels(KernelRegistry& registry)
{
    return KernelAdder(registry)
        .add<ReverseSequenceOp>(cpuDef("ReverseSequence", {{"T", allDataTypes()}, {"Tlen", indexDataTypes()}}))
        .status();
}

} // namespace tstudio::array
