// tf.metrics.auc of TensorFlow 1.15: confusion counts at fixed thresholds kept in local variables
// (metrics_impl._confusion_matrix_at_thresholds, shared with the sensitivity/specificity metrics)
// and the area under the ROC or PR curve by a Riemann sum over them.
#include "metrics/metrics.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "losses/python_helpers.h"
#include "metrics/metric_support.h"

#include <array>
#include <span>
#include <string>

namespace tstudio::metrics {
namespace {

using py::Operator;

/// x[begin:end] of a 1-D tensor with Python's slice semantics (`end` 0 with end_mask: to the end).
Expected<Output> slice(GraphBuilder& b, const Output& x, std::int64_t begin, std::optional<std::int64_t> end)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("strided_slice"));
    TSTUDIO_AD_TRY(beginT, py::intVector(b, {begin}, "stack"));
    TSTUDIO_AD_TRY(endT, py::intVector(b, {end.value_or(0)}, "stack_1"));
    TSTUDIO_AD_TRY(stridesT, py::intVector(b, {1}, "stack_2"));
    AttrMap attrs;
    if (begin == 0)
        attrs["begin_mask"] = attr::i(1);
    if (!end)
        attrs["end_mask"] = attr::i(1);
    return py::genOp(b, "StridedSlice", {x, beginT, endT, stridesT}, std::move(attrs), scope.name());
}

/// array_ops.tile(x, [python ints]) "Tile/multiples", "Tile".
Expected<Output> tile(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& multiples)
{
    return py::tile(b, x, multiples);
}

/// math_ops.cast(python number, dtype): the float32 Const "Cast/x", then a Cast op "Cast" for
/// another dtype.
Expected<Output> castNumber(GraphBuilder& b, double value, DataType dtype)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("Cast"));
    TSTUDIO_AD_TRY(x, py::constant(b, value, tensorflow::DT_FLOAT, "x"));
    if (dtype == tensorflow::DT_FLOAT)
        return x;
    return py::genOp(b, "Cast", {x}, {{"DstT", attr::type(dtype)}}, scope.name());
}

Expected<Output> stringConst(GraphBuilder& b, const std::string& value, std::string_view name)
{
    auto proto = makeStringTensorProto(TensorShape::scalar(), std::span<const std::string>(&value, 1));
    if (!proto)
        return unexpected(proto.error());
    return ops::constant(b, *proto, name);
}

/// check_ops.assert_greater_equal / assert_less_equal(x, y, message=message) of TensorFlow 1.15 in
/// the scope `scopeName`: `compare` ("GreaterEqual"), reduce_all "Const" and "All", and the Assert
/// "Assert/Assert" with the data [message, "Condition x >= y did not hold element-wise:x (<x>) = ",
/// x, "y (<y>) = ", y]. TensorFlow guards that Assert with the tf.cond "Assert/AssertGuard" (a
/// float is among its data); here it runs unguarded, which decides and fails the same way.
Expected<Operation> assertCompare(GraphBuilder& b, std::string_view scopeName, std::string_view compare,
                                  std::string_view symbol, const Output& x, const Output& y, const std::string& message)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(scopeName));
    TSTUDIO_AD_TRY(holds, py::genOp(b, compare, {x, y}));
    TSTUDIO_AD_TRY(all, lossutil::reduceAll(b, "All", holds));
    TSTUDIO_AD_TRY(outer, b.nameScope("Assert"));
    TSTUDIO_AD_TRY(inner, b.nameScope("Assert"));
    TSTUDIO_AD_TRY(d0, stringConst(b, message, "data_0"));
    TSTUDIO_AD_TRY(
        d1,
        stringConst(b, "Condition x " + std::string(symbol) + " y did not hold element-wise:x (" + x.name() + ") = ",
                    "data_1"));
    TSTUDIO_AD_TRY(d3, stringConst(b, "y (" + y.name() + ") = ", "data_3"));
    return b.op("Assert", {all, OpInput(std::vector<Output>{d0, d1, x, d3, y})}, {{"summarize", attr::i(3)}},
                inner.name());
}

