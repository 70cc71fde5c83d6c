// tf.losses of TensorFlow 1.15: the weighted losses, their reductions and the loss collections.
#include "losses/losses.h"

#include "builder/python_ops.h"
#include "builder/collections.h"
#include "builder/ops_sugar.h"
#include "losses/nn_losses.h"
#include "losses/python_helpers.h"

namespace tstudio::losses {
namespace {

using py::Operator;

/// ops.name_scope(scope, default): the given scope or the default one.
Expected<ScopeGuard> lossScope(GraphBuilder& b, const LossOptions& options, std::string_view defaultName)
{
    return b.nameScope(options.scope.empty() ? defaultName : std::string_view(options.scope));
}

/// The options compute_weighted_loss gets from a loss function: the same, in the function's scope.
LossOptions inScope(const LossOptions& options, const ScopeGuard& scope)
{
    LossOptions o = options;
    o.scope = scope.name();
    return o;
}

/// gen_math_ops.<type>(python number x, tensor y): "<Type>/x" and "<Type>".
Expected<Output> genOpScalarX(GraphBuilder& b, std::string_view type, double x, const Output& y)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(type));
    TSTUDIO_AD_TRY(xT, py::constant(b, x, y.baseDtype(), "x"));
    return py::genOp(b, type, {xT, y}, {}, scope.name());
}

/// math_ops.cast(x, float32) for the labels and predictions of a loss.
Expected<Output> toFloat(GraphBuilder& b, const Output& x)
{
    return py::cast(b, x, tensorflow::DT_FLOAT);
}

/// _num_present(losses, weights): the number of elements of `losses` whose broadcast weight is
/// not 0, in the scope "num_present" (graph mode always builds it: the weights are a tensor by now).
Expected<Output> numPresent(GraphBuilder& b, const Output& losses, const Output& weights)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("num_present"));
    TSTUDIO_AD_TRY(w, py::cast(b, weights, tensorflow::DT_FLOAT));
    TSTUDIO_AD_TRY(isZero, py::genOpScalarY(b, "Equal", w, 0.0));
    TSTUDIO_AD_TRY(zeros, py::zerosLike(b, w));
    TSTUDIO_AD_TRY(ones, py::onesLike(b, w));
    TSTUDIO_AD_TRY(present, py::where(b, isZero, zeros, ones));
    TSTUDIO_AD_TRY(broadcast, lossutil::broadcastWeights(b, present, losses));
    return lossutil::reduceAll(b, "Sum", broadcast, scope.name());
}

/// _num_elements(losses): the element count as the losses' dtype, scope "num_elements".
Expected<Output> numElements(GraphBuilder& b, const Output& losses)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("num_elements"));
    Output size;
    const TensorShape& s = losses.shape();
    if (s.isFullyDefined()) {
        TSTUDIO_AD_TRY(n, s.numElements());
        TSTUDIO_AD_TRY(c, ops::constantInts(b, {n}, TensorShape::scalar(), tensorflow::DT_INT32, scope.name()));
        size = c;
    } else {
        TSTUDIO_AD_TRY(c,
                       py::genOp(b, "Size", {losses}, {{"out_type", attr::type(tensorflow::DT_INT32)}}, scope.name()));
        size = c;
    }
    return py::cast(b, size, losses.baseDtype());
}

/// _safe_mean(loss, count): reduce_sum then div_no_nan named "value".
Expected<Output> safeMean(GraphBuilder& b, const Output& loss, const Output& count)
{
    TSTUDIO_AD_TRY(total, lossutil::reduceAll(b, "Sum", loss));
    return lossutil::divNoNan(b, total, count, "value");
}

} // namespace

