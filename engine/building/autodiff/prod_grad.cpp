// The gradients of products, as TensorFlow 1.15's math_grad.py builds them: Prod (the product of the
// other elements, from an exclusive Cumprod from each end, with no division so that zeros work) and
// Cumprod (a reverse Cumsum of prod * grad, divided by x).
#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "framework/node_attrs.h"
#include "framework/op_registry.h"

namespace tstudio {
namespace {

using py::Operator;

/// math_ops.cumprod / math_ops.cumsum (`type`) with a Python int axis: "<Type>/axis" and "<Type>".
Expected<Output> scan(GraphBuilder& b, std::string_view type, const Output& x, std::int64_t axis, bool exclusive,
                      bool reverse)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(type));
    TSTUDIO_AD_TRY(axisT, ops::constantInts(b, {axis}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
    return py::genOp(b, type, {x, axisT}, {{"exclusive", attr::b(exclusive)}, {"reverse", attr::b(reverse)}},
                     scope.name());
}

/// array_ops.gather(params, indices) of TensorFlow 1.15: GatherV2 with "GatherV2/axis" = 0.
Expected<Output> gather(GraphBuilder& b, const Output& params, const Output& indices)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("GatherV2"));
    TSTUDIO_AD_TRY(axis, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
    return py::genOp(b, "GatherV2", {params, indices, axis}, {{"batch_dims", attr::i(0)}}, scope.name());
}

/// array_ops.rank(x): the Const "Rank" when x's rank is known, else a Rank op.
Expected<Output> rank(GraphBuilder& b, const Output& x)
{
    if (x.shape().rank() >= 0)
        return ops::constantInts(b, {x.shape().rank()}, TensorShape::scalar(), tensorflow::DT_INT32, "Rank");
    return py::genOp(b, "Rank", {x});
}

/// math_ops.range(0, limit): "range/start", "range/delta" and the Range "range".
Expected<Output> rangeTo(GraphBuilder& b, const Output& limit)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("range"));
    TSTUDIO_AD_TRY(start, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "start"));
    TSTUDIO_AD_TRY(delta, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "delta"));
    return py::genOp(b, "Range", {start, limit, delta}, {}, scope.name());
}

/// array_ops.transpose(x, perm): "transpose".
Expected<Output> transpose(GraphBuilder& b, const Output& x, const Output& perm)
{
    return py::genOp(b, "Transpose", {x, perm}, {}, "transpose");
}

/// The permutation that brings the reduced axes first, and the sizes of the two groups of axes
/// (_ProdGrad's block under ops.device("/cpu:0"): ListDiff has only a CPU kernel).
struct ReductionLayout {
    Output perm, reducedNum, otherNum;
};

