// tf.metrics of TensorFlow 1.15: mean and the metrics built on it, the condition counts, precision
// and recall, with the local variables and node names of metrics_impl.py.
#include "metrics/metrics.h"

#include "builder/python_ops.h"
#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "losses/python_helpers.h"
#include "metrics/metric_support.h"

namespace tstudio::metrics {

namespace {

/// state_ops.assign_add(ref, value) "AssignAdd".
Expected<Output> assignAdd(GraphBuilder& b, const Variable& v, const Output& value)
{
    return py::genOp(b, "AssignAdd", {v.ref(), value});
}

/// math_ops.div_no_nan(t, maximum(c, 0), name).
Expected<Output> meanOf(GraphBuilder& b, const Output& total, const Output& count, std::string_view name)
{
    TSTUDIO_AD_TRY(positive, py::genOpScalarY(b, "Maximum", count, 0.0));
    return lossutil::divNoNan(b, total, positive, name);
}

} // namespace

namespace support {

Status removeSqueezableDimensions(GraphBuilder& b, Output& predictions, Output* labels, std::optional<Output>& weights)
{
    if (labels != nullptr) {
        TSTUDIO_AD_CHECK(lossutil::removeSqueezableDimensions(b, *labels, predictions, 0));
        TSTUDIO_AD_CHECK(lossutil::assertCompatible(predictions.shape(), labels->shape()));
    }
    if (!weights)
        return Status::ok();
    const TensorShape& ws = weights->shape();
    if (ws.rank() == 0)
        return Status::ok();
    const TensorShape& ps = predictions.shape();
    if (ws.isUnknownRank() || ps.isUnknownRank())
        return unimplementedError("tf.metrics: the ranks of weights and predictions must be known while building "
                                  "(TensorFlow decides at run time with tf.cond)");
    if (ws.rank() - ps.rank() == 1) {
        TSTUDIO_AD_TRY(sq, lossutil::squeeze(b, *weights, -1));
        weights = sq;
    } else if (ps.rank() - ws.rank() == 1) {
        TSTUDIO_AD_TRY(ex, lossutil::expandDimsLast(b, *weights));
        weights = ex;
    }
    return Status::ok();
}

void addToCollections(GraphBuilder& b, const MetricOptions& options, const MetricResult& result)
{
    if (!options.metricsCollections.empty())
        b.collections().addToEach(options.metricsCollections, result.value);
    if (!options.updatesCollections.empty())
        b.collections().addToEach(options.updatesCollections, result.updateOp);
}

Expected<MetricResult> meanIn(GraphBuilder& b, const Output& valuesIn, const std::optional<Output>& weightsIn,
                              std::string_view scopeName, const MetricOptions& options)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(scopeName));
    TSTUDIO_AD_TRY(values0, py::cast(b, valuesIn, tensorflow::DT_FLOAT));
    Output values = values0;
    TSTUDIO_AD_TRY(total, metricVariable(b, TensorShape::scalar(), "total"));
    TSTUDIO_AD_TRY(count, metricVariable(b, TensorShape::scalar(), "count"));
    Output numValues;
    if (!weightsIn) {
        TSTUDIO_AD_TRY(size, py::size(b, values));
        TSTUDIO_AD_TRY(n, py::cast(b, size, tensorflow::DT_FLOAT));
        numValues = n;
    } else {
        std::optional<Output> weights = weightsIn;
        TSTUDIO_AD_CHECK(support::removeSqueezableDimensions(b, values, nullptr, weights));
        TSTUDIO_AD_TRY(w, py::cast(b, *weights, tensorflow::DT_FLOAT));
        TSTUDIO_AD_TRY(broadcast, lossutil::broadcastWeights(b, w, values));
        TSTUDIO_AD_TRY(weighted, py::genOp(b, "Mul", {values, broadcast}));
        values = weighted;
        TSTUDIO_AD_TRY(n, lossutil::reduceAll(b, "Sum", broadcast));
        numValues = n;
    }
    TSTUDIO_AD_TRY(valueSum, lossutil::reduceAll(b, "Sum", values));
    TSTUDIO_AD_TRY(updateTotal, assignAdd(b, total, valueSum));
    Output updateCount;
    {
        TSTUDIO_AD_TRY(valuesOp, py::producer(b, values));
        ScopeGuard deps = b.controlDependencies({valuesOp});
        TSTUDIO_AD_TRY(u, assignAdd(b, count, numValues));
        updateCount = u;
    }
    MetricResult result;
    TSTUDIO_AD_TRY(value, meanOf(b, total.value(), count.value(), "value"));
    TSTUDIO_AD_TRY(update, meanOf(b, updateTotal, updateCount, "update_op"));
    result = {value, update};
    support::addToCollections(b, options, result);
    return result;
}

} // namespace support