Expected<Output> computeWeightedLoss(GraphBuilder& b, const Output& lossesIn, const LossOptions& options)
{
    TSTUDIO_AD_TRY(scope, lossScope(b, options, "weighted_loss"));
    Operation check;
    if (const double* w = std::get_if<double>(&options.weights)) {
        TSTUDIO_AD_TRY(c, lossutil::assertBroadcastableScalar(b, *w, lossesIn));
        check = c;
    } else {
        TSTUDIO_AD_TRY(c, lossutil::assertBroadcastable(b, std::get<Output>(options.weights), lossesIn));
        check = c;
    }
    ScopeGuard deps = b.controlDependencies({check});
    const DataType inputDtype = lossesIn.baseDtype();
    TSTUDIO_AD_TRY(losses, toFloat(b, lossesIn));
    Output weights;
    if (const double* w = std::get_if<double>(&options.weights)) {
        // math_ops.cast of a Python number: the Const "Cast/x" inside the scope "Cast".
        TSTUDIO_AD_TRY(castScope, b.nameScope("Cast"));
        TSTUDIO_AD_TRY(c, py::constant(b, *w, tensorflow::DT_FLOAT, "x"));
        weights = c;
    } else {
        TSTUDIO_AD_TRY(c, toFloat(b, std::get<Output>(options.weights)));
        weights = c;
    }
    TSTUDIO_AD_TRY(weighted, py::genOp(b, "Mul", {losses, weights}));
    Output loss = weighted;
    if (options.reduction != Reduction::kNone) {
        TSTUDIO_AD_TRY(sum, lossutil::reduceAll(b, "Sum", weighted));
        loss = sum;
        switch (options.reduction) {
        case Reduction::kMean: {
            TSTUDIO_AD_TRY(ones, py::onesLike(b, losses));
            TSTUDIO_AD_TRY(broadcast, py::binary(b, Operator::kMul, ones, weights));
            TSTUDIO_AD_TRY(weightSum, lossutil::reduceAll(b, "Sum", broadcast));
            TSTUDIO_AD_TRY(mean, safeMean(b, loss, weightSum));
            loss = mean;
            break;
        }
        case Reduction::kSumByNonzeroWeights: {
            TSTUDIO_AD_TRY(count, numPresent(b, losses, weights));
            TSTUDIO_AD_TRY(mean, safeMean(b, loss, count));
            loss = mean;
            break;
        }
        case Reduction::kSumOverBatchSize: {
            TSTUDIO_AD_TRY(count, numElements(b, losses));
            TSTUDIO_AD_TRY(mean, safeMean(b, loss, count));
            loss = mean;
            break;
        }
        default: break;
        }
    }
    TSTUDIO_AD_TRY(result, py::cast(b, loss, inputDtype));
    if (!options.lossCollection.empty())
        b.collections().add(options.lossCollection, result);
    return result;
}

Expected<Output> meanSquaredError(GraphBuilder& b, const Output& labels, const Output& predictions,
                                  const LossOptions& options)
{
    TSTUDIO_AD_TRY(scope, lossScope(b, options, "mean_squared_error"));
    TSTUDIO_AD_TRY(p, toFloat(b, predictions));
    TSTUDIO_AD_TRY(l, toFloat(b, labels));
    TSTUDIO_AD_CHECK(lossutil::assertCompatible(p.shape(), l.shape()));
    TSTUDIO_AD_TRY(losses, py::genOp(b, "SquaredDifference", {p, l}));
    return computeWeightedLoss(b, losses, inScope(options, scope));
}

Expected<Output> absoluteDifference(GraphBuilder& b, const Output& labels, const Output& predictions,
                                    const LossOptions& options)
{
    TSTUDIO_AD_TRY(scope, lossScope(b, options, "absolute_difference"));
    TSTUDIO_AD_TRY(p, toFloat(b, predictions));
    TSTUDIO_AD_TRY(l, toFloat(b, labels));
    TSTUDIO_AD_CHECK(lossutil::assertCompatible(p.shape(), l.shape()));
    TSTUDIO_AD_TRY(diff, py::genOp(b, "Sub", {p, l}));
    TSTUDIO_AD_TRY(losses, py::genOp(b, "Abs", {diff}));
    return computeWeightedLoss(b, losses, inScope(options, scope));
}

Expected<Output> huberLoss(GraphBuilder& b, const Output& labels, const Output& predictions, double delta,
                           const LossOptions& options)
{
    TSTUDIO_AD_TRY(scope, lossScope(b, options, "huber_loss"));
    TSTUDIO_AD_TRY(p, toFloat(b, predictions));
    TSTUDIO_AD_TRY(l, toFloat(b, labels));
    TSTUDIO_AD_CHECK(lossutil::assertCompatible(p.shape(), l.shape()));
    TSTUDIO_AD_TRY(error, py::genOp(b, "Sub", {p, l}));
    TSTUDIO_AD_TRY(absError, py::genOp(b, "Abs", {error}));
    TSTUDIO_AD_TRY(quadratic, py::genOpScalarY(b, "Minimum", absError, delta));
    // |e| - q rather than max(|e| - delta, 0): the same value, but a zero gradient at |e| == delta.
    TSTUDIO_AD_TRY(linear, py::genOp(b, "Sub", {absError, quadratic}));
    TSTUDIO_AD_TRY(half, py::constant(b, 0.5, quadratic.baseDtype(), "Const"));
    TSTUDIO_AD_TRY(q2, py::genOp(b, "Mul", {quadratic, quadratic}));
    TSTUDIO_AD_TRY(halfQ2, py::genOp(b, "Mul", {half, q2}));
    TSTUDIO_AD_TRY(deltaLinear, genOpScalarX(b, "Mul", delta, linear));
    TSTUDIO_AD_TRY(losses, py::genOp(b, "Add", {halfQ2, deltaLinear}));
    return computeWeightedLoss(b, losses, inScope(options, scope));
}

