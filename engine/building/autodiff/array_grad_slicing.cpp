// The array family's gradients of concatenation, slicing, padding, tiling and broadcasting, as
// TensorFlow 1.15's array_grad.py builds them (same ops, same node names).
#include "autodiff/array_grad_internal.h"
#include "builder/ops_sugar.h"
#include "framework/node_attrs.h"

namespace tstudio {
namespace {

using array_grad::ListElement;

/// _ExtractInputShapes: each input's shape as a Const while all are fully defined, else (after
/// the shapes already made) one ShapeN of all inputs.
Expected<std::vector<Output>> extractInputShapes(GraphBuilder& b, const std::vector<Output>& inputs)
{
    std::vector<Output> sizes;
    for (const Output& x : inputs) {
        TSTUDIO_AD_TRY(s, array_grad::shape(b, x));
        if (!x.shape().isFullyDefined()) {
            TSTUDIO_AD_TRY(shapes, b.op("ShapeN", {inputs}, {{"out_type", attr::type(tensorflow::DT_INT32)}}));
            std::vector<Output> all;
            for (int i = 0; i < shapes.numOutputs(); ++i)
                all.push_back(shapes.output(i));
            return all;
        }
        sizes.push_back(s);
    }
    return sizes;
}

/// _ConcatGradHelper for a dense gradient: the values are inputs [start, end), the axis input
/// `dimIndex`. Up to 16 values: ConcatOffset and one Slice per value; more: one SplitV.
Status concatGradHelper(GradientContext& ctx, int start, int end, int dimIndex)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    if (end - start == 1) {
        // TensorFlow's Python never builds a one-value concat (tf.concat returns an identity), and
        // its helper fails on one; the gradient of an identity is what such a graph means.
        return ctx.setInputGradient(start, grad);
    }
    std::vector<Output> values;
    for (int i = start; i < end; ++i)
        values.push_back(ctx.input(i));
    TSTUDIO_AD_TRY(inputRank, array_grad::rank(b, values[0]));
    TSTUDIO_AD_TRY(dim, py::binary(b, py::Operator::kMod, ctx.input(dimIndex), inputRank));
    TSTUDIO_AD_TRY(sizes, extractInputShapes(b, values));
    std::vector<Output> grads;
    if (sizes.size() > 16) {
        TSTUDIO_AD_TRY(stacked, array_grad::stack(b, sizes, 1));
        TSTUDIO_AD_TRY(row, array_grad::slice(b, stacked, {dim, std::int64_t{0}}, {std::int64_t{1}, std::int64_t{-1}}));
        TSTUDIO_AD_TRY(splits, py::genOp(b, "Squeeze", {row}, {{"squeeze_dims", attr::ints({})}}));
        if (splits.shape().rank() != 1 || splits.shape().dim(0) < 0)
            return invalidArgumentError("Cannot infer num from shape " + splits.name());
        TSTUDIO_AD_TRY(split,
                       b.op("SplitV", {grad, splits, dim}, {{"num_split", attr::i(splits.shape().dim(0))}}, "split"));
        for (int i = 0; i < split.numOutputs(); ++i)
            grads.push_back(split.output(i));
    } else {
        TSTUDIO_AD_TRY(offsets, b.op("ConcatOffset", {dim, sizes}));
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            TSTUDIO_AD_TRY(g, array_grad::slice(b, grad, offsets.output(static_cast<int>(i)), sizes[i]));
            grads.push_back(g);
        }
    }
    for (std::size_t i = 0; i < grads.size(); ++i)
        TSTUDIO_AD_CHECK(ctx.setInputGradient(start + static_cast<int>(i), grads[i]));
    return Status::ok();
}

Status sliceGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& input = ctx.input(0);
    const Output& begin = ctx.input(1);
    TSTUDIO_AD_TRY(inputRank, array_grad::rank(b, input));
    TSTUDIO_AD_TRY(sliceSize, array_grad::shape(b, ctx.output(0)));
    TSTUDIO_AD_TRY(padShape, array_grad::packList(b, {inputRank, std::int64_t{1}}, "stack"));
    TSTUDIO_AD_TRY(before, py::reshape(b, begin, padShape));
    TSTUDIO_AD_TRY(inputShape, array_grad::shape(b, input));
    TSTUDIO_AD_TRY(rest, py::binary(b, py::Operator::kSub, inputShape, sliceSize));
    TSTUDIO_AD_TRY(afterCount, py::binary(b, py::Operator::kSub, rest, begin));
    TSTUDIO_AD_TRY(after, py::reshape(b, afterCount, padShape));
    TSTUDIO_AD_TRY(paddings, array_grad::concat(b, {before, after}, std::int64_t{1}));
    TSTUDIO_AD_TRY(g, py::genOp(b, "Pad", {grad, paddings}));
    return ctx.setInputGradient(0, g);
}

