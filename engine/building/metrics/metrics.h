// tf.metrics of TensorFlow 1.15 (metrics_impl.py): streaming metrics whose state lives in local
// variables, each returned as a value tensor and an update op.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::metrics {

/// tf.GraphKeys.METRIC_VARIABLES.
inline constexpr std::string_view kMetricVariables = "metric_variables";

/// What every tf.metrics function returns: the metric computed from the local variables as they
/// are (idempotent), and the op that folds one batch into them and returns the updated metric.
struct MetricResult {
    Output value;
    Output updateOp;
};

/// The arguments the metrics share. `weights`: none, or a tensor whose rank is 0 or that of the
/// values (labels), broadcastable to them; a trailing dimension is squeezed or added when the
/// ranks differ by one. `name`: the variable scope (default: the metric's name, made unique:
/// "mean", "mean_1", ...). The value is added to `metricsCollections`, the update op to
/// `updatesCollections`.
struct MetricOptions {
    std::optional<Output> weights;
    std::string name;
    std::vector<std::string> metricsCollections;
    std::vector<std::string> updatesCollections;
};

/// metric_variable(shape, dtype, name): a non-trainable tf.Variable of zeros ("<scope>/<name>",
/// initial value "<name>/Initializer/zeros") in LOCAL_VARIABLES and METRIC_VARIABLES only.
Expected<Variable> metricVariable(GraphBuilder& b, const TensorShape& shape, std::string_view name,
                                  DataType dtype = tensorflow::DT_FLOAT);

/// tf.metrics.mean(values, weights): local variables "mean/total" and "mean/count"; update
/// total += sum(values * weights), count += sum(weights) (the element count without weights);
/// value "mean/value" = total / count (0 while count is 0), update op "mean/update_op".
Expected<MetricResult> mean(GraphBuilder& b, const Output& values, const MetricOptions& options = {});
/// tf.metrics.accuracy(labels, predictions, weights): mean of Cast(Equal(predictions, labels))
/// (predictions cast to the labels' dtype first) in the scope "accuracy".
/// InvalidArgument "Shapes (3,) and (4,) are incompatible".
Expected<MetricResult> accuracy(GraphBuilder& b, const Output& labels, const Output& predictions,
                                const MetricOptions& options = {});
/// tf.metrics.mean_absolute_error: mean of |predictions - labels|, scope "mean_absolute_error".
Expected<MetricResult> meanAbsoluteError(GraphBuilder& b, const Output& labels, const Output& predictions,
                                         const MetricOptions& options = {});
/// tf.metrics.mean_squared_error: mean of (labels - predictions)^2, scope "mean_squared_error".
Expected<MetricResult> meanSquaredError(GraphBuilder& b, const Output& labels, const Output& predictions,
                                        const MetricOptions& options = {});
/// tf.metrics.root_mean_squared_error: Sqrt of mean_squared_error's value and update op (that
/// metric's variables live in the scope "root_mean_squared_error").
Expected<MetricResult> rootMeanSquaredError(GraphBuilder& b, const Output& labels, const Output& predictions,
                                            const MetricOptions& options = {});

/// tf.metrics.true_positives / false_positives / false_negatives / true_negatives: the weighted
/// count of the condition, kept in "<scope>/count"; the value is its Identity.
Expected<MetricResult> truePositives(GraphBuilder& b, const Output& labels, const Output& predictions,
                                     const MetricOptions& options = {});
Expected<MetricResult> falsePositives(GraphBuilder& b, const Output& labels, const Output& predictions,
                                      const MetricOptions& options = {});
Expected<MetricResult> falseNegatives(GraphBuilder& b, const Output& labels, const Output& predictions,
                                      const MetricOptions& options = {});
Expected<MetricResult> trueNegatives(GraphBuilder& b, const Output& labels, const Output& predictions,
                                     const MetricOptions& options = {});
/// tf.metrics.precision: tp / (tp + fp) (0 while nothing was predicted positive) from
/// "precision/true_positives/count" and "precision/false_positives/count"; labels and predictions
/// are cast to bool.
Expected<MetricResult> precision(GraphBuilder& b, const Output& labels, const Output& predictions,
                                 const MetricOptions& options = {});
/// tf.metrics.recall: tp / (tp + fn) from "recall/true_positives/count" and
/// "recall/false_negatives/count".
Expected<MetricResult> recall(GraphBuilder& b, const Output& labels, const Output& predictions,
                              const MetricOptions& options = {});

/// The curve and the Riemann sum of tf.metrics.auc.
enum class AucCurve { kRoc, kPr };
enum class AucSummation { kTrapezoidal, kMinoring, kMajoring, kCarefulInterpolation };

