// The nn family's gradients of convolutions, pooling and normalizations as TensorFlow 1.15's
// nn_grad.py builds them: Conv2D (its input sizes via ShapeN), DepthwiseConv2dNative and the
// backprop ops of both, MaxPool, AvgPool and AvgPoolGrad, LRN, and FusedBatchNorm V1/V2/V3 in
// training and inference mode. The same ops and node names as the Python functions.
#include "autodiff/nn_grad_internal.h"
#include "framework/node_attrs.h"

namespace tstudio::nn_grad {
namespace {

/// The attrs Conv2D and its backprops pass on to each other.
AttrMap conv2DAttrs(const GradientContext& ctx)
{
    return forwardAttrs(ctx.node(),
                        {"dilations", "strides", "padding", "explicit_paddings", "use_cudnn_on_gpu", "data_format"});
}

AttrMap depthwiseAttrs(const GradientContext& ctx)
{
    return forwardAttrs(ctx.node(), {"dilations", "strides", "padding", "data_format"});
}

AttrMap poolAttrs(const GradientContext& ctx)
{
    return forwardAttrs(ctx.node(), {"ksize", "strides", "padding", "data_format"});
}

Status setBoth(GradientContext& ctx, int i, const Output& gi, int j, const Output& gj)
{
    TSTUDIO_AD_CHECK(ctx.setInputGradient(i, gi));
    return ctx.setInputGradient(j, gj);
}

// --- Convolutions -----------------------------------------------------------------------------------------

/// Input and filter shapes from one ShapeN, then the two backprop ops.
Status conv2DGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const AttrMap attrs = conv2DAttrs(ctx);
    TSTUDIO_AD_TRY(shapes, b.op("ShapeN", {std::vector<Output>{ctx.input(0), ctx.input(1)}},
                                {{"out_type", attr::type(tensorflow::DT_INT32)}}));
    TSTUDIO_AD_TRY(gInput, py::genOp(b, "Conv2DBackpropInput", {shapes.output(0), ctx.input(1), grad}, attrs));
    TSTUDIO_AD_TRY(gFilter, py::genOp(b, "Conv2DBackpropFilter", {ctx.input(0), shapes.output(1), grad}, attrs));
    return setBoth(ctx, 0, gInput, 1, gFilter);
}

/// Conv2DBackpropInput(input_sizes, filter, out_backprop) and
/// DepthwiseConv2dNativeBackpropInput: linear in the filter and in out_backprop.
Status backpropInputGrad(GradientContext& ctx, std::string_view filterBackprop, std::string_view forward,
                         const AttrMap& attrs)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(filterSizes, py::shape(b, ctx.input(1)));
    TSTUDIO_AD_TRY(gFilter, py::genOp(b, filterBackprop, {grad, filterSizes, ctx.input(2)}, attrs));
    TSTUDIO_AD_TRY(gOut, py::genOp(b, forward, {grad, ctx.input(1)}, attrs));
    return setBoth(ctx, 1, gFilter, 2, gOut);
}

/// Conv2DBackpropFilter(input, filter_sizes, out_backprop) and
/// DepthwiseConv2dNativeBackpropFilter: linear in the input and in out_backprop.
Status backpropFilterGrad(GradientContext& ctx, std::string_view inputBackprop, std::string_view forward,
                          const AttrMap& attrs)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(inputSizes, py::shape(b, ctx.input(0)));
    TSTUDIO_AD_TRY(gInput, py::genOp(b, inputBackprop, {inputSizes, grad, ctx.input(2)}, attrs));
    TSTUDIO_AD_TRY(gOut, py::genOp(b, forward, {ctx.input(0), grad}, attrs));
    return setBoth(ctx, 0, gInput, 2, gOut);
}

/// Separate Shape ops (not ShapeN) for the depthwise convolution, as TensorFlow builds it.
Status depthwiseConv2DGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const AttrMap attrs = depthwiseAttrs(ctx);
    TSTUDIO_AD_TRY(inputSizes, py::shape(b, ctx.input(0)));
    TSTUDIO_AD_TRY(gInput, py::genOp(b, "DepthwiseConv2dNativeBackpropInput", {inputSizes, ctx.input(1), grad}, attrs));
    TSTUDIO_AD_TRY(filterSizes, py::shape(b, ctx.input(1)));
    TSTUDIO_AD_TRY(gFilter,
                   py::genOp(b, "DepthwiseConv2dNativeBackpropFilter", {ctx.input(0), filterSizes, grad}, attrs));
    return setBoth(ctx, 0, gInput, 1, gFilter);
}

// --- Pooling and LRN -------------------------------------------------------------------------------------

Status maxPoolGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), "MaxPoolGrad", {ctx.input(0), ctx.output(0), grad}, poolAttrs(ctx)));
    return ctx.setInputGradient(0, g);
}

Status avgPoolGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(inputShape, py::shape(b, ctx.input(0)));
    TSTUDIO_AD_TRY(g, py::genOp(b, "AvgPoolGrad", {inputShape, grad}, poolAttrs(ctx)));
    return ctx.setInputGradient(0, g);
}

