// The array family's gradients of gathers and stitches, as TensorFlow 1.15's array_grad.py,
// data_flow_grad.py and math_grad.py (UnsortedSegmentSum) build them.
//
// Gather and GatherV2 along axis 0 return IndexedSlices(values, indices, params_shape) as in
// TensorFlow; the gradients driver (gradients.cpp) converts them with UnsortedSegmentSum where a
// consumer needs a tensor, and optimizers apply them as sparse updates.
#include "autodiff/array_grad_internal.h"
#include "builder/ops_sugar.h"
#include "framework/node_attrs.h"

namespace tstudio {
namespace {

using array_grad::ListElement;

/// params_shape as Gather's gradient computes it next to params: Shape (int64) cast to int32.
Expected<Output> paramsShape(GraphBuilder& b, const Output& params)
{
    TSTUDIO_AD_TRY(paramsOp, py::producer(b, params));
    ScopeGuard colocated = b.colocateWith(paramsOp);
    TSTUDIO_AD_TRY(s, array_grad::shape(b, params, tensorflow::DT_INT64));
    return py::cast(b, s, tensorflow::DT_INT32);
}

/// The gradient of an axis-0 gather: IndexedSlices(reshape(grad, [size(indices)] + params_shape[1:]),
/// reshape(indices, [size(indices)]), params_shape).
Expected<IndexedSlices> axisZeroGrad(GraphBuilder& b, const Output& grad, const Output& params, const Output& indices)
{
    TSTUDIO_AD_TRY(shape, paramsShape(b, params));
    TSTUDIO_AD_TRY(n, py::size(b, indices));
    TSTUDIO_AD_TRY(size, py::expandDims(b, n, 0));
    TSTUDIO_AD_TRY(tail, array_grad::stridedSlice1d(b, shape, ListElement{std::int64_t{1}}, std::nullopt));
    TSTUDIO_AD_TRY(valuesShape, array_grad::concat(b, {size, tail}, std::int64_t{0}));
    TSTUDIO_AD_TRY(values, py::reshape(b, grad, valuesShape));
    TSTUDIO_AD_TRY(flatIndices, py::reshape(b, indices, size));
    return IndexedSlices{values, flatIndices, shape};
}

Status gatherGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, axisZeroGrad(ctx.builder(), grad, ctx.input(0), ctx.input(1)));
    return ctx.setInputGradient(0, g);
}

