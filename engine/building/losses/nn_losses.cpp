// tf.nn's cross-entropy losses and l2_loss as TensorFlow 1.15's Python builds them.
#include "losses/nn_losses.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"

#include <string>
#include <variant>

namespace tstudio::nn {
namespace {

/// array_ops.rank(x): a Const "Rank" when the rank is known, else a Rank op.
Expected<Output> rankOf(GraphBuilder& b, const Output& x)
{
    if (!x.shape().isUnknownRank())
        return ops::constantInts(b, {x.shape().rank()}, TensorShape::scalar(), tensorflow::DT_INT32, "Rank");
    return py::genOp(b, "Rank", {x});
}

/// gen_array_ops.pack of int32 tensors named `name` (Python's auto-packing of [tensor]).
Expected<Output> pack(GraphBuilder& b, const std::vector<Output>& values, std::string_view name)
{
    return py::genOp(b, "Pack", {values}, {{"axis", attr::i(0)}}, name);
}

/// array_ops.slice(input, begin, size): begin / size are either a Python list of ints (a Const) or a
/// list holding one tensor (a Pack), named "Slice/begin" and "Slice/size".
Expected<Output> slice1(GraphBuilder& b, const Output& input, const std::variant<std::int64_t, Output>& begin,
                        const std::variant<std::int64_t, Output>& size)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Slice"));
    auto convert = [&](const std::variant<std::int64_t, Output>& v, std::string_view argName) -> Expected<Output> {
        if (const auto* t = std::get_if<Output>(&v))
            return pack(b, {*t}, argName);
        return py::intVector(b, {std::get<std::int64_t>(v)}, argName);
    };
    TSTUDIO_AD_TRY(beginT, convert(begin, "begin"));
    TSTUDIO_AD_TRY(sizeT, convert(size, "size"));
    return py::genOp(b, "Slice", {input, beginT, sizeT}, {}, scope.name());
}

/// nn_ops._flatten_outer_dims: reshape to [-1, last dimension].
Expected<Output> flattenOuterDims(GraphBuilder& b, const Output& x)
{
    TSTUDIO_AD_TRY(rank, rankOf(b, x));
    TSTUDIO_AD_TRY(shape, py::shape(b, x));
    TSTUDIO_AD_TRY(rankMinusOne, py::genOpScalarY(b, "Sub", rank, 1));
    TSTUDIO_AD_TRY(lastDim, slice1(b, shape, rankMinusOne, std::int64_t{1}));
    Output newShape;
    {
        TSTUDIO_AD_TRY(scope, b.nameScope("concat"));
        TSTUDIO_AD_TRY(minusOne, py::intVector(b, {-1}, "values_0"));
        TSTUDIO_AD_TRY(axis, py::constant(b, 0, tensorflow::DT_INT32, "axis"));
        TSTUDIO_AD_TRY(c, py::genOp(b, "ConcatV2", {std::vector<Output>{minusOne, lastDim}, axis}, {}, scope.name()));
        newShape = c;
    }
    return py::reshape(b, x, newShape);
}

Expected<Output> castTo(GraphBuilder& b, const Output& x, DataType dtype)
{
    return py::cast(b, x, dtype);
}

/// Tensor.set_shape(shape): the same output, its static shape refined by what Python knows
/// (the builder's inference cannot see through the Slice of a shape vector).
Output withStaticShape(const Output& t, const TensorShape& shape)
{
    auto merged = t.shape().merge(shape);
    return Output(t.node(), t.index(), t.dtype(), merged ? *merged : shape);
}

bool isHalf(DataType t)
{
    return t == tensorflow::DT_HALF || t == tensorflow::DT_BFLOAT16;
}

} // namespace