Expected<Output> hingeLoss(GraphBuilder& b, const Output& labels, const Output& logits, const LossOptions& options)
{
    TSTUDIO_AD_TRY(scope, lossScope(b, options, "hinge_loss"));
    TSTUDIO_AD_TRY(x, toFloat(b, logits));
    TSTUDIO_AD_TRY(y, toFloat(b, labels));
    TSTUDIO_AD_CHECK(lossutil::assertCompatible(x.shape(), y.shape()));
    // Labels in {0, 1} become {-1, 1}.
    TSTUDIO_AD_TRY(allOnes, py::onesLike(b, y));
    TSTUDIO_AD_TRY(twoY, py::binary(b, Operator::kMul, 2.0, y));
    TSTUDIO_AD_TRY(signedY, py::genOp(b, "Sub", {twoY, allOnes}));
    TSTUDIO_AD_TRY(margin, py::genOp(b, "Mul", {signedY, x}));
    TSTUDIO_AD_TRY(slack, py::genOp(b, "Sub", {allOnes, margin}));
    TSTUDIO_AD_TRY(losses, py::genOp(b, "Relu", {slack}));
    return computeWeightedLoss(b, losses, inScope(options, scope));
}

Expected<Output> logLoss(GraphBuilder& b, const Output& labels, const Output& predictions, double epsilon,
                         const LossOptions& options)
{
    TSTUDIO_AD_TRY(scope, lossScope(b, options, "log_loss"));
    TSTUDIO_AD_TRY(p, toFloat(b, predictions));
    TSTUDIO_AD_TRY(y, toFloat(b, labels));
    TSTUDIO_AD_CHECK(lossutil::assertCompatible(p.shape(), y.shape()));
    TSTUDIO_AD_TRY(pEps, py::binary(b, Operator::kAdd, p, epsilon));
    TSTUDIO_AD_TRY(logP, py::genOp(b, "Log", {pEps}));
    TSTUDIO_AD_TRY(posTerm, py::genOp(b, "Mul", {y, logP}));
    TSTUDIO_AD_TRY(negPosTerm, py::neg(b, posTerm));
    TSTUDIO_AD_TRY(oneMinusY, py::binary(b, Operator::kSub, 1.0, y));
    TSTUDIO_AD_TRY(oneMinusP, py::binary(b, Operator::kSub, 1.0, p));
    TSTUDIO_AD_TRY(oneMinusPEps, py::binary(b, Operator::kAdd, oneMinusP, epsilon));
    TSTUDIO_AD_TRY(logOneMinusP, py::genOp(b, "Log", {oneMinusPEps}));
    TSTUDIO_AD_TRY(negTerm, py::genOp(b, "Mul", {oneMinusY, logOneMinusP}));
    TSTUDIO_AD_TRY(losses, py::binary(b, Operator::kSub, negPosTerm, negTerm));
    return computeWeightedLoss(b, losses, inScope(options, scope));
}

Expected<Output> sigmoidCrossEntropy(GraphBuilder& b, const Output& multiClassLabels, const Output& logits,
                                     double labelSmoothing, const LossOptions& options)
{
    TSTUDIO_AD_TRY(scope, lossScope(b, options, "sigmoid_cross_entropy_loss"));
    TSTUDIO_AD_TRY(labels, py::cast(b, multiClassLabels, logits.baseDtype()));
    TSTUDIO_AD_CHECK(lossutil::assertCompatible(logits.shape(), labels.shape()));
    Output y = labels;
    if (labelSmoothing > 0) {
        TSTUDIO_AD_TRY(scaled, py::binary(b, Operator::kMul, labels, 1.0 - labelSmoothing));
        TSTUDIO_AD_TRY(smoothed, py::binary(b, Operator::kAdd, scaled, 0.5 * labelSmoothing));
        y = smoothed;
    }
    TSTUDIO_AD_TRY(losses, nn::sigmoidCrossEntropyWithLogits(b, y, logits, "xentropy"));
    return computeWeightedLoss(b, losses, inScope(options, scope));
}