/// The counts of one condition: metric_variable `name`, Cast(LogicalAnd(a, c)) (times the tiled
/// weights), AssignAdd of its row sums.
Expected<std::pair<Variable, Output>> confusionCount(GraphBuilder& b, std::string_view name, int numThresholds,
                                                     const Output& a, const Output& c,
                                                     const std::optional<Output>& weightsTiled)
{
    TSTUDIO_AD_TRY(v, metricVariable(b, TensorShape{numThresholds}, name));
    TSTUDIO_AD_TRY(both, py::genOp(b, "LogicalAnd", {a, c}));
    TSTUDIO_AD_TRY(isTrue0, py::cast(b, both, tensorflow::DT_FLOAT));
    Output isTrue = isTrue0;
    if (weightsTiled) {
        TSTUDIO_AD_TRY(m, py::binary(b, Operator::kMul, isTrue, *weightsTiled));
        isTrue = m;
    }
    TSTUDIO_AD_TRY(rowSums, lossutil::reduceAxis(b, "Sum", isTrue, 1));
    TSTUDIO_AD_TRY(update, py::genOp(b, "AssignAdd", {v.ref(), rowSums}));
    return std::pair<Variable, Output>{v, update};
}

/// compute_auc(tp, fn, tn, fp, name).
Expected<Output> computeAuc(GraphBuilder& b, const std::array<Output, 4>& counts, int n, AucCurve curve,
                            AucSummation summation, std::string_view name)
{
    const double epsilon = 1.0e-6;
    const Output& tp = counts[0];
    const Output& fn = counts[1];
    const Output& tn = counts[2];
    const Output& fp = counts[3];
    TSTUDIO_AD_TRY(tpEps, py::binary(b, Operator::kAdd, tp, epsilon));
    TSTUDIO_AD_TRY(tpFn, py::binary(b, Operator::kAdd, tp, fn));
    TSTUDIO_AD_TRY(tpFnEps, py::binary(b, Operator::kAdd, tpFn, epsilon));
    TSTUDIO_AD_TRY(rec, py::binary(b, Operator::kTrueDiv, tpEps, tpFnEps));
    Output x;
    Output y;
    if (curve == AucCurve::kRoc) {
        TSTUDIO_AD_TRY(fpTn, py::binary(b, Operator::kAdd, fp, tn));
        TSTUDIO_AD_TRY(fpTnEps, py::binary(b, Operator::kAdd, fpTn, epsilon));
        TSTUDIO_AD_TRY(fpRate, py::binary(b, Operator::kTrueDiv, fp, fpTnEps));
        x = fpRate;
        y = rec;
    } else {
        TSTUDIO_AD_TRY(tpEps2, py::binary(b, Operator::kAdd, tp, epsilon));
        TSTUDIO_AD_TRY(tpFp, py::binary(b, Operator::kAdd, tp, fp));
        TSTUDIO_AD_TRY(tpFpEps, py::binary(b, Operator::kAdd, tpFp, epsilon));
        TSTUDIO_AD_TRY(prec, py::binary(b, Operator::kTrueDiv, tpEps2, tpFpEps));
        x = rec;
        y = prec;
    }
    TSTUDIO_AD_TRY(xHead, slice(b, x, 0, n - 1));
    TSTUDIO_AD_TRY(xTail, slice(b, x, 1, std::nullopt));
    TSTUDIO_AD_TRY(dx, py::binary(b, Operator::kSub, xHead, xTail));
    TSTUDIO_AD_TRY(yHead, slice(b, y, 0, n - 1));
    TSTUDIO_AD_TRY(yTail, slice(b, y, 1, std::nullopt));
    Output height;
    if (summation == AucSummation::kTrapezoidal) {
        TSTUDIO_AD_TRY(ySum, py::binary(b, Operator::kAdd, yHead, yTail));
        TSTUDIO_AD_TRY(h, py::binary(b, Operator::kTrueDiv, ySum, 2.0));
        height = h;
    } else {
        TSTUDIO_AD_TRY(h, py::genOp(b, summation == AucSummation::kMinoring ? "Minimum" : "Maximum", {yHead, yTail}));
        height = h;
    }
    TSTUDIO_AD_TRY(areas, py::genOp(b, "Mul", {dx, height}));
    return lossutil::reduceAll(b, "Sum", areas, name);
}

} // namespace

