// A project's evaluation (its "eval" section): the metrics built into the training graph, the eval
// sources read once in order, run in evaluation mode in a session that holds the variables (the live
// training session, or one restored from a checkpoint), and the results written to <logdir>/eval/
// as tf.estimator writes them.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "project/run/eval_metrics.h"
#include "framework/tensor.h"
#include "project/format/project_file.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {
class Session;
}

namespace tstudio::project {

/// A pr_curve metric's curves: per class, TensorBoard's pr_curves table (rows TP, FP, TN, FN,
/// precision, recall at the thresholds i / (thresholds - 1)).
struct EvalCurves {
    std::string name;
    std::int64_t classes = 0;
    std::int64_t thresholds = 0;
    std::vector<float> values; ///< [classes, 6, thresholds], row-major
};

/// What one evaluation gave.
struct EvalResult {
    std::int64_t step = 0;                                ///< the global step of the variables evaluated
    std::vector<std::pair<std::string, double>> metrics; ///< in eval.metrics order (pr_curve's apart)
    std::vector<EvalCurves> curves;                       ///< the pr_curve metrics', in order
    std::int64_t batches = 0;
    std::int64_t examples = 0; ///< in those batches (the first eval source's)
    double seconds = 0;
    std::string checkpoint; ///< the checkpoint evaluated ("" when none was named)

    /// The value of the metric `name`, if there is one.
    std::optional<double> metric(const std::string& name) const;
};

/// The metrics and eval pipelines of a project, built into a graph before its session is made.
class ProjectEvaluation {
public:
    /// Builds addEvalMetrics into `b` and every eval source's pipeline (read once, in order, batches
    /// of eval.batch_size or the project's), checking that each source's feeds fit their placeholders
    /// (as data.sources'), that every Placeholder a metric needs is fed by an eval source, and that
    /// every source yields at least one batch. `loss` is the training loss tensor ("" when none).
    /// Errors (InvalidArgument, prefixed "<file>: "): FailedPrecondition "the project has no eval
    /// section"; addEvalMetrics'; "eval.sources[0].feeds.x: ..." (checkFeed's);
    /// "eval.metrics[1]: needs placeholder 'y', which no eval source feeds (they feed x)";
    /// "eval.sources[0] (mnist): yields no batch: the source holds no example"; the sources' own.
    static Expected<std::unique_ptr<ProjectEvaluation>> prepare(GraphBuilder& b, const Project& project,
                                                                const std::string& loss);
    ~ProjectEvaluation();

    /// One evaluation in `session` (whose graph is the builder's, as prepared): the metric variables
    /// reset, then eval.steps batches (or every batch of one pass, stopping at the shortest source)
    /// run through the update ops with the learning phase fed false, then the values read. `step`
    /// and `checkpoint` are recorded in the result. Errors: the session's (naming the node), a
    /// NaN/inf metric ("eval.metrics[0] 'loss' is nan after 10 batches") and the pipelines'.
    Expected<EvalResult> run(Session& session, std::int64_t step, const std::string& checkpoint = {});

    const EvalGraph& graph() const;

private:
    struct State;
    explicit ProjectEvaluation(std::unique_ptr<State> state);
    std::unique_ptr<State> m_state;
};

/// Writes `result` to the event file of `evalDir` (<logdir>/eval, opened once through
/// SummaryWriterCache::global() and flushed): one scalar per metric under its name at result.step,
/// a pr_curves summary per class of each pr_curve metric (tag "<name>/class_<c>", or "<name>" for one
/// class; metadata PrCurvePluginData with num_thresholds; a float tensor [6, thresholds]), and, with a
/// checkpoint, a string tensor "checkpoint_path" (what tf.estimator writes after each
/// evaluation). The writer's errors.
Status writeEvalSummary(const std::filesystem::path& evalDir, const EvalResult& result);

/// The value of a one-element float, double, int32 or int64 tensor (a loss, a metric), else nullopt.
std::optional<double> scalarAsDouble(const Tensor& t);

/// "accuracy = 0.9812, loss = 0.0634" (each metric with 4 significant digits; a pr_curve metric as
/// "pr_curve: 10 curves of 201 thresholds"), the form the CLI and the log print.
std::string formatEvalMetrics(const EvalResult& result);

} // namespace tstudio::project