Expected<Output> softmaxCrossEntropyWithLogitsV2(GraphBuilder& b, const Output& labels, const Output& logits, int axis,
                                                 std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("softmax_cross_entropy_with_logits") : name));
    const TensorShape logitsShape = logits.shape();
    const bool toFloat = isHalf(logits.baseDtype());
    Output precise = logits;
    if (toFloat) {
        TSTUDIO_AD_TRY(c, castTo(b, logits, tensorflow::DT_FLOAT));
        precise = c;
    }
    TSTUDIO_AD_TRY(castLabels, castTo(b, labels, precise.baseDtype()));
    TSTUDIO_AD_TRY(inputRank, rankOf(b, precise));
    if (axis != -1 && !(logitsShape.rank() >= 1 && axis == logitsShape.rank() - 1))
        return unexpected(unimplementedError("softmax_cross_entropy_with_logits: axis " + std::to_string(axis) +
                                             " (only the last axis is supported)"));
    TSTUDIO_AD_TRY(inputShape, py::shape(b, precise));
    TSTUDIO_AD_TRY(flatLogits, flattenOuterDims(b, precise));
    TSTUDIO_AD_TRY(flatLabels, flattenOuterDims(b, castLabels));
    TSTUDIO_AD_TRY(xent, b.op("SoftmaxCrossEntropyWithLogits", {flatLogits, flatLabels}, {}, scope.name()));
    TSTUDIO_AD_TRY(rankMinusOne, py::genOpScalarY(b, "Sub", inputRank, 1));
    TSTUDIO_AD_TRY(outputShape, slice1(b, inputShape, std::int64_t{0}, rankMinusOne));
    TSTUDIO_AD_TRY(reshaped, py::reshape(b, xent.output(0), outputShape));
    Output cost = reshaped;
    if (!logitsShape.isUnknownRank()) {
        std::vector<std::int64_t> dims(logitsShape.dims().begin(), logitsShape.dims().end());
        dims.pop_back();
        cost = withStaticShape(reshaped, TensorShape(dims));
    }
    if (toFloat)
        return castTo(b, cost, logits.baseDtype());
    return cost;
}

Expected<Output> softmaxCrossEntropyWithLogits(GraphBuilder& b, const Output& labels, const Output& logits, int axis,
                                               std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("softmax_cross_entropy_with_logits_sg") : name));
    TSTUDIO_AD_TRY(stopped, py::genOp(b, "StopGradient", {labels}, {}, "labels_stop_gradient"));
    return softmaxCrossEntropyWithLogitsV2(b, stopped, logits, axis, scope.name());
}

