// The MNIST network of the TensorFlow 1.x notes as a project trains it: two hidden layers with batch
// normalisation and dropout driven by the learning phase, a softmax head, and the tutorials'
// variable_summaries of weights, batch-norm parameters and activations. The forward graph only: the
// project (examples/projects/mnist-notes.tsproj) adds the optimizer, evaluation and export.
#pragma once

#include "core/expected.h"
#include "proto/graph.pb.h"

#include <cstdint>
#include <optional>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::examples {

/// images [?,784] float -> for (hidden, units) in (hidden1, 256), (hidden2, 128): dense(units, no
/// bias) "hiddenN" -> batch_normalization "hiddenN_bn" (training = the learning phase) -> relu
/// "hiddenN_relu" -> dropout(rate 0.3) "hiddenN_dropout" -> dense(10) "logits". labels [?] int64;
/// tf.losses.sparse_softmax_cross_entropy "loss" ("loss/value:0"); "accuracy" the batch's mean of
/// argmax(logits) == labels ("accuracy/Mean:0"). variable_summaries (summary_nodes.h) of each dense
/// kernel, the logits' bias, each batch norm's gamma and beta and each hidden activation: ten
/// groups of five tags (mean, stddev, max, min, histogram). Seeded with tf.set_random_seed(seed).
Expected<tensorflow::GraphDef> buildNotesMnist(const OpRegistry& ops, std::optional<std::int64_t> seed = 1);

} // namespace tstudio::examples
