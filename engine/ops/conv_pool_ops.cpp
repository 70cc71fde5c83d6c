// Convolutions and pooling of the NN op family: Conv2D (and Grappler's _FusedConv2D),
// DepthwiseConv2dNative, MaxPool, AvgPool, their backward ops (MaxPoolGradGrad included), and
// their shape functions. Definitions follow TensorFlow 1.15's OpDefs.
#include "ops/conv_pool_ops.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"
#include "ops/nn_shape_fns.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

using C = ShapeInferenceContext;

constexpr const char* kConvTypes = "T: {half, bfloat16, float, double}";
constexpr const char* kDataFormat = "data_format: {'NHWC', 'NCHW'} = 'NHWC'";
constexpr const char* kPadding = "padding: {'SAME', 'VALID'}";
constexpr const char* kPaddingWithExplicit = "padding: {'SAME', 'VALID', 'EXPLICIT'}";
constexpr const char* kExplicitPaddings = "explicit_paddings: list(int) = []";
constexpr const char* kDilations = "dilations: list(int) = [1, 1, 1, 1]";

OpDefBuilder nnOp(std::string name, std::string summary)
{
    OpDefBuilder builder(std::move(name));
    builder.summary(std::move(summary)).category(op_category::kNN);
    return builder;
}

/// The attrs Conv2D and its two backprops share, in TensorFlow's order.
void conv2DAttrs(OpDefBuilder& op)
{
    op.attr(kConvTypes)
        .attr("strides: list(int)")
        .attr("use_cudnn_on_gpu: bool = true")
        .attr(kPaddingWithExplicit)
        .attr(kExplicitPaddings)
        .attr(kDataFormat)
        .attr(kDilations);
}

/// The attrs DepthwiseConv2dNative and its two backprops share.
void depthwiseAttrs(OpDefBuilder& op)
{
    op.attr(kConvTypes).attr("strides: list(int)").attr(kPadding).attr(kDataFormat).attr(kDilations);
}

std::vector<OpDefBuilder> convPoolOpDefinitions()
{
    std::vector<OpDefBuilder> ops;
    {
        OpDefBuilder op = nnOp("Conv2D", "2-D convolution of a 4-D input with a [height, width, in, out] filter.");
        op.input("input: T").input("filter: T").output("output: T");
        conv2DAttrs(op);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op =
            nnOp("Conv2DBackpropInput", "Gradient of Conv2D with respect to its input, of shape input_sizes.");
        op.input("input_sizes: int32").input("filter: T").input("out_backprop: T").output("output: T");
        conv2DAttrs(op);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op =
            nnOp("Conv2DBackpropFilter", "Gradient of Conv2D with respect to its filter, of shape filter_sizes.");
        op.input("input: T").input("filter_sizes: int32").input("out_backprop: T").output("output: T");
        conv2DAttrs(op);
        ops.push_back(std::move(op));
    }
    {
        // Made by Grappler's remapper (and by execution plans here); graphs it optimised carry it.
        OpDefBuilder op = nnOp("_FusedConv2D", "Conv2D followed by the ops named in fused_ops.");
        op.input("input: T")
            .input("filter: T")
            .input("args: num_args * T")
            .output("output: T")
            .attr("T: {float, double}")
            .attr("num_args: int >= 0")
            .attr("strides: list(int)")
            .attr(kPaddingWithExplicit)
            .attr(kExplicitPaddings)
            .attr(kDataFormat)
            .attr(kDilations)
            .attr("use_cudnn_on_gpu: bool = true")
            .attr("fused_ops: list(string) = []")
            .attr("epsilon: float = 0.0001");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op =
            nnOp("DepthwiseConv2dNative",
                 "Depthwise 2-D convolution: each input channel convolved with its own channel_multiplier filters.");
        op.input("input: T").input("filter: T").output("output: T");
        depthwiseAttrs(op);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op =
            nnOp("DepthwiseConv2dNativeBackpropInput", "Gradient of DepthwiseConv2dNative with respect to its input.");
        op.input("input_sizes: int32").input("filter: T").input("out_backprop: T").output("output: T");
        depthwiseAttrs(op);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("DepthwiseConv2dNativeBackpropFilter",
                               "Gradient of DepthwiseConv2dNative with respect to its filter.");
        op.input("input: T").input("filter_sizes: int32").input("out_backprop: T").output("output: T");
        depthwiseAttrs(op);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("MaxPool", "Maximum over sliding windows of a 4-D input.");
        op.attr("T: {half, bfloat16, float, double, int32, int64, uint8, int16, int8, uint16, qint8} = DT_FLOAT")
            .attr("ksize: list(int) >= 4")
            .attr("strides: list(int) >= 4")
            .attr(kPadding)
            .attr("data_format: {'NHWC', 'NCHW', 'NCHW_VECT_C'} = 'NHWC'")
            .input("input: T")
            .output("output: T");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("AvgPool", "Average over sliding windows of a 4-D input (padding is not counted).");
        op.input("value: T")
            .output("output: T")
            .attr("ksize: list(int) >= 4")
            .attr("strides: list(int) >= 4")
            .attr(kPadding)
            .attr(kDataFormat)
            .attr(kConvTypes);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("MaxPoolGrad", "Gradient of MaxPool: grad routed to the maximum of each window.");
        op.attr("ksize: list(int) >= 4")
            .attr("strides: list(int) >= 4")
            .attr(kPadding)
            .attr(kDataFormat)
            .input("orig_input: T")
            .input("orig_output: T")
            .input("grad: T")
            .output("output: T")
            .attr("T: realnumbertype = DT_FLOAT");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("MaxPoolGradGrad",
                               "Second-order gradient of MaxPool: grad (shaped as orig_input) read at the maximum of "
                               "each window, shaped as orig_output.");
        op.attr("ksize: list(int) >= 4")
            .attr("strides: list(int) >= 4")
            .attr(kPadding)
            .attr(kDataFormat)
            .input("orig_input: T")
            .input("orig_output: T")
            .input("grad: T")
            .output("output: T")
            .attr("T: realnumbertype");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = nnOp("AvgPoolGrad", "Gradient of AvgPool: grad spread evenly over each window.");
        op.input("orig_input_shape: int32")
            .input("grad: T")
            .output("output: T")
            .attr("ksize: list(int) >= 4")
            .attr("strides: list(int) >= 4")
            .attr(kPadding)
            .attr(kDataFormat)
            .attr(kConvTypes);
        ops.push_back(std::move(op));
    }
    return ops;
}

