// CPU kernels of DynamicStitch and ParallelDynamicStitch: merged[indices[m][i]] = data[m][i].
#include "kernels/array/array_kernel_util.h"
#include "kernels/array/array_kernels_internal.h"

#include <algorithm>

namespace tstudio::array {

namespace {

/// Both ops, as TensorFlow's CPU kernel: the output has max(index) + 1 rows; rows no index names
/// stay zero (TensorFlow leaves them uninitialised); later inputs overwrite earlier ones, so the
/// result is deterministic (ParallelDynamicStitch only promises some order for duplicates).
class DynamicStitchOp : public OpKernel {
public:
    using OpKernel::OpKernel;
    Status compute(OpKernelContext& context) override
    {
        const int n = context.numInputs() / 2;
        std::int64_t maxIndex = -1;
        for (int m = 0; m < n; ++m) {
            for (std::int32_t v : context.input(m).values<std::int32_t>())
                maxIndex = std::max<std::int64_t>(maxIndex, v);
        }
        const std::int64_t firstDimSize = maxIndex + 1;
        const Tensor& indices0 = context.input(0);
        const Tensor& data0 = context.input(n);
        for (int m = 0; m < n; ++m) {
            const Tensor& indices = context.input(m);
            const Tensor& data = context.input(n + m);
            bool startsWith = data.rank() >= indices.rank();
            for (int d = 0; startsWith && d < indices.rank(); ++d)
                startsWith = data.shape().dim(d) == indices.shape().dim(d);
            if (!startsWith)
                return invalidArgumentError("data[" + std::to_string(m) + "].shape = " + data.shape().toString() +
                                            " does not start with indices[" + std::to_string(m) +
                                            "].shape = " + indices.shape().toString());
            if (m > 0 && !sameExtraShape(data0, indices0, data, indices))
                return invalidArgumentError("Need data[0].shape[" + std::to_string(indices0.rank()) + ":] = data[" +
                                            std::to_string(m) + "].shape[" + std::to_string(indices.rank()) +
                                            ":], got data[0].shape = " + data0.shape().toString() + ", data[" +
                                            std::to_string(m) + "].shape = " + data.shape().toString() +
                                            ", indices[0].shape = " + indices0.shape().toString() + ", indices[" +
                                            std::to_string(m) + "].shape = " + indices.shape().toString());
        }
        std::vector<std::int64_t> outDims{firstDimSize};
        for (int d = indices0.rank(); d < data0.rank(); ++d)
            outDims.push_back(data0.shape().dim(d));
        // Rows no index names (gaps) are zeros.
        auto out = context.allocateZeroedOutput(0, TensorShape(outDims));
        if (!out)
            return out.error();
        if (firstDimSize == 0)
            return Status::ok();
        const std::int64_t sliceSize = product(outDims, 1, outDims.size());
        Tensor& merged = **out;
        Status status;
        const Status dispatched = dispatchByElementBytes(merged.dtype(), [&](auto tag) {
            using E = typename decltype(tag)::type;
            E* mergedBase = mutableElementsAs<E>(merged);
            for (int m = 0; m < n && status.isOk(); ++m) {
                const auto indices = context.input(m).values<std::int32_t>();
                const E* dataBase = elementsAs<E>(context.input(n + m));
                for (std::size_t i = 0; i < indices.size(); ++i) {
                    const std::int64_t index = indices[i];
                    if (index < 0 || index >= firstDimSize) {
                        status = invalidArgumentError("indices[" + std::to_string(i) + "] is out of range");
                        return;
                    }
                    if (sliceSize > 0) {
                        const E* from = dataBase + static_cast<std::int64_t>(i) * sliceSize;
                        std::copy(from, from + sliceSize, mergedBase + index * sliceSize);
                    }
                }
            }
        });
        return dispatched.isOk() ? status : dispatched;
    }

private:
    static bool sameExtraShape(const Tensor& data0, const Tensor& indices0, const Tensor& data1, const Tensor& indices1)
    {
        const int extra0 = data0.rank() - indices0.rank();
        const int extra1 = data1.rank() - indices1.rank();
        if (extra0 != extra1)
            return false;
        for (int i = 0; i < extra0; ++i) {
            if (data0.shape().dim(indices0.rank() + i) != data1.shape().dim(indices1.rank() + i))
                return false;
        }
        return true;
    }
};

} // namespace

Status registerStitchKernels(KernelRegistry& registry)
{
    const auto types = allAndQuantizedDataTypes();
    KernelAdder adder(registry);
    adder.add<DynamicStitchOp>(cpuDef("DynamicStitch", {{"T", types}}))
        .add<DynamicStitchOp>(cpuDef("ParallelDynamicStitch", {{"T", types}}));
    return adder.status();
}

Status registerInt32StitchHostKernelsOnGpu(KernelRegistry& registry)
{
    KernelAdder adder(registry);
    for (const char* op : {"DynamicStitch", "ParallelDynamicStitch"}) {
        KernelDef def{op, "GPU", {{"T", {tensorflow::DT_INT32}}}, {"indices", "data", "merged"}};
        adder.add<DynamicStitchOp>(std::move(def));
    }
    return adder.status();
}

} // namespace tstudio::array
