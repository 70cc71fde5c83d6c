// tf.nn.embedding_lookup_sparse and tf.nn.safe_embedding_lookup_sparse of TensorFlow 1.15
// (embedding_ops.py), the way Estimator's embedding columns combine the embeddings of a batch of
// sparse ids, with Python's node names.
#pragma once

#include "builder/nn_functions.h"
#include "builder/sparse_tensor.h"
#include "core/expected.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::nn {

/// tf.nn.embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy, name, combiner,
/// max_norm). `params`: one tensor, or the shards of a table split along dimension 0 (then without
/// max_norm). sp_ids: [N, M] int32/int64 ids in row-major order, every row non-empty; sp_weights:
/// float weights with the same indices, or none (all 1). combiner "sum", "mean" (TensorFlow's
/// default when None) or "sqrtn". In the scope `name` (default "embedding_lookup_sparse"): the
/// segment ids sp_ids.indices[:, 0] ("strided_slice", "Cast" to int32), "Unique" of the ids,
/// embedding_lookup of the unique ids ("embedding_lookup/..."), then
///  - without weights: SparseSegmentSum/Mean/SqrtN(embeddings, unique_idx, segment_ids) named after
///    the scope;
///  - with weights: "GatherV2" back to one row per id, the weights reshaped to broadcast ("Rank",
///    "sub", "ExpandDims", "Fill", "Shape", "concat", "Reshape"), "mul", and "SegmentSum" (sum,
///    named after the scope), or SegmentSum / "SegmentSum_1" of the weights (mean; of their squares
///    "Pow" and "Sqrt" for sqrtn) and the RealDiv named after the scope.
/// The result has one row per row of sp_ids (rows past the last id are absent) and params'
/// trailing shape. A `name` ending in '/' is a scope used as is (safe_embedding_lookup_sparse's).
/// Errors: InvalidArgument "combiner must be one of 'mean', 'sqrtn' or 'sum'", no params, ids or
/// weights of the wrong kind; Unimplemented for max_norm over several shards; the ops' errors.
Expected<Output> embeddingLookupSparse(GraphBuilder& b, const std::vector<Output>& params,
                                       const sparse::SparseTensor& spIds,
                                       const std::optional<sparse::SparseTensor>& spWeights,
                                       PartitionStrategy strategy = PartitionStrategy::kMod, std::string_view name = {},
                                       const std::string& combiner = "mean",
                                       std::optional<double> maxNorm = std::nullopt);

/// tf.nn.safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights, combiner="mean",
/// default_id=None, name, partition_strategy="div", max_norm) of TensorFlow 1.15: in the scope `name`
/// (default "embedding_lookup"), sparse_ids of any rank >= 2 are reshaped to [prod(d_0..d_{n-1}),
/// d_n] ("Slice", "Prod", "GatherV2", sparse_reshape), ids < 0 pruned ("GreaterEqual", and with
/// weights "ones_like", "LogicalAnd"; sparse_retain), for combiners other than "sum" entries with
/// weight <= 0 pruned ("Greater"), empty rows filled with default_id (or 0) and weight 1
/// ("SparseFillEmptyRows", "SparseFillEmptyRows_1"), embedding_lookup_sparse applied (in its own
/// scope, or in this one when default_id is given), rows that were empty set to zeros when no
/// default_id is given (the Select named after the scope), and the result reshaped to
/// [d_0, ..., d_{n-1}] + embedding dims ("Reshape_<k>"). Weights must have the embedding's dtype.
/// Errors: InvalidArgument "Missing embedding_weights", a dtype mismatch, a bad combiner; the rest
/// as embeddingLookupSparse.
Expected<Output> safeEmbeddingLookupSparse(
    GraphBuilder& b, const std::vector<Output>& embeddingWeights, const sparse::SparseTensor& sparseIds,
    const std::optional<sparse::SparseTensor>& sparseWeights = std::nullopt, const std::string& combiner = "mean",
    std::optional<std::int64_t> defaultId = std::nullopt, std::string_view name = {},
    PartitionStrategy strategy = PartitionStrategy::kDiv, std::optional<double> maxNorm = std::nullopt);

} // namespace tstudio::nn
