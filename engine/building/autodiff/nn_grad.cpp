// The nn family's gradients as TensorFlow 1.15's nn_grad.py builds them: activations and their
// second derivatives, softmax, bias add, the cross-entropy losses and L2Loss; InTopK is not
// differentiable. Every function emits the ops (and node names) the Python function emits. The
// convolutions, pooling and normalizations are in nn_grad_conv_pool_norm.cpp.
#include "autodiff/gradients_registry.h"
#include "autodiff/nn_grad_internal.h"
#include "builder/ops_sugar.h"
#include "framework/node_attrs.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>

namespace tstudio {
namespace nn_grad {

AttrMap forwardAttrs(const tensorflow::NodeDef& node, std::initializer_list<std::string_view> names)
{
    AttrMap attrs;
    for (std::string_view name : names) {
        if (const tensorflow::AttrValue* value = findAttr(node, name))
            attrs.emplace(std::string(name), *value);
    }
    return attrs;
}

Expected<Output> zerosOfShapeOf(GraphBuilder& b, const Output& x)
{
    TSTUDIO_AD_TRY(dims, py::shape(b, x));
    return py::zeros(b, dims, x.baseDtype());
}

} // namespace nn_grad

namespace {

using py::Operator;

Status setBoth(GradientContext& ctx, const Output& g0, const Output& g1)
{
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, g0));
    return ctx.setInputGradient(1, g1);
}

// --- Activations ----------------------------------------------------------------------------------------

/// Relu, Relu6, Elu, Selu: the gradient op of the incoming gradient and the forward output.
Status outputBasedGrad(GradientContext& ctx, std::string_view gradOp)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), gradOp, {grad, ctx.output(0)}));
    return ctx.setInputGradient(0, g);
}

/// Softsign and LeakyRelu (with its alpha): the gradient op of the incoming gradient and the input.
Status inputBasedGrad(GradientContext& ctx, std::string_view gradOp, AttrMap attrs = {})
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), gradOp, {grad, ctx.input(0)}, std::move(attrs)));
    return ctx.setInputGradient(0, g);
}

/// grad * sigmoid(features): TensorFlow 1.15 uses Sigmoid here rather than SoftplusGrad.
Status softplusGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(sigmoid, py::genOp(b, "Sigmoid", {ctx.input(0)}));
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kMul, grad, sigmoid));
    return ctx.setInputGradient(0, g);
}

// --- Second derivatives: the *Grad ops (inputs: the incoming gradient, then features or outputs) --------

/// ReluGrad, Relu6Grad, LeakyReluGrad are linear in their first input and piecewise constant in the
/// second: the same op of the new gradient, and zeros for the features.
Status piecewiseLinearGradGrad(GradientContext& ctx, std::string_view gradOp, AttrMap attrs = {})
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& x = ctx.input(1);
    TSTUDIO_AD_TRY(ga, py::genOp(b, gradOp, {grad, x}, std::move(attrs)));
    TSTUDIO_AD_TRY(gx, nn_grad::zerosOfShapeOf(b, x));
    return setBoth(ctx, ga, gx);
}

/// EluGrad and SeluGrad (second input: the forward outputs y): the same op of the new gradient, and
/// grad * gradients where y < 0, else zeros.
Status expLinearGradGrad(GradientContext& ctx, std::string_view gradOp)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& y = ctx.input(1);
    TSTUDIO_AD_TRY(ga, py::genOp(b, gradOp, {grad, y}));
    TSTUDIO_AD_TRY(negative, py::genOpScalarY(b, "Less", y, 0.0));
    TSTUDIO_AD_TRY(product, py::binary(b, Operator::kMul, grad, ctx.input(0)));
    TSTUDIO_AD_TRY(zeros, py::zerosLike(b, y));
    TSTUDIO_AD_TRY(gy, py::where(b, negative, product, zeros));
    return setBoth(ctx, ga, gy);
}

