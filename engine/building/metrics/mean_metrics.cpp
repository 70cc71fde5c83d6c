// tf.metrics built on tf.metrics.mean in TensorFlow 1.15 (metrics_impl.py): mean_relative_error,
// mean_cosine_distance and percentage_below, with their node names.
#include "metrics/metrics.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "losses/python_helpers.h"
#include "metrics/metric_support.h"

namespace tstudio::metrics {

namespace {

std::string_view scopeOr(const MetricOptions& options, std::string_view fallback)
{
    return options.name.empty() ? fallback : std::string_view(options.name);
}

/// The metric's value and update op into the collections, after a mean built without them.
MetricResult collected(GraphBuilder& b, const MetricOptions& options, MetricResult result)
{
    support::addToCollections(b, options, result);
    return result;
}

} // namespace

Expected<MetricResult> meanRelativeError(GraphBuilder& b, const Output& labelsIn, const Output& predictionsIn,
                                         const Output& normalizerIn, const MetricOptions& options)
{
    Output labels = labelsIn;
    Output predictions = predictionsIn;
    Output normalizer = normalizerIn;
    std::optional<Output> weights = options.weights;
    TSTUDIO_AD_CHECK(support::removeSqueezableDimensions(b, predictions, &labels, weights));
    TSTUDIO_AD_CHECK(lossutil::removeSqueezableDimensions(b, predictions, normalizer, 0));
    TSTUDIO_AD_CHECK(lossutil::assertCompatible(predictions.shape(), normalizer.shape()));
    TSTUDIO_AD_TRY(isZero, py::genOpScalarY(b, "Equal", normalizer, 0.0));
    TSTUDIO_AD_TRY(zeros, py::zerosLike(b, labels));
    TSTUDIO_AD_TRY(diff, py::binary(b, py::Operator::kSub, labels, predictions));
    TSTUDIO_AD_TRY(absolute, py::genOp(b, "Abs", {diff}));
    // math_ops.div of floats: the RealDiv "div".
    TSTUDIO_AD_TRY(relative, py::genOp(b, "RealDiv", {absolute, normalizer}, {}, "div"));
    TSTUDIO_AD_TRY(relativeErrors, py::where(b, isZero, zeros, relative));
    return support::meanIn(b, relativeErrors, weights, scopeOr(options, "mean_relative_error"), options);
}

Expected<MetricResult> meanCosineDistance(GraphBuilder& b, const Output& labelsIn, const Output& predictionsIn,
                                          std::int64_t dim, const MetricOptions& options)
{
    Output labels = labelsIn;
    Output predictions = predictionsIn;
    std::optional<Output> weights = options.weights;
    TSTUDIO_AD_CHECK(support::removeSqueezableDimensions(b, predictions, &labels, weights));
    TSTUDIO_AD_TRY(products, py::genOp(b, "Mul", {predictions, labels}));
    Output radial;
    {
        // reduce_sum(x, reduction_indices=[dim], keepdims=True): the list becomes "Sum/reduction_indices".
        TSTUDIO_AD_TRY(scope, b.nameScope("Sum"));
        TSTUDIO_AD_TRY(axes, ops::constantInts(b, {dim}, TensorShape{1}, tensorflow::DT_INT32, "reduction_indices"));
        TSTUDIO_AD_TRY(sum, py::genOp(b, "Sum", {products, axes}, {{"keep_dims", attr::b(true)}}, scope.name()));
        radial = sum;
    }
    TSTUDIO_AD_TRY(mean, support::meanIn(b, radial, weights, scopeOr(options, "mean_cosine_distance"), {}));
    // math_ops.subtract(1.0, x): "Sub/x" and "Sub".
    auto oneMinus = [&](const Output& x) -> Expected<Output> {
        TSTUDIO_AD_TRY(scope, b.nameScope("Sub"));
        TSTUDIO_AD_TRY(one, py::constant(b, 1.0, x.baseDtype(), "x"));
        return py::genOp(b, "Sub", {one, x}, {}, scope.name());
    };
    TSTUDIO_AD_TRY(value, oneMinus(mean.value));
    TSTUDIO_AD_TRY(update, oneMinus(mean.updateOp));
    return collected(b, options, MetricResult{value, update});
}

Expected<MetricResult> percentageBelow(GraphBuilder& b, const Output& values, double threshold,
                                       const MetricOptions& options)
{
    TSTUDIO_AD_TRY(below, py::genOpScalarY(b, "Less", values, threshold));
    TSTUDIO_AD_TRY(isBelow, py::cast(b, below, tensorflow::DT_FLOAT));
    return support::meanIn(b, isBelow, options.weights, scopeOr(options, "percentage_below_threshold"), options);
}

} // namespace tstudio::metrics