Expected<Output> sparseSoftmaxCrossEntropyWithLogits(GraphBuilder& b, const Output& labels, const Output& logits,
                                                     std::string_view name)
{
    const std::string_view opName = name.empty() ? std::string_view("SparseSoftmaxCrossEntropyWithLogits") : name;
    TSTUDIO_AD_TRY(scope, b.nameScope(opName));
    const bool half = logits.baseDtype() == tensorflow::DT_HALF;
    Output precise = logits;
    if (half) {
        TSTUDIO_AD_TRY(c, castTo(b, logits, tensorflow::DT_FLOAT));
        precise = c;
    }
    const TensorShape& ls = labels.shape();
    const TensorShape& xs = logits.shape();
    TSTUDIO_AD_TRY(labelsShape, py::shape(b, labels));
    bool outerDefined = !xs.isUnknownRank();
    for (int i = 0; outerDefined && i + 1 < xs.rank(); ++i)
        outerDefined = xs.dim(i) >= 0;
    const bool staticDefined = ls.isFullyDefined() && outerDefined;
    if (xs.rank() == 0)
        return unexpected(
            invalidArgumentError("Logits cannot be scalars - received shape " + pythonShapeString(xs) + "."));
    if (!xs.isUnknownRank() && !ls.isUnknownRank() && ls.rank() != xs.rank() - 1)
        return unexpected(invalidArgumentError("Rank mismatch: Rank of labels (received " + std::to_string(ls.rank()) +
                                               ") should equal rank of logits minus 1 (received " +
                                               std::to_string(xs.rank()) + ")."));
    if (staticDefined) {
        bool same = true;
        for (int i = 0; i < ls.rank(); ++i)
            same = same && ls.dim(i) == xs.dim(i);
        if (!same)
            return unexpected(
                invalidArgumentError("Shape mismatch: The shape of labels (received " + pythonShapeString(ls) +
                                     ") should equal the shape of logits except for the last dimension (received " +
                                     pythonShapeString(xs) + ")."));
    }
    auto finish = [&](const Output& cost) -> Expected<Output> {
        if (half)
            return castTo(b, cost, tensorflow::DT_HALF);
        return cost;
    };
    if (xs.rank() == 2) {
        TSTUDIO_AD_TRY(op, b.op("SparseSoftmaxCrossEntropyWithLogits", {precise, labels}, {}, opName));
        return finish(op.output(0));
    }
    if (!staticDefined)
        return unexpected(unimplementedError(
            "sparse_softmax_cross_entropy_with_logits: logits of rank other than 2 need fully defined shapes "
            "(TensorFlow checks them at run time with an Assert op, which TensorStudio does not have yet)"));
    // num_classes = shape(logits)[rank(logits) - 1]
    TSTUDIO_AD_TRY(logitsShape, py::shape(b, logits));
    TSTUDIO_AD_TRY(rank, rankOf(b, logits));
    TSTUDIO_AD_TRY(last, py::binary(b, py::Operator::kSub, rank, 1.0));
    TSTUDIO_AD_TRY(lastEnd, py::binary(b, py::Operator::kAdd, last, 1.0));
    Output numClasses;
    {
        TSTUDIO_AD_TRY(ss, b.nameScope("strided_slice"));
        TSTUDIO_AD_TRY(begin, pack(b, {last}, "stack"));
        TSTUDIO_AD_TRY(end, pack(b, {lastEnd}, "stack_1"));
        TSTUDIO_AD_TRY(strides, py::intVector(b, {1}, "stack_2"));
        TSTUDIO_AD_TRY(n, py::genOp(b, "StridedSlice", {logitsShape, begin, end, strides},
                                    {{"shrink_axis_mask", attr::i(1)}}, ss.name()));
        numClasses = n;
    }
    Output flatShape;
    {
        TSTUDIO_AD_TRY(rs, b.nameScope("Reshape"));
        Output packed;
        {
            TSTUDIO_AD_TRY(ps, b.nameScope("shape"));
            TSTUDIO_AD_TRY(minusOne, py::constant(b, -1, tensorflow::DT_INT32, "0"));
            TSTUDIO_AD_TRY(p, pack(b, {minusOne, numClasses}, ps.name()));
            packed = p;
        }
        TSTUDIO_AD_TRY(r, py::genOp(b, "Reshape", {precise, packed}, {}, rs.name()));
        flatShape = r;
    }
    TSTUDIO_AD_TRY(flatLabels, py::reshape(b, labels, std::vector<std::int64_t>{-1}));
    TSTUDIO_AD_TRY(op, b.op("SparseSoftmaxCrossEntropyWithLogits", {flatShape, flatLabels}, {}, opName));
    TSTUDIO_AD_TRY(cost, py::reshape(b, op.output(0), labelsShape));
    return finish(withStaticShape(cost, ls));
}

Expected<Output> sigmoidCrossEntropyWithLogits(GraphBuilder& b, const Output& labels, const Output& logits,
                                               std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("logistic_loss") : name));
    if (!labels.shape().merge(logits.shape()))
        return unexpected(invalidArgumentError("logits and labels must have the same shape (" +
                                               pythonShapeString(logits.shape()) + " vs " +
                                               pythonShapeString(labels.shape()) + ")"));
    if (labels.baseDtype() != logits.baseDtype())
        return unexpected(invalidArgumentError("sigmoid_cross_entropy_with_logits: labels of type " +
                                               dataTypeName(labels.baseDtype()) + " for logits of type " +
                                               dataTypeName(logits.baseDtype())));
    TSTUDIO_AD_TRY(zeros, py::zerosLike(b, logits));
    TSTUDIO_AD_TRY(cond, py::genOp(b, "GreaterEqual", {logits, zeros}));
    TSTUDIO_AD_TRY(reluLogits, py::where(b, cond, logits, zeros));
    TSTUDIO_AD_TRY(negLogits, py::neg(b, logits));
    TSTUDIO_AD_TRY(negAbsLogits, py::where(b, cond, negLogits, logits));
    TSTUDIO_AD_TRY(product, py::binary(b, py::Operator::kMul, logits, labels));
    TSTUDIO_AD_TRY(difference, py::binary(b, py::Operator::kSub, reluLogits, product));
    TSTUDIO_AD_TRY(expNeg, py::genOp(b, "Exp", {negAbsLogits}));
    TSTUDIO_AD_TRY(softplus, py::genOp(b, "Log1p", {expNeg}));
    return py::genOp(b, "Add", {difference, softplus}, {}, scope.name());
}

Expected<Output> l2Loss(GraphBuilder& b, const Output& t, std::string_view name)
{
    return py::genOp(b, "L2Loss", {t}, {}, name);
}

} // namespace tstudio::nn
