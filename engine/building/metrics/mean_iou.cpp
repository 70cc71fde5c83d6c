// tf.metrics.mean_iou of TensorFlow 1.15 (metrics_impl.py): a streaming confusion matrix in a
// float64 local variable and the mean intersection-over-union of the classes present.
#include "metrics/metrics.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "losses/python_helpers.h"
#include "metrics/metric_support.h"

#include <span>
#include <string>
#include <variant>

namespace tstudio::metrics {

namespace {

using py::Operator;
using AssertDatum = std::variant<std::string, Output>;

Expected<Output> stringConst(GraphBuilder& b, const std::string& value, std::string_view name)
{
    auto proto = makeStringTensorProto(TensorShape::scalar(), std::span<const std::string>(&value, 1));
    if (!proto)
        return unexpected(proto.error());
    return ops::constant(b, *proto, name);
}

/// control_flow_ops.Assert(condition, data) in the scope "Assert": the strings as Consts
/// "Assert/Assert/data_<i>" and the Assert "Assert/Assert" (summarize 3). TensorFlow guards it with
/// a tf.cond ("Assert/AssertGuard") because the data hold int64 tensors; unguarded it decides and
/// fails the same way (as auc's asserts here).
Expected<Operation> assertOp(GraphBuilder& b, const Output& condition, const std::vector<AssertDatum>& data)
{
    TSTUDIO_AD_TRY(outer, b.nameScope("Assert"));
    TSTUDIO_AD_TRY(inner, b.nameScope("Assert"));
    std::vector<Output> tensors;
    for (std::size_t i = 0; i < data.size(); ++i) {
        if (const auto* text = std::get_if<std::string>(&data[i])) {
            TSTUDIO_AD_TRY(c, stringConst(b, *text, "data_" + std::to_string(i)));
            tensors.push_back(c);
        } else {
            tensors.push_back(std::get<Output>(data[i]));
        }
    }
    return b.op("Assert", {condition, OpInput(tensors)}, {{"summarize", attr::i(3)}}, inner.name());
}

/// reduce_all(compare(x, y)) and the Assert, in the current scope.
Expected<Operation> assertAll(GraphBuilder& b, std::string_view compare, const Output& x, const Output& y,
                              const std::vector<AssertDatum>& data)
{
    TSTUDIO_AD_TRY(holds, py::genOp(b, compare, {x, y}));
    TSTUDIO_AD_TRY(all, lossutil::reduceAll(b, "All", holds));
    return assertOp(b, all, data);
}

/// check_ops.assert_non_negative(x, message): "assert_non_negative/Const" (0) and
/// assert_less_equal(0, x) inside it.
Expected<Operation> assertNonNegative(GraphBuilder& b, const Output& x, const std::string& message)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("assert_non_negative"));
    TSTUDIO_AD_TRY(zero, ops::constantInts(b, {0}, TensorShape::scalar(), x.baseDtype(), "Const"));
    TSTUDIO_AD_TRY(inner, b.nameScope("assert_less_equal"));
    return assertAll(b, "LessEqual", zero, x,
                     {message, "Condition x >= 0 did not hold element-wise:", "x (" + x.name() + ") = ", x});
}

/// check_ops.assert_less(x, y, message) in the scope "assert_less".
Expected<Operation> assertLess(GraphBuilder& b, const Output& x, const Output& y, const std::string& message)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("assert_less"));
    return assertAll(b, "Less", x, y,
                     {message, "Condition x < y did not hold element-wise:", "x (" + x.name() + ") = ", x,
                      "y (" + y.name() + ") = ", y});
}

/// control_flow_ops.with_dependencies([dependency], x): the Identity "control_dependency",
/// colocated with x and run after the dependency.
Expected<Output> withDependency(GraphBuilder& b, const Operation& dependency, const Output& x)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("control_dependency"));
    TSTUDIO_AD_TRY(producer, py::producer(b, x));
    ScopeGuard colocated = b.colocateWith(producer);
    ScopeGuard after = b.controlDependencies({dependency});
    return py::genOp(b, "Identity", {x}, {}, scope.name());
}