/// Output 0 is the 4-D shape held by shape-tensor input `input` (the *Backprop* ops' sizes).
ShapeFunction shapeFromSizesInput(int input)
{
    return [input](C& c) {
        auto shape = c.shapeFromShapeTensor(input);
        if (shape)
            shape = C::withRank(*shape, 4);
        if (!shape)
            return shape.error();
        c.setOutput(0, std::move(*shape));
        return Status::ok();
    };
}

/// MaxPoolGradGrad: MaxPool's output shape; orig_input must merge with grad and orig_output with
/// the output.
Status maxPoolGradGradShape(C& c)
{
    if (Status s = maxPoolShape(c); !s.isOk())
        return s;
    if (auto merged = c.input(0).merge(c.input(2)); !merged)
        return merged.error();
    if (auto merged = c.input(1).merge(c.output(0)); !merged)
        return merged.error();
    return Status::ok();
}

std::vector<std::pair<std::string, ShapeFunction>> convPoolShapeFunctions()
{
    std::vector<std::pair<std::string, ShapeFunction>> functions;
    functions.emplace_back("Conv2D", conv2DShapeWithExplicitPadding);
    functions.emplace_back("_FusedConv2D", conv2DShapeWithExplicitPadding);
    functions.emplace_back("Conv2DBackpropInput", shapeFromSizesInput(0));
    functions.emplace_back("Conv2DBackpropFilter", shapeFromSizesInput(1));
    functions.emplace_back("DepthwiseConv2dNative", depthwiseConv2DNativeShape);
    functions.emplace_back("DepthwiseConv2dNativeBackpropInput", shapeFromSizesInput(0));
    functions.emplace_back("DepthwiseConv2dNativeBackpropFilter", shapeFromSizesInput(1));
    functions.emplace_back("MaxPool", maxPoolShape);
    functions.emplace_back("AvgPool", avgPoolShape);
    functions.emplace_back("MaxPoolGrad", [](C& c) { return unchangedShapeWithRank(c, 4); });
    functions.emplace_back("MaxPoolGradGrad", maxPoolGradGradShape);
    functions.emplace_back("AvgPoolGrad", shapeFromSizesInput(0));
    return functions;
}

} // namespace

Status registerConvPoolOps(OpRegistry& registry)
{
    for (const OpDefBuilder& builder : convPoolOpDefinitions()) {
        if (Status status = registry.registerOp(builder); !status.isOk())
            return status;
    }
    for (auto& [name, function] : convPoolShapeFunctions()) {
        if (Status status = registry.setShapeFunction(name, std::move(function)); !status.isOk())
            return status;
    }
    return Status::ok();
}

} // namespace tstudio
