// Helpers the tf.metrics functions share: metrics_impl._remove_squeezable_dimensions and the
// metrics/updates collections.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "metrics/metrics.h"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace tstudio::metrics::support {

/// metrics_impl._remove_squeezable_dimensions(predictions, labels, weights): labels and
/// predictions through confusion_matrix.remove_squeezable_dimensions (when `labels` is given),
/// their shapes checked compatible ("Shapes (3,) and (4,) are incompatible"); non-scalar weights
/// squeezed or expanded on their last dimension when their rank differs by one from the
/// predictions'. Unimplemented when a rank is unknown (TensorFlow decides with tf.cond).
Status removeSqueezableDimensions(GraphBuilder& b, Output& predictions, Output* labels, std::optional<Output>& weights);

/// Adds the metric's value and update op to the collections the options name.
void addToCollections(GraphBuilder& b, const MetricOptions& options, const MetricResult& result);

/// metrics.mean(values, weights) in the name scope `scopeName` (made unique), its value and update
/// op added to the options' collections (options.name and options.weights are not read).
Expected<MetricResult> meanIn(GraphBuilder& b, const Output& values, const std::optional<Output>& weights,
                              std::string_view scopeName, const MetricOptions& options);

/// The thresholds of tf.metrics.auc and the *_at_* metrics: -1e-7, (i + 1) / (n - 1) for
/// i < n - 2, 1 + 1e-7.
std::vector<double> thresholdsFor(int numThresholds);

/// metrics_impl._confusion_matrix_at_thresholds(labels, predictions, thresholds, weights) in the
/// current scope (auc.cpp): predictions checked in [0, 1] at run time, then the [n] local
/// variables "true_positives", "false_negatives", "true_negatives", "false_positives" and their
/// AssignAdd updates. `values` are the variables' reads, in that order (tp, fn, tn, fp).
struct ConfusionAtThresholds {
    std::array<Output, 4> values;
    std::array<Output, 4> updates;
};
Expected<ConfusionAtThresholds> confusionMatrixAtThresholds(GraphBuilder& b, const Output& labels,
                                                            const Output& predictions,
                                                            const std::optional<Output>& weights,
                                                            const std::vector<double>& thresholds);

} // namespace tstudio::metrics::support
