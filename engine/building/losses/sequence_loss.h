// The sequence losses TensorFlow 1.x language models and seq2seq models use: contrib.seq2seq's
// sequence_loss (a weighted cross entropy over [batch, time, classes] logits, averaged or summed
// over time and batch) and contrib.legacy_seq2seq's sequence_loss_by_example / sequence_loss (lists
// of per-timestep logits, as the PTB tutorial model builds them).
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <string_view>
#include <vector>

namespace tstudio::seq2seq {

/// sequence_loss's reduction choices (TensorFlow 1.15's defaults: the mean over every weighted
/// position).
struct SequenceLossOptions {
    bool averageAcrossTimesteps = true;
    bool averageAcrossBatch = true;
    bool sumOverTimesteps = false;
    bool sumOverBatch = false;
};

/// tf.contrib.seq2seq.sequence_loss(logits, targets, weights, ...) in the scope `name` (default
/// "sequence_loss"): logits [batch, time, classes] flattened to [-1, classes] (classes read as
/// shape(logits)[2]), targets [batch, time] int flattened, sparse softmax cross entropy, multiplied
/// by the flattened weights [batch, time]; then
///  - both averages: sum / sum(weights) (div_no_nan), a scalar;
///  - both sums: sum / count_nonzero(weights), a scalar;
///  - else reshaped to [batch, time] and reduced over the batch (axis 0) or the time axis (axis 1),
///    divided by the weights' sum (an average) or their nonzero count (a sum), or left [batch, time].
/// InvalidArgument, TensorFlow's ValueErrors: "Logits must be a [batch_size x sequence_length x
/// logits] tensor", "Targets must be a [batch_size x sequence_length] tensor", "Weights must be a
/// [batch_size x sequence_length] tensor" (known ranks only), "average_across_timesteps and
/// sum_over_timesteps cannot be set to True at same time.", "average_across_batch and
/// sum_over_batch cannot be set to True at same time."
Expected<Output> sequenceLoss(GraphBuilder& b, const Output& logits, const Output& targets, const Output& weights,
                              const SequenceLossOptions& options = {}, std::string_view name = {});

} // namespace tstudio::seq2seq

namespace tstudio::legacy_seq2seq {

/// tf.contrib.legacy_seq2seq.sequence_loss_by_example(logits, targets, weights,
/// average_across_timesteps=True) in the scope `name` (default "sequence_loss_by_example"): per
/// timestep, sparse softmax cross entropy of logits[t] [batch, classes] against targets[t] (reshaped
/// to [-1]) times weights[t] [batch]; their AddN; with `averageAcrossTimesteps` divided by the AddN
/// of the weights plus 1e-12. Returns [batch]. InvalidArgument "Lengths of logits, weights, and
/// targets must be the same 3, 2, 3." when the lists differ in length.
Expected<Output> sequenceLossByExample(GraphBuilder& b, const std::vector<Output>& logits,
                                       const std::vector<Output>& targets, const std::vector<Output>& weights,
                                       bool averageAcrossTimesteps = true, std::string_view name = {});

/// tf.contrib.legacy_seq2seq.sequence_loss(logits, targets, weights, average_across_timesteps=True,
/// average_across_batch=True) in the scope `name` (default "sequence_loss"): the sum of
/// sequenceLossByExample, divided by the batch size (shape(targets[0])[0] cast to the loss's dtype)
/// when `averageAcrossBatch`. A scalar.
Expected<Output> sequenceLoss(GraphBuilder& b, const std::vector<Output>& logits, const std::vector<Output>& targets,
                              const std::vector<Output>& weights, bool averageAcrossTimesteps = true,
                              bool averageAcrossBatch = true, std::string_view name = {});

} // namespace tstudio::legacy_seq2seq
