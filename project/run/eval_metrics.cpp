// The eval section's metrics built into the graph from tf.metrics (engine/metrics).
#include "project/run/eval_metrics.h"

#include "builder/python_ops.h"
#include "core/try.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "framework/data_type.h"
#include "graph/tensor_id.h"
#include "project/format/graph_dependencies.h"
#include "metrics/metric_support.h"
#include "metrics/metrics.h"

#include <algorithm>
#include <map>
#include <set>

namespace tstudio::project {
namespace {

struct KindInfo {
    std::vector<std::string> keys; ///< besides kind and name
    std::string mode;
};

const std::map<std::string, KindInfo, std::less<>>& kinds()
{
    const std::vector<std::string> classKeys = {"labels", "predictions", "logits", "weights"};
    const std::vector<std::string> scoreKeys = {"labels", "predictions", "weights", "num_thresholds", "at"};
    const std::vector<std::string> regressionKeys = {"labels", "predictions", "weights"};
    static const std::map<std::string, KindInfo, std::less<>> table = {
        {"loss", {{"tensor"}, "min"}},
        {"mean", {{"tensor", "weights"}, ""}},
        {"perplexity", {{"tensor"}, "min"}},
        {"accuracy", {classKeys, "max"}},
        {"precision", {classKeys, "max"}},
        {"recall", {classKeys, "max"}},
        {"true_positives", {classKeys, "max"}},
        {"true_negatives", {classKeys, "max"}},
        {"false_positives", {classKeys, "min"}},
        {"false_negatives", {classKeys, "min"}},
        {"auc", {{"labels", "predictions", "weights", "num_thresholds", "curve"}, "max"}},
        {"top_k_accuracy", {{"labels", "predictions", "logits", "weights", "k"}, "max"}},
        {"mean_iou", {{"labels", "predictions", "logits", "weights", "num_classes"}, "max"}},
        {"mean_absolute_error", {regressionKeys, "min"}},
        {"mean_squared_error", {regressionKeys, "min"}},
        {"root_mean_squared_error", {regressionKeys, "min"}},
        {"mean_relative_error", {{"labels", "predictions", "normalizer", "weights"}, "min"}},
        {"mean_cosine_distance", {{"labels", "predictions", "dim", "weights"}, "min"}},
        {"percentage_below", {{"tensor", "threshold", "weights"}, ""}},
        {"sensitivity_at_specificity", {scoreKeys, "max"}},
        {"specificity_at_sensitivity", {scoreKeys, "max"}},
        {"pr_curve", {{"labels", "predictions", "logits", "weights", "num_thresholds"}, ""}},
    };
    return table;
}

/// "x" -> "x:0".
std::string tensorName(const std::string& name)
{
    auto id = parseTensorId(name);
    if (!id || id->isControl())
        return name;
    return id->node + ":" + std::to_string(id->index);
}

std::string describe(const Output& t)
{
    return "'" + t.name() + "' (" + dataTypeString(t.baseDtype()) + " " + t.shape().toString() + ")";
}

bool isNumber(DataType t)
{
    return isFloating(t) || isInteger(t) || t == tensorflow::DT_BOOL;
}

/// One metric's tensors looked up and the metric built.
class MetricBuilder {
public:
    MetricBuilder(GraphBuilder& b, const EvalMetricSpec& spec, std::string path, std::string loss,
                  std::string perplexity)
        : m_b(b), m_spec(spec), m_path(std::move(path)), m_loss(std::move(loss)), m_perplexity(std::move(perplexity))
    {
    }

    Expected<metrics::MetricResult> build();

private:
    Status error(const std::string& key, const std::string& message) const
    {
        return invalidArgumentError(m_path + (key.empty() ? "" : "." + key) + ": " + message);
    }

    Expected<Output> tensor(const std::string& key, const std::string& name) const
    {
        auto t = m_b.tensor(tensorName(name));
        if (!t)
            return unexpected(error(key, "'" + tensorName(name) + "' is not in the graph"));
        if (!isNumber(t->baseDtype()))
            return unexpected(error(key, describe(*t) + " is not a number; " + m_spec.kind + " needs numbers"));
        return *t;
    }

