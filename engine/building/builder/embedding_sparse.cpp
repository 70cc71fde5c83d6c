// tf.nn.embedding_lookup_sparse and safe_embedding_lookup_sparse of TensorFlow 1.15 with Python's
// node names (see embedding_sparse.h).
#include "builder/embedding_sparse.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/sparse_ops.h"

#include <string>

namespace tstudio::nn {

namespace {

using py::Operator;
using sparse::SparseTensor;

bool isHalfLike(DataType t)
{
    return t == tensorflow::DT_HALF || t == tensorflow::DT_BFLOAT16;
}

/// array_ops.rank(x): the Const "Rank" when the rank is known, else the op "Rank".
Expected<Output> rank(GraphBuilder& b, const Output& x)
{
    if (!x.shape().isUnknownRank())
        return ops::constantInts(b, {x.shape().rank()}, TensorShape::scalar(), tensorflow::DT_INT32, "Rank");
    return py::genOp(b, "Rank", {x});
}

/// array_ops.concat(values, axis) of int32 vectors: "concat/axis" and the ConcatV2 "concat".
Expected<Output> concat(GraphBuilder& b, const std::vector<Output>& values, std::int64_t axis)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("concat"));
    TSTUDIO_AD_TRY(axisT, ops::constantInts(b, {axis}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
    return py::genOp(b, "ConcatV2", {values, axisT}, {}, scope.name());
}

/// array_ops.slice(x, begin, size) with Python lists: "Slice/begin", "Slice/size" (int32) and "Slice".
/// A size entry given as a tensor makes "Slice/size" the Pack of the entries (auto-packing).
Expected<Output> slice(GraphBuilder& b, const Output& x, std::int64_t begin, const std::optional<Output>& sizeTensor,
                       std::int64_t size)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Slice"));
    TSTUDIO_AD_TRY(beginT, ops::constantInts(b, {begin}, {1}, tensorflow::DT_INT32, "begin"));
    Output sizeT;
    if (sizeTensor) {
        TSTUDIO_AD_TRY(packScope, b.nameScope("size"));
        TSTUDIO_AD_TRY(
            packed, py::genOp(b, "Pack", {std::vector<Output>{*sizeTensor}}, {{"axis", attr::i(0)}}, packScope.name()));
        sizeT = packed;
    } else {
        TSTUDIO_AD_TRY(constant, ops::constantInts(b, {size}, {1}, tensorflow::DT_INT32, "size"));
        sizeT = constant;
    }
    return py::genOp(b, "Slice", {x, beginT, sizeT}, {}, scope.name());
}

/// array_ops.gather(params, python int): "GatherV2/indices", "GatherV2/axis" and "GatherV2".
Expected<Output> gatherAt(GraphBuilder& b, const Output& params, std::int64_t index)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("GatherV2"));
    TSTUDIO_AD_TRY(indices, ops::constantInts(b, {index}, TensorShape::scalar(), tensorflow::DT_INT32, "indices"));
    TSTUDIO_AD_TRY(axis, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
    return py::genOp(b, "GatherV2", {params, indices, axis}, {}, scope.name());
}

/// array_ops.stack([1, t]) of an int32 scalar t: "stack/0" and the Pack "stack".
Expected<Output> stackOneAnd(GraphBuilder& b, const Output& t)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("stack"));
    TSTUDIO_AD_TRY(one, ops::constantInts(b, {1}, TensorShape::scalar(), tensorflow::DT_INT32, "0"));
    return py::genOp(b, "Pack", {std::vector<Output>{one, t}}, {{"axis", attr::i(0)}}, scope.name());
}

/// array_ops.ones_like(x, dtype=bool): "ones_like/Shape" (or its Const), "ones_like/Const" and the
/// Fill "ones_like".
Expected<Output> onesLikeBool(GraphBuilder& b, const Output& x)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("ones_like"));
    TSTUDIO_AD_TRY(shape, py::shape(b, x));
    TSTUDIO_AD_TRY(one, ops::constant(b, 1.0, tensorflow::DT_BOOL));
    return ops::fill(b, shape, one, scope.name());
}

/// A comparison with a Python number: "<Op>/y" of x's dtype and the op.
Expected<Output> compareWith(GraphBuilder& b, std::string_view op, const Output& x, double y)
{
    return py::genOpScalarY(b, op, x, y);
}

