// The gradients of the sparse ops as TensorFlow 1.15 builds them (sparse_grad.py, and math_grad.py
// for the segment reductions): SparseTensorDenseMatMul (values and dense b), SparseAdd (through
// SparseAddGrad), SparseTensorDenseAdd, SparseFillEmptyRows (SparseFillEmptyRowsGrad), SparseReorder
// (the inverse permutation of a reordered range), SparseSlice (SparseSliceGrad), the sparse segment
// reductions (UnsortedSegmentSum of gathered rows, or the *Grad ops) and SegmentSum (a Gather).
// SparseAddGrad and SparseConcat are not differentiable as in TensorFlow; SparseReshape, whose
// outputs are integer, and the gradient ops themselves neither.
#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/sparse_ops.h"
#include "framework/node_attrs.h"

namespace tstudio {

namespace {

using py::Operator;

/// math_ops.reduce_sum(x, axis=<python int>): "Sum/reduction_indices" and the Sum "Sum".
Expected<Output> sumAlong(GraphBuilder& b, const Output& x, std::int64_t axis)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Sum"));
    TSTUDIO_AD_TRY(axes,
                   ops::constantInts(b, {axis}, TensorShape::scalar(), tensorflow::DT_INT32, "reduction_indices"));
    return py::genOp(b, "Sum", {x, axes}, {{"keep_dims", attr::b(false)}}, scope.name());
}

bool isComplex(DataType t)
{
    return t == tensorflow::DT_COMPLEX64 || t == tensorflow::DT_COMPLEX128;
}

/// _SparseTensorDenseMatMulGrad: b_grad = SparseTensorDenseMatMul(A, grad, adjoint_a = !adj_a)
/// (transposed when adj_b); a_values_grad = reduce_sum(gather(grad, rows) * gather(op(b), cols), 1)
/// with rows / cols the indices' columns (swapped for adj_a). Complex: Unimplemented, as TensorFlow.
Status sparseTensorDenseMatMulGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    const DataType aType = ctx.input(1).baseDtype();
    const DataType bType = ctx.input(3).baseDtype();
    if (aType != bType)
        return invalidArgumentError("SparseTensorDenseMatMul op received operands with different types: " +
                                    dataTypeName(aType) + " and " + dataTypeName(bType));
    if (isComplex(aType))
        return unimplementedError("SparseTensorDenseMatMul op does not support complex gradients.");
    TSTUDIO_AD_TRY(adjA, attrBool(ctx.node(), "adjoint_a"));
    TSTUDIO_AD_TRY(adjB, attrBool(ctx.node(), "adjoint_b"));
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& indices = ctx.input(0);
    TSTUDIO_AD_TRY(bGrad, py::genOp(b, "SparseTensorDenseMatMul", {indices, ctx.input(1), ctx.input(2), grad},
                                    {{"adjoint_a", attr::b(!adjA)}, {"adjoint_b", attr::b(false)}}));
    if (adjB) {
        TSTUDIO_AD_TRY(t, sparse::transposeMatrix(b, bGrad));
        bGrad = t;
    }
    TSTUDIO_AD_TRY(rows, sparse::column(b, indices, 0));
    TSTUDIO_AD_TRY(cols, sparse::column(b, indices, 1));
    TSTUDIO_AD_TRY(partsA, sparse::gather(b, grad, adjA ? cols : rows));
    Output dense = ctx.input(3);
    if (adjB) {
        TSTUDIO_AD_TRY(t, sparse::transposeMatrix(b, dense));
        dense = t;
    }
    TSTUDIO_AD_TRY(partsB, sparse::gather(b, dense, adjA ? rows : cols));
    TSTUDIO_AD_TRY(product, py::binary(b, Operator::kMul, partsA, partsB));
    TSTUDIO_AD_TRY(valuesGrad, sumAlong(b, product, 1));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(1, valuesGrad));
    return ctx.setInputGradient(3, bGrad);
}

