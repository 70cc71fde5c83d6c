// The nn family's gradients of gradient ops: MaxPoolGrad and MaxPoolGradGrad (each the other's
// gradient op, as TensorFlow 1.15's nn_grad.py has them), FusedBatchNormGrad V1/V2/V3 (TensorFlow's
// _BatchNormGrad expression differentiated by a nested addSymbolicGradients, as its
// _FusedBatchNormGradGrad calls tf.gradients), and two gradients TensorFlow 1.15 does not have:
// SoftsignGrad and LRNGrad, each written with existing differentiable ops.
#include "autodiff/gradients.h"
#include "autodiff/gradients_registry.h"
#include "autodiff/nn_grad_internal.h"
#include "builder/ops_sugar.h"
#include "framework/node_attrs.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {
namespace {

using py::Operator;

/// The options of a nested gradients call that differentiates with respect to `inputs` of the op
/// being differentiated: the partial derivatives only. The inputs' producers stop the flow, so no
/// path from one input through another (a y_backprop computed from x, in a second derivative)
/// is counted here and again by the outer call. TensorFlow 1.15's tf.gradients call in
/// _FusedBatchNormGradGrad passes no stop_gradients and counts such paths twice; its later
/// GradientTape version (tape.watch of the inputs) computes these partials.
GradientsOptions partialsOnly(std::vector<Output> inputs)
{
    GradientsOptions options;
    options.stopGradients = std::move(inputs);
    return options;
}

// --- Max pooling -------------------------------------------------------------------------------------------

/// MaxPoolGrad(orig_input, orig_output, grad) and MaxPoolGradGrad(...): zeros for the two pooled
/// tensors (the routing is piecewise constant in them) and `gradOp` of the incoming gradient for grad.
Status maxPoolSecondOrderGrad(GradientContext& ctx, std::string_view gradOp)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(zerosInput, nn_grad::zerosOfShapeOf(b, ctx.input(0)));
    TSTUDIO_AD_TRY(zerosOutput, nn_grad::zerosOfShapeOf(b, ctx.input(1)));
    TSTUDIO_AD_TRY(g, py::genOp(b, gradOp, {ctx.input(0), ctx.input(1), grad},
                                nn_grad::forwardAttrs(ctx.node(), {"ksize", "strides", "padding", "data_format"})));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, zerosInput));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(1, zerosOutput));
    return ctx.setInputGradient(2, g);
}

// --- Batch normalization -----------------------------------------------------------------------------------

/// math_ops.reduce_mean / reduce_sum over python-int axes: the axes "Const", then `type`.
Expected<Output> reduce(GraphBuilder& b, std::string_view type, const Output& x, const std::vector<std::int64_t>& axes,
                        bool keepDims)
{
    TSTUDIO_AD_TRY(axesT, py::intVector(b, axes));
    return py::genOp(b, type, {x, axesT}, {{"keep_dims", attr::b(keepDims)}});
}

/// The three gradients _BatchNormGrad computes from differentiable ops.
struct BatchNormGrads {
    Output x, scale, offset;
};