    /// argmax over the last axis, as tf.argmax(x, -1) (int64).
    Expected<Output> argmax(const Output& x, const std::string& key) const
    {
        if (x.shape().rank() == 0)
            return unexpected(error(key, describe(x) + " is a scalar; logits need a class axis"));
        TSTUDIO_TRY(axis, py::constant(m_b, -1, tensorflow::DT_INT32, "ArgMax/dimension"));
        return py::genOp(m_b, "ArgMax", {x, axis}, {{"output_type", attr::type(tensorflow::DT_INT64)}});
    }

    /// Labels and class predictions: `logits` argmax'd (and one-hot labels of the logits' rank too).
    Expected<std::pair<Output, Output>> classes()
    {
        TSTUDIO_TRY(labels, tensor("labels", m_spec.labels));
        if (m_spec.logits.empty()) {
            TSTUDIO_TRY(predictions, tensor("predictions", m_spec.predictions));
            return std::pair{labels, predictions};
        }
        TSTUDIO_TRY(logits, tensor("logits", m_spec.logits));
        TSTUDIO_TRY(predictions, argmax(logits, "logits"));
        if (labels.shape().rank() >= 0 && labels.shape().rank() == logits.shape().rank()) {
            TSTUDIO_TRY(sparse, argmax(labels, "labels"));
            labels = sparse;
        } else if (labels.baseDtype() != tensorflow::DT_INT64 && isNumber(labels.baseDtype())) {
            TSTUDIO_TRY(cast, py::cast(m_b, labels, tensorflow::DT_INT64));
            labels = cast;
        }
        return std::pair{labels, predictions};
    }

    /// Labels and predictions as float scores (auc, *_at_*, regression).
    Expected<std::pair<Output, Output>> scores()
    {
        TSTUDIO_TRY(labels, tensor("labels", m_spec.labels));
        TSTUDIO_TRY(predictions, tensor("predictions", m_spec.predictions));
        return std::pair{labels, predictions};
    }

    Status checkFloat(const std::string& key, const Output& t) const
    {
        if (isFloating(t.baseDtype()))
            return Status::ok();
        return error(key, describe(t) + " is not floating-point; " + m_spec.kind + " needs float predictions");
    }

    Expected<metrics::MetricResult> topK();
    Expected<metrics::MetricResult> prCurve();