namespace support {

Expected<ConfusionAtThresholds> confusionMatrixAtThresholds(GraphBuilder& b, const Output& labelsIn,
                                                            const Output& predictionsIn,
                                                            const std::optional<Output>& weightsIn,
                                                            const std::vector<double>& thresholds)
{
    const int n = static_cast<int>(thresholds.size());
    // _confusion_matrix_at_thresholds: predictions in [0, 1], checked at run time, before the casts
    // and _remove_squeezable_dimensions.
    const std::string rangeMessage = "predictions must be in [0, 1]";
    TSTUDIO_AD_TRY(zero, castNumber(b, 0.0, predictionsIn.baseDtype()));
    TSTUDIO_AD_TRY(atLeastZero,
                   assertCompare(b, "assert_greater_equal", "GreaterEqual", ">=", predictionsIn, zero, rangeMessage));
    TSTUDIO_AD_TRY(one, castNumber(b, 1.0, predictionsIn.baseDtype()));
    TSTUDIO_AD_TRY(atMostOne,
                   assertCompare(b, "assert_less_equal", "LessEqual", "<=", predictionsIn, one, rangeMessage));
    Output predictions;
    Output labels;
    std::optional<Output> weights = weightsIn;
    {
        ScopeGuard inRange = b.controlDependencies({atLeastZero, atMostOne});
        TSTUDIO_AD_TRY(p0, py::cast(b, predictionsIn, tensorflow::DT_FLOAT));
        TSTUDIO_AD_TRY(l0, py::cast(b, labelsIn, tensorflow::DT_BOOL));
        predictions = p0;
        labels = l0;
        TSTUDIO_AD_CHECK(support::removeSqueezableDimensions(b, predictions, &labels, weights));
    }
    TSTUDIO_AD_TRY(predictions2d, py::reshape(b, predictions, std::vector<std::int64_t>{-1, 1}));
    TSTUDIO_AD_TRY(labels2d, py::reshape(b, labels, std::vector<std::int64_t>{1, -1}));
    Output multiples;
    const std::int64_t numPredictions = predictions2d.shape().rank() == 2 ? predictions2d.shape().dim(0) : -1;
    if (numPredictions >= 0) {
        TSTUDIO_AD_TRY(m, py::intVector(b, {1, numPredictions}, "stack"));
        multiples = m;
    } else {
        TSTUDIO_AD_TRY(shape, py::shape(b, predictions2d));
        Output rows;
        {
            TSTUDIO_AD_TRY(ss, b.nameScope("strided_slice"));
            TSTUDIO_AD_TRY(beginT, py::intVector(b, {0}, "stack"));
            TSTUDIO_AD_TRY(endT, py::intVector(b, {1}, "stack_1"));
            TSTUDIO_AD_TRY(stridesT, py::intVector(b, {1}, "stack_2"));
            TSTUDIO_AD_TRY(r, py::genOp(b, "StridedSlice", {shape, beginT, endT, stridesT},
                                        {{"shrink_axis_mask", attr::i(1)}}, ss.name()));
            rows = r;
        }
        TSTUDIO_AD_TRY(st, b.nameScope("stack"));
        TSTUDIO_AD_TRY(one, py::constant(b, 1, tensorflow::DT_INT32, "0"));
        TSTUDIO_AD_TRY(m, py::genOp(b, "Pack", {std::vector<Output>{one, rows}}, {{"axis", attr::i(0)}}, st.name()));
        multiples = m;
    }
    TSTUDIO_AD_TRY(thresholdsT, ops::constant(b, thresholds, TensorShape{n}, tensorflow::DT_FLOAT, "Const"));
    Output threshCol;
    {
        TSTUDIO_AD_TRY(es, b.nameScope("ExpandDims"));
        TSTUDIO_AD_TRY(dim, py::intVector(b, {1}, "dim"));
        TSTUDIO_AD_TRY(e, py::genOp(b, "ExpandDims", {thresholdsT, dim}, {}, es.name()));
        threshCol = e;
    }
    TSTUDIO_AD_TRY(threshTiled, py::tile(b, threshCol, multiples));
    Output transposed;
    {
        TSTUDIO_AD_TRY(ts, b.nameScope("transpose"));
        TSTUDIO_AD_TRY(perm, py::intVector(b, {1, 0}, "perm"));
        TSTUDIO_AD_TRY(t, py::genOp(b, "Transpose", {predictions2d, perm}, {}, ts.name()));
        transposed = t;
    }
    TSTUDIO_AD_TRY(predTiled, tile(b, transposed, {n, 1}));
    TSTUDIO_AD_TRY(predIsPos, py::genOp(b, "Greater", {predTiled, threshTiled}));
    TSTUDIO_AD_TRY(predIsNeg, py::genOp(b, "LogicalNot", {predIsPos}));
    TSTUDIO_AD_TRY(labelIsPos, tile(b, labels2d, {n, 1}));
    TSTUDIO_AD_TRY(labelIsNeg, py::genOp(b, "LogicalNot", {labelIsPos}));
    std::optional<Output> weightsTiled;
    if (weights) {
        TSTUDIO_AD_TRY(w, py::cast(b, *weights, tensorflow::DT_FLOAT));
        TSTUDIO_AD_TRY(broadcast, lossutil::broadcastWeights(b, w, predictions));
        TSTUDIO_AD_TRY(row, py::reshape(b, broadcast, std::vector<std::int64_t>{1, -1}));
        TSTUDIO_AD_TRY(t, tile(b, row, {n, 1}));
        weightsTiled = t;
    }
    TSTUDIO_AD_TRY(tp, confusionCount(b, "true_positives", n, labelIsPos, predIsPos, weightsTiled));
    TSTUDIO_AD_TRY(fn, confusionCount(b, "false_negatives", n, labelIsPos, predIsNeg, weightsTiled));
    TSTUDIO_AD_TRY(tn, confusionCount(b, "true_negatives", n, labelIsNeg, predIsNeg, weightsTiled));
    TSTUDIO_AD_TRY(fp, confusionCount(b, "false_positives", n, labelIsNeg, predIsPos, weightsTiled));

    ConfusionAtThresholds result;
    result.values = {tp.first.value(), fn.first.value(), tn.first.value(), fp.first.value()};
    result.updates = {tp.second, fn.second, tn.second, fp.second};
    return result;
}

std::vector<double> thresholdsFor(int numThresholds)
{
    // -kepsilon, then (i + 1) / (n - 1) for i < n - 2, then 1 + kepsilon.
    const double kEpsilon = 1e-7;
    std::vector<double> thresholds;
    thresholds.push_back(0.0 - kEpsilon);
    for (int i = 0; i < numThresholds - 2; ++i)
        thresholds.push_back((i + 1) * 1.0 / (numThresholds - 1));
    thresholds.push_back(1.0 + kEpsilon);
    return thresholds;
}

} // namespace support

