// The summary op family (TensorFlow 1.15's logging_ops.cc summary OpDefs): ScalarSummary,
// HistogramSummary, ImageSummary, AudioSummaryV2, AudioSummary, TensorSummaryV2, TensorSummary and
// MergeSummary. Each outputs one serialized tensorflow.Summary as a scalar string.
#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "ops/common_shape_fns.h"
#include "ops/op_families.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

OpDefBuilder op(std::string name, std::string summary)
{
    OpDefBuilder builder(std::move(name));
    builder.summary(std::move(summary)).category(op_category::kSummary);
    return builder;
}

std::vector<OpDefBuilder> summaryOpDefinitions()
{
    std::vector<OpDefBuilder> ops;
    ops.push_back(
        op("TensorSummaryV2", "A Summary holding a tensor, a tag and plugin metadata.")
            .input("tag: string")
            .input("tensor: T")
            .input("serialized_summary_metadata: string")
            .output("summary: string")
            .attr("T: type")
            .doc("serialized_summary_metadata", "A serialized SummaryMetadata proto (which plugin reads it)."));
    ops.push_back(op("TensorSummary", "A Summary holding a tensor, with the node name instead of a tag.")
                      .input("tensor: T")
                      .output("summary: string")
                      .attr("T: type")
                      .attr("description: string = ''")
                      .attr("labels: list(string) = []")
                      .attr("display_name: string = ''"));
    ops.push_back(op("ScalarSummary", "A Summary with one simple_value per tag.")
                      .input("tags: string")
                      .input("values: T")
                      .output("summary: string")
                      .attr("T: realnumbertype")
                      .doc("values", "Same shape as `tags`."));
    ops.push_back(op("HistogramSummary", "A Summary with a histogram of the values (non-finite values fail).")
                      .input("tag: string")
                      .input("values: T")
                      .output("summary: string")
                      .attr("T: realnumbertype = DT_FLOAT"));
    ops.push_back(op("ImageSummary", "A Summary with up to max_images PNG images of a [batch, h, w, c] tensor.")
                      .input("tag: string")
                      .input("tensor: T")
                      .output("summary: string")
                      .attr("max_images: int >= 1 = 3")
                      .attr("T: {uint8, float, half, float64} = DT_FLOAT")
                      .attr("bad_color: tensor = { dtype: DT_UINT8 tensor_shape: { dim { size: 4 } } "
                            "int_val: 255 int_val: 0 int_val: 0 int_val: 255 }")
                      .description("Channels 1 (grey), 3 (RGB) or 4 (RGBA). Float images are scaled one at a time "
                                   "into [0, 255]: by 255/max when no value is negative, otherwise around 128 by "
                                   "127/max|x|; pixels with a non-finite value take bad_color.")
                      .doc("bad_color", "The uint8 colour of pixels with a non-finite value."));
    ops.push_back(op("AudioSummaryV2", "A Summary with up to max_outputs 16-bit WAV clips.")
                      .input("tag: string")
                      .input("tensor: float")
                      .input("sample_rate: float")
                      .output("summary: string")
                      .attr("max_outputs: int >= 1 = 3")
                      .doc("tensor", "[batch, frames] or [batch, frames, channels], values in [-1, 1]."));
    ops.push_back(op("AudioSummary", "A Summary with WAV clips; the sample rate is an attr.")
                      .input("tag: string")
                      .input("tensor: float")
                      .output("summary: string")
                      .attr("sample_rate: float")
                      .attr("max_outputs: int >= 1 = 3")
                      .deprecated(15, "Use AudioSummaryV2."));
    ops.push_back(op("MergeSummary", "The union of the values of several serialized Summary protos.")
                      .input("inputs: N * string")
                      .output("summary: string")
                      .attr("N: int >= 1")
                      .description("Two values with the same non-empty tag are an InvalidArgument error."));
    return ops;
}

} // namespace

Status registerSummaryOps(OpRegistry& registry)
{
    for (OpDefBuilder& definition : summaryOpDefinitions()) {
        const std::string name = definition.opName();
        if (Status s = registry.registerOp(definition); !s.isOk())
            return s;
        if (Status s = registry.setShapeFunction(name, scalarShape); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
