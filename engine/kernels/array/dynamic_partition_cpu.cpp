// CPU kernel of DynamicPartition: the slice data[js, ...] goes to outputs[partitions[js]], the slices
// of each output in the order of js (the counterpart of DynamicStitch).
#include "framework/node_attrs.h"
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"

#include <algorithm>
#include <string>
#include <vector>

namespace tstudio::array {

namespace {

/// "[3]" or "[1,2]" for flat index `flat` of `shape`, "" for a scalar (TensorFlow's SliceDebugString).
std::string sliceDebugString(const TensorShape& shape, std::int64_t flat)
{
    const int rank = shape.rank();
    if (rank == 0)
        return "";
    std::vector<std::int64_t> index(static_cast<std::size_t>(rank));
    for (int d = rank; d-- > 0;) {
        index[static_cast<std::size_t>(d)] = flat % shape.dim(d);
        flat /= shape.dim(d);
    }
    return bracketJoin(index);
}

class DynamicPartitionOp : public ArrayKernel {
public:
    explicit DynamicPartitionOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        read(attrInt(node(), "num_partitions"), m_numPartitions);
    }

    Status compute(OpKernelContext& context) override
    {
        const Tensor& data = context.input(0);
        const Tensor& partitions = context.input(1);
        bool startsWith = data.rank() >= partitions.rank();
        for (int d = 0; startsWith && d < partitions.rank(); ++d)
            startsWith = data.shape().dim(d) == partitions.shape().dim(d);
        if (!startsWith)
            return invalidArgumentError(
                "data.shape must start with partitions.shape, got data.shape = " + data.shape().toString() +
                ", partitions.shape = " + partitions.shape().toString());
        const auto ids = partitions.values<std::int32_t>();
        std::vector<std::int64_t> counts(static_cast<std::size_t>(m_numPartitions), 0);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            const std::int32_t p = ids[i];
            if (p < 0 || p >= m_numPartitions)
                return invalidArgumentError(
                    "partitions" + sliceDebugString(partitions.shape(), static_cast<std::int64_t>(i)) + " = " +
                    std::to_string(p) + " is not in [0, " + std::to_string(m_numPartitions) + ")");
            ++counts[static_cast<std::size_t>(p)];
        }
        const std::vector<std::int64_t> dataDims = dimsOf(data.shape());
        const std::size_t prefix = static_cast<std::size_t>(partitions.rank());
        const std::int64_t sliceSize = product(dataDims, prefix, dataDims.size());
        std::vector<Tensor*> outputs;
        for (std::int64_t p = 0; p < m_numPartitions; ++p) {
            std::vector<std::int64_t> dims{counts[static_cast<std::size_t>(p)]};
            dims.insert(dims.end(), dataDims.begin() + static_cast<std::ptrdiff_t>(prefix), dataDims.end());
            auto out = context.allocateOutput(static_cast<int>(p), TensorShape(dims));
            if (!out)
                return out.error();
            outputs.push_back(*out);
        }
        if (sliceSize == 0 || ids.empty())
            return Status::ok();
        return dispatchByElementBytes(data.dtype(), [&](auto tag) {
            using E = typename decltype(tag)::type;
            const E* in = elementsAs<E>(data);
            std::vector<E*> next;
            for (Tensor* out : outputs)
                next.push_back(mutableElementsAs<E>(*out));
            for (std::size_t i = 0; i < ids.size(); ++i) {
                E*& to = next[static_cast<std::size_t>(ids[i])];
                to = std::copy_n(in + static_cast<std::int64_t>(i) * sliceSize, sliceSize, to);
            }
        });
    }

private:
    std::int64_t m_numPartitions = 1;
};

} // namespace

Status registerDynamicPartitionKernels(KernelRegistry& registry)
{
    return KernelAdder(registry).add<DynamicPartitionOp>(cpuDef("DynamicPartition", {{"T", allDataTypes()}})).status();
}

} // namespace tstudio::array
