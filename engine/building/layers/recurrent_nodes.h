// The node editor's recurrent nodes (palette group "Layers", after Dense): Embedding
// (tf.nn.embedding_lookup on a variable, the first layer of a language model) and RNN
// (tf.nn.dynamic_rnn over a BasicLSTMCell, LSTMCell, GRUCell or BasicRNNCell, one or more layers
// stacked by MultiRNNCell), built with the engine's RNN building API (builder/rnn.h).
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "layers/layer_catalog.h"
#include "proto/attr_value.pb.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::layers {

/// The recurrent node types, in palette order:
///  Embedding  ids (int32/int64, any shape) -> output (float32, ids' shape + [dim]). Params
///             vocab_size, dim, init_scale (the variable ~ uniform(-init_scale, init_scale), as the
///             PTB tutorial initialises it). Variable "<name>/embeddings" [vocab_size, dim] (name
///             default "embedding", as tf.keras's Embedding names it); the lookup's gradient is
///             IndexedSlices, so optimizers update only the rows looked up.
///  RNN        inputs (float [batch, time, depth], depth known) -> outputs. Params cell
///             (basic_lstm | lstm | gru | basic_rnn), units, layers (stacked by MultiRNNCell when
///             more than one), forget_bias (the LSTM cells'), output (sequence: [batch, time,
///             units]; last: the last layer's final h [batch, units]). dynamic_rnn in variable scope
///             `name` (default "rnn"): variables "rnn/basic_lstm_cell/kernel" for one layer,
///             "rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel" for several, as TensorFlow names them.
std::vector<LayerType> recurrentLayerTypes();

/// True for the types above.
bool isRecurrentType(std::string_view type);

/// Builds a recurrent node. InvalidArgument naming the port or param: ids that are not integers,
/// inputs that are not a floating [batch, time, depth] with a known depth; the builder's errors.
Expected<LayerExpansion> expandRecurrentNode(GraphBuilder& b, const LayerType& type, std::string_view name,
                                             const std::map<std::string, tensorflow::AttrValue>& params,
                                             const std::vector<Output>& inputs);

} // namespace tstudio::layers