/// _prune_invalid_ids: ids >= 0 (and, with weights, a ones_like mask of the weights), retained.
Status pruneInvalidIds(GraphBuilder& b, SparseTensor& ids, std::optional<SparseTensor>& weights)
{
    TSTUDIO_AD_TRY(valid, compareWith(b, "GreaterEqual", ids.values, 0.0));
    if (weights) {
        TSTUDIO_AD_TRY(ones, onesLikeBool(b, weights->values));
        TSTUDIO_AD_TRY(both, py::genOp(b, "LogicalAnd", {valid, ones}));
        valid = both;
    }
    TSTUDIO_AD_TRY(keptIds, sparse::sparseRetain(b, ids, valid));
    ids = keptIds;
    if (weights) {
        TSTUDIO_AD_TRY(keptWeights, sparse::sparseRetain(b, *weights, valid));
        weights = keptWeights;
    }
    return Status::ok();
}

/// _prune_invalid_weights: entries with weight > 0 retained (nothing without weights).
Status pruneInvalidWeights(GraphBuilder& b, SparseTensor& ids, std::optional<SparseTensor>& weights)
{
    if (!weights)
        return Status::ok();
    TSTUDIO_AD_TRY(valid, compareWith(b, "Greater", weights->values, 0.0));
    TSTUDIO_AD_TRY(keptIds, sparse::sparseRetain(b, ids, valid));
    TSTUDIO_AD_TRY(keptWeights, sparse::sparseRetain(b, *weights, valid));
    ids = keptIds;
    weights = keptWeights;
    return Status::ok();
}

/// The weighted combination: embeddings (one row per unique id) gathered per entry, multiplied by
/// the broadcast weights, and combined per segment.
Expected<Output> combineWeighted(GraphBuilder& b, Output embeddings, const Output& idx, Output weights,
                                 const Output& segmentIds, const std::string& combiner, const std::string& scopeName)
{
    TSTUDIO_AD_TRY(gathered, sparse::gather(b, embeddings, idx));
    embeddings = gathered;
    // Reshape weights to allow broadcast.
    TSTUDIO_AD_TRY(r, rank(b, embeddings));
    TSTUDIO_AD_TRY(rMinus1, py::binary(b, Operator::kSub, r, 1.0));
    TSTUDIO_AD_TRY(dims, py::expandDims(b, rMinus1, 0));
    TSTUDIO_AD_TRY(ones, py::fill(b, dims, 1.0, tensorflow::DT_INT32));
    TSTUDIO_AD_TRY(weightsShape, py::shape(b, weights));
    TSTUDIO_AD_TRY(bcastShape, concat(b, {weightsShape, ones}, 0));
    const TensorShape originalWeightsShape = weights.shape();
    TSTUDIO_AD_TRY(reshaped, py::reshape(b, weights, bcastShape));
    weights = reshaped;
    if (!embeddings.shape().isUnknownRank() && !originalWeightsShape.isUnknownRank()) {
        std::vector<std::int64_t> dims(originalWeightsShape.dims().begin(), originalWeightsShape.dims().end());
        dims.resize(dims.size() + static_cast<std::size_t>(embeddings.shape().rank() - 1), 1);
        TSTUDIO_AD_CHECK(b.setShape(weights, TensorShape(dims)));
        TSTUDIO_AD_TRY(refreshed, b.tensor(weights.name()));
        weights = refreshed;
    }
    TSTUDIO_AD_TRY(weighted, py::binary(b, Operator::kMul, embeddings, weights));
    if (combiner == "sum")
        return sparse::segmentSum(b, weighted, segmentIds, scopeName);
    TSTUDIO_AD_TRY(sum, sparse::segmentSum(b, weighted, segmentIds));
    Output weightSum;
    if (combiner == "mean") {
        TSTUDIO_AD_TRY(ws, sparse::segmentSum(b, weights, segmentIds));
        weightSum = ws;
    } else {
        TSTUDIO_AD_TRY(squared, py::genOpScalarY(b, "Pow", weights, 2.0));
        TSTUDIO_AD_TRY(ws, sparse::segmentSum(b, squared, segmentIds));
        TSTUDIO_AD_TRY(root, py::genOp(b, "Sqrt", {ws}));
        weightSum = root;
    }
    return py::genOp(b, "RealDiv", {sum, weightSum}, {}, scopeName);
}

Status checkCombiner(const std::string& combiner)
{
    if (combiner != "mean" && combiner != "sqrtn" && combiner != "sum")
        return invalidArgumentError("combiner must be one of 'mean', 'sqrtn' or 'sum'");
    return Status::ok();
}

} // namespace