Expected<MetricResult> auc(GraphBuilder& b, const Output& labelsIn, const Output& predictionsIn,
                           const MetricOptions& options, int numThresholds, AucCurve curve, AucSummation summation)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(options.name.empty() ? std::string_view("auc") : std::string_view(options.name)));
    if (numThresholds < 2)
        return unexpected(
            invalidArgumentError("auc: num_thresholds must be at least 2, got " + std::to_string(numThresholds)));
    if (summation == AucSummation::kCarefulInterpolation)
        return unexpected(unimplementedError("auc: summation_method 'careful_interpolation' is not supported yet"));
    const std::vector<double> thresholds = support::thresholdsFor(numThresholds);
    const int n = static_cast<int>(thresholds.size());
    TSTUDIO_AD_TRY(confusion,
                   support::confusionMatrixAtThresholds(b, labelsIn, predictionsIn, options.weights, thresholds));

    const std::array<Output, 4>& values = confusion.values;
    const std::array<Output, 4>& updates = confusion.updates;
    TSTUDIO_AD_TRY(value, computeAuc(b, values, n, curve, summation, "value"));
    TSTUDIO_AD_TRY(update, computeAuc(b, updates, n, curve, summation, "update_op"));
    MetricResult result{value, update};
    support::addToCollections(b, options, result);
    return result;
}

} // namespace tstudio::metrics