/// TensorFlow's _BatchNormGrad(grad_y, x, scale, pop_mean, pop_var, epsilon, data_format,
/// is_training) for 4-D inputs: half inputs computed in float; training recomputes the batch
/// statistics from x (the variance around a stopped mean), inference uses the population ones.
/// A per-channel vector is reshaped to [1, C, 1, 1] for NCHW (TensorFlow packs [1, size(v), 1, 1]
/// for the shape; here the shape is the constant [1, -1, 1, 1], the same values).
Expected<BatchNormGrads> batchNormGrad(GraphBuilder& b, Output gradY, Output x, Output scale, Output popMean,
                                       Output popVar, double epsilon, bool nchw, bool training)
{
    const DataType xType = x.baseDtype();
    if (xType == tensorflow::DT_HALF) {
        TSTUDIO_AD_TRY(xf, py::cast(b, x, tensorflow::DT_FLOAT));
        TSTUDIO_AD_TRY(gf, py::cast(b, gradY, tensorflow::DT_FLOAT));
        x = xf;
        gradY = gf;
    }
    const std::vector<std::int64_t> axes =
        nchw ? std::vector<std::int64_t>{0, 2, 3} : std::vector<std::int64_t>{0, 1, 2};
    auto channels = [&](const Output& v) { return py::reshape(b, v, std::vector<std::int64_t>{1, -1, 1, 1}); };
    BatchNormGrads out;
    if (training) {
        const bool keep = nchw;
        if (nchw) {
            TSTUDIO_AD_TRY(s, channels(scale));
            scale = s;
        }
        TSTUDIO_AD_TRY(meanGradY, reduce(b, "Mean", gradY, axes, keep));
        TSTUDIO_AD_TRY(meanX, reduce(b, "Mean", x, axes, keep));
        TSTUDIO_AD_TRY(stoppedMean, py::genOp(b, "StopGradient", {meanX}));
        TSTUDIO_AD_TRY(squares, py::genOp(b, "SquaredDifference", {x, stoppedMean}));
        TSTUDIO_AD_TRY(varX, reduce(b, "Mean", squares, axes, keep));
        TSTUDIO_AD_TRY(gradYOffset, py::binary(b, Operator::kSub, gradY, meanGradY));
        TSTUDIO_AD_TRY(xOffset, py::binary(b, Operator::kSub, x, meanX));
        TSTUDIO_AD_TRY(product, py::binary(b, Operator::kMul, gradY, xOffset));
        TSTUDIO_AD_TRY(mean, reduce(b, "Mean", product, axes, keep));
        // scale * rsqrt(var + eps) * (grad_y_offset - reciprocal(var + eps) * mean * x_offset)
        TSTUDIO_AD_TRY(varEps, py::binary(b, Operator::kAdd, varX, epsilon));
        TSTUDIO_AD_TRY(rsqrt, py::genOp(b, "Rsqrt", {varEps}));
        TSTUDIO_AD_TRY(scaled, py::binary(b, Operator::kMul, scale, rsqrt));
        TSTUDIO_AD_TRY(varEps2, py::binary(b, Operator::kAdd, varX, epsilon));
        TSTUDIO_AD_TRY(reciprocal, py::genOp(b, "Reciprocal", {varEps2}));
        TSTUDIO_AD_TRY(t1, py::binary(b, Operator::kMul, reciprocal, mean));
        TSTUDIO_AD_TRY(t2, py::binary(b, Operator::kMul, t1, xOffset));
        TSTUDIO_AD_TRY(centred, py::binary(b, Operator::kSub, gradYOffset, t2));
        TSTUDIO_AD_TRY(gradX, py::binary(b, Operator::kMul, scaled, centred));
        // rsqrt(var + eps) * reduce_sum(grad_y * x_offset)
        TSTUDIO_AD_TRY(varEps3, py::binary(b, Operator::kAdd, varX, epsilon));
        TSTUDIO_AD_TRY(rsqrt2, py::genOp(b, "Rsqrt", {varEps3}));
        TSTUDIO_AD_TRY(product2, py::binary(b, Operator::kMul, gradY, xOffset));
        TSTUDIO_AD_TRY(sum, reduce(b, "Sum", product2, axes, keep));
        TSTUDIO_AD_TRY(gradScale, py::binary(b, Operator::kMul, rsqrt2, sum));
        out.scale = gradScale;
        if (nchw) {
            TSTUDIO_AD_TRY(squeezed, py::genOp(b, "Squeeze", {gradScale}));
            out.scale = squeezed;
        }
        TSTUDIO_AD_TRY(gradOffset, reduce(b, "Sum", gradY, axes, false));
        out.offset = gradOffset;
        TSTUDIO_AD_TRY(castBack, py::cast(b, gradX, xType));
        out.x = castBack;
        return out;
    }
    if (nchw) {
        TSTUDIO_AD_TRY(m, channels(popMean));
        TSTUDIO_AD_TRY(v, channels(popVar));
        TSTUDIO_AD_TRY(s, channels(scale));
        popMean = m;
        popVar = v;
        scale = s;
    }
    TSTUDIO_AD_TRY(gradOffset, reduce(b, "Sum", gradY, axes, false));
    TSTUDIO_AD_TRY(varEps, py::binary(b, Operator::kAdd, popVar, epsilon));
    TSTUDIO_AD_TRY(varRsqrt, py::genOp(b, "Rsqrt", {varEps}));
    TSTUDIO_AD_TRY(centred, py::binary(b, Operator::kSub, x, popMean));
    TSTUDIO_AD_TRY(t1, py::binary(b, Operator::kMul, gradY, centred));
    TSTUDIO_AD_TRY(t2, py::binary(b, Operator::kMul, t1, varRsqrt));
    TSTUDIO_AD_TRY(gradScale, reduce(b, "Sum", t2, axes, false));
    TSTUDIO_AD_TRY(t3, py::binary(b, Operator::kMul, gradY, scale));
    TSTUDIO_AD_TRY(gradX, py::binary(b, Operator::kMul, t3, varRsqrt));
    TSTUDIO_AD_TRY(castBack, py::cast(b, gradX, xType));
    return BatchNormGrads{castBack, gradScale, gradOffset};
}