/// SoftplusGrad(dy, x) = dy * sigmoid(x): (SoftplusGrad(grad, x), grad * dy / (exp(-x) + 2 + exp(x))),
/// all gated on the incoming gradient.
Status softplusGradGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& dy = ctx.input(0);
    const Output& x = ctx.input(1);
    TSTUDIO_AD_TRY(op, py::producer(b, grad));
    auto control = b.controlDependencies({op});
    TSTUDIO_AD_TRY(ddy, py::genOp(b, "SoftplusGrad", {grad, x}));
    TSTUDIO_AD_TRY(numerator, py::binary(b, Operator::kMul, grad, dy));
    TSTUDIO_AD_TRY(negX, py::neg(b, x));
    TSTUDIO_AD_TRY(expNeg, py::genOp(b, "Exp", {negX}));
    TSTUDIO_AD_TRY(plusTwo, py::binary(b, Operator::kAdd, expNeg, 2.0));
    TSTUDIO_AD_TRY(expPos, py::genOp(b, "Exp", {x}));
    TSTUDIO_AD_TRY(denominator, py::binary(b, Operator::kAdd, plusTwo, expPos));
    TSTUDIO_AD_TRY(d2x, py::binary(b, Operator::kTrueDiv, numerator, denominator));
    return setBoth(ctx, ddy, d2x);
}

// --- Softmax ----------------------------------------------------------------------------------------------

/// math_ops.reduce_sum(x, <python int>, keepdims): "Sum/reduction_indices" and "Sum".
Expected<Output> reduceSumAxis(GraphBuilder& b, const Output& x, std::int64_t axis, bool keepDims)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Sum"));
    TSTUDIO_AD_TRY(axisT,
                   ops::constantInts(b, {axis}, TensorShape::scalar(), tensorflow::DT_INT32, "reduction_indices"));
    return py::genOp(b, "Sum", {x, axisT}, {{"keep_dims", attr::b(keepDims)}}, scope.name());
}

/// (grad - sum(grad * softmax, -1, keepdims)) * softmax.
Status softmaxGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& softmax = ctx.output(0);
    TSTUDIO_AD_TRY(weighted, py::binary(b, Operator::kMul, grad, softmax));
    TSTUDIO_AD_TRY(sum, reduceSumAxis(b, weighted, -1, true));
    TSTUDIO_AD_TRY(centred, py::binary(b, Operator::kSub, grad, sum));
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kMul, centred, softmax));
    return ctx.setInputGradient(0, g);
}

/// grad - sum(grad, -1, keepdims) * exp(log_softmax).
Status logSoftmaxGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(softmax, py::genOp(b, "Exp", {ctx.output(0)}));
    TSTUDIO_AD_TRY(sum, reduceSumAxis(b, grad, -1, true));
    TSTUDIO_AD_TRY(scaled, py::binary(b, Operator::kMul, sum, softmax));
    TSTUDIO_AD_TRY(g, py::binary(b, Operator::kSub, grad, scaled));
    return ctx.setInputGradient(0, g);
}

// --- Bias ------------------------------------------------------------------------------------------------

Status biasAddGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(gBias,
                   py::genOp(ctx.builder(), "BiasAddGrad", {grad}, nn_grad::forwardAttrs(ctx.node(), {"data_format"})));
    return setBoth(ctx, grad, gBias);
}

/// BiasAddV1: the bias gets the gradient summed over every dimension but the last (Rank, sub, range).
Status biasAddV1Grad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    // array_ops.rank: a Const when the rank is known.
    Output rank;
    if (grad.shape().rank() >= 0) {
        TSTUDIO_AD_TRY(
            r, ops::constantInts(b, {grad.shape().rank()}, TensorShape::scalar(), tensorflow::DT_INT32, "Rank"));
        rank = r;
    } else {
        TSTUDIO_AD_TRY(r, py::genOp(b, "Rank", {grad}));
        rank = r;
    }
    TSTUDIO_AD_TRY(limit, py::binary(b, Operator::kSub, rank, 1.0));
    Output axes;
    {
        TSTUDIO_AD_TRY(scope, b.nameScope("range"));
        TSTUDIO_AD_TRY(start, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "start"));
        TSTUDIO_AD_TRY(delta, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "delta"));
        TSTUDIO_AD_TRY(r, py::genOp(b, "Range", {start, limit, delta}, {}, scope.name()));
        axes = r;
    }
    TSTUDIO_AD_TRY(gBias, py::reduceSum(b, grad, axes));
    return setBoth(ctx, grad, gBias);
}

