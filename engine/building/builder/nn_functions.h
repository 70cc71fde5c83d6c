// tf.nn functions of TensorFlow 1.15 built from other ops, with their node names: crelu,
// relu_layer, xw_plus_b and embedding_lookup (one params tensor, or a table split into shards). (The
// tf.nn losses are in losses/nn_losses.h.)
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <optional>
#include <string_view>
#include <vector>

namespace tstudio::nn {

/// tf.nn.crelu(features, name, axis=-1): in the scope `name` (default "CRelu"): "Neg" (-features),
/// "concat/axis" and the ConcatV2 "concat" of [features, -features] along `axis`, then the Relu
/// "Relu" (so relu(x) and relu(-x) side by side: the axis doubles in size). Errors are the ops'
/// (an axis out of range fails ConcatV2's shape function).
Expected<Output> crelu(GraphBuilder& b, const Output& features, std::string_view name = {}, std::int64_t axis = -1);

/// tf.nn.xw_plus_b(x, weights, biases, name): in the scope `name` (default "xw_plus_b"): "MatMul"
/// and the BiasAdd named after the scope ("xw_plus_b"). x [batch, in], weights [in, out], biases [out].
Expected<Output> xwPlusB(GraphBuilder& b, const Output& x, const Output& weights, const Output& biases,
                         std::string_view name = {});

/// tf.nn.relu_layer(x, weights, biases, name): relu(x * weights + biases) in the scope `name`
/// (default "relu_layer"): "MatMul", "BiasAdd" and the Relu named after the scope ("relu_layer").
Expected<Output> reluLayer(GraphBuilder& b, const Output& x, const Output& weights, const Output& biases,
                           std::string_view name = {});

/// tf.nn.embedding_lookup(params, ids, name, max_norm) for one params tensor (a variable's value
/// "w/read", or any tensor; the partition strategy does not matter for one shard): in the scope
/// `name` (default "embedding_lookup"), colocated with params' op, the GatherV2 named after the
/// scope along axis 0 ("embedding_lookup/axis"), with `maxNorm` tf.clip_by_norm of each embedding
/// (the axes after the ids' dimensions, "embedding_lookup/clip_by_norm/..."), then the Identity
/// "embedding_lookup/Identity" outside the colocation, which is returned. Output shape:
/// ids.shape + params.shape[1:]. Ids must be int32 or int64 (GatherV2's validation). Unimplemented
/// for `maxNorm` with a scalar id or 1-D params (TensorFlow then clips over axes it computes at run
/// time).
Expected<Output> embeddingLookup(GraphBuilder& b, const Output& params, const Output& ids, std::string_view name = {},
                                 std::optional<double> maxNorm = std::nullopt);

/// The partition_strategy of embedding_lookup over several shards: "mod" (TensorFlow's default) puts id
/// i in shard i % n at row i / n; "div" gives each shard a contiguous range of ids (the first
/// total % n shards one id more).
enum class PartitionStrategy { kMod, kDiv };

/// tf.nn.embedding_lookup(params, ids, partition_strategy, name) for a table split over `params` (the
/// shards' values, e.g. the "part_<i>/read" of a partitioned variable; rows concatenated in order
/// form the whole table), without max_norm. One shard: the single-params form above. Several, as
/// TensorFlow 1.15's _embedding_lookup_and_transform builds them in the scope `name` (default
/// "embedding_lookup"): the ids flattened ("Reshape"), their positions ("range"), each id's shard
/// and row in it (kMod: "mod", "floordiv"; kDiv: from the static total of the shards' first dims,
/// "floordiv", "mod", "Maximum", "Select", ...), the shard cast to int32 ("Cast"), "DynamicPartition"
/// of the rows and "DynamicPartition_1" of the positions by shard, one GatherV2 per shard colocated
/// with it, the ParallelDynamicStitch named after the scope, and the reshape to ids.shape +
/// params.shape[1:] ("Reshape_1"). The gradient reaches every shard as IndexedSlices (Gather's).
/// Errors: InvalidArgument for no params, shards whose dims after the first disagree, or (kDiv) a
/// shard whose first dim is unknown while building; the ops' errors (ids must be int32 or int64).
Expected<Output> embeddingLookup(GraphBuilder& b, const std::vector<Output>& params, const Output& ids,
                                 PartitionStrategy strategy = PartitionStrategy::kMod, std::string_view name = {});

} // namespace tstudio::nn