/// GatherV2 along a non-zero (or unknown) axis without batch dims: the gathered axis is moved to
/// the front, summed by index with UnsortedSegmentSum, and moved back.
Expected<Output> otherAxisGrad(GraphBuilder& b, const Output& grad, const Output& params, const Output& indices,
                               const Output& axis)
{
    constexpr std::int64_t kBatchDims = 0;
    TSTUDIO_AD_TRY(shape, paramsShape(b, params));
    TSTUDIO_AD_TRY(n, py::size(b, indices));
    TSTUDIO_AD_TRY(indicesSize, py::expandDims(b, n, 0));
    (void)indicesSize; // made by TensorFlow's function before it branches on the axis
    TSTUDIO_AD_TRY(outerShape, array_grad::stridedSlice1d(b, shape, std::nullopt, ListElement{axis}));
    TSTUDIO_AD_TRY(fromAxis, array_grad::stridedSlice1d(b, shape, ListElement{axis}, std::nullopt));
    TSTUDIO_AD_TRY(innerShape, array_grad::stridedSlice1d(b, fromAxis, ListElement{std::int64_t{1}}, std::nullopt));
    TSTUDIO_AD_TRY(
        valuesShape,
        array_grad::concat(b, {outerShape, std::vector<ListElement>{std::int64_t{-1}}, innerShape}, std::int64_t{0}));
    TSTUDIO_AD_TRY(valuesDims, py::size(b, valuesShape));
    TSTUDIO_AD_TRY(axisDims, py::size(b, outerShape));
    TSTUDIO_AD_TRY(outerBatches, array_grad::range(b, std::int64_t{0}, kBatchDims));
    TSTUDIO_AD_TRY(batchAxes, array_grad::range(b, kBatchDims, axisDims));
    TSTUDIO_AD_TRY(afterAxis, py::binary(b, py::Operator::kAdd, axisDims, 1.0));
    TSTUDIO_AD_TRY(innerAxes, array_grad::range(b, afterAxis, valuesDims));
    TSTUDIO_AD_TRY(values, py::reshape(b, grad, valuesShape));
    TSTUDIO_AD_TRY(perm, array_grad::concat(b, {outerBatches, std::vector<ListElement>{axisDims}, batchAxes, innerAxes},
                                            std::int64_t{0}));
    TSTUDIO_AD_TRY(moved, py::genOp(b, "Transpose", {values, perm}, {}, "transpose"));
    // _BatchGatherGrad(params_shape, values, indices, 0, params_shape[axis]).
    TSTUDIO_AD_TRY(gatherDimSize, array_grad::stridedSlice1d(b, shape, ListElement{axis}, std::nullopt, true));
    TSTUDIO_AD_TRY(n2, py::size(b, indices));
    TSTUDIO_AD_TRY(size2, py::expandDims(b, n2, 0));
    TSTUDIO_AD_TRY(flatIndices, py::reshape(b, indices, size2));
    TSTUDIO_AD_TRY(summed, py::genOp(b, "UnsortedSegmentSum", {moved, flatIndices, gatherDimSize}));
    TSTUDIO_AD_TRY(batchAxesPlusOne, py::binary(b, py::Operator::kAdd, batchAxes, 1.0));
    TSTUDIO_AD_TRY(inversePerm,
                   array_grad::concat(b,
                                      {outerBatches, batchAxesPlusOne, std::vector<ListElement>{kBatchDims}, innerAxes},
                                      std::int64_t{0}));
    return py::genOp(b, "Transpose", {summed, inversePerm}, {}, "transpose");
}

Status gatherV2Grad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& indices = ctx.input(1);
    const Output& axis = ctx.input(2);
    TSTUDIO_AD_TRY(batchDims, attrInt(ctx.node(), "batch_dims"));
    if (batchDims < 0 && indices.shape().rank() >= 0)
        batchDims += indices.shape().rank();
    const Tensor* axisValue = b.constantValue(axis);
    if (axisValue && axisValue->numElements() == 1) {
        const std::int64_t a = axisValue->dtype() == tensorflow::DT_INT64 ? axisValue->values<std::int64_t>()[0]
                                                                          : axisValue->values<std::int32_t>()[0];
        if (a == 0) {
            TSTUDIO_AD_TRY(g, axisZeroGrad(b, grad, ctx.input(0), indices));
            return ctx.setInputGradient(0, g);
        }
    }
    if (batchDims != 0)
        return unimplementedError("the gradient of GatherV2 '" + ctx.op().name() + "' with batch_dims = " +
                                  std::to_string(batchDims) + " is not supported yet (only batch_dims = 0)");
    TSTUDIO_AD_TRY(g, otherAxisGrad(b, grad, ctx.input(0), indices, axis));
    return ctx.setInputGradient(0, g);
}

/// DynamicStitch and ParallelDynamicStitch: data[i] gets gather(grad, indices[i]); indices get none.
/// As in TensorFlow 1.15, an index given twice sends the gradient to every data element naming it.
Status dynamicStitchGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const int n = ctx.numInputs() / 2;
    for (int i = 0; i < n; ++i) {
        TSTUDIO_AD_TRY(g, array_grad::gather(ctx.builder(), grad, ctx.input(i)));
        TSTUDIO_AD_CHECK(ctx.setInputGradient(n + i, g));
    }
    return Status::ok();
}