/// x[begin:end] of a 1-D tensor (Tensor.__getitem__), an absent bound taken as open: the
/// "strided_slice/stack*" constants and the StridedSlice "strided_slice".
Expected<Output> slice1D(GraphBuilder& b, const Output& x, std::optional<std::int64_t> begin,
                         std::optional<std::int64_t> end)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("strided_slice"));
    TSTUDIO_AD_TRY(beginT, py::intVector(b, {begin.value_or(0)}, "stack"));
    TSTUDIO_AD_TRY(endT, py::intVector(b, {end.value_or(0)}, "stack_1"));
    TSTUDIO_AD_TRY(strides, py::intVector(b, {1}, "stack_2"));
    return py::genOp(b, "StridedSlice", {x, beginT, endT, strides},
                     {{"begin_mask", attr::i(begin ? 0 : 1)},
                      {"end_mask", attr::i(end ? 0 : 1)},
                      {"ellipsis_mask", attr::i(0)},
                      {"new_axis_mask", attr::i(0)},
                      {"shrink_axis_mask", attr::i(0)}},
                     scope.name());
}

/// One element of array_ops.concat's list: a tensor, or a Python list of ints.
struct ConcatPart {
    std::optional<Output> tensor;
    std::vector<std::int64_t> ints;
};

/// array_ops.concat(parts, 0): the Python lists become "concat/values_<i>", the axis "concat/axis".
Expected<Output> concat0(GraphBuilder& b, const std::vector<ConcatPart>& parts)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("concat"));
    std::vector<Output> values;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (parts[i].tensor) {
            values.push_back(*parts[i].tensor);
            continue;
        }
        TSTUDIO_AD_TRY(c, py::intVector(b, parts[i].ints, "values_" + std::to_string(i)));
        values.push_back(c);
    }
    TSTUDIO_AD_TRY(axis, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
    return py::genOp(b, "ConcatV2", {values, axis}, {}, scope.name());
}

/// BiasAddGrad's input is the gradient of a BiasAdd output: the incoming bias gradient reshaped to
/// broadcast over the channel dimension and tiled to the input's shape.
Status biasAddGradGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    auto format = attrString(ctx.node(), "data_format");
    const bool nchw = format && *format == "NCHW";
    TSTUDIO_AD_TRY(shape, py::shape(b, ctx.input(0)));
    TSTUDIO_AD_TRY(biasShape, py::shape(b, grad));
    Output expandedShape;
    Output tileMultiples;
    if (nchw) {
        TSTUDIO_AD_TRY(batch, slice1D(b, shape, std::nullopt, 1));
        TSTUDIO_AD_TRY(batchOnes, py::onesLike(b, batch));
        TSTUDIO_AD_TRY(spatial, slice1D(b, shape, 2, std::nullopt));
        TSTUDIO_AD_TRY(spatialOnes, py::onesLike(b, spatial));
        TSTUDIO_AD_TRY(e, concat0(b, {{batchOnes, {}}, {biasShape, {}}, {spatialOnes, {}}}));
        TSTUDIO_AD_TRY(batch2, slice1D(b, shape, std::nullopt, 1));
        TSTUDIO_AD_TRY(spatial2, slice1D(b, shape, 2, std::nullopt));
        TSTUDIO_AD_TRY(t, concat0(b, {{batch2, {}}, {std::nullopt, {1}}, {spatial2, {}}}));
        expandedShape = e;
        tileMultiples = t;
    } else {
        TSTUDIO_AD_TRY(outer, slice1D(b, shape, std::nullopt, -1));
        TSTUDIO_AD_TRY(outerOnes, py::onesLike(b, outer));
        TSTUDIO_AD_TRY(e, concat0(b, {{outerOnes, {}}, {biasShape, {}}}));
        TSTUDIO_AD_TRY(outer2, slice1D(b, shape, std::nullopt, -1));
        TSTUDIO_AD_TRY(t, concat0(b, {{outer2, {}}, {std::nullopt, {1}}}));
        expandedShape = e;
        tileMultiples = t;
    }
    TSTUDIO_AD_TRY(expanded, py::reshape(b, grad, expandedShape));
    TSTUDIO_AD_TRY(g, py::tile(b, expanded, tileMultiples));
    return ctx.setInputGradient(0, g);
}

