// tf.nn functions of TensorFlow 1.15 built from other ops, with their node names: crelu,
// relu_layer, xw_plus_b and embedding_lookup for a single params tensor. (The tf.nn losses are in
// losses/nn_losses.h.)
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <optional>
#include <string_view>

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

} // namespace tstudio::nn