/// AvgPoolGrad is linear in its gradient input: AvgPool of the new gradient. TensorFlow returns
/// stop_gradient(orig_input_shape) as the "gradient" of the int32 shape input; so do we.
Status avgPoolGradGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(stopped, py::genOp(b, "StopGradient", {ctx.input(0)}));
    TSTUDIO_AD_TRY(g, py::genOp(b, "AvgPool", {grad}, poolAttrs(ctx)));
    return setBoth(ctx, 0, stopped, 1, g);
}

Status lrnGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), "LRNGrad", {grad, ctx.input(0), ctx.output(0)},
                                forwardAttrs(ctx.node(), {"depth_radius", "bias", "alpha", "beta"})));
    return ctx.setInputGradient(0, g);
}

// --- Batch normalization -----------------------------------------------------------------------------------

/// array_ops.transpose(x, perm): "transpose/perm" and the Transpose "transpose".
Expected<Output> transpose(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& perm)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("transpose"));
    TSTUDIO_AD_TRY(permT, py::intVector(b, perm, "perm"));
    return py::genOp(b, "Transpose", {x, permT}, {}, scope.name());
}

/// FusedBatchNorm (version 0), V2 (1), V3 (2). Training: the grad op of the saved batch statistics,
/// all five of its outputs going to the five inputs (as TensorFlow returns them). Inference: the
/// grad op of the population statistics in NHWC (NCHW inputs transposed there and back); mean and
/// variance get none.
Status fusedBatchNormGrad(GradientContext& ctx, int version)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(gradY, ctx.grad(0));
    const std::string_view gradOp = version == 2   ? "FusedBatchNormGradV3"
                                    : version == 1 ? "FusedBatchNormGradV2"
                                                   : "FusedBatchNormGrad";
    TSTUDIO_AD_TRY(training, attrBool(ctx.node(), "is_training"));
    TSTUDIO_AD_TRY(format, attrString(ctx.node(), "data_format"));
    AttrMap attrs = forwardAttrs(ctx.node(), {"epsilon", "data_format", "is_training"});
    const Output& scale = ctx.input(1);
    if (training) {
        std::vector<OpInput> inputs = {gradY, ctx.input(0), scale, ctx.output(3), ctx.output(4)};
        if (version == 2)
            inputs.emplace_back(ctx.output(5));
        TSTUDIO_AD_TRY(op, b.op(gradOp, std::move(inputs), std::move(attrs)));
        for (int i = 0; i < 5; ++i)
            TSTUDIO_AD_CHECK(ctx.setInputGradient(i, op.output(i)));
        return Status::ok();
    }
    const bool nchw = format == "NCHW";
    Output x = ctx.input(0);
    Output dy = gradY;
    if (nchw) {
        TSTUDIO_AD_TRY(xT, transpose(b, x, {0, 2, 3, 1}));
        TSTUDIO_AD_TRY(dyT, transpose(b, dy, {0, 2, 3, 1}));
        x = xT;
        dy = dyT;
    }
    attrs["data_format"] = attr::s("NHWC");
    std::vector<OpInput> inputs = {dy, x, scale, ctx.input(3), ctx.input(4)};
    if (version == 2)
        inputs.emplace_back(ctx.output(5));
    TSTUDIO_AD_TRY(op, b.op(gradOp, std::move(inputs), std::move(attrs)));
    Output dx = op.output(0);
    if (nchw) {
        TSTUDIO_AD_TRY(back, transpose(b, dx, {0, 3, 1, 2}));
        dx = back;
    }
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, dx));
    return setBoth(ctx, 1, op.output(1), 2, op.output(2));
}

} // namespace

GradientTable convPoolNormGradients()
{
    return {
        {"Conv2D", conv2DGrad},
        {"Conv2DBackpropInput",
         [](GradientContext& c) { return backpropInputGrad(c, "Conv2DBackpropFilter", "Conv2D", conv2DAttrs(c)); }},
        {"Conv2DBackpropFilter",
         [](GradientContext& c) { return backpropFilterGrad(c, "Conv2DBackpropInput", "Conv2D", conv2DAttrs(c)); }},
        {"DepthwiseConv2dNative", depthwiseConv2DGrad},
        {"DepthwiseConv2dNativeBackpropInput",
         [](GradientContext& c) {
             return backpropInputGrad(c, "DepthwiseConv2dNativeBackpropFilter", "DepthwiseConv2dNative",
                                      depthwiseAttrs(c));
         }},
        {"DepthwiseConv2dNativeBackpropFilter",
         [](GradientContext& c) {
             return backpropFilterGrad(c, "DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNative",
                                       depthwiseAttrs(c));
         }},
        {"MaxPool", maxPoolGrad},
        {"AvgPool", avgPoolGrad},
        {"AvgPoolGrad", avgPoolGradGrad},
        {"LRN", lrnGrad},
        {"FusedBatchNorm", [](GradientContext& c) { return fusedBatchNormGrad(c, 0); }},
        {"FusedBatchNormV2", [](GradientContext& c) { return fusedBatchNormGrad(c, 1); }},
        {"FusedBatchNormV3", [](GradientContext& c) { return fusedBatchNormGrad(c, 2); }},
    };
}

} // namespace tstudio::nn_grad