/// confusion_matrix.confusion_matrix(labels, predictions, num_classes, weights, float64) on int64
/// vectors, in the scope "confusion_matrix": the range checks, then the [n, n] matrix as the
/// UnsortedSegmentSum of the values (ones, or the weights) at label * n + prediction, reshaped.
Expected<Output> confusionMatrix(GraphBuilder& b, Output labels, Output predictions, const Output& numClasses,
                                 std::optional<Output> weights)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("confusion_matrix"));
    TSTUDIO_AD_CHECK(lossutil::removeSqueezableDimensions(b, labels, predictions, 0));
    TSTUDIO_AD_TRY(labelsOk, assertNonNegative(b, labels, "`labels` contains negative values"));
    TSTUDIO_AD_TRY(l1, withDependency(b, labelsOk, labels));
    TSTUDIO_AD_TRY(predictionsOk, assertNonNegative(b, predictions, "`predictions` contains negative values"));
    TSTUDIO_AD_TRY(p1, withDependency(b, predictionsOk, predictions));
    TSTUDIO_AD_TRY(labelsBelow, assertLess(b, l1, numClasses, "`labels` out of bound"));
    TSTUDIO_AD_TRY(l2, withDependency(b, labelsBelow, l1));
    TSTUDIO_AD_TRY(predictionsBelow, assertLess(b, p1, numClasses, "`predictions` out of bound"));
    TSTUDIO_AD_TRY(p2, withDependency(b, predictionsBelow, p1));
    Output values;
    if (weights) {
        TSTUDIO_AD_CHECK(lossutil::assertCompatible(p2.shape(), weights->shape()));
        TSTUDIO_AD_TRY(w, py::cast(b, *weights, tensorflow::DT_DOUBLE));
        values = w;
    }
    TSTUDIO_AD_TRY(
        shape, py::genOp(b, "Pack", {std::vector<Output>{numClasses, numClasses}}, {{"axis", attr::i(0)}}, "stack"));
    if (!weights) {
        // ones_like(predictions, float64): "ones_like/Shape", "ones_like/Const" and the Fill.
        TSTUDIO_AD_TRY(ones, b.nameScope("ones_like"));
        TSTUDIO_AD_TRY(dims, py::shape(b, p2));
        TSTUDIO_AD_TRY(one, py::constant(b, 1.0, tensorflow::DT_DOUBLE));
        TSTUDIO_AD_TRY(fill, py::genOp(b, "Fill", {dims, one}, {}, ones.name()));
        values = fill;
    }
    TSTUDIO_AD_TRY(rowStart, py::binary(b, Operator::kMul, l2, numClasses));
    TSTUDIO_AD_TRY(cell, py::binary(b, Operator::kAdd, rowStart, p2));
    TSTUDIO_AD_TRY(cells, py::binary(b, Operator::kMul, numClasses, numClasses));
    TSTUDIO_AD_TRY(sums, py::genOp(b, "UnsortedSegmentSum", {values, cell, cells}));
    return py::reshape(b, sums, shape);
}

/// compute_mean_iou(total_cm) in the metric's scope.
Expected<Output> computeMeanIou(GraphBuilder& b, const Output& totalCm)
{
    TSTUDIO_AD_TRY(rowSums, lossutil::reduceAxis(b, "Sum", totalCm, 0));
    TSTUDIO_AD_TRY(sumOverRow, py::cast(b, rowSums, tensorflow::DT_FLOAT));
    TSTUDIO_AD_TRY(colSums, lossutil::reduceAxis(b, "Sum", totalCm, 1));
    TSTUDIO_AD_TRY(sumOverCol, py::cast(b, colSums, tensorflow::DT_FLOAT));
    TSTUDIO_AD_TRY(diagonal, py::genOp(b, "DiagPart", {totalCm}));
    TSTUDIO_AD_TRY(cmDiag, py::cast(b, diagonal, tensorflow::DT_FLOAT));
    TSTUDIO_AD_TRY(both, py::binary(b, Operator::kAdd, sumOverRow, sumOverCol));
    TSTUDIO_AD_TRY(denominator, py::binary(b, Operator::kSub, both, cmDiag));
    TSTUDIO_AD_TRY(present, py::genOpScalarY(b, "NotEqual", denominator, 0.0));
    TSTUDIO_AD_TRY(presentF, py::cast(b, present, tensorflow::DT_FLOAT));
    TSTUDIO_AD_TRY(numValid, lossutil::reduceAll(b, "Sum", presentF));
    TSTUDIO_AD_TRY(positive, py::genOpScalarY(b, "Greater", denominator, 0.0));
    TSTUDIO_AD_TRY(ones, py::onesLike(b, denominator));
    TSTUDIO_AD_TRY(safeDenominator, py::where(b, positive, denominator, ones));
    TSTUDIO_AD_TRY(iou, py::genOp(b, "RealDiv", {cmDiag, safeDenominator}, {}, "div"));
    TSTUDIO_AD_TRY(anyValid, py::genOpScalarY(b, "Greater", numValid, 0.0));
    TSTUDIO_AD_TRY(iouSum, lossutil::reduceAll(b, "Sum", iou, "mean_iou"));
    TSTUDIO_AD_TRY(meanIou, py::binary(b, Operator::kTrueDiv, iouSum, numValid));
    return lossutil::selectScalarElse(b, anyValid, meanIou, 0.0, "Select");
}