// --- Losses ----------------------------------------------------------------------------------------------

/// _BroadcastMul(vec, mat): expand_dims(vec, -1) * mat.
Expected<Output> broadcastMul(GraphBuilder& b, const Output& vec, const Output& mat)
{
    TSTUDIO_AD_TRY(column, py::expandDims(b, vec, -1));
    return py::binary(b, Operator::kMul, column, mat);
}

/// Whether every element of a known value is zero (floating dtypes; false for others).
bool allZero(const Tensor& t)
{
    switch (t.dtype()) {
    case tensorflow::DT_FLOAT: {
        auto v = t.values<float>();
        return std::all_of(v.begin(), v.end(), [](float e) { return e == 0.0f; });
    }
    case tensorflow::DT_DOUBLE: {
        auto v = t.values<double>();
        return std::all_of(v.begin(), v.end(), [](double e) { return e == 0.0; });
    }
    case tensorflow::DT_HALF:
    case tensorflow::DT_BFLOAT16: {
        auto bytes = t.tensorData();
        for (std::size_t i = 0; i + 1 < bytes.size(); i += 2) {
            std::uint16_t bits = 0;
            std::memcpy(&bits, bytes.data() + i, 2);
            if ((bits & 0x7fffu) != 0)
                return false;
        }
        return true;
    }
    default: return false;
    }
}

/// The IsZero test of _SoftmaxCrossEntropyWithLogitsGrad: a ZerosLike (or Zeros) op, or a value
/// tensor_util.constant_value knows to be all zeros (a Const, or a Fill of a zero constant into a
/// fully defined shape).
bool isZero(GraphBuilder& b, const Output& g)
{
    const tensorflow::NodeDef* node = b.findNode(g.node());
    if (node == nullptr)
        return false;
    if (node->op() == "ZerosLike" || node->op() == "Zeros")
        return true;
    if (const Tensor* value = b.constantValue(g))
        return allZero(*value);
    if (node->op() == "Fill" && g.shape().isFullyDefined() && node->input_size() >= 2) {
        auto fillValue = b.tensor(node->input(1));
        if (!fillValue)
            return false;
        const Tensor* value = b.constantValue(*fillValue);
        return value != nullptr && allZero(*value);
    }
    return false;
}

/// Loss gradient: grad_loss * backprop (broadcast over classes); labels: grad_loss * -log_softmax.
/// A non-zero gradient arriving at the backprop output adds the softmax Jacobian's product with it.
Status softmaxXentGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(gradLoss, ctx.grad(0));
    const std::optional<Output>& gradGrad = ctx.outputGradient(1);
    const Output& logits = ctx.input(0);
    TSTUDIO_AD_TRY(grad, broadcastMul(b, gradLoss, ctx.output(1)));
    if (gradGrad && !isZero(b, *gradGrad)) {
        TSTUDIO_AD_TRY(softmax, py::genOp(b, "Softmax", {logits}));
        TSTUDIO_AD_TRY(row, py::expandDims(b, *gradGrad, 1));
        TSTUDIO_AD_TRY(column, py::expandDims(b, softmax, 2));
        TSTUDIO_AD_TRY(dot, py::matmul(b, row, column, false, false));
        TSTUDIO_AD_TRY(squeezed, py::genOp(b, "Squeeze", {dot}, {{"squeeze_dims", attr::ints({1})}}));
        TSTUDIO_AD_TRY(centred, py::binary(b, Operator::kSub, *gradGrad, squeezed));
        TSTUDIO_AD_TRY(jacobianProduct, py::binary(b, Operator::kMul, centred, softmax));
        TSTUDIO_AD_TRY(sum, py::binary(b, Operator::kAdd, grad, jacobianProduct));
        grad = sum;
    }
    TSTUDIO_AD_TRY(logSoftmax, py::genOp(b, "LogSoftmax", {logits}));
    TSTUDIO_AD_TRY(negated, py::neg(b, logSoftmax));
    TSTUDIO_AD_TRY(gLabels, broadcastMul(b, gradLoss, negated));
    return setBoth(ctx, grad, gLabels);
}