    GraphBuilder& m_b;
    const EvalMetricSpec& m_spec;
    std::string m_path;
    std::string m_loss;
    std::string m_perplexity; ///< the project's "perplexity" tensor ("" when none)
};

Expected<metrics::MetricResult> MetricBuilder::topK()
{
    const std::string scoresKey = m_spec.logits.empty() ? "predictions" : "logits";
    TSTUDIO_TRY(scoresIn, tensor(scoresKey, m_spec.logits.empty() ? m_spec.predictions : m_spec.logits));
    TSTUDIO_TRY(labelsIn, tensor("labels", m_spec.labels));
    if (scoresIn.shape().rank() != 2)
        return unexpected(error(scoresKey, describe(scoresIn) + " must be [batch, classes] for top_k_accuracy"));
    Output scores = scoresIn;
    if (scores.baseDtype() != tensorflow::DT_FLOAT) {
        TSTUDIO_TRY(cast, py::cast(m_b, scores, tensorflow::DT_FLOAT));
        scores = cast;
    }
    Output labels = labelsIn;
    if (labels.shape().rank() == 2) {
        TSTUDIO_TRY(sparse, argmax(labels, "labels"));
        labels = sparse;
    }
    if (labels.shape().rank() != 1)
        return unexpected(error("labels", describe(labelsIn) + " must be class ids [batch] or one-hot [batch, classes]"));
    if (labels.baseDtype() != tensorflow::DT_INT32 && labels.baseDtype() != tensorflow::DT_INT64) {
        TSTUDIO_TRY(cast, py::cast(m_b, labels, tensorflow::DT_INT64));
        labels = cast;
    }
    TSTUDIO_TRY(k, py::constant(m_b, static_cast<double>(m_spec.k.value_or(5)), labels.baseDtype(), "in_top_k/k"));
    TSTUDIO_TRY(inTopK, py::genOp(m_b, "InTopKV2", {scores, labels, k}, {}, "in_top_k/InTopKV2"));
    TSTUDIO_TRY(hits, py::cast(m_b, inTopK, tensorflow::DT_FLOAT));
    metrics::MetricOptions options;
    options.name = evalMetricName(m_spec);
    return metrics::mean(m_b, hits, options);
}

/// TensorBoard's pr_curve streaming_op per class: for class c, labels == c against its probability
/// (softmax of the logits, or the predictions as given), counted by tf.metrics'
/// *_at_thresholds at the thresholds i / (T - 1) (a score above a threshold counts as positive);
/// precision tp / max(1e-7, tp + fp), recall tp / max(1e-7, tp + fn). The value is [classes, 6, T]
/// (rows TP, FP, TN, FN, precision, recall, the pr_curves plugin's tensor per class); binary
/// predictions [batch] (or [batch, 1]) against 0/1 or bool labels make one class.
Expected<metrics::MetricResult> MetricBuilder::prCurve()
{
    const std::int64_t numThresholds = m_spec.numThresholds.value_or(kDefaultPrCurveThresholds);
    if (numThresholds < 2 || numThresholds > 100000)
        return unexpected(
            error("num_thresholds", "must be between 2 and 100000, got " + std::to_string(numThresholds)));
    const std::string scoresKey = m_spec.logits.empty() ? "predictions" : "logits";
    if (m_spec.logits.empty() && m_spec.predictions.empty())
        return unexpected(error("predictions", "required for pr_curve (or logits)"));
    TSTUDIO_TRY(scoresIn, tensor(scoresKey, m_spec.logits.empty() ? m_spec.predictions : m_spec.logits));
    TSTUDIO_TRY(labelsIn, tensor("labels", m_spec.labels));
    if (Status s = checkFloat(scoresKey, scoresIn); !s.isOk())
        return unexpected(s);
    TSTUDIO_TRY(scope, m_b.nameScope(evalMetricName(m_spec)));
    Output scores = scoresIn;
    if (!m_spec.logits.empty()) {
        if (scoresIn.shape().rank() != 2)
            return unexpected(error("logits", describe(scoresIn) + " must be [batch, classes] for pr_curve"));
        TSTUDIO_TRY(softmax, ops::firstOutput(m_b.op("Softmax", {scoresIn}, {}, "Softmax")));
        scores = softmax;
    }
    const int rank = scores.shape().rank();
    const std::int64_t classes = rank == 2 ? scores.shape().dim(1) : 1;
    if (rank < 1 || rank > 2 || classes < 1)
        return unexpected(error(scoresKey, describe(scoresIn) +
                                               " must be [batch] scores or [batch, classes] with a known class count"));
    std::vector<double> thresholds;
    for (std::int64_t i = 0; i < numThresholds; ++i)
        thresholds.push_back(static_cast<double>(i) / static_cast<double>(numThresholds - 1));
    std::vector<std::pair<Output, Output>> perClass; // (labels, scores)
    if (classes == 1) {
        perClass.emplace_back(labelsIn, scores);
    } else {
        Output ids = labelsIn;
        if (labelsIn.shape().rank() == 2) {
            TSTUDIO_TRY(sparse, argmax(labelsIn, "labels"));
            ids = sparse;
        }
        if (ids.shape().rank() != 1)
            return unexpected(error("labels", describe(labelsIn) +
                                                  " must be class ids [batch] or one-hot [batch, classes]"));
        if (ids.baseDtype() != tensorflow::DT_INT64) {
            TSTUDIO_TRY(cast, py::cast(m_b, ids, tensorflow::DT_INT64));
            ids = cast;
        }
        TSTUDIO_TRY(unpack, m_b.op("Unpack", {scores}, {{"num", attr::i(classes)}, {"axis", attr::i(1)}}, "unstack"));
        for (std::int64_t c = 0; c < classes; ++c) {
            TSTUDIO_TRY(id, py::constant(m_b, static_cast<double>(c), tensorflow::DT_INT64,
                                         "class_" + std::to_string(c) + "/id"));
            TSTUDIO_TRY(isClass, ops::firstOutput(m_b.op("Equal", {ids, id}, {}, "class_" + std::to_string(c) +
                                                                                  "/Equal")));
            perClass.emplace_back(isClass, unpack.output(static_cast<int>(c)));
        }
    }
    std::vector<Output> values, updates;
    for (std::size_t c = 0; c < perClass.size(); ++c) {
        TSTUDIO_TRY(classScope, m_b.nameScope(classes == 1 ? std::string("curve") : "class_" + std::to_string(c)));
        auto confusion = metrics::support::confusionMatrixAtThresholds(m_b, perClass[c].first, perClass[c].second,
                                                                       std::nullopt, thresholds);
        if (!confusion)
            return unexpected(error("", describe(labelsIn) + " and " + describe(scoresIn) + ": " +
                                            confusion.error().message()));
        // tp, fn, tn, fp -> TP, FP, TN, FN, precision, recall
        auto table = [&](const std::array<Output, 4>& v, const std::string& name) -> Expected<Output> {
            const Output &tp = v[0], &fn = v[1], &tn = v[2], &fp = v[3];
            // tp / max(1e-7, tp + other)
            auto rate = [&](const Output& other) -> Expected<Output> {
                TSTUDIO_TRY(sum, py::binary(m_b, py::Operator::kAdd, tp, other));
                TSTUDIO_TRY(minimumCount, py::constant(m_b, 1e-7, tp.baseDtype(), "minimum_count"));
                TSTUDIO_TRY(atLeast, ops::firstOutput(m_b.op("Maximum", {sum, minimumCount})));
                return py::binary(m_b, py::Operator::kTrueDiv, tp, atLeast);
            };
            TSTUDIO_TRY(precision, rate(fp));
            TSTUDIO_TRY(recall, rate(fn));
            return ops::firstOutput(m_b.op("Pack", {std::vector<Output>{tp, fp, tn, fn, precision, recall}},
                                           {{"axis", attr::i(0)}}, name));
        };
        TSTUDIO_TRY(value, table(confusion->values, "value"));
        TSTUDIO_TRY(update, table(confusion->updates, "update"));
        values.push_back(value);
        updates.push_back(update);
    }
    TSTUDIO_TRY(value, ops::firstOutput(m_b.op("Pack", {values}, {{"axis", attr::i(0)}}, "value")));
    TSTUDIO_TRY(update, ops::firstOutput(m_b.op("Pack", {updates}, {{"axis", attr::i(0)}}, "update_op")));
    return metrics::MetricResult{value, update};
}

Expected<metrics::MetricResult> MetricBuilder::build()
{
    const std::string& kind = m_spec.kind;
    metrics::MetricOptions options;
    options.name = evalMetricName(m_spec);
    if (!m_spec.weights.empty()) {
        TSTUDIO_TRY(weights, tensor("weights", m_spec.weights));
        options.weights = weights;
    }
    // The metric's own errors (shapes that do not fit, ...) name the entry and its tensors.
    auto named = [&](Expected<metrics::MetricResult> r, const Output& a,
                     const Output& b) -> Expected<metrics::MetricResult> {
        if (!r)
            return unexpected(error("", describe(a) + " and " + describe(b) + ": " + r.error().message()));
        return r;
    };
    if (kind == "perplexity") {
        // exp(tf.metrics.mean(per-word loss)): the PTB tutorial's exp(costs / iters).
        std::string name = !m_spec.tensor.empty() ? m_spec.tensor : m_perplexity;
        if (name.empty())
            return unexpected(error("tensor", "the project names no perplexity tensor; name the per-word loss"));
        TSTUDIO_TRY(values, tensor("tensor", name));
        if (!isFloating(values.baseDtype())) {
            TSTUDIO_TRY(cast, py::cast(m_b, values, tensorflow::DT_FLOAT));
            values = cast;
        }
        TSTUDIO_TRY(mean, metrics::mean(m_b, values, options));
        TSTUDIO_TRY(exp, ops::firstOutput(m_b.op("Exp", {mean.value}, {}, "perplexity")));
        mean.value = exp;
        return mean;
    }
    if (kind == "loss" || kind == "mean" || kind == "percentage_below") {
        std::string name = m_spec.tensor;
        if (kind == "loss" && name.empty()) {
            if (m_loss.empty())
                return unexpected(error("tensor", "the project has no training.loss; name the loss tensor"));
            name = m_loss;
        }
        TSTUDIO_TRY(values, tensor("tensor", name));
        if (kind == "percentage_below")
            return metrics::percentageBelow(m_b, values, *m_spec.threshold, options);
        if (!isFloating(values.baseDtype())) {
            TSTUDIO_TRY(cast, py::cast(m_b, values, tensorflow::DT_FLOAT));
            values = cast;
        }
        return metrics::mean(m_b, values, options);
    }
    if (kind == "top_k_accuracy")
        return topK();
    if (kind == "pr_curve") {
        if (!m_spec.weights.empty())
            return unexpected(error("weights", "pr_curve takes no weights yet"));
        return prCurve();
    }
    if (kind == "accuracy" || kind == "precision" || kind == "recall" || kind == "true_positives" ||
        kind == "true_negatives" || kind == "false_positives" || kind == "false_negatives" || kind == "mean_iou") {
        TSTUDIO_TRY(pair, classes());
        auto [labels, predictions] = pair;
        if (kind == "accuracy")
            return named(metrics::accuracy(m_b, labels, predictions, options), labels, predictions);
        if (kind == "mean_iou")
            return named(metrics::meanIou(m_b, labels, predictions, *m_spec.numClasses, options), labels, predictions);
        using Fn = Expected<metrics::MetricResult> (*)(GraphBuilder&, const Output&, const Output&,
                                                      const metrics::MetricOptions&);
        static const std::map<std::string, Fn, std::less<>> binary = {
            {"precision", &metrics::precision},           {"recall", &metrics::recall},
            {"true_positives", &metrics::truePositives},   {"true_negatives", &metrics::trueNegatives},
            {"false_positives", &metrics::falsePositives}, {"false_negatives", &metrics::falseNegatives}};
        return named(binary.at(kind)(m_b, labels, predictions, options), labels, predictions);
    }
    TSTUDIO_TRY(pair, scores());
    auto [labels, predictions] = pair;
    if (kind == "auc" || kind == "sensitivity_at_specificity" || kind == "specificity_at_sensitivity") {
        if (Status s = checkFloat("predictions", predictions); !s.isOk())
            return unexpected(s);
        const int thresholds = static_cast<int>(m_spec.numThresholds.value_or(200));
        if (kind == "auc")
            return named(metrics::auc(m_b, labels, predictions, options, thresholds,
                                      m_spec.curve == "PR" ? metrics::AucCurve::kPr : metrics::AucCurve::kRoc),
                         labels, predictions);
        if (kind == "sensitivity_at_specificity")
            return named(metrics::sensitivityAtSpecificity(m_b, labels, predictions, *m_spec.at, options, thresholds),
                         labels, predictions);
        return named(metrics::specificityAtSensitivity(m_b, labels, predictions, *m_spec.at, options, thresholds),
                     labels, predictions);
    }
    // Regression metrics: float predictions, labels cast to them.
    if (Status s = checkFloat("predictions", predictions); !s.isOk())
        return unexpected(s);
    if (labels.baseDtype() != predictions.baseDtype()) {
        TSTUDIO_TRY(cast, py::cast(m_b, labels, predictions.baseDtype()));
        labels = cast;
    }
    if (kind == "mean_absolute_error")
        return named(metrics::meanAbsoluteError(m_b, labels, predictions, options), labels, predictions);
    if (kind == "mean_squared_error")
        return named(metrics::meanSquaredError(m_b, labels, predictions, options), labels, predictions);
    if (kind == "root_mean_squared_error")
        return named(metrics::rootMeanSquaredError(m_b, labels, predictions, options), labels, predictions);
    if (kind == "mean_cosine_distance")
        return named(metrics::meanCosineDistance(m_b, labels, predictions, *m_spec.dim, options), labels, predictions);
    TSTUDIO_TRY(normalizer, tensor("normalizer", m_spec.normalizer));
    return named(metrics::meanRelativeError(m_b, labels, predictions, normalizer, options), labels, predictions);
}

} // namespace

const std::vector<std::string>& evalMetricKinds()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& [kind, info] : kinds())
            out.push_back(kind);
        return out;
    }();
    return names;
}

