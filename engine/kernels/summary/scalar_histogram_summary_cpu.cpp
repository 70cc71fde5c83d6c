// CPU kernels of ScalarSummary (one simple_value per tag) and HistogramSummary (TensorFlow's default
// exponential buckets, empty runs collapsed), with TensorFlow's checks and messages.
#include "kernels/summary/summary_kernels.h"

#include "framework/kernel_registry.h"
#include "framework/op_kernel.h"
#include "proto/summary.pb.h"
#include "kernels/summary/histogram.h"

#include <cmath>

namespace tstudio {

namespace {

using summary_kernels::setSummaryOutput;

class ScalarSummaryOp : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        const Tensor& tags = context.input(0);
        const Tensor& values = context.input(1);
        if (tags.shape() != values.shape()) {
            std::string message =
                "tags and values not the same shape: " + tags.shape().toString() + " != " + values.shape().toString();
            // With a single tag, TensorFlow names it in the message.
            if (tags.numElements() == 1)
                message += " (tag '" + tags.strings()[0] + "')";
            return invalidArgumentError(message);
        }
        tensorflow::Summary summary;
        const auto tagValues = tags.strings();
        Status status = dispatchDataType<RealNumberTypes>(values.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            const auto data = values.values<T>();
            for (std::size_t i = 0; i < tagValues.size(); ++i) {
                auto* value = summary.add_value();
                value->set_tag(tagValues[i]);
                value->set_simple_value(static_cast<float>(data[i]));
            }
        });
        if (!status.isOk())
            return status;
        return setSummaryOutput(context, summary);
    }
};

class HistogramSummaryOp : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        const Tensor& tag = context.input(0);
        const Tensor& values = context.input(1);
        if (tag.rank() != 0)
            return invalidArgumentError("tags must be scalar");
        summary::Histogram histogram;
        Status status = dispatchDataType<RealNumberTypes>(values.dtype(), [&](auto typeTag) -> Status {
            using T = typename decltype(typeTag)::type;
            for (const T& element : values.values<T>()) {
                const auto value = static_cast<double>(element);
                // TensorFlow names the node, not the tag, in these messages.
                if (std::isnan(value))
                    return invalidArgumentError("Nan in summary histogram for: " + name());
                if (std::isinf(value))
                    return invalidArgumentError("Infinity in summary histogram for: " + name());
                histogram.add(value);
            }
            return Status::ok();
        });
        if (!status.isOk())
            return status;
        tensorflow::Summary summary;
        auto* value = summary.add_value();
        value->set_tag(tag.strings()[0]);
        histogram.encodeToProto(value->mutable_histo(), /*preserveZeroBuckets=*/false);
        return setSummaryOutput(context, summary);
    }
};

} // namespace

Status registerScalarHistogramSummaryCpuKernels(KernelRegistry& registry)
{
    if (Status s = registry.add<ScalarSummaryOp>(KernelDef{"ScalarSummary", "CPU", {}, {}}); !s.isOk())
        return s;
    return registry.add<HistogramSummaryOp>(KernelDef{"HistogramSummary", "CPU", {}, {}});
}

} // namespace tstudio
