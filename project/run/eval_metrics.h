// The metrics of a project's "eval" section: which tf.metrics a project may name, what each needs,
// and building them into the graph (under the name scope "eval_metrics") with the op that resets
// their local variables before each evaluation.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "project/format/project_file.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::project {

/// The thresholds of a pr_curve metric when the project names none (TensorBoard's pr_curve summary's).
inline constexpr std::int64_t kDefaultPrCurveThresholds = 201;

/// The kinds "eval.metrics[i].kind" may name: loss, mean, perplexity (exp of the mean of a per-word
/// loss: "tensor", else the project's "perplexity"), accuracy, precision, recall, auc, top_k_accuracy,
/// mean_iou, mean_absolute_error, mean_squared_error, root_mean_squared_error, mean_relative_error,
/// mean_cosine_distance, percentage_below, sensitivity_at_specificity, specificity_at_sensitivity,
/// true_positives, false_positives, true_negatives, false_negatives, pr_curve (TensorBoard's
/// pr_curves per class: a [classes, 6, num_thresholds] value, written as pr_curves summaries).
const std::vector<std::string>& evalMetricKinds();

/// The keys a kind reads besides "kind" and "name" (e.g. accuracy: labels, predictions, logits,
/// weights); reading checks an entry against them.
std::vector<std::string> evalMetricKeys(std::string_view kind);

/// The metric's result key and eval summary tag: its name, else "top_<k>_accuracy" for
/// top_k_accuracy, else the kind.
std::string evalMetricName(const EvalMetricSpec& spec);

/// Which way a metric improves: "min" for loss, the error and distance metrics and the false
/// counts, "max" for the others that have a direction, "" for mean and percentage_below (the
/// project must say).
std::string evalMetricDefaultMode(std::string_view kind);

/// The direction of the metric `name` of `eval` for best or early_stopping: `mode` when given, else
/// the kind's (evalMetricDefaultMode); the loss's ("min") when eval lists no metrics.
std::string evalMetricMode(const EvalSettings& eval, const std::string& name, const std::string& mode);

/// True when `value` beats `best` by more than `minDelta` in direction `mode` ("max" or "min").
bool evalImproves(const std::string& mode, double value, double best, double minDelta = 0);

/// What addEvalMetrics built: per metric (in eval.metrics order, or the loss alone when the
/// project lists none) its name and value tensor; the update ops an evaluation batch runs; the op
/// that zeroes every metric variable; and the placeholders the update ops need.
struct EvalGraph {
    std::vector<std::string> names;
    /// Each metric's kind ("loss" for the loss alone); "pr_curve" values are [classes, 6, T].
    std::vector<std::string> kinds;
    std::vector<std::string> values;
    std::vector<std::string> updateOps;
    std::string resetOp;
    /// Per metric, the Placeholders (without a default) its update op needs, by node name.
    std::vector<std::vector<std::string>> placeholders;
};

/// Builds every metric of project.eval into `b` under the name scope "eval_metrics" (each in its
/// own variable scope named after it), from the graph's tensors ("x" meaning "x:0"): `logits` is
/// argmax'd over its last axis for class metrics (labels too when they have the logits' rank,
/// one-hot), auc and the *_at_* metrics take `predictions` as scores in [0, 1], top_k_accuracy is
/// tf.metrics.mean(tf.nn.in_top_k(scores, labels, k)). `loss` is training.loss ("" when none).
/// Errors (InvalidArgument, prefixed "<file>: eval.metrics[i].<key>: "): a tensor not in the graph;
/// a required key missing ("labels: required for accuracy"); a dtype the metric cannot take
/// ("predictions: 'p:0' is string; accuracy needs numbers or bool"); shapes that do not fit
/// ("'labels:0' is int64 [?] but 'predictions:0' is int64 [?,10]: Shapes ... are incompatible");
/// "eval.metrics: two metrics are named 'accuracy'"; the loss metric of a project without a loss.
Expected<EvalGraph> addEvalMetrics(GraphBuilder& b, const Project& project, const std::string& loss);

} // namespace tstudio::project