namespace {

using py::Operator;
using support::meanIn;

Expected<ScopeGuard> metricScope(GraphBuilder& b, const MetricOptions& options, std::string_view defaultName)
{
    return b.nameScope(options.name.empty() ? defaultName : std::string_view(options.name));
}

/// The labels/predictions preparation of accuracy, MAE and MSE (outside their scopes).
Status prepare(GraphBuilder& b, Output& labels, Output& predictions, std::optional<Output>& weights)
{
    return support::removeSqueezableDimensions(b, predictions, &labels, weights);
}

/// check_ops.assert_type(x, bool) when it holds: the NoOp "assert_type/statically_determined_correct_type".
Status assertBool(GraphBuilder& b, const Output& x)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("assert_type"));
    if (x.baseDtype() != tensorflow::DT_BOOL)
        return invalidArgumentError(" " + x.name() + " must be of type <dtype: 'bool'>");
    TSTUDIO_AD_TRY(op, b.op("NoOp", {}, {}, "statically_determined_correct_type"));
    return Status::ok();
}

/// check_ops.assert_rank_in(weights, (0, rank(values))) decided while building: the constants and
/// checks TensorFlow makes, ending in the NoOp "static_checks_determined_all_ok".
Expected<Operation> assertRankIn(GraphBuilder& b, const Output& weights, const Output& values)
{
    const TensorShape& vs = values.shape();
    const TensorShape& ws = weights.shape();
    if (vs.isUnknownRank() || ws.isUnknownRank())
        return unexpected(unimplementedError("tf.metrics: the ranks of weights and values must be known while "
                                             "building (TensorFlow checks them at run time with an Assert op)"));
    TSTUDIO_AD_TRY(valuesRank, ops::constantInts(b, {vs.rank()}, TensorShape::scalar(), tensorflow::DT_INT32, "Rank"));
    TSTUDIO_AD_TRY(scope, b.nameScope("assert_rank_in"));
    TSTUDIO_AD_TRY(zeroRank, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "rank"));
    TSTUDIO_AD_TRY(shape, py::shape(b, weights));
    for (int i = 0; i < 2; ++i) {
        TSTUDIO_AD_TRY(ts, b.nameScope("assert_type"));
        TSTUDIO_AD_TRY(op, b.op("NoOp", {}, {}, "statically_determined_correct_type"));
    }
    if (ws.rank() != 0 && ws.rank() != vs.rank())
        return unexpected(invalidArgumentError(".  Tensor  must have rank in (0, " + std::to_string(vs.rank()) +
                                               ").  Received rank " + std::to_string(ws.rank()) + ", shape " +
                                               pythonShapeString(ws)));
    return b.op("NoOp", {}, {}, "static_checks_determined_all_ok");
}

/// metrics_impl._count_condition(values, weights) in the current scope.
Expected<MetricResult> countCondition(GraphBuilder& b, const Output& condition, const std::optional<Output>& weights)
{
    TSTUDIO_AD_CHECK(assertBool(b, condition));
    TSTUDIO_AD_TRY(count, metricVariable(b, TensorShape::scalar(), "count"));
    TSTUDIO_AD_TRY(values0, py::cast(b, condition, tensorflow::DT_FLOAT));
    Output values = values0;
    if (weights) {
        TSTUDIO_AD_TRY(check, assertRankIn(b, *weights, values));
        ScopeGuard deps = b.controlDependencies({check});
        TSTUDIO_AD_TRY(w, py::cast(b, *weights, tensorflow::DT_FLOAT));
        TSTUDIO_AD_TRY(m, py::genOp(b, "Mul", {values, w}));
        values = m;
    }
    // _aggregate_variable: the default strategy's read_var is an Identity of the variable.
    TSTUDIO_AD_TRY(value, py::genOp(b, "Identity", {count.value()}));
    TSTUDIO_AD_TRY(sum, lossutil::reduceAll(b, "Sum", values));
    TSTUDIO_AD_TRY(update, assignAdd(b, count, sum));
    return MetricResult{value, update};
}

enum class Condition { kTruePositive, kFalsePositive, kFalseNegative, kTrueNegative };

