// tf.nn.crelu, relu_layer, xw_plus_b and embedding_lookup (one tensor or sharded) with TensorFlow 1.15's
// nodes. The sharded lookup borrows the Python-call helpers of the array gradients (range, concat,
// gather), which emit the same nodes as array_ops does.
#include "builder/nn_functions.h"

#include "builder/array_ops_helpers.h"
#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "framework/shape_inference.h"
#include "builder/clip_ops.h"

#include <string>
#include <vector>

namespace tstudio::nn {

namespace {

std::string_view orDefault(std::string_view name, std::string_view fallback)
{
    return name.empty() ? fallback : name;
}

} // namespace

Expected<Output> crelu(GraphBuilder& b, const Output& features, std::string_view name, std::int64_t axis)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(orDefault(name, "CRelu")));
    TSTUDIO_AD_TRY(negated, py::neg(b, features));
    Output concat;
    {
        TSTUDIO_AD_TRY(concatScope, b.nameScope("concat"));
        TSTUDIO_AD_TRY(axisT, ops::constantInts(b, {axis}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
        TSTUDIO_AD_TRY(
            c, py::genOp(b, "ConcatV2", {std::vector<Output>{features, negated}, axisT}, {}, concatScope.name()));
        concat = c;
    }
    return py::genOp(b, "Relu", {concat});
}

Expected<Output> xwPlusB(GraphBuilder& b, const Output& x, const Output& weights, const Output& biases,
                         std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(orDefault(name, "xw_plus_b")));
    TSTUDIO_AD_TRY(product, ops::matMul(b, x, weights));
    return py::genOp(b, "BiasAdd", {product, biases}, {}, scope.name());
}

Expected<Output> reluLayer(GraphBuilder& b, const Output& x, const Output& weights, const Output& biases,
                           std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(orDefault(name, "relu_layer")));
    TSTUDIO_AD_TRY(product, ops::matMul(b, x, weights));
    TSTUDIO_AD_TRY(biased, py::genOp(b, "BiasAdd", {product, biases}));
    return py::genOp(b, "Relu", {biased}, {}, scope.name());
}

Expected<Output> embeddingLookup(GraphBuilder& b, const Output& params, const Output& ids, std::string_view name,
                                 std::optional<double> maxNorm)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(orDefault(name, "embedding_lookup")));
    TSTUDIO_AD_TRY(paramsOp, py::producer(b, params));
    Output result;
    {
        ScopeGuard colocated = b.colocateWith(paramsOp);
        // array_ops.gather(params, ids, name=<scope>): the GatherV2 named after the scope, its axis
        // converted inside that scope.
        TSTUDIO_AD_TRY(axis, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
        TSTUDIO_AD_TRY(gathered, py::genOp(b, "GatherV2", {params, ids, axis}, {}, scope.name()));
        result = gathered;
        if (maxNorm) {
            const TensorShape& idsShape = ids.shape();
            const TensorShape& resultShape = gathered.shape();
            if (idsShape.isUnknownRank() || resultShape.isUnknownRank() || idsShape.rank() == 0 ||
                resultShape.rank() <= idsShape.rank())
                return unexpected(unimplementedError(
                    "embedding_lookup: max_norm needs ids of known rank >= 1 and params of rank >= 2 (TensorFlow "
                    "otherwise computes the clipping axes at run time)"));
            std::vector<std::int64_t> axes;
            for (int d = idsShape.rank(); d < resultShape.rank(); ++d)
                axes.push_back(d);
            TSTUDIO_AD_TRY(clipped, training::clipByNorm(b, gathered, *maxNorm, axes));
            result = clipped;
        }
    }
    return py::genOp(b, "Identity", {result});
}

namespace {

using array_ops::ListElement;

/// The shard and the row in it of every flat id, as "div" assigns them: ids_per_partition =
/// total // n and extras = total % n; shard max(id // (ids_per_partition + 1), (id - extras) //
/// ids_per_partition), row id % (ids_per_partition + 1) in the first `extras` shards, else
/// (id - extras) % ids_per_partition.
Expected<std::pair<Output, Output>> divAssignments(GraphBuilder& b, const std::vector<Output>& params,
                                                   const Output& flatIds)
{
    const std::int64_t n = static_cast<std::int64_t>(params.size());
    std::int64_t total = 0;
    for (const Output& p : params) {
        if (p.shape().isUnknownRank() || p.shape().rank() < 1 || p.shape().dim(0) < 0)
            return unexpected(invalidArgumentError(
                "embedding_lookup: partition_strategy 'div' needs the first dimension of every shard while "
                "building, but " +
                p.name() + " has shape " + p.shape().toString()));
        total += p.shape().dim(0);
    }
    TSTUDIO_AD_TRY(numTotalIds, ops::constantInts(b, {total}, TensorShape::scalar(), flatIds.baseDtype(), "Const"));
    TSTUDIO_AD_TRY(idsPerPartition, py::binary(b, py::Operator::kFloorDiv, numTotalIds, double(n)));
    TSTUDIO_AD_TRY(extras, py::binary(b, py::Operator::kMod, numTotalIds, double(n)));
    TSTUDIO_AD_TRY(widened, py::binary(b, py::Operator::kAdd, idsPerPartition, 1.0));
    TSTUDIO_AD_TRY(inWide, py::binary(b, py::Operator::kFloorDiv, flatIds, widened));
    TSTUDIO_AD_TRY(shifted, py::binary(b, py::Operator::kSub, flatIds, extras));
    TSTUDIO_AD_TRY(inNarrow, py::binary(b, py::Operator::kFloorDiv, shifted, idsPerPartition));
    TSTUDIO_AD_TRY(assignments, py::genOp(b, "Maximum", {inWide, inNarrow}));
    TSTUDIO_AD_TRY(isWide, py::genOp(b, "Less", {assignments, extras}));
    TSTUDIO_AD_TRY(widened2, py::binary(b, py::Operator::kAdd, idsPerPartition, 1.0));
    TSTUDIO_AD_TRY(rowWide, py::binary(b, py::Operator::kMod, flatIds, widened2));
    TSTUDIO_AD_TRY(shifted2, py::binary(b, py::Operator::kSub, flatIds, extras));
    TSTUDIO_AD_TRY(rowNarrow, py::binary(b, py::Operator::kMod, shifted2, idsPerPartition));
    TSTUDIO_AD_TRY(rows, py::where(b, isWide, rowWide, rowNarrow));
    return std::pair<Output, Output>{assignments, rows};
}

} // namespace