/// FusedBatchNormGrad(y_backprop, x, scale, reserve_space_1, reserve_space_2[, reserve_space_3]):
/// the gradients of _BatchNormGrad's (x, scale, offset) gradients, weighted by the incoming
/// gradients of outputs 0..2, with respect to y_backprop, x and scale (a nested
/// addSymbolicGradients, TensorFlow's tf.gradients call, under "<op>_grad/gradients"; partial
/// derivatives only, see partialsOnly). The statistics inputs get none (in training they are
/// recomputed from x).
Status fusedBatchNormGradGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(epsilon, attrFloat(ctx.node(), "epsilon"));
    TSTUDIO_AD_TRY(format, attrString(ctx.node(), "data_format"));
    TSTUDIO_AD_TRY(training, attrBool(ctx.node(), "is_training"));
    if (!ctx.input(1).shape().isUnknownRank() && ctx.input(1).shape().rank() != 4)
        return invalidArgumentError("the gradient of " + ctx.node().op() + " needs a 4-D x, got shape " +
                                    ctx.input(1).shape().toString());
    const Output& gradY = ctx.input(0);
    const Output& x = ctx.input(1);
    const Output& scale = ctx.input(2);
    TSTUDIO_AD_TRY(grads,
                   batchNormGrad(b, gradY, x, scale, ctx.input(3), ctx.input(4), epsilon, format == "NCHW", training));
    std::vector<std::optional<Output>> initial;
    for (int i = 0; i < 3; ++i) {
        if (ctx.outputGradient(i)) {
            initial.push_back(ctx.outputGradient(i));
            continue;
        }
        const Output& y = i == 0 ? grads.x : i == 1 ? grads.scale : grads.offset;
        TSTUDIO_AD_TRY(zero, py::zerosLike(b, y));
        initial.push_back(zero);
    }
    TSTUDIO_AD_TRY(nested, addSymbolicGradients(b, {grads.x, grads.scale, grads.offset}, {gradY, x, scale}, initial,
                                                partialsOnly({gradY, x, scale})));
    for (int i = 0; i < 3; ++i) {
        if (const auto& g = nested[static_cast<std::size_t>(i)])
            TSTUDIO_AD_CHECK(ctx.setInputGradient(i, *g));
    }
    return Status::ok();
}

// --- Softsign --------------------------------------------------------------------------------------------

/// SoftsignGrad(gradients, features) = gradients / (1 + |features|)^2. Linear in gradients (the
/// same op of the new gradient); d/d features = -2 sign(features) gradients / (1 + |features|)^3,
/// written as -2 * SoftsignGrad(grad * gradients, features) * sign(features) / (1 + |features|).
/// TensorFlow 1.15 registers no gradient for SoftsignGrad.
Status softsignGradGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& gradients = ctx.input(0);
    const Output& features = ctx.input(1);
    TSTUDIO_AD_TRY(gGradients, py::genOp(b, "SoftsignGrad", {grad, features}));
    TSTUDIO_AD_TRY(weighted, py::binary(b, Operator::kMul, grad, gradients));
    TSTUDIO_AD_TRY(squared, py::genOp(b, "SoftsignGrad", {weighted, features}));
    TSTUDIO_AD_TRY(sign, py::genOp(b, "Sign", {features}));
    TSTUDIO_AD_TRY(abs, py::genOp(b, "Abs", {features}));
    TSTUDIO_AD_TRY(onePlus, py::binary(b, Operator::kAdd, abs, 1.0));
    TSTUDIO_AD_TRY(signed_, py::binary(b, Operator::kMul, squared, sign));
    TSTUDIO_AD_TRY(cubed, py::binary(b, Operator::kTrueDiv, signed_, onePlus));
    TSTUDIO_AD_TRY(gFeatures, py::binary(b, Operator::kMul, cubed, -2.0));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, gGradients));
    return ctx.setInputGradient(1, gFeatures);
}

// --- Local response normalization --------------------------------------------------------------------------

