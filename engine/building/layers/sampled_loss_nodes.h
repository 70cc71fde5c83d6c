// The node editor's language-model losses (palette group "Losses"): NCELoss and SampledSoftmaxLoss
// (tf.nn.nce_loss / tf.nn.sampled_softmax_loss over an output layer they make, word2vec's and large
// vocabularies' losses) and SequenceLoss (tf.contrib.seq2seq.sequence_loss), built with the engine's
// loss building API (losses/sampled_losses.h, losses/sequence_loss.h).
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

/// The node types, in palette order:
///  NCELoss             inputs (float [batch, dim], dim known), labels (int [batch, num_true]) ->
///                      loss, the batch mean of tf.nn.nce_loss, as word2vec_basic.py takes it. The
///                      output layer's variables are made in variable scope `name` (default
///                      "nce"): "weights" [num_classes, dim] ~ truncated_normal(stddev 1/sqrt(dim))
///                      and "biases" [num_classes] zeros, as the tutorial initialises its
///                      nce_weights and nce_biases. Params num_classes, num_sampled, num_true,
///                      remove_accidental_hits (TensorFlow's default false).
///  SampledSoftmaxLoss  the same ports, params and variables (default scope "sampled_softmax"),
///                      tf.nn.sampled_softmax_loss (remove_accidental_hits default true).
///  SequenceLoss        logits (float [batch, time, classes]), targets (int [batch, time]),
///                      weights (float [batch, time]) -> loss: tf.contrib.seq2seq.sequence_loss with
///                      params average_across_timesteps, average_across_batch, sum_over_timesteps,
///                      sum_over_batch (TensorFlow's defaults: the two averages).
std::vector<LayerType> sampledLossLayerTypes();

/// True for the types above.
bool isSampledLossType(std::string_view type);

/// Builds one of them. InvalidArgument naming the port or param: inputs that are not a floating
/// [batch, dim] with a known dim, labels that are not integer [batch, num_true], num_sampled not in
/// [1, num_classes), and the loss builders' errors (TensorFlow's ValueErrors for SequenceLoss).
Expected<LayerExpansion> expandSampledLossNode(GraphBuilder& b, const LayerType& type, std::string_view name,
                                               const std::map<std::string, tensorflow::AttrValue>& params,
                                               const std::vector<Output>& inputs);

} // namespace tstudio::layers