/// data_flow_grad._DynamicPartitionGrads: the positions of the partitions' prefix shape
/// (range(reduce_prod(shape(partitions))) reshaped to it) partitioned like the data, the output
/// gradients stitched back to those positions (ParallelDynamicStitch) and reshaped to data's shape;
/// partitions get none.
Status dynamicPartitionGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    const Output& data = ctx.input(0);
    const Output& partitions = ctx.input(1);
    TSTUDIO_AD_TRY(numPartitions, attrInt(ctx.node(), "num_partitions"));
    TSTUDIO_AD_TRY(prefixShape, py::shape(b, partitions));
    TSTUDIO_AD_TRY(count, py::reduceProdAll(b, prefixShape));
    TSTUDIO_AD_TRY(positions, array_grad::range(b, std::int64_t{0}, count));
    TSTUDIO_AD_TRY(originalIndices, py::reshape(b, positions, prefixShape));
    TSTUDIO_AD_TRY(partitioned, b.op("DynamicPartition", {originalIndices, partitions},
                                     {{"num_partitions", attr::i(numPartitions)}}));
    std::vector<Output> indices;
    std::vector<Output> grads;
    for (int i = 0; i < ctx.numOutputs(); ++i) {
        indices.push_back(partitioned.output(i));
        TSTUDIO_AD_TRY(g, ctx.grad(i));
        grads.push_back(g);
    }
    TSTUDIO_AD_TRY(stitched, py::genOp(b, "ParallelDynamicStitch", {indices, grads}));
    TSTUDIO_AD_TRY(dataShape, py::shape(b, data));
    TSTUDIO_AD_TRY(g, py::reshape(b, stitched, dataShape));
    return ctx.setInputGradient(0, g);
}

/// _GatherDropNegatives(grad, segment_ids): grad's rows gathered by id, zero where the id is negative.
Status unsortedSegmentSumGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    const Output& ids = ctx.input(1);
    TSTUDIO_AD_TRY(zeroIds, py::zerosLike(b, ids));
    TSTUDIO_AD_TRY(clipped, py::genOp(b, "Maximum", {ids, zeroIds}));
    TSTUDIO_AD_TRY(gathered, array_grad::gather(b, grad, clipped));
    TSTUDIO_AD_TRY(isPositive, py::genOpScalarY(b, "GreaterEqual", ids, 0.0));
    if (gathered.shape().isUnknownRank() || isPositive.shape().isUnknownRank())
        return unimplementedError("the gradient of UnsortedSegmentSum '" + ctx.op().name() +
                                  "' needs the ranks of its data and segment_ids");
    Output mask = isPositive;
    for (int i = isPositive.shape().rank(); i < gathered.shape().rank(); ++i) {
        TSTUDIO_AD_TRY(expanded, py::expandDims(b, mask, -1));
        mask = expanded;
    }
    Output ones;
    {
        // array_ops.ones_like(gathered, dtype=bool).
        TSTUDIO_AD_TRY(scope, b.nameScope("ones_like"));
        TSTUDIO_AD_TRY(dims, array_grad::shape(b, gathered));
        TSTUDIO_AD_TRY(one, ops::constant(b, 1.0, tensorflow::DT_BOOL, "Const"));
        TSTUDIO_AD_TRY(o, py::genOp(b, "Fill", {dims, one}, {}, scope.name()));
        ones = o;
    }
    TSTUDIO_AD_TRY(both, [&]() -> Expected<Output> {
        TSTUDIO_AD_TRY(scope, b.nameScope("and"));
        return py::genOp(b, "LogicalAnd", {mask, ones}, {}, scope.name());
    }());
    TSTUDIO_AD_TRY(zeros, py::zerosLike(b, gathered));
    TSTUDIO_AD_TRY(g, py::where(b, both, gathered, zeros));
    return ctx.setInputGradient(0, g);
}

} // namespace

namespace array_grad {

GradientTable gatherGradients()
{
    return {
        {"Gather", gatherGrad},
        {"GatherV2", gatherV2Grad},
        {"DynamicStitch", dynamicStitchGrad},
        {"ParallelDynamicStitch", dynamicStitchGrad},
        {"DynamicPartition", dynamicPartitionGrad},
        {"UnsortedSegmentSum", unsortedSegmentSumGrad},
    };
}

} // namespace array_grad
} // namespace tstudio