/// tf.metrics.auc(labels, predictions in [0, 1], weights, num_thresholds=200, curve, summation):
/// thresholds -1e-7, 1/(n-1), ..., (n-2)/(n-1), 1 + 1e-7; the [n] local variables
/// "auc/true_positives", "auc/false_negatives", "auc/true_negatives", "auc/false_positives";
/// ROC: sum over thresholds of (fpr[i] - fpr[i+1]) * (tpr[i] + tpr[i+1]) / 2 with recall
/// (tp + 1e-6) / (tp + fn + 1e-6) and fpr fp / (fp + tn + 1e-6); PR: precision against recall.
/// Unimplemented: kCarefulInterpolation; InvalidArgument for num_thresholds < 2.
/// Predictions are checked at run time as TensorFlow does (assert_greater_equal / assert_less_equal
/// against 0 and 1, "predictions must be in [0, 1]"), their Asserts without TensorFlow's AssertGuard cond.
Expected<MetricResult> auc(GraphBuilder& b, const Output& labels, const Output& predictions,
                           const MetricOptions& options = {}, int numThresholds = 200, AucCurve curve = AucCurve::kRoc,
                           AucSummation summation = AucSummation::kTrapezoidal);

/// tf.metrics.mean_iou(labels, predictions, num_classes, weights): the float64 [n, n] local
/// variable "mean_iou/total_confusion_matrix" (rows: labels, columns: predictions) accumulates the
/// batch's (weighted) confusion matrix; labels and predictions are cast to int64 and flattened, and
/// checked at run time to lie in [0, num_classes) ("`labels` contains negative values", "`labels`
/// out of bound", the same for predictions). The value is the mean over classes present in the
/// labels or predictions of diag / (row sum + column sum - diag) ("mean_iou/Select_1", 0 with no
/// class present); the update op is the AssignAdd of the matrix ("mean_iou/AssignAdd"), as in
/// TensorFlow, which returns the updated confusion matrix, not the IoU. InvalidArgument "Shapes (3,)
/// and (4,) are incompatible", or for num_classes < 1. TensorFlow adds the batch matrix with
/// SparseTensorDenseAdd; here UnsortedSegmentSum over label * n + prediction gives the same matrix.
Expected<MetricResult> meanIou(GraphBuilder& b, const Output& labels, const Output& predictions,
                               std::int64_t numClasses, const MetricOptions& options = {});
/// tf.metrics.mean_relative_error(labels, predictions, normalizer): mean of |labels - predictions|
/// / normalizer (0 where the normalizer is 0: "Equal", "zeros_like", "sub", "Abs", "div", "Select"),
/// scope "mean_relative_error". The normalizer has the predictions' shape.
Expected<MetricResult> meanRelativeError(GraphBuilder& b, const Output& labels, const Output& predictions,
                                         const Output& normalizer, const MetricOptions& options = {});
/// tf.metrics.mean_cosine_distance(labels, predictions, dim): 1 - mean of sum(labels * predictions,
/// dim, keepdims) (unit vectors expected): "Mul", "Sum", the mean in the scope
/// "mean_cosine_distance", and the value and update op as the Subs "Sub" and "Sub_1" of 1. Weights
/// apply to the reduced [..., 1] values.
Expected<MetricResult> meanCosineDistance(GraphBuilder& b, const Output& labels, const Output& predictions,
                                          std::int64_t dim, const MetricOptions& options = {});
/// tf.metrics.percentage_below(values, threshold): mean of Cast(values < threshold) ("Less/y",
/// "Less", "Cast") in the scope "percentage_below_threshold".
Expected<MetricResult> percentageBelow(GraphBuilder& b, const Output& values, double threshold,
                                       const MetricOptions& options = {});
/// tf.metrics.sensitivity_at_specificity(labels, predictions in [0, 1], specificity, weights,
/// num_thresholds=200): the confusion counts at auc's thresholds ("<scope>/true_positives", ...),
/// the threshold whose specificity tn / (tn + fp + 1e-7) is closest to `specificity` (the first on
/// ties: ArgMin), and tp / (tp + fn + 1e-7) there ("<scope>/value", "<scope>/update_op"); scope
/// "sensitivity_at_specificity". InvalidArgument "`specificity` must be in the range [0, 1]." and
/// for num_thresholds < 2.
Expected<MetricResult> sensitivityAtSpecificity(GraphBuilder& b, const Output& labels, const Output& predictions,
                                                double specificity, const MetricOptions& options = {},
                                                int numThresholds = 200);
/// tf.metrics.specificity_at_sensitivity(labels, predictions, sensitivity, weights, num_thresholds):
/// the same with the roles swapped; on ties the last threshold closest to `sensitivity` (TensorFlow's
/// Cumsum/ArgMax trick); scope "specificity_at_sensitivity". InvalidArgument "`sensitivity` must be
/// in the range [0, 1]."
Expected<MetricResult> specificityAtSensitivity(GraphBuilder& b, const Output& labels, const Output& predictions,
                                                double sensitivity, const MetricOptions& options = {},
                                                int numThresholds = 200);

} // namespace tstudio::metrics
