// The accuracy a classifier's training logs by default: when the loss is a softmax cross-entropy
// over logits and the training logs no accuracy of its own, the per-batch accuracy of the logits
// against the labels becomes a scalar summary "accuracy" and a figure of the progress line.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <optional>
#include <string>

namespace tstudio::project {

/// The classifier a loss measures: the one SparseSoftmaxCrossEntropyWithLogits or
/// SoftmaxCrossEntropyWithLogits(V2) node the loss tensor depends on through data inputs, and that
/// node's inputs as tensor names ("node:i").
struct ClassifierLoss {
    std::string crossEntropy; ///< the cross-entropy node
    std::string logits;       ///< its "features" input: [batch, classes]
    std::string labels;       ///< class ids [batch] (sparse) or one-hot / probabilities [batch, classes]
    bool sparse = false;
};

/// The classifier `loss` ("node:i") is computed from, or nullopt: no cross-entropy behind it (a
/// regression loss, ...), or more than one (several heads, or replicas' towers: which would the
/// accuracy be of?), or a loss not in the graph.
std::optional<ClassifierLoss> classifierOfLoss(const GraphBuilder& b, const std::string& loss);

/// True when the builder's SUMMARIES collection (merged summaries followed into their inputs)
/// holds a scalar summary whose tag names an accuracy: its last part ("train/accuracy" ->
/// "accuracy") contains "accuracy" (any case) or is "acc".
bool logsAccuracy(const GraphBuilder& b);

/// Adds the default accuracy to `b` when `loss` is a classifier's (classifierOfLoss) and the
/// graph logs no accuracy (logsAccuracy): under the name scope "accuracy" (made unique), as
/// tf.metrics.accuracy computes one batch's value, mean(cast(equal(argmax(logits, -1),
/// labels), float32)) with one-hot labels argmax'd over their last axis and class ids cast to
/// int64; plus a ScalarSummary of it tagged exactly "accuracy" in SUMMARIES. Returns the accuracy
/// tensor's name ("accuracy/Mean:0"), or nullopt when none was added. Errors: the builder's (a
/// logits or labels tensor whose rank is unknown or 0 cannot be argmax'd: InvalidArgument naming
/// it); the caller may go on without the accuracy.
Expected<std::optional<std::string>> addDefaultAccuracy(GraphBuilder& b, const std::string& loss);

} // namespace tstudio::project