/// true_positives() and friends: (label == wantLabel) && (prediction == wantPrediction).
Expected<MetricResult> countMetric(GraphBuilder& b, const Output& labelsIn, const Output& predictionsIn,
                                   const MetricOptions& options, Condition condition)
{
    static const char* kNames[] = {"true_positives", "false_positives", "false_negatives", "true_negatives"};
    const int index = static_cast<int>(condition);
    const bool wantLabel = condition == Condition::kTruePositive || condition == Condition::kFalseNegative;
    const bool wantPrediction = condition == Condition::kTruePositive || condition == Condition::kFalsePositive;
    TSTUDIO_AD_TRY(scope, metricScope(b, options, kNames[index]));
    TSTUDIO_AD_TRY(p, py::cast(b, predictionsIn, tensorflow::DT_BOOL));
    TSTUDIO_AD_TRY(l, py::cast(b, labelsIn, tensorflow::DT_BOOL));
    Output predictions = p;
    Output labels = l;
    std::optional<Output> weights = options.weights;
    TSTUDIO_AD_CHECK(support::removeSqueezableDimensions(b, predictions, &labels, weights));
    auto equalsBool = [&](const Output& x, bool value) -> Expected<Output> {
        TSTUDIO_AD_TRY(s, b.nameScope("Equal"));
        TSTUDIO_AD_TRY(y, ops::constantInts(b, {value ? 1 : 0}, TensorShape::scalar(), tensorflow::DT_BOOL, "y"));
        return py::genOp(b, "Equal", {x, y}, {}, s.name());
    };
    TSTUDIO_AD_TRY(labelMatches, equalsBool(labels, wantLabel));
    TSTUDIO_AD_TRY(predictionMatches, equalsBool(predictions, wantPrediction));
    TSTUDIO_AD_TRY(both, py::genOp(b, "LogicalAnd", {labelMatches, predictionMatches}));
    TSTUDIO_AD_TRY(result, countCondition(b, both, weights));
    support::addToCollections(b, options, result);
    return result;
}

/// compute_precision / compute_recall: where(a + b > 0, a / (a + b), 0, name).
Expected<Output> ratio(GraphBuilder& b, const Output& hits, const Output& misses, std::string_view name)
{
    TSTUDIO_AD_TRY(sum, py::binary(b, Operator::kAdd, hits, misses));
    TSTUDIO_AD_TRY(positive, py::genOpScalarY(b, "Greater", sum, 0.0));
    TSTUDIO_AD_TRY(sum2, py::binary(b, Operator::kAdd, hits, misses));
    TSTUDIO_AD_TRY(quotient, py::binary(b, Operator::kTrueDiv, hits, sum2));
    return lossutil::selectScalarElse(b, positive, quotient, 0.0, name);
}

/// precision() / recall(): the two counts under the metric's scope, then their ratio.
Expected<MetricResult> ratioMetric(GraphBuilder& b, const Output& labelsIn, const Output& predictionsIn,
                                   const MetricOptions& options, std::string_view defaultName, Condition misses)
{
    TSTUDIO_AD_TRY(scope, metricScope(b, options, defaultName));
    TSTUDIO_AD_TRY(p, py::cast(b, predictionsIn, tensorflow::DT_BOOL));
    TSTUDIO_AD_TRY(l, py::cast(b, labelsIn, tensorflow::DT_BOOL));
    Output predictions = p;
    Output labels = l;
    std::optional<Output> weights = options.weights;
    TSTUDIO_AD_CHECK(support::removeSqueezableDimensions(b, predictions, &labels, weights));
    MetricOptions inner;
    inner.weights = weights;
    TSTUDIO_AD_TRY(tp, countMetric(b, labels, predictions, inner, Condition::kTruePositive));
    TSTUDIO_AD_TRY(other, countMetric(b, labels, predictions, inner, misses));
    TSTUDIO_AD_TRY(value, ratio(b, tp.value, other.value, "value"));
    TSTUDIO_AD_TRY(update, ratio(b, tp.updateOp, other.updateOp, "update_op"));
    MetricResult result{value, update};
    support::addToCollections(b, options, result);
    return result;
}

} // namespace

Expected<Variable> metricVariable(GraphBuilder& b, const TensorShape& shape, std::string_view name, DataType dtype)
{
    const std::vector<std::string> collections{std::string(graph_keys::kLocalVariables), std::string(kMetricVariables)};
    return variable(
        b, [shape, dtype](GraphBuilder& g) { return ops::zeros(g, shape, dtype, "zeros"); }, name, false, collections);
}