Expected<Output> embeddingLookupSparse(GraphBuilder& b, const std::vector<Output>& params,
                                       const sparse::SparseTensor& spIds,
                                       const std::optional<sparse::SparseTensor>& spWeights, PartitionStrategy strategy,
                                       std::string_view name, const std::string& combiner,
                                       std::optional<double> maxNorm)
{
    TSTUDIO_AD_CHECK(checkCombiner(combiner));
    if (params.empty())
        return unexpected(invalidArgumentError("embedding_lookup_sparse needs at least one params tensor"));
    if (params.size() > 1 && maxNorm)
        return unexpected(unimplementedError("embedding_lookup_sparse: max_norm over several params shards"));
    if (spWeights) {
        if (!spIds.values.shape().isCompatibleWith(spWeights->values.shape()) ||
            !spIds.indices.shape().isCompatibleWith(spWeights->indices.shape()) ||
            !spIds.denseShape.shape().isCompatibleWith(spWeights->denseShape.shape()))
            return unexpected(invalidArgumentError("sp_ids " + spIds.values.shape().toString() + " and sp_weights " +
                                                   spWeights->values.shape().toString() +
                                                   " must have the same shapes and indices"));
    }
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("embedding_lookup_sparse") : name));
    const std::string scopeName = scope.name();
    TSTUDIO_AD_TRY(column0, sparse::column(b, spIds.indices, 0));
    TSTUDIO_AD_TRY(segmentIds, py::cast(b, column0, tensorflow::DT_INT32));
    TSTUDIO_AD_TRY(unique, b.op("Unique", {spIds.values}));
    const Output ids = unique.output(0);
    const Output idx = unique.output(1);
    Output embeddings;
    if (params.size() == 1) {
        TSTUDIO_AD_TRY(e, embeddingLookup(b, params.front(), ids, {}, maxNorm));
        embeddings = e;
    } else {
        TSTUDIO_AD_TRY(e, embeddingLookup(b, params, ids, strategy));
        embeddings = e;
    }
    if (isHalfLike(embeddings.baseDtype())) {
        TSTUDIO_AD_TRY(f, py::cast(b, embeddings, tensorflow::DT_FLOAT));
        embeddings = f;
    }
    if (spWeights) {
        TSTUDIO_AD_TRY(weights, py::cast(b, spWeights->values, embeddings.baseDtype()));
        return combineWeighted(b, embeddings, idx, weights, segmentIds, combiner, scopeName);
    }
    const sparse::SegmentReduction reduction = combiner == "sum"    ? sparse::SegmentReduction::kSum
                                               : combiner == "mean" ? sparse::SegmentReduction::kMean
                                                                    : sparse::SegmentReduction::kSqrtN;
    return sparse::sparseSegmentReduce(b, reduction, embeddings, idx, segmentIds, std::nullopt, scopeName);
}