Expected<ReductionLayout> reductionLayout(GraphBuilder& b, const Output& input, const Output& inputShape,
                                          const Output& reductionIndices)
{
    TSTUDIO_AD_TRY(device, b.device("/cpu:0"));
    TSTUDIO_AD_TRY(r, rank(b, input));
    TSTUDIO_AD_TRY(shifted, py::binary(b, Operator::kAdd, reductionIndices, r));
    TSTUDIO_AD_TRY(wrapped, py::binary(b, Operator::kMod, shifted, r));
    TSTUDIO_AD_TRY(reduced, py::cast(b, wrapped, tensorflow::DT_INT32));
    TSTUDIO_AD_TRY(idx, rangeTo(b, r));
    TSTUDIO_AD_TRY(diff, b.op("ListDiff", {idx, reduced}, {{"out_idx", attr::type(tensorflow::DT_INT32)}}));
    const Output other = diff.output(0);
    Output perm;
    {
        TSTUDIO_AD_TRY(scope, b.nameScope("concat"));
        TSTUDIO_AD_TRY(axis, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
        TSTUDIO_AD_TRY(p, py::genOp(b, "ConcatV2", {std::vector<Output>{reduced, other}, axis}, {}, scope.name()));
        perm = p;
    }
    TSTUDIO_AD_TRY(reducedDims, gather(b, inputShape, reduced));
    TSTUDIO_AD_TRY(reducedNum, py::reduceProdAll(b, reducedDims));
    TSTUDIO_AD_TRY(otherDims, gather(b, inputShape, other));
    TSTUDIO_AD_TRY(otherNum, py::reduceProdAll(b, otherDims));
    return ReductionLayout{perm, reducedNum, otherNum};
}

/// _ProdGrad: grad broadcast back to the input, times the product of every other element of the
/// reduced group, computed as (exclusive cumprod from the front) * (exclusive cumprod from the back)
/// over the input transposed and reshaped to [reduced elements, other elements].
Status prodGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(gradIn, ctx.grad());
    const Output& input = ctx.input(0);
    const Output& axes = ctx.input(1);
    if (axes.baseDtype() != tensorflow::DT_INT32)
        // The Python function adds the int32 rank to the reduction indices, which TensorFlow refuses.
        return invalidArgumentError("Tensor conversion requested dtype " + dataTypeName(axes.baseDtype()) +
                                    " for Tensor with dtype int32 (the gradient of Prod supports int32 "
                                    "reduction indices only, as TensorFlow 1.15's)");
    TSTUDIO_AD_TRY(inputShape, py::shape(b, input));
    TSTUDIO_AD_TRY(reductionIndices, py::reshape(b, axes, std::vector<std::int64_t>{-1}));
    TSTUDIO_AD_TRY(keptDims, py::reducedShape(b, inputShape, axes));
    TSTUDIO_AD_TRY(tileScaling, py::safeShapeDiv(b, inputShape, keptDims));
    TSTUDIO_AD_TRY(gradKept, py::reshape(b, gradIn, keptDims));
    TSTUDIO_AD_TRY(grad, py::tile(b, gradKept, tileScaling));

    TSTUDIO_AD_TRY(layout, reductionLayout(b, input, inputShape, reductionIndices));
    TSTUDIO_AD_TRY(permuted, transpose(b, input, layout.perm));
    TSTUDIO_AD_TRY(permutedShape, py::shape(b, permuted));
    Output reshaped;
    {
        // reshape(permuted, (reduced_num, other_num)): the tuple is packed as "Reshape_N/shape".
        TSTUDIO_AD_TRY(scope, b.nameScope("Reshape"));
        TSTUDIO_AD_TRY(packed, py::genOp(b, "Pack", {std::vector<Output>{layout.reducedNum, layout.otherNum}},
                                         {{"axis", attr::i(0)}}, "shape"));
        TSTUDIO_AD_TRY(r, py::genOp(b, "Reshape", {permuted, packed}, {}, scope.name()));
        reshaped = r;
    }
    TSTUDIO_AD_TRY(left, scan(b, "Cumprod", reshaped, 0, true, false));
    TSTUDIO_AD_TRY(right, scan(b, "Cumprod", reshaped, 0, true, true));
    TSTUDIO_AD_TRY(leftConj, py::conj(b, left));
    TSTUDIO_AD_TRY(rightConj, py::conj(b, right));
    TSTUDIO_AD_TRY(others, py::binary(b, Operator::kMul, leftConj, rightConj));
    TSTUDIO_AD_TRY(y, py::reshape(b, others, permutedShape));
    TSTUDIO_AD_TRY(inverse, py::genOp(b, "InvertPermutation", {layout.perm}));
    TSTUDIO_AD_TRY(unpermuted, transpose(b, y, inverse));
    TSTUDIO_AD_TRY(out, py::binary(b, Operator::kMul, grad, unpermuted));
    TSTUDIO_AD_TRY(result, py::reshape(b, out, inputShape));
    return ctx.setInputGradient(0, result);
}

/// _CumprodGrad: cumsum(cumprod(x) * grad) in the other direction, divided by x (so, as in
/// TensorFlow, not defined where x has zeros).
Status cumprodGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(exclusive, attrBool(ctx.node(), "exclusive"));
    TSTUDIO_AD_TRY(reverse, attrBool(ctx.node(), "reverse"));
    const Output& x = ctx.input(0);
    const Output& axis = ctx.input(1);
    auto attrs = [](bool e, bool r) { return AttrMap{{"exclusive", attr::b(e)}, {"reverse", attr::b(r)}}; };
    TSTUDIO_AD_TRY(prod, py::genOp(b, "Cumprod", {x, axis}, attrs(exclusive, reverse)));
    TSTUDIO_AD_TRY(weighted, py::binary(b, Operator::kMul, prod, grad));
    TSTUDIO_AD_TRY(sums, py::genOp(b, "Cumsum", {weighted, axis}, attrs(exclusive, !reverse)));
    TSTUDIO_AD_TRY(result, py::binary(b, Operator::kTrueDiv, sums, x));
    return ctx.setInputGradient(0, result);
}

} // namespace

Status registerProdGradients(OpRegistry& registry)
{
    if (Status s = registry.setGradient("Prod", prodGrad); !s.isOk())
        return s;
    return registry.setGradient("Cumprod", cumprodGrad);
}

} // namespace tstudio