/// _SparseAddGrad: SparseAddGrad(grad of sum_values, a_indices, b_indices, sum_indices).
Status sparseAddGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(valGrad, ctx.grad(1));
    TSTUDIO_AD_TRY(op, ctx.builder().op("SparseAddGrad", {valGrad, ctx.input(0), ctx.input(3), ctx.output(0)}));
    TSTUDIO_AD_CHECK(ctx.builder().setShape(op.output(0), ctx.input(1).shape()));
    TSTUDIO_AD_CHECK(ctx.builder().setShape(op.output(1), ctx.input(4).shape()));
    TSTUDIO_AD_TRY(aGrad, ctx.builder().tensor(op.output(0).name()));
    TSTUDIO_AD_TRY(bGrad, ctx.builder().tensor(op.output(1).name()));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(1, aGrad));
    return ctx.setInputGradient(4, bGrad);
}

/// _SparseTensorDenseAddGrad: out_grad for the dense input; for the values TensorFlow gathers
/// out_grad at the indices with GatherNd, which the engine does not have: the same values come from
/// flat positions, GatherV2(Reshape(out_grad, [-1]), Sum(indices * strides, 1)), the strides an
/// exclusive reverse Cumprod of a_shape.
Status sparseTensorDenseAddGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(cumprodScope, b.nameScope("Cumprod"));
    TSTUDIO_AD_TRY(axis0, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
    TSTUDIO_AD_TRY(strides, py::genOp(b, "Cumprod", {ctx.input(2), axis0},
                                      {{"exclusive", attr::b(true)}, {"reverse", attr::b(true)}}, cumprodScope.name()));
    cumprodScope.close();
    TSTUDIO_AD_TRY(scaled, py::binary(b, Operator::kMul, ctx.input(0), strides));
    TSTUDIO_AD_TRY(flat, sumAlong(b, scaled, 1));
    TSTUDIO_AD_TRY(flatGrad, py::reshape(b, grad, std::vector<std::int64_t>{-1}));
    TSTUDIO_AD_TRY(valuesGrad, sparse::gather(b, flatGrad, flat));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(1, valuesGrad));
    return ctx.setInputGradient(3, grad);
}

/// _SparseFillEmptyRowsGrad: SparseFillEmptyRowsGrad(reverse_index_map, grad of output_values) for
/// the values and default_value.
Status sparseFillEmptyRowsGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(valuesGrad, ctx.grad(1));
    TSTUDIO_AD_TRY(op, ctx.builder().op("SparseFillEmptyRowsGrad", {ctx.output(3), valuesGrad}));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(1, op.output(0)));
    return ctx.setInputGradient(3, op.output(1));
}

/// _SparseReorderGrad: the permutation SparseReorder applies, read off a reorder of range(N), inverted
/// ("InvertPermutation") and used to gather the output values' gradient.
Status sparseReorderGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(valuesGrad, ctx.grad(1));
    const Output& indices = ctx.input(0);
    TSTUDIO_AD_TRY(shape, py::shape(b, indices));
    TSTUDIO_AD_TRY(numEntries, sparse::element(b, shape, 0));
    TSTUDIO_AD_TRY(rangeScope, b.nameScope("range"));
    TSTUDIO_AD_TRY(start, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "start"));
    TSTUDIO_AD_TRY(delta, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "delta"));
    TSTUDIO_AD_TRY(entries, py::genOp(b, "Range", {start, numEntries, delta}, {}, rangeScope.name()));
    rangeScope.close();
    TSTUDIO_AD_TRY(unordered, sparse::makeSparseTensor(indices, entries, ctx.input(2)));
    TSTUDIO_AD_TRY(ordered, sparse::sparseReorder(b, unordered));
    TSTUDIO_AD_TRY(inverse, py::genOp(b, "InvertPermutation", {ordered.values}));
    TSTUDIO_AD_TRY(g, sparse::gather(b, valuesGrad, inverse));
    return ctx.setInputGradient(1, g);
}