/// TensorFlow's PreventGradient message for the backprop output of the sparse cross-entropy.
constexpr const char* kSparseXentPreventMessage =
    "Currently there is no way to take the second derivative of sparse_softmax_cross_entropy_with_logits due to "
    "the fused implementation's interaction with tf.gradients()";

/// Logits: grad_loss * backprop, the backprop behind a PreventGradient; labels get none.
Status sparseSoftmaxXentGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(gradLoss, ctx.grad(0));
    TSTUDIO_AD_TRY(prevented,
                   py::genOp(b, "PreventGradient", {ctx.output(1)}, {{"message", attr::s(kSparseXentPreventMessage)}}));
    TSTUDIO_AD_TRY(g, broadcastMul(b, gradLoss, prevented));
    return ctx.setInputGradient(0, g);
}

/// t * grad.
Status l2LossGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, py::binary(ctx.builder(), Operator::kMul, ctx.input(0), grad));
    return ctx.setInputGradient(0, g);
}

GradientTable activationAndLossGradients()
{
    auto alpha = [](GradientContext& c) { return nn_grad::forwardAttrs(c.node(), {"alpha"}); };
    return {
        {"Relu", [](GradientContext& c) { return outputBasedGrad(c, "ReluGrad"); }},
        {"Relu6", [](GradientContext& c) { return outputBasedGrad(c, "Relu6Grad"); }},
        {"Elu", [](GradientContext& c) { return outputBasedGrad(c, "EluGrad"); }},
        {"Selu", [](GradientContext& c) { return outputBasedGrad(c, "SeluGrad"); }},
        {"LeakyRelu", [alpha](GradientContext& c) { return inputBasedGrad(c, "LeakyReluGrad", alpha(c)); }},
        {"Softplus", softplusGrad},
        {"Softsign", [](GradientContext& c) { return inputBasedGrad(c, "SoftsignGrad"); }},
        {"ReluGrad", [](GradientContext& c) { return piecewiseLinearGradGrad(c, "ReluGrad"); }},
        {"Relu6Grad", [](GradientContext& c) { return piecewiseLinearGradGrad(c, "Relu6Grad"); }},
        {"LeakyReluGrad",
         [alpha](GradientContext& c) { return piecewiseLinearGradGrad(c, "LeakyReluGrad", alpha(c)); }},
        {"EluGrad", [](GradientContext& c) { return expLinearGradGrad(c, "EluGrad"); }},
        {"SeluGrad", [](GradientContext& c) { return expLinearGradGrad(c, "SeluGrad"); }},
        {"SoftplusGrad", softplusGradGrad},
        {"Softmax", softmaxGrad},
        {"LogSoftmax", logSoftmaxGrad},
        {"BiasAdd", biasAddGrad},
        {"BiasAddV1", biasAddV1Grad},
        {"BiasAddGrad", biasAddGradGrad},
        {"SoftmaxCrossEntropyWithLogits", softmaxXentGrad},
        {"SparseSoftmaxCrossEntropyWithLogits", sparseSoftmaxXentGrad},
        {"L2Loss", l2LossGrad},
    };
}

/// Their boolean outputs carry no gradient.
constexpr std::string_view kNotDifferentiable[] = {"InTopK", "InTopKV2"};

} // namespace

Status registerNnGradients(OpRegistry& registry)
{
    return registerGradientTables(registry, {activationAndLossGradients(), nn_grad::convPoolNormGradients()},
                                  kNotDifferentiable);
}

} // namespace tstudio
