// The array family's gradients as TensorFlow 1.15's array_grad.py (and, for Cumsum, math_grad.py)
// defines them: reshapes, transposes, packing and splitting, Fill, Cumsum, the diagonal ops, the
// pass-through ops, and the ops TensorFlow registers as not differentiable. Every function emits
// the ops and node names the Python function emits. Slicing, padding and tiling are in
// array_grad_slicing.cpp, gathers and stitches in array_grad_gather.cpp.
//
// TensorFlow registers nothing for Where, Unique, Placeholder, PlaceholderV2, BroadcastArgs and
// Snapshot, so neither does this file: their outputs are integers or sources (never on a gradient
// path), and tf.gradients through a float Unique or Snapshot fails in TensorFlow as it does here.
#include "autodiff/array_grad_internal.h"
#include "autodiff/gradients_registry.h"
#include "builder/ops_sugar.h"
#include "framework/node_attrs.h"

#include <algorithm>

namespace tstudio {
namespace {

using array_grad::ListElement;

/// reshape(grad, shape(op.inputs[0])): Reshape, ExpandDims, Squeeze.
Status reshapeToInputGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(s, array_grad::shape(b, ctx.input(0)));
    TSTUDIO_AD_TRY(g, py::reshape(b, grad, s));
    return ctx.setInputGradient(0, g);
}

Status transposeGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(inverse, py::genOp(b, "InvertPermutation", {ctx.input(1)}));
    TSTUDIO_AD_TRY(g, py::genOp(b, "Transpose", {grad, inverse}, {}, "transpose"));
    return ctx.setInputGradient(0, g);
}

/// unstack(grad, num=N, axis=axis): the Unpack "unstack".
Status packGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(n, attrInt(ctx.node(), "N"));
    TSTUDIO_AD_TRY(axis, attrInt(ctx.node(), "axis"));
    TSTUDIO_AD_TRY(unstack, b.op("Unpack", {grad}, {{"num", attr::i(n)}, {"axis", attr::i(axis)}}, "unstack"));
    for (int i = 0; i < ctx.numInputs(); ++i)
        TSTUDIO_AD_CHECK(ctx.setInputGradient(i, unstack.output(i)));
    return Status::ok();
}

/// The gradients of every output (unused float outputs receive zeros from the driver).
Expected<std::vector<Output>> allOutputGradients(const GradientContext& ctx)
{
    std::vector<Output> grads;
    for (int i = 0; i < ctx.numOutputs(); ++i) {
        TSTUDIO_AD_TRY(g, ctx.grad(i));
        grads.push_back(g);
    }
    return grads;
}

/// stack(grads, axis=axis).
Status unpackGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grads, allOutputGradients(ctx));
    TSTUDIO_AD_TRY(axis, attrInt(ctx.node(), "axis"));
    TSTUDIO_AD_TRY(g, array_grad::stack(ctx.builder(), grads, axis));
    return ctx.setInputGradient(0, g);
}

/// concat(grads, op.inputs[axisInput]) for the input `valueInput`: Split and SplitV.
Status splitGrad(GradientContext& ctx, int valueInput, int axisInput)
{
    TSTUDIO_AD_TRY(grads, allOutputGradients(ctx));
    std::vector<array_grad::ConcatValue> values(grads.begin(), grads.end());
    TSTUDIO_AD_TRY(g, array_grad::concat(ctx.builder(), values, ctx.input(axisInput)));
    return ctx.setInputGradient(valueInput, g);
}

Status reverseV2Grad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), "ReverseV2", {grad, ctx.input(1)}));
    return ctx.setInputGradient(0, g);
}

/// reverse_sequence(grad, seq_lengths, seq_axis=seq_dim, batch_axis=batch_dim): the op reversing the
/// same leading elements again; seq_lengths gets none.
Status reverseSequenceGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(seqDim, attrInt(ctx.node(), "seq_dim"));
    TSTUDIO_AD_TRY(batchDim, attrInt(ctx.node(), "batch_dim"));
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), "ReverseSequence", {grad, ctx.input(1)},
                                {{"seq_dim", attr::i(seqDim)}, {"batch_dim", attr::i(batchDim)}}));
    return ctx.setInputGradient(0, g);
}