Expected<Output> softmaxCrossEntropy(GraphBuilder& b, const Output& onehotLabels, const Output& logits,
                                     double labelSmoothing, const LossOptions& options)
{
    TSTUDIO_AD_TRY(scope, lossScope(b, options, "softmax_cross_entropy_loss"));
    TSTUDIO_AD_TRY(labels, py::cast(b, onehotLabels, logits.baseDtype()));
    TSTUDIO_AD_CHECK(lossutil::assertCompatible(logits.shape(), labels.shape()));
    Output y = labels;
    if (labelSmoothing > 0) {
        // num_classes = cast(shape(labels)[-1]); labels * (1 - s) + s / num_classes
        TSTUDIO_AD_TRY(shape, py::shape(b, labels));
        Output last;
        {
            TSTUDIO_AD_TRY(ss, b.nameScope("strided_slice"));
            TSTUDIO_AD_TRY(begin, py::intVector(b, {-1}, "stack"));
            TSTUDIO_AD_TRY(end, py::intVector(b, {0}, "stack_1"));
            TSTUDIO_AD_TRY(strides, py::intVector(b, {1}, "stack_2"));
            TSTUDIO_AD_TRY(s, py::genOp(b, "StridedSlice", {shape, begin, end, strides},
                                        {{"shrink_axis_mask", attr::i(1)}}, ss.name()));
            last = s;
        }
        TSTUDIO_AD_TRY(numClasses, py::cast(b, last, logits.baseDtype()));
        TSTUDIO_AD_TRY(negatives, py::binary(b, Operator::kTrueDiv, labelSmoothing, numClasses));
        TSTUDIO_AD_TRY(scaled, py::binary(b, Operator::kMul, labels, 1.0 - labelSmoothing));
        TSTUDIO_AD_TRY(smoothed, py::binary(b, Operator::kAdd, scaled, negatives));
        y = smoothed;
    }
    TSTUDIO_AD_TRY(stopped, py::genOp(b, "StopGradient", {y}, {}, "labels_stop_gradient"));
    TSTUDIO_AD_TRY(losses, nn::softmaxCrossEntropyWithLogitsV2(b, stopped, logits, -1, "xentropy"));
    return computeWeightedLoss(b, losses, inScope(options, scope));
}

Expected<Output> sparseSoftmaxCrossEntropy(GraphBuilder& b, const Output& labelsIn, const Output& logitsIn,
                                           const LossOptions& options)
{
    TSTUDIO_AD_TRY(scope, lossScope(b, options, "sparse_softmax_cross_entropy_loss"));
    Output labels = labelsIn;
    Output logits = logitsIn;
    TSTUDIO_AD_CHECK(lossutil::removeSqueezableDimensions(b, labels, logits, 1));
    // losses_impl._remove_squeezable_dimensions converts the weights to a tensor here.
    Output weights;
    if (const double* w = std::get_if<double>(&options.weights)) {
        TSTUDIO_AD_TRY(c, py::constant(b, *w, tensorflow::DT_FLOAT, "Const"));
        weights = c;
    } else {
        weights = std::get<Output>(options.weights);
    }
    if (!labels.shape().isUnknownRank() && !weights.shape().isUnknownRank()) {
        if (weights.shape().rank() - labels.shape().rank() == 1) {
            TSTUDIO_AD_TRY(sq, lossutil::squeeze(b, weights, -1));
            weights = sq;
        }
    } else {
        return unexpected(unimplementedError("sparse_softmax_cross_entropy: the ranks of labels and weights must be "
                                             "known while building (TensorFlow decides at run time with tf.cond)"));
    }
    TSTUDIO_AD_TRY(losses, nn::sparseSoftmaxCrossEntropyWithLogits(b, labels, logits, "xentropy"));
    LossOptions o = inScope(options, scope);
    o.weights = weights;
    return computeWeightedLoss(b, losses, o);
}

std::vector<Output> getLosses(const GraphBuilder& b, std::string_view scope, std::string_view lossCollection)
{
    std::vector<Output> out;
    for (const CollectionItem& item : b.collections().get(lossCollection, scope)) {
        if (const auto* t = std::get_if<Output>(&item))
            out.push_back(*t);
    }
    return out;
}

std::vector<Output> getRegularizationLosses(const GraphBuilder& b, std::string_view scope)
{
    return getLosses(b, scope, graph_keys::kRegularizationLosses);
}

namespace {

/// math_ops.add_n(inputs, name): an Identity named `name` for one input, else AddN.
Expected<Output> addN(GraphBuilder& b, const std::vector<Output>& inputs, std::string_view name)
{
    if (inputs.empty())
        return unexpected(invalidArgumentError(
            "inputs must be a list of at least one Tensor/IndexedSlices with the same dtype and shape"));
    if (inputs.size() == 1)
        return py::genOp(b, "Identity", {inputs.front()}, {}, name);
    return py::genOp(b, "AddN", {inputs}, {}, name);
}

} // namespace

Expected<Output> getRegularizationLoss(GraphBuilder& b, std::string_view scope, std::string_view name)
{
    const std::vector<Output> losses = getRegularizationLosses(b, scope);
    if (losses.empty())
        return py::constant(b, 0.0, tensorflow::DT_FLOAT, "Const");
    return addN(b, losses, name);
}

Expected<Output> getTotalLoss(GraphBuilder& b, bool addRegularizationLosses, std::string_view name,
                              std::string_view scope)
{
    std::vector<Output> losses = getLosses(b, scope);
    if (addRegularizationLosses) {
        for (const Output& r : getRegularizationLosses(b, scope))
            losses.push_back(r);
    }
    return addN(b, losses, name);
}

} // namespace tstudio::losses