/// LRNGrad(input_grads g, input_image x, output_image y) computes, over the last (depth) axis with
/// W the sum over the window |j - k| <= depth_radius and N = bias + alpha * W(x^2):
///   out = -2 alpha beta x W(g y / N) + g N^-beta,
/// y taken as given (the kernel reads it, it does not recompute it). That expression is rebuilt
/// from differentiable ops (W as a MatMul of the [-1, depth] rows with a 0/1 band matrix, which
/// needs the depth statically known) and differentiated by a nested addSymbolicGradients with
/// respect to g, x and y. TensorFlow 1.15 registers no gradient for LRNGrad.
Status lrnGradGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& g = ctx.input(0);
    const Output& x = ctx.input(1);
    const Output& y = ctx.input(2);
    const TensorShape& shape = x.shape();
    if (shape.isUnknownRank() || shape.rank() != 4 || shape.dim(3) < 0)
        return unimplementedError("the gradient of LRNGrad needs a 4-D input_image with a known depth, got shape " +
                                  shape.toString());
    const std::int64_t depth = shape.dim(3);
    TSTUDIO_AD_TRY(radius, attrInt(ctx.node(), "depth_radius"));
    TSTUDIO_AD_TRY(bias, attrFloat(ctx.node(), "bias"));
    TSTUDIO_AD_TRY(alpha, attrFloat(ctx.node(), "alpha"));
    TSTUDIO_AD_TRY(beta, attrFloat(ctx.node(), "beta"));
    const DataType dtype = x.baseDtype();
    std::vector<double> bandValues(static_cast<std::size_t>(depth * depth), 0.0);
    for (std::int64_t j = 0; j < depth; ++j) {
        for (std::int64_t k = std::max<std::int64_t>(0, j - radius); k < std::min(depth, j + radius + 1); ++k)
            bandValues[static_cast<std::size_t>(j * depth + k)] = 1.0;
    }
    TSTUDIO_AD_TRY(band, ops::constant(b, bandValues, TensorShape{depth, depth}, dtype, "band"));
    auto rows = [&](const Output& t) { return py::reshape(b, t, std::vector<std::int64_t>{-1, depth}); };
    auto window = [&](const Output& t) { return py::matmul(b, t, band, false, false); };
    TSTUDIO_AD_TRY(gRows, rows(g));
    TSTUDIO_AD_TRY(xRows, rows(x));
    TSTUDIO_AD_TRY(yRows, rows(y));
    TSTUDIO_AD_TRY(squares, py::binary(b, Operator::kMul, xRows, xRows));
    TSTUDIO_AD_TRY(sums, window(squares));
    TSTUDIO_AD_TRY(scaledSums, py::binary(b, Operator::kMul, sums, double(alpha)));
    TSTUDIO_AD_TRY(norm, py::binary(b, Operator::kAdd, scaledSums, double(bias)));
    TSTUDIO_AD_TRY(gy, py::binary(b, Operator::kMul, gRows, yRows));
    TSTUDIO_AD_TRY(gyOverN, py::binary(b, Operator::kTrueDiv, gy, norm));
    TSTUDIO_AD_TRY(spread, window(gyOverN));
    TSTUDIO_AD_TRY(cross, py::binary(b, Operator::kMul, xRows, spread));
    TSTUDIO_AD_TRY(crossScaled, py::binary(b, Operator::kMul, cross, -2.0 * double(alpha) * double(beta)));
    TSTUDIO_AD_TRY(exponent, py::constant(b, -double(beta), dtype));
    TSTUDIO_AD_TRY(power, py::genOp(b, "Pow", {norm, exponent}));
    TSTUDIO_AD_TRY(direct, py::binary(b, Operator::kMul, gRows, power));
    TSTUDIO_AD_TRY(sum, py::binary(b, Operator::kAdd, crossScaled, direct));
    TSTUDIO_AD_TRY(gradRows, rows(grad));
    TSTUDIO_AD_TRY(nested, addSymbolicGradients(b, {sum}, {g, x, y}, {gradRows}, partialsOnly({g, x, y})));
    for (int i = 0; i < 3; ++i) {
        if (const auto& gi = nested[static_cast<std::size_t>(i)])
            TSTUDIO_AD_CHECK(ctx.setInputGradient(i, *gi));
    }
    return Status::ok();
}

} // namespace

Status registerNnSecondOrderGradients(OpRegistry& registry)
{
    const GradientTable table = {
        {"MaxPoolGrad", [](GradientContext& c) { return maxPoolSecondOrderGrad(c, "MaxPoolGradGrad"); }},
        {"MaxPoolGradGrad", [](GradientContext& c) { return maxPoolSecondOrderGrad(c, "MaxPoolGrad"); }},
        {"FusedBatchNormGrad", fusedBatchNormGradGrad},
        {"FusedBatchNormGradV2", fusedBatchNormGradGrad},
        {"FusedBatchNormGradV3", fusedBatchNormGradGrad},
        {"SoftsignGrad", softsignGradGrad},
        {"LRNGrad", lrnGradGrad},
    };
    for (const auto& [name, function] : table) {
        if (Status s = registry.setGradient(name, function); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