Expected<MetricResult> mean(GraphBuilder& b, const Output& values, const MetricOptions& options)
{
    return meanIn(b, values, options.weights, options.name.empty() ? "mean" : options.name, options);
}

Expected<MetricResult> accuracy(GraphBuilder& b, const Output& labelsIn, const Output& predictionsIn,
                                const MetricOptions& options)
{
    Output labels = labelsIn;
    Output predictions = predictionsIn;
    std::optional<Output> weights = options.weights;
    TSTUDIO_AD_CHECK(prepare(b, labels, predictions, weights));
    TSTUDIO_AD_TRY(p, py::cast(b, predictions, labels.baseDtype()));
    TSTUDIO_AD_TRY(equal, py::genOp(b, "Equal", {p, labels}));
    TSTUDIO_AD_TRY(isCorrect, py::cast(b, equal, tensorflow::DT_FLOAT));
    return meanIn(b, isCorrect, weights, options.name.empty() ? "accuracy" : options.name, options);
}

Expected<MetricResult> meanAbsoluteError(GraphBuilder& b, const Output& labelsIn, const Output& predictionsIn,
                                         const MetricOptions& options)
{
    Output labels = labelsIn;
    Output predictions = predictionsIn;
    std::optional<Output> weights = options.weights;
    TSTUDIO_AD_CHECK(prepare(b, labels, predictions, weights));
    TSTUDIO_AD_TRY(diff, py::binary(b, Operator::kSub, predictions, labels));
    TSTUDIO_AD_TRY(absolute, py::genOp(b, "Abs", {diff}));
    return meanIn(b, absolute, weights, options.name.empty() ? "mean_absolute_error" : options.name, options);
}

Expected<MetricResult> meanSquaredError(GraphBuilder& b, const Output& labelsIn, const Output& predictionsIn,
                                        const MetricOptions& options)
{
    Output labels = labelsIn;
    Output predictions = predictionsIn;
    std::optional<Output> weights = options.weights;
    TSTUDIO_AD_CHECK(prepare(b, labels, predictions, weights));
    TSTUDIO_AD_TRY(squared, py::genOp(b, "SquaredDifference", {labels, predictions}));
    return meanIn(b, squared, weights, options.name.empty() ? "mean_squared_error" : options.name, options);
}

Expected<MetricResult> rootMeanSquaredError(GraphBuilder& b, const Output& labelsIn, const Output& predictionsIn,
                                            const MetricOptions& options)
{
    Output labels = labelsIn;
    Output predictions = predictionsIn;
    std::optional<Output> weights = options.weights;
    TSTUDIO_AD_CHECK(prepare(b, labels, predictions, weights));
    MetricOptions inner;
    inner.weights = weights;
    inner.name = options.name.empty() ? "root_mean_squared_error" : options.name;
    TSTUDIO_AD_TRY(mse, meanSquaredError(b, labels, predictions, inner));
    TSTUDIO_AD_TRY(value, py::genOp(b, "Sqrt", {mse.value}));
    TSTUDIO_AD_TRY(update, py::genOp(b, "Sqrt", {mse.updateOp}));
    MetricResult result{value, update};
    support::addToCollections(b, options, result);
    return result;
}

Expected<MetricResult> truePositives(GraphBuilder& b, const Output& labels, const Output& predictions,
                                     const MetricOptions& options)
{
    return countMetric(b, labels, predictions, options, Condition::kTruePositive);
}

Expected<MetricResult> falsePositives(GraphBuilder& b, const Output& labels, const Output& predictions,
                                      const MetricOptions& options)
{
    return countMetric(b, labels, predictions, options, Condition::kFalsePositive);
}

Expected<MetricResult> falseNegatives(GraphBuilder& b, const Output& labels, const Output& predictions,
                                      const MetricOptions& options)
{
    return countMetric(b, labels, predictions, options, Condition::kFalseNegative);
}

Expected<MetricResult> trueNegatives(GraphBuilder& b, const Output& labels, const Output& predictions,
                                     const MetricOptions& options)
{
    return countMetric(b, labels, predictions, options, Condition::kTrueNegative);
}

Expected<MetricResult> precision(GraphBuilder& b, const Output& labels, const Output& predictions,
                                 const MetricOptions& options)
{
    return ratioMetric(b, labels, predictions, options, "precision", Condition::kFalsePositive);
}

Expected<MetricResult> recall(GraphBuilder& b, const Output& labels, const Output& predictions,
                              const MetricOptions& options)
{
    return ratioMetric(b, labels, predictions, options, "recall", Condition::kFalseNegative);
}

} // namespace tstudio::metrics