std::vector<std::string> evalMetricKeys(std::string_view kind)
{
    auto it = kinds().find(kind);
    return it == kinds().end() ? std::vector<std::string>{} : it->second.keys;
}

std::string evalMetricName(const EvalMetricSpec& spec)
{
    if (!spec.name.empty())
        return spec.name;
    if (spec.kind == "top_k_accuracy")
        return "top_" + std::to_string(spec.k.value_or(5)) + "_accuracy";
    return spec.kind;
}

std::string evalMetricDefaultMode(std::string_view kind)
{
    auto it = kinds().find(kind);
    return it == kinds().end() ? std::string() : it->second.mode;
}

std::string evalMetricMode(const EvalSettings& eval, const std::string& name, const std::string& mode)
{
    if (!mode.empty())
        return mode;
    for (const EvalMetricSpec& m : eval.metrics)
        if (evalMetricName(m) == name)
            return evalMetricDefaultMode(m.kind);
    return evalMetricDefaultMode("loss");
}

bool evalImproves(const std::string& mode, double value, double best, double minDelta)
{
    return mode == "min" ? value < best - minDelta : value > best + minDelta;
}

Expected<EvalGraph> addEvalMetrics(GraphBuilder& b, const Project& project, const std::string& loss)
{
    std::vector<EvalMetricSpec> specs;
    if (project.eval)
        specs = project.eval->metrics;
    if (specs.empty())
        specs.push_back(EvalMetricSpec{"loss"});
    const std::string label = projectLabel(project);
    const std::size_t variablesBefore = b.collections().variables(metrics::kMetricVariables).size();
    EvalGraph out;
    {
        TSTUDIO_TRY(scope, b.nameScope("eval_metrics"));
        for (std::size_t i = 0; i < specs.size(); ++i) {
            const std::string path = label + "eval.metrics[" + std::to_string(i) + "]";
            MetricBuilder builder(b, specs[i], path, loss, project.perplexity);
            auto metric = builder.build();
            if (!metric)
                return unexpected(metric.error().message().starts_with(path)
                                      ? metric.error()
                                      : metric.error().withContext(path));
            if (metric->value.shape().rank() > 0 && specs[i].kind != "pr_curve")
                return unexpected(invalidArgumentError(path + ": the metric's value " + describe(metric->value) +
                                                       " is not a scalar"));
            out.names.push_back(evalMetricName(specs[i]));
            out.kinds.push_back(specs[i].kind);
            out.values.push_back(metric->value.name());
            out.updateOps.push_back(metric->updateOp.node());
        }
        std::vector<Variable> created = b.collections().variables(metrics::kMetricVariables);
        created.erase(created.begin(), created.begin() + static_cast<std::ptrdiff_t>(variablesBefore));
        TSTUDIO_TRY(reset, variablesInitializer(b, created, "reset"));
        out.resetOp = reset.name();
    }
    // The placeholders (without a default) the update ops need: the eval sources must feed them.
    const tensorflow::GraphDef graph = b.toGraphDef();
    const auto byName = nodesByName(graph);
    for (const std::string& op : out.updateOps) {
        std::set<std::string> needed;
        addWithInputs(byName, op, needed);
        std::vector<std::string> placeholders;
        for (const std::string& name : needed)
            if (auto it = byName.find(name); it != byName.end() && it->second->op() == "Placeholder")
                placeholders.push_back(name);
        out.placeholders.push_back(std::move(placeholders));
    }
    return out;
}

} // namespace tstudio::project
