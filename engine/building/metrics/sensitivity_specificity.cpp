// tf.metrics.sensitivity_at_specificity and specificity_at_sensitivity of TensorFlow 1.15: the
// confusion counts at fixed thresholds (shared with auc) and the rate of one kind at the threshold
// where the other rate is closest to the wanted one, with metrics_impl.py's node names.
#include "metrics/metrics.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "losses/python_helpers.h"
#include "metrics/metric_support.h"

#include <string>

namespace tstudio::metrics {

namespace {

using py::Operator;

/// The epsilon of both metrics (thresholds and divisions).
constexpr double kEpsilon = 1e-7;

enum Count { kTp = 0, kFn = 1, kTn = 2, kFp = 3 };

/// math_ops.div(x, y, name) of floats: the RealDiv named `name` ("div").
Expected<Output> div(GraphBuilder& b, const Output& x, const Output& y, std::string_view name = "div")
{
    return py::genOp(b, "RealDiv", {x, y}, {}, name);
}

/// x[index] for a 1-D x and a scalar int32 tensor index (Tensor.__getitem__): "add" (index + 1)
/// outside the slice's scope, then "strided_slice/stack" and "strided_slice/stack_1" (Packs of the
/// index and index + 1), "strided_slice/stack_2" (Const [1]) and the StridedSlice.
Expected<Output> elementAt(GraphBuilder& b, const Output& x, const Output& index)
{
    TSTUDIO_AD_TRY(next, py::binary(b, Operator::kAdd, index, 1.0));
    TSTUDIO_AD_TRY(scope, b.nameScope("strided_slice"));
    TSTUDIO_AD_TRY(begin, py::genOp(b, "Pack", {std::vector<Output>{index}}, {{"axis", attr::i(0)}}, "stack"));
    TSTUDIO_AD_TRY(end, py::genOp(b, "Pack", {std::vector<Output>{next}}, {{"axis", attr::i(0)}}, "stack_1"));
    TSTUDIO_AD_TRY(strides, py::intVector(b, {1}, "stack_2"));
    return py::genOp(b, "StridedSlice", {x, begin, end, strides}, {{"shrink_axis_mask", attr::i(1)}}, scope.name());
}

/// div(a[i], a[i] + c[i] + kepsilon, name): the rate at the chosen threshold.
Expected<Output> rateAt(GraphBuilder& b, const Output& a, const Output& c, const Output& index, std::string_view name)
{
    TSTUDIO_AD_TRY(numerator, elementAt(b, a, index));
    TSTUDIO_AD_TRY(a2, elementAt(b, a, index));
    TSTUDIO_AD_TRY(c2, elementAt(b, c, index));
    TSTUDIO_AD_TRY(sum, py::binary(b, Operator::kAdd, a2, c2));
    TSTUDIO_AD_TRY(denominator, py::binary(b, Operator::kAdd, sum, kEpsilon));
    return div(b, numerator, denominator, name);
}

/// div(a, a + c + kepsilon): the rates at every threshold.
Expected<Output> rates(GraphBuilder& b, const Output& a, const Output& c)
{
    TSTUDIO_AD_TRY(sum, py::binary(b, Operator::kAdd, a, c));
    TSTUDIO_AD_TRY(denominator, py::binary(b, Operator::kAdd, sum, kEpsilon));
    return div(b, a, denominator);
}

/// math_ops.argmin / argmax(x, 0): "<Op>/dimension" and the op (int64), then cast to int32.
Expected<Output> argIndex(GraphBuilder& b, std::string_view op, const Output& x)
{
    Output index;
    {
        TSTUDIO_AD_TRY(scope, b.nameScope(op));
        TSTUDIO_AD_TRY(dimension, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "dimension"));
        TSTUDIO_AD_TRY(
            i, py::genOp(b, op, {x, dimension}, {{"output_type", attr::type(tensorflow::DT_INT64)}}, scope.name()));
        index = i;
    }
    return py::cast(b, index, tensorflow::DT_INT32);
}

/// compute_sensitivity_at_specificity(tp, tn, fp, fn, name): the first threshold whose specificity
/// is closest to `specificity`.
Expected<Output> sensitivityAt(GraphBuilder& b, const std::array<Output, 4>& c, double specificity,
                               std::string_view name)
{
    TSTUDIO_AD_TRY(specificities, rates(b, c[kTn], c[kFp]));
    TSTUDIO_AD_TRY(diff, py::binary(b, Operator::kSub, specificities, specificity));
    TSTUDIO_AD_TRY(distance, py::genOp(b, "Abs", {diff}));
    TSTUDIO_AD_TRY(index, argIndex(b, "ArgMin", distance));
    return rateAt(b, c[kTp], c[kFn], index, name);
}

/// compute_specificity_at_sensitivity(tp, tn, fp, fn, name): the last threshold whose sensitivity
/// is closest to `sensitivity` (argmax of the cumulative count of the closest ones).
Expected<Output> specificityAt(GraphBuilder& b, const std::array<Output, 4>& c, double sensitivity,
                               std::string_view name)
{
    TSTUDIO_AD_TRY(sensitivities, rates(b, c[kTp], c[kFn]));
    TSTUDIO_AD_TRY(diff, py::binary(b, Operator::kSub, sensitivities, sensitivity));
    TSTUDIO_AD_TRY(distance, py::genOp(b, "Abs", {diff}));
    TSTUDIO_AD_TRY(minimum, lossutil::reduceAll(b, "Min", distance));
    TSTUDIO_AD_TRY(diff2, py::binary(b, Operator::kSub, sensitivities, sensitivity));
    TSTUDIO_AD_TRY(distance2, py::genOp(b, "Abs", {diff2}));
    TSTUDIO_AD_TRY(atMinimum, py::genOp(b, "Equal", {distance2, minimum}));
    TSTUDIO_AD_TRY(counts, py::cast(b, atMinimum, tensorflow::DT_INT64));
    Output cumulative;
    {
        TSTUDIO_AD_TRY(scope, b.nameScope("Cumsum"));
        TSTUDIO_AD_TRY(axis, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
        TSTUDIO_AD_TRY(cs, py::genOp(b, "Cumsum", {counts, axis}, {}, scope.name()));
        cumulative = cs;
    }
    TSTUDIO_AD_TRY(index, argIndex(b, "ArgMax", cumulative));
    return rateAt(b, c[kTn], c[kFp], index, name);
}

using RateAt = Expected<Output> (*)(GraphBuilder&, const std::array<Output, 4>&, double, std::string_view);

Expected<MetricResult> rateAtRate(GraphBuilder& b, const Output& labels, const Output& predictions, double wanted,
                                  const MetricOptions& options, int numThresholds, std::string_view defaultName,
                                  std::string_view argument, RateAt compute)
{
    if (wanted < 0.0 || wanted > 1.0)
        return unexpected(invalidArgumentError("`" + std::string(argument) + "` must be in the range [0, 1]."));
    if (numThresholds < 2)
        return unexpected(invalidArgumentError(std::string(defaultName) + ": num_thresholds must be at least 2, got " +
                                               std::to_string(numThresholds)));
    TSTUDIO_AD_TRY(scope, b.nameScope(options.name.empty() ? defaultName : std::string_view(options.name)));
    const std::vector<double> thresholds = support::thresholdsFor(numThresholds);
    TSTUDIO_AD_TRY(confusion,
                   support::confusionMatrixAtThresholds(b, labels, predictions, options.weights, thresholds));
    TSTUDIO_AD_TRY(value, compute(b, confusion.values, wanted, "value"));
    TSTUDIO_AD_TRY(update, compute(b, confusion.updates, wanted, "update_op"));
    MetricResult result{value, update};
    support::addToCollections(b, options, result);
    return result;
}

} // namespace

Expected<MetricResult> sensitivityAtSpecificity(GraphBuilder& b, const Output& labels, const Output& predictions,
                                                double specificity, const MetricOptions& options, int numThresholds)
{
    return rateAtRate(b, labels, predictions, specificity, options, numThresholds, "sensitivity_at_specificity",
                      "specificity", sensitivityAt);
}

Expected<MetricResult> specificityAtSensitivity(GraphBuilder& b, const Output& labels, const Output& predictions,
                                                double sensitivity, const MetricOptions& options, int numThresholds)
{
    return rateAtRate(b, labels, predictions, sensitivity, options, numThresholds, "specificity_at_sensitivity",
                      "sensitivity", specificityAt);
}

} // namespace tstudio::metrics