Expected<Output> embeddingLookup(GraphBuilder& b, const std::vector<Output>& params, const Output& ids,
                                 PartitionStrategy strategy, std::string_view name)
{
    if (params.empty())
        return unexpected(invalidArgumentError("embedding_lookup: Need at least one param"));
    if (params.size() == 1)
        return embeddingLookup(b, params.front(), ids, name);
    // The static shape of one embedding: params[p].shape[1:], merged over the shards.
    TensorShape elementShape = TensorShape::unknown();
    for (const Output& p : params) {
        if (p.shape().isUnknownRank())
            continue;
        auto rest = ShapeInferenceContext::subshape(p.shape(), 1);
        if (!rest)
            return unexpected(invalidArgumentError("embedding_lookup: shard " + p.name() + " of shape " +
                                                   p.shape().toString() + " must have rank at least 1"));
        auto merged = elementShape.merge(*rest);
        if (!merged)
            return unexpected(
                invalidArgumentError("embedding_lookup: the shards' embedding shapes differ: " + params.front().name() +
                                     " and " + p.name() + " (" + merged.error().message() + ")"));
        elementShape = *merged;
    }

    TSTUDIO_AD_TRY(scope, b.nameScope(orDefault(name, "embedding_lookup")));
    const std::int64_t n = static_cast<std::int64_t>(params.size());
    TSTUDIO_AD_TRY(flatIds, py::reshape(b, ids, std::vector<std::int64_t>{-1}));
    TSTUDIO_AD_TRY(count, py::size(b, flatIds));
    TSTUDIO_AD_TRY(originalIndices, array_ops::range(b, std::int64_t{0}, count));
    Output assignments;
    Output newIds;
    if (strategy == PartitionStrategy::kMod) {
        TSTUDIO_AD_TRY(shard, py::binary(b, py::Operator::kMod, flatIds, double(n)));
        TSTUDIO_AD_TRY(row, py::binary(b, py::Operator::kFloorDiv, flatIds, double(n)));
        assignments = shard;
        newIds = row;
    } else {
        TSTUDIO_AD_TRY(assigned, divAssignments(b, params, flatIds));
        assignments = assigned.first;
        newIds = assigned.second;
    }
    TSTUDIO_AD_TRY(shards, py::cast(b, assignments, tensorflow::DT_INT32));
    const AttrMap partitionAttrs{{"num_partitions", attr::i(n)}};
    TSTUDIO_AD_TRY(gatherIds, b.op("DynamicPartition", {newIds, shards}, partitionAttrs));
    TSTUDIO_AD_TRY(positions, b.op("DynamicPartition", {originalIndices, shards}, partitionAttrs));
    std::vector<Output> pieces;
    std::vector<Output> pieceIndices;
    for (std::int64_t p = 0; p < n; ++p) {
        const Output& shard = params[static_cast<std::size_t>(p)];
        TSTUDIO_AD_TRY(shardOp, py::producer(b, shard));
        ScopeGuard colocated = b.colocateWith(shardOp);
        TSTUDIO_AD_TRY(piece, array_ops::gather(b, shard, gatherIds.output(static_cast<int>(p))));
        pieces.push_back(piece);
        pieceIndices.push_back(positions.output(static_cast<int>(p)));
    }
    TSTUDIO_AD_TRY(stitched, py::genOp(b, "ParallelDynamicStitch", {pieceIndices, pieces}, {}, scope.name()));
    // The embedding shape: static when known, else params[0]'s shape[1:] computed next to it.
    array_ops::ConcatValue element = std::vector<ListElement>{};
    if (elementShape.isFullyDefined()) {
        std::vector<ListElement> dims;
        for (int d = 0; d < elementShape.rank(); ++d)
            dims.emplace_back(elementShape.dim(d));
        element = dims;
    } else {
        TSTUDIO_AD_TRY(firstOp, py::producer(b, params.front()));
        ScopeGuard colocated = b.colocateWith(firstOp);
        TSTUDIO_AD_TRY(paramsShape, py::shape(b, params.front()));
        TSTUDIO_AD_TRY(tail, array_ops::stridedSlice1d(b, paramsShape, ListElement{std::int64_t{1}}, std::nullopt));
        element = tail;
    }
    TSTUDIO_AD_TRY(idsShape, py::shape(b, ids));
    TSTUDIO_AD_TRY(outShape, array_ops::concat(b, {idsShape, element}, std::int64_t{0}));
    TSTUDIO_AD_TRY(result, py::reshape(b, stitched, outShape));
    if (Status st = b.setShape(result, ids.shape().concatenate(elementShape)); !st.isOk())
        return unexpected(st);
    return b.tensor(result.name());
}

} // namespace tstudio::nn