/// IdentityN passes each gradient through (outputs with none give none).
Status identityNGrad(GradientContext& ctx)
{
    for (int i = 0; i < ctx.numOutputs(); ++i) {
        if (const auto& g = ctx.outputGradient(i))
            TSTUDIO_AD_CHECK(ctx.setInputGradient(i, *g));
    }
    return Status::ok();
}

Status passThroughGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    return ctx.setInputGradient(0, grad);
}

/// The value is broadcast to every element: its gradient is the sum of grad; dims get none.
Status fillGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, array_grad::reduceSumAll(ctx.builder(), grad));
    return ctx.setInputGradient(1, g);
}

/// cumsum(grad, axis, exclusive, reverse=not reverse): the Cumsum "Cumsum".
Status cumsumGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(exclusive, attrBool(ctx.node(), "exclusive"));
    TSTUDIO_AD_TRY(reverse, attrBool(ctx.node(), "reverse"));
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), "Cumsum", {grad, ctx.input(1)},
                                {{"exclusive", attr::b(exclusive)}, {"reverse", attr::b(!reverse)}}));
    return ctx.setInputGradient(0, g);
}

// --- The diagonal ops ------------------------------------------------------------------------------
// array_ops.matrix_diag / matrix_diag_part / matrix_set_diag name their V1 ops "diag", "diag_part"
// and "set_diag"; tensor_diag and tensor_diag_part keep the op names.

Status unaryOpGrad(GradientContext& ctx, std::string_view type, std::string_view name)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), type, {grad}, {}, name));
    return ctx.setInputGradient(0, g);
}

Status matrixDiagPartGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const TensorShape& s = ctx.input(0).shape();
    const int r = s.rank();
    const bool squareKnown = r >= 2 && s.dim(r - 2) >= 0 && s.dim(r - 1) >= 0 && s.dim(r - 2) == s.dim(r - 1);
    if (squareKnown) {
        TSTUDIO_AD_TRY(g, py::genOp(b, "MatrixDiag", {grad}, {}, "diag"));
        return ctx.setInputGradient(0, g);
    }
    TSTUDIO_AD_TRY(zeros, py::zerosLike(b, ctx.input(0)));
    TSTUDIO_AD_TRY(g, py::genOp(b, "MatrixSetDiag", {zeros, grad}, {}, "set_diag"));
    return ctx.setInputGradient(0, g);
}

/// The dims of `a` and `b` merged (an unknown dim takes the other's); unknown rank if both are.
std::optional<std::vector<std::int64_t>> mergedDims(const TensorShape& a, const TensorShape& b)
{
    if (a.isUnknownRank() && b.isUnknownRank())
        return std::nullopt;
    const TensorShape& known = a.isUnknownRank() ? b : a;
    std::vector<std::int64_t> dims(known.dims().begin(), known.dims().end());
    if (!a.isUnknownRank() && !b.isUnknownRank() && a.rank() == b.rank()) {
        for (int i = 0; i < a.rank(); ++i)
            dims[static_cast<std::size_t>(i)] = a.dim(i) >= 0 ? a.dim(i) : b.dim(i);
    }
    return dims;
}

/// The shape of the diagonal of grad when it is known while building (TensorFlow's static branch).
std::optional<TensorShape> staticDiagShape(const TensorShape& input, const TensorShape& diag, const TensorShape& grad)
{
    const auto merged = mergedDims(input, grad);
    if (!merged || merged->size() < 2)
        return std::nullopt;
    std::vector<std::int64_t> batch(merged->begin(), merged->end() - 2);
    if (!diag.isUnknownRank() && diag.rank() == static_cast<int>(batch.size()) + 1) {
        for (std::size_t i = 0; i < batch.size(); ++i)
            batch[i] = batch[i] >= 0 ? batch[i] : diag.dim(static_cast<int>(i));
    }
    const std::int64_t rows = (*merged)[merged->size() - 2];
    const std::int64_t cols = (*merged)[merged->size() - 1];
    if (rows < 0 || cols < 0 || std::any_of(batch.begin(), batch.end(), [](std::int64_t d) { return d < 0; }))
        return std::nullopt;
    batch.push_back(std::min(rows, cols));
    return TensorShape(batch);
}