Expected<Output> safeEmbeddingLookupSparse(GraphBuilder& b, const std::vector<Output>& embeddingWeights,
                                           const sparse::SparseTensor& sparseIds,
                                           const std::optional<sparse::SparseTensor>& sparseWeights,
                                           const std::string& combiner, std::optional<std::int64_t> defaultId,
                                           std::string_view name, PartitionStrategy strategy,
                                           std::optional<double> maxNorm)
{
    if (embeddingWeights.empty())
        return unexpected(invalidArgumentError("Missing embedding_weights []."));
    TSTUDIO_AD_CHECK(checkCombiner(combiner));
    if (sparseWeights) {
        for (const Output& w : embeddingWeights) {
            if (w.baseDtype() != sparseWeights->dtype())
                return unexpected(
                    invalidArgumentError("Tensor conversion requested dtype " + dataTypeName(sparseWeights->dtype()) +
                                         " for Tensor with dtype " + dataTypeName(w.baseDtype()) + ": " + w.name()));
        }
    }
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("embedding_lookup") : name));
    const std::string scopeName = scope.name();

    // Reshape higher-rank sparse ids and weights to linear segment ids.
    const Output originalShape = sparseIds.denseShape;
    const std::int64_t rankDim = originalShape.shape().isUnknownRank() ? -1 : originalShape.shape().dim(0);
    Output prodInput;
    Output lastDim;
    Output originalRank; // array_ops.size(original_shape) when the rank is not known while building
    if (rankDim >= 0) {
        TSTUDIO_AD_TRY(head, slice(b, originalShape, 0, std::nullopt, rankDim - 1));
        TSTUDIO_AD_TRY(prod, py::reduceProdAll(b, head));
        TSTUDIO_AD_TRY(last, gatherAt(b, originalShape, rankDim - 1));
        prodInput = prod;
        lastDim = last;
    } else {
        TSTUDIO_AD_TRY(size, py::size(b, originalShape));
        originalRank = size;
        TSTUDIO_AD_TRY(minus1, py::binary(b, Operator::kSub, originalRank, 1.0));
        TSTUDIO_AD_TRY(head, slice(b, originalShape, 0, minus1, -1));
        TSTUDIO_AD_TRY(prod, py::reduceProdAll(b, head));
        TSTUDIO_AD_TRY(minus1Again, py::binary(b, Operator::kSub, originalRank, 1.0));
        TSTUDIO_AD_TRY(last, sparse::gather(b, originalShape, minus1Again));
        prodInput = prod;
        lastDim = last;
    }
    TSTUDIO_AD_TRY(ids, sparse::sparseReshape(b, sparseIds, std::vector<Output>{prodInput, lastDim}));
    std::optional<SparseTensor> weights;
    if (sparseWeights) {
        TSTUDIO_AD_TRY(w, sparse::makeSparseTensor(ids.indices, sparseWeights->values, ids.denseShape));
        weights = w;
    }

    // Prune invalid ids and weights.
    TSTUDIO_AD_CHECK(pruneInvalidIds(b, ids, weights));
    if (combiner != "sum")
        TSTUDIO_AD_CHECK(pruneInvalidWeights(b, ids, weights));

    // Fill in dummy values for empty features, if necessary.
    TSTUDIO_AD_TRY(filledIds, sparse::sparseFillEmptyRows(b, ids, static_cast<double>(defaultId.value_or(0))));
    ids = filledIds.first;
    const Output isRowEmpty = filledIds.second;
    if (weights) {
        TSTUDIO_AD_TRY(filledWeights, sparse::sparseFillEmptyRows(b, *weights, 1.0));
        weights = filledWeights.first;
    }

    TSTUDIO_AD_TRY(result, embeddingLookupSparse(b, embeddingWeights, ids, weights, strategy,
                                                 defaultId ? std::string_view(scopeName) : std::string_view(), combiner,
                                                 maxNorm));
    if (!defaultId) {
        // Rows that were empty get zeros: is_row_empty broadcast to the result's shape for a Select.
        TSTUDIO_AD_TRY(column, py::reshape(b, isRowEmpty, std::vector<std::int64_t>{-1, 1}));
        TSTUDIO_AD_TRY(resultShape, py::shape(b, result));
        TSTUDIO_AD_TRY(width, sparse::element(b, resultShape, 1));
        TSTUDIO_AD_TRY(multiples, stackOneAnd(b, width));
        TSTUDIO_AD_TRY(tiled, py::tile(b, column, multiples));
        TSTUDIO_AD_TRY(zeros, py::zerosLike(b, result));
        TSTUDIO_AD_TRY(selected, py::genOp(b, "Select", {tiled, zeros, result}, {}, scopeName));
        result = selected;
    }

    // Reshape back from linear ids back into higher-dimensional dense result.
    TSTUDIO_AD_TRY(shape32, py::cast(b, originalShape, tensorflow::DT_INT32));
    Output outer;
    if (rankDim >= 0) {
        TSTUDIO_AD_TRY(s, slice(b, shape32, 0, std::nullopt, rankDim - 1));
        outer = s;
    } else {
        TSTUDIO_AD_TRY(minus1, py::binary(b, Operator::kSub, originalRank, 1.0));
        TSTUDIO_AD_TRY(s, slice(b, shape32, 0, minus1, -1));
        outer = s;
    }
    TSTUDIO_AD_TRY(resultShape, py::shape(b, result));
    TSTUDIO_AD_TRY(inner, slice(b, resultShape, 1, std::nullopt, -1));
    TSTUDIO_AD_TRY(finalShape, concat(b, {outer, inner}, 0));
    TSTUDIO_AD_TRY(finalResult, py::reshape(b, result, finalShape));
    if (rankDim >= 0 && !result.shape().isUnknownRank()) {
        std::vector<std::int64_t> dims(static_cast<std::size_t>(rankDim - 1), -1);
        for (int d = 1; d < result.shape().rank(); ++d)
            dims.push_back(result.shape().dim(d));
        TSTUDIO_AD_CHECK(b.setShape(finalResult, TensorShape(dims)));
        return b.tensor(finalResult.name());
    }
    return finalResult;
}

} // namespace tstudio::nn