/// _SparseSliceGrad: SparseSliceGrad(grad of output_values, indices, start, output_indices).
Status sparseSliceGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(valuesGrad, ctx.grad(1));
    TSTUDIO_AD_TRY(
        g, py::genOp(ctx.builder(), "SparseSliceGrad", {valuesGrad, ctx.input(0), ctx.input(3), ctx.output(0)}));
    TSTUDIO_AD_CHECK(ctx.builder().setShape(g, ctx.input(1).shape()));
    TSTUDIO_AD_TRY(shaped, ctx.builder().tensor(g.name()));
    return ctx.setInputGradient(1, shaped);
}

/// array_ops.shape(data)[0]: the number of rows of the forward op's data (int32).
Expected<Output> dataRows(GraphBuilder& b, const Output& data)
{
    TSTUDIO_AD_TRY(shape, py::shape(b, data));
    return sparse::element(b, shape, 0);
}

/// _SparseSegmentSumGrad (and its WithNumSegments twin): UnsortedSegmentSum(gather(grad, segment_ids),
/// indices, rows of data).
Status sparseSegmentSumGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(rows, dataRows(b, ctx.input(0)));
    TSTUDIO_AD_TRY(gathered, sparse::gather(b, grad, ctx.input(2)));
    TSTUDIO_AD_TRY(g, py::genOp(b, "UnsortedSegmentSum", {gathered, ctx.input(1), rows}));
    return ctx.setInputGradient(0, g);
}

/// _SparseSegmentMeanGrad / _SparseSegmentSqrtNGrad (and the WithNumSegments twins): the *Grad op of
/// (grad, indices, segment_ids, rows of data).
GradientFunction sparseSegmentScaledGrad(const char* gradOp)
{
    return [gradOp](GradientContext& ctx) -> Status {
        GraphBuilder& b = ctx.builder();
        TSTUDIO_AD_TRY(grad, ctx.grad());
        TSTUDIO_AD_TRY(rows, dataRows(b, ctx.input(0)));
        TSTUDIO_AD_TRY(g, py::genOp(b, gradOp, {grad, ctx.input(1), ctx.input(2), rows}));
        return ctx.setInputGradient(0, g);
    };
}

/// _SegmentSumGrad: gather(grad, segment_ids).
Status segmentSumGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, sparse::gather(ctx.builder(), grad, ctx.input(1)));
    return ctx.setInputGradient(0, g);
}

constexpr std::string_view kNotDifferentiable[] = {
    "SparseAddGrad",           "SparseConcat",          "SparseReshape",          "SparseSliceGrad",
    "SparseFillEmptyRowsGrad", "SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad",
};

} // namespace

Status registerSparseGradients(OpRegistry& registry)
{
    const GradientTable table = {
        {"SparseTensorDenseMatMul", sparseTensorDenseMatMulGrad},
        {"SparseAdd", sparseAddGrad},
        {"SparseTensorDenseAdd", sparseTensorDenseAddGrad},
        {"SparseFillEmptyRows", sparseFillEmptyRowsGrad},
        {"SparseReorder", sparseReorderGrad},
        {"SparseSlice", sparseSliceGrad},
        {"SparseSegmentSum", sparseSegmentSumGrad},
        {"SparseSegmentSumWithNumSegments", sparseSegmentSumGrad},
        {"SparseSegmentMean", sparseSegmentScaledGrad("SparseSegmentMeanGrad")},
        {"SparseSegmentMeanWithNumSegments", sparseSegmentScaledGrad("SparseSegmentMeanGrad")},
        {"SparseSegmentSqrtN", sparseSegmentScaledGrad("SparseSegmentSqrtNGrad")},
        {"SparseSegmentSqrtNWithNumSegments", sparseSegmentScaledGrad("SparseSegmentSqrtNGrad")},
        {"SegmentSum", segmentSumGrad},
    };
    return registerGradientTables(registry, {table}, kNotDifferentiable);
}

} // namespace tstudio