Status matrixSetDiagGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    Output zeros;
    if (auto known = staticDiagShape(ctx.input(0).shape(), ctx.input(1).shape(), grad.shape())) {
        TSTUDIO_AD_TRY(z, ops::zeros(b, *known, grad.baseDtype(), "zeros"));
        zeros = z;
    } else {
        Output diagShape;
        {
            TSTUDIO_AD_TRY(gradOp, py::producer(b, grad));
            ScopeGuard colocated = b.colocateWith(gradOp);
            TSTUDIO_AD_TRY(gradShape, array_grad::shape(b, grad));
            TSTUDIO_AD_TRY(gradRank, array_grad::rank(b, grad));
            TSTUDIO_AD_TRY(batchEnd, py::binary(b, py::Operator::kSub, gradRank, 2.0));
            TSTUDIO_AD_TRY(batchShape,
                           array_grad::slice(b, gradShape, {std::int64_t{0}}, std::vector<ListElement>{batchEnd}));
            TSTUDIO_AD_TRY(matrixStart, py::binary(b, py::Operator::kSub, gradRank, 2.0));
            TSTUDIO_AD_TRY(matrixShape,
                           array_grad::slice(b, gradShape, std::vector<ListElement>{matrixStart}, {std::int64_t{2}}));
            TSTUDIO_AD_TRY(axes, ops::constantInts(b, {0}, TensorShape{1}, tensorflow::DT_INT32, "Const"));
            TSTUDIO_AD_TRY(minDim, py::genOp(b, "Min", {matrixShape, axes}, {{"keep_dims", attr::b(false)}}));
            TSTUDIO_AD_TRY(s, array_grad::concat(b, {batchShape, std::vector<ListElement>{minDim}}, std::int64_t{0}));
            diagShape = s;
        }
        TSTUDIO_AD_TRY(z, py::zeros(b, diagShape, grad.baseDtype()));
        zeros = z;
    }
    TSTUDIO_AD_TRY(gradInput, py::genOp(b, "MatrixSetDiag", {grad, zeros}, {}, "set_diag"));
    TSTUDIO_AD_TRY(gradDiag, py::genOp(b, "MatrixDiagPart", {grad}, {}, "diag_part"));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, gradInput));
    return ctx.setInputGradient(1, gradDiag);
}

/// ops.NotDifferentiable in array_grad.py, for the ops defined here (StopGradient is core_grad's).
constexpr std::string_view kNotDifferentiable[] = {
    "ConcatOffset",          "Const", "ZerosLike", "OnesLike", "InvertPermutation", "Shape", "ShapeN", "Rank", "Size",
    "BroadcastGradientArgs", "OneHot"};

} // namespace

namespace array_grad {

GradientTable shapeAndValueGradients()
{
    return {
        {"Reshape", reshapeToInputGrad},
        {"ExpandDims", reshapeToInputGrad},
        {"Squeeze", reshapeToInputGrad},
        {"Transpose", transposeGrad},
        {"Pack", packGrad},
        {"Unpack", unpackGrad},
        {"Split", [](GradientContext& c) { return splitGrad(c, 1, 0); }},
        {"SplitV", [](GradientContext& c) { return splitGrad(c, 0, 2); }},
        {"ReverseV2", reverseV2Grad},
        {"ReverseSequence", reverseSequenceGrad},
        {"IdentityN", identityNGrad},
        {"PlaceholderWithDefault", passThroughGrad},
        {"Fill", fillGrad},
        {"Cumsum", cumsumGrad},
        {"Diag", [](GradientContext& c) { return unaryOpGrad(c, "DiagPart", "DiagPart"); }},
        {"DiagPart", [](GradientContext& c) { return unaryOpGrad(c, "Diag", "Diag"); }},
        {"MatrixDiag", [](GradientContext& c) { return unaryOpGrad(c, "MatrixDiagPart", "diag_part"); }},
        {"MatrixDiagPart", matrixDiagPartGrad},
        {"MatrixSetDiag", matrixSetDiagGrad},
    };
}

} // namespace array_grad

Status registerArrayGradients(OpRegistry& registry)
{
    return registerGradientTables(
        registry, {array_grad::shapeAndValueGradients(), array_grad::slicingGradients(), array_grad::gatherGradients()},
        kNotDifferentiable);
}

} // namespace tstudio