AttrMap stridedSliceMasks(const tensorflow::NodeDef& node)
{
    AttrMap masks;
    for (const char* name : {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"}) {
        auto v = attrInt(node, name);
        masks[name] = attr::i(v ? *v : 0);
    }
    return masks;
}

Status stridedSliceGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& begin = ctx.input(1);
    TSTUDIO_AD_TRY(x, array_grad::shape(b, ctx.input(0), begin.baseDtype()));
    TSTUDIO_AD_TRY(g, py::genOp(b, "StridedSliceGrad", {x, begin, ctx.input(2), ctx.input(3), grad},
                                stridedSliceMasks(ctx.node())));
    return ctx.setInputGradient(0, g);
}

Status stridedSliceGradGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), "StridedSlice", {grad, ctx.input(1), ctx.input(2), ctx.input(3)},
                                stridedSliceMasks(ctx.node())));
    return ctx.setInputGradient(4, g);
}

/// Pad and PadV2: the input's block of the gradient, at the paddings' first column.
Status padGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& x = ctx.input(0);
    TSTUDIO_AD_TRY(xRank, array_grad::rank(b, x));
    TSTUDIO_AD_TRY(size, array_grad::packList(b, {xRank, std::int64_t{1}}, "stack"));
    TSTUDIO_AD_TRY(beforeColumn, [&]() -> Expected<Output> {
        TSTUDIO_AD_TRY(scope, b.nameScope("Slice"));
        TSTUDIO_AD_TRY(begin, array_grad::packList(b, {std::int64_t{0}, std::int64_t{0}}, "begin"));
        return py::genOp(b, "Slice", {ctx.input(1), begin, size}, {}, scope.name());
    }());
    TSTUDIO_AD_TRY(begin, py::reshape(b, beforeColumn, std::vector<std::int64_t>{-1}));
    TSTUDIO_AD_TRY(sizes, array_grad::shape(b, x));
    TSTUDIO_AD_TRY(g, array_grad::slice(b, grad, begin, sizes));
    return ctx.setInputGradient(0, g);
}

/// MirrorPad -> MirrorPadGrad and MirrorPadGrad -> MirrorPad, same paddings and mode.
Status mirrorPadGrad(GradientContext& ctx, std::string_view type)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(mode, attrString(ctx.node(), "mode"));
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), type, {grad, ctx.input(1)}, {{"mode", attr::s(mode)}}));
    return ctx.setInputGradient(0, g);
}

/// Sums grad over the tiled copies: grad reshaped to [m0, d0, m1, d1, ...] summed over the even axes.
Status tileGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& multiples = ctx.input(1);
    TSTUDIO_AD_TRY(inputShape, array_grad::shape(b, ctx.input(0), multiples.baseDtype()));
    TSTUDIO_AD_TRY(stacked, array_grad::stack(b, {multiples, inputShape}, 0));
    Output transposed;
    {
        // array_ops.transpose without perm on a rank-2 tensor: perm (rank - 1) - arange(rank).
        TSTUDIO_AD_TRY(scope, b.nameScope("transpose"));
        TSTUDIO_AD_TRY(perm, ops::constantInts(b, {1, 0}, TensorShape{2}, tensorflow::DT_INT32, "perm"));
        TSTUDIO_AD_TRY(t, py::genOp(b, "Transpose", {stacked, perm}, {}, scope.name()));
        transposed = t;
    }
    TSTUDIO_AD_TRY(splitShape, py::reshape(b, transposed, std::vector<std::int64_t>{-1}));
    TSTUDIO_AD_TRY(n, py::size(b, splitShape));
    TSTUDIO_AD_TRY(axes, array_grad::range(b, std::int64_t{0}, n, 2));
    TSTUDIO_AD_TRY(split, py::reshape(b, grad, splitShape));
    TSTUDIO_AD_TRY(g, py::reduceSum(b, split, axes));
    return ctx.setInputGradient(0, g);
}

Status broadcastToGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(inputShape, array_grad::shape(b, ctx.input(0)));
    TSTUDIO_AD_TRY(args, py::broadcastGradientArgs(b, ctx.input(1), inputShape));
    TSTUDIO_AD_TRY(sum, py::reduceSum(b, grad, args.output(1), true));
    TSTUDIO_AD_TRY(g, py::reshape(b, sum, inputShape));
    return ctx.setInputGradient(0, g);
}

} // namespace

namespace array_grad {

GradientTable slicingGradients()
{
    return {
        {"Concat", [](GradientContext& c) { return concatGradHelper(c, 1, c.numInputs(), 0); }},
        {"ConcatV2", [](GradientContext& c) { return concatGradHelper(c, 0, c.numInputs() - 1, c.numInputs() - 1); }},
        {"Slice", sliceGrad},
        {"StridedSlice", stridedSliceGrad},
        {"StridedSliceGrad", stridedSliceGradGrad},
        {"Pad", padGrad},
        {"PadV2", padGrad},
        {"MirrorPad", [](GradientContext& c) { return mirrorPadGrad(c, "MirrorPadGrad"); }},
        {"MirrorPadGrad", [](GradientContext& c) { return mirrorPadGrad(c, "MirrorPad"); }},
        {"Tile", tileGrad},
        {"BroadcastTo", broadcastToGrad},
    };
}

} // namespace array_grad
} // namespace tstudio