/// math_ops.cast(python int, int64): "Cast/x" (int32) and the Cast "Cast".
Expected<Output> castIntToInt64(GraphBuilder& b, std::int64_t value)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Cast"));
    TSTUDIO_AD_TRY(x, ops::constantInts(b, {value}, TensorShape::scalar(), tensorflow::DT_INT32, "x"));
    return py::genOp(b, "Cast", {x}, {{"DstT", attr::type(tensorflow::DT_INT64)}}, scope.name());
}

} // namespace

Expected<MetricResult> meanIou(GraphBuilder& b, const Output& labelsIn, const Output& predictionsIn,
                               std::int64_t numClasses, const MetricOptions& options)
{
    if (numClasses < 1)
        return unexpected(
            invalidArgumentError("mean_iou: num_classes must be positive, got " + std::to_string(numClasses)));
    TSTUDIO_AD_TRY(scope,
                   b.nameScope(options.name.empty() ? std::string_view("mean_iou") : std::string_view(options.name)));
    TSTUDIO_AD_CHECK(lossutil::assertCompatible(predictionsIn.shape(), labelsIn.shape()));
    if (predictionsIn.shape().isUnknownRank() || labelsIn.shape().isUnknownRank() ||
        (options.weights && options.weights->shape().isUnknownRank()))
        return unexpected(unimplementedError("mean_iou: the ranks of labels, predictions and weights must be known "
                                             "while building"));
    // _streaming_confusion_matrix.
    TSTUDIO_AD_TRY(totalCm, metricVariable(b, TensorShape{numClasses, numClasses}, "total_confusion_matrix",
                                           tensorflow::DT_DOUBLE));
    TSTUDIO_AD_TRY(p0, py::cast(b, predictionsIn, tensorflow::DT_INT64));
    TSTUDIO_AD_TRY(l0, py::cast(b, labelsIn, tensorflow::DT_INT64));
    TSTUDIO_AD_TRY(classes, castIntToInt64(b, numClasses));
    Output predictions = p0;
    Output labels = l0;
    std::optional<Output> weights = options.weights;
    if (predictions.shape().rank() > 1) {
        TSTUDIO_AD_TRY(flat, py::reshape(b, predictions, std::vector<std::int64_t>{-1}));
        predictions = flat;
    }
    if (labels.shape().rank() > 1) {
        TSTUDIO_AD_TRY(flat, py::reshape(b, labels, std::vector<std::int64_t>{-1}));
        labels = flat;
    }
    if (weights && weights->shape().rank() > 1) {
        TSTUDIO_AD_TRY(flat, py::reshape(b, *weights, std::vector<std::int64_t>{-1}));
        weights = flat;
    }
    TSTUDIO_AD_TRY(current, confusionMatrix(b, labels, predictions, classes, weights));
    TSTUDIO_AD_TRY(update, py::genOp(b, "AssignAdd", {totalCm.ref(), current}));
    TSTUDIO_AD_TRY(value, computeMeanIou(b, totalCm.value()));
    MetricResult result{value, update};
    support::addToCollections(b, options, result);
    return result;
}

} // namespace tstudio::metrics
