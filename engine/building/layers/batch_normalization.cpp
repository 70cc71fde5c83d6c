// tf.layers.batch_normalization of TensorFlow 1.15: fused (FusedBatchNormV3) or moments-based, with
// the moving-average updates in UPDATE_OPS.
#include "layers/batch_normalization.h"

#include "builder/python_ops.h"
#include "builder/cond.h"
#include "builder/ops_sugar.h"
#include "layers/layer_scope.h"

#include <algorithm>
#include <numeric>
#include <set>

namespace tstudio::layers {

namespace {

std::string intList(const std::vector<int>& values)
{
    std::string text = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        text += (i ? ", " : "") + std::to_string(values[i]);
    return text + "]";
}

/// The layer's _assign_moving_average: under "AssignMovingAvg" colocated with the variable,
/// moving -= (moving - value) * decay. `momentum` is a tensor (fused path: decay = 1 - momentum,
/// "sub/x" and "sub") or, when invalid, the Python number `momentumValue` (decay Const "decay").
Expected<Operation> assignMovingAverage(GraphBuilder& b, const Variable& variable, const Output& value,
                                        const Output& momentum, double momentumValue)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("AssignMovingAvg"));
    TSTUDIO_AD_TRY(variableOp, b.operation(variable.name()));
    ScopeGuard colocation = b.colocateWith(variableOp);
    Output decay;
    if (momentum.isValid()) {
        TSTUDIO_AD_TRY(d, py::binary(b, py::Operator::kSub, 1.0, momentum));
        decay = d;
    } else {
        TSTUDIO_AD_TRY(d, ops::constant(b, 1.0 - momentumValue, tensorflow::DT_FLOAT, "decay"));
        decay = d;
    }
    TSTUDIO_AD_TRY(castDecay, py::cast(b, decay, variable.dtype()));
    TSTUDIO_AD_TRY(castValue, py::cast(b, value, variable.dtype()));
    TSTUDIO_AD_TRY(delta, py::binary(b, py::Operator::kSub, variable.value(), castValue));
    TSTUDIO_AD_TRY(scaled, py::binary(b, py::Operator::kMul, delta, castDecay));
    return b.op("AssignSub", {variable.ref(), scaled}, {{"use_locking", attr::b(false)}}, scope.name());
}

struct Params {
    Variable gamma, beta, movingMean, movingVariance;
    Output gammaValue, betaValue; ///< the variables' values, or the fused path's Consts (or invalid)
};

/// The moments path's normalisation: "batchnorm/..." of nn.batch_normalization.
Expected<Output> batchnorm(GraphBuilder& b, const Output& x, const Output& mean, const Output& variance,
                           const Output& offset, const Output& scale, double epsilon)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("batchnorm"));
    TSTUDIO_AD_TRY(shifted, py::binary(b, py::Operator::kAdd, variance, epsilon));
    TSTUDIO_AD_TRY(rsqrt, py::genOp(b, "Rsqrt", {shifted}));
    Output inv = rsqrt;
    if (scale.isValid()) {
        TSTUDIO_AD_TRY(scaled, py::binary(b, py::Operator::kMul, inv, scale));
        inv = scaled;
    }
    TSTUDIO_AD_TRY(castInv, py::cast(b, inv, x.baseDtype()));
    TSTUDIO_AD_TRY(xs, py::binary(b, py::Operator::kMul, x, castInv));
    Output shift;
    if (offset.isValid()) {
        TSTUDIO_AD_TRY(meanInv, py::binary(b, py::Operator::kMul, mean, inv));
        TSTUDIO_AD_TRY(sub, py::binary(b, py::Operator::kSub, offset, meanInv));
        shift = sub;
    } else {
        TSTUDIO_AD_TRY(negMean, py::neg(b, mean));
        TSTUDIO_AD_TRY(prod, py::binary(b, py::Operator::kMul, negMean, inv));
        shift = prod;
    }
    TSTUDIO_AD_TRY(castShift, py::cast(b, shift, x.baseDtype()));
    return py::binary(b, py::Operator::kAdd, xs, castShift);
}

void addUpdate(GraphBuilder& b, const Operation& update)
{
    for (const CollectionItem& item : b.collections().get(graph_keys::kUpdateOps))
        if (collectionItemName(item) == update.name())
            return;
    b.collections().add(graph_keys::kUpdateOps, update);
}

/// One tensor in a vector, as a cond branch returns it.
Expected<std::vector<Output>> single(Expected<Output> t)
{
    if (!t)
        return unexpected(t.error());
    return std::vector<Output>{*t};
}

/// The fused path (nn.fused_batch_norm, FusedBatchNormV3) once the variables exist: in training
/// (batch statistics, empty Consts for mean and variance) or inference (the moving statistics), or
/// both under a cond on `trainingTensor`; the moving statistics' updates go to UPDATE_OPS.
Expected<Output> buildFused(GraphBuilder& b, const Output& inputs, const BatchNormalizationOptions& options,
                            const std::string& dataFormat, const Params& p, const Variable& movingMean,
                            const Variable& movingVariance, bool training, const Output* trainingTensor)
{
    // nn.fused_batch_norm in training (batch statistics; empty Consts for mean and variance) or
    // inference (the moving statistics): outputs y, batch mean, batch variance.
    auto fusedBatchNorm = [&](GraphBuilder& g, bool isTraining) -> Expected<std::vector<Output>> {
        Output mean = movingMean.value();
        Output variance = movingVariance.value();
        if (isTraining) {
            TSTUDIO_AD_TRY(emptyMean,
                           ops::constant(g, std::vector<double>{}, TensorShape{0}, tensorflow::DT_FLOAT, "Const"));
            TSTUDIO_AD_TRY(emptyVar,
                           ops::constant(g, std::vector<double>{}, TensorShape{0}, tensorflow::DT_FLOAT, "Const"));
            mean = emptyMean;
            variance = emptyVar;
        }
        AttrMap attrs = {{"epsilon", attr::f(static_cast<float>(std::max(options.epsilon, 1.001e-5)))},
                         {"data_format", attr::s(dataFormat)},
                         {"is_training", attr::b(isTraining)}};
        TSTUDIO_AD_TRY(bn, g.op("FusedBatchNormV3", {inputs, p.gammaValue, p.betaValue, mean, variance},
                                std::move(attrs), "FusedBatchNormV3"));
        return std::vector<Output>{bn.output(0), bn.output(1), bn.output(2)};
    };
    std::vector<Output> results;
    Output momentum;
    if (trainingTensor) {
        // smart_cond of the training and inference ops ("cond"), then of the momentum ("cond_1"):
        // 1.0 when not training, so the updates below leave the moving statistics as they are.
        TSTUDIO_AD_TRY(merged, cond(
                                   b, *trainingTensor, [&](GraphBuilder& g) { return fusedBatchNorm(g, true); },
                                   [&](GraphBuilder& g) { return fusedBatchNorm(g, false); }));
        results = merged;
        TSTUDIO_AD_TRY(
            chosen,
            cond(
                b, *trainingTensor,
                [&](GraphBuilder& g) { return single(ops::constant(g, options.momentum, tensorflow::DT_FLOAT)); },
                [&](GraphBuilder& g) { return single(ops::constant(g, 1.0, tensorflow::DT_FLOAT)); }));
        momentum = chosen.front();
    } else {
        TSTUDIO_AD_TRY(direct, fusedBatchNorm(b, training));
        results = direct;
        TSTUDIO_AD_TRY(m, ops::constant(b, options.momentum, tensorflow::DT_FLOAT, "Const"));
        momentum = m;
    }
    if (trainingTensor || training) {
        TSTUDIO_AD_TRY(meanUpdate, assignMovingAverage(b, movingMean, results[1], momentum, 0.0));
        TSTUDIO_AD_TRY(varianceUpdate, assignMovingAverage(b, movingVariance, results[2], momentum, 0.0));
        addUpdate(b, meanUpdate);
        addUpdate(b, varianceUpdate);
    }
    return results[0];
}

/// The layer with `training` a Python bool, or (`trainingTensor` not null) a bool tensor whose
/// value is not known while building.
Expected<Output> buildLayer(GraphBuilder& b, const Output& inputs, const BatchNormalizationOptions& options,
                            bool training, const Output* trainingTensor)
{
    TSTUDIO_AD_TRY(layer, LayerScope::enter(b, "batch_normalization", options.name, options.reuse));
    const TensorShape& inputShape = inputs.shape();
    if (inputShape.isUnknownRank() || inputShape.rank() == 0)
        return unexpected(invalidArgumentError("Input has undefined rank: " + pythonShapeList(inputShape)));
    const int ndims = inputShape.rank();

    std::vector<int> axes = options.axis;
    if (axes.empty())
        return unexpected(invalidArgumentError("Invalid axis: [] (batch normalization needs at least one axis)"));
    for (int& axis : axes)
        if (axis < 0)
            axis += ndims;
    for (int axis : axes)
        if (axis < 0 || axis >= ndims)
            return unexpected(invalidArgumentError("Invalid axis: " + std::to_string(axis)));
    if (std::set<int>(axes.begin(), axes.end()).size() != axes.size())
        return unexpected(invalidArgumentError("Duplicate axis: " + intList(axes)));

    const DataType dtype = inputs.baseDtype();
    const bool lowPrecision = dtype == tensorflow::DT_HALF || dtype == tensorflow::DT_BFLOAT16;
    const DataType paramDtype = lowPrecision ? tensorflow::DT_FLOAT : dtype;
    const bool fused = options.fused.value_or(true) && ndims == 4 && axes.size() == 1 &&
                       (axes[0] == 1 || axes[0] == 3) && (lowPrecision || dtype == tensorflow::DT_FLOAT);
    const std::string dataFormat = fused && axes[0] == 1 ? "NCHW" : "NHWC";

    for (int axis : axes)
        if (inputShape.dim(axis) < 0)
            return unexpected(invalidArgumentError("Input has undefined `axis` dimension. Input shape: " +
                                                   pythonShapeList(inputShape)));
    TensorShape paramShape;
    if (axes.size() == 1) {
        paramShape = TensorShape{inputShape.dim(axes[0])};
    } else {
        std::vector<std::int64_t> dims(static_cast<std::size_t>(ndims), 1);
        for (int axis : axes)
            dims[static_cast<std::size_t>(axis)] = inputShape.dim(axis);
        paramShape = TensorShape(dims);
    }

    // build(): the variables in TensorFlow's order, and the fused path's stand-ins for gamma / beta.
    Params p;
    if (options.scale) {
        TSTUDIO_AD_TRY(gamma, addWeight(b, "gamma", paramShape, paramDtype, options.gammaInitializer,
                                        options.gammaRegularizer, options.trainable));
        p.gamma = gamma;
        p.gammaValue = gamma.value();
    } else if (fused) {
        TSTUDIO_AD_TRY(ones, ops::constant(b, std::vector<double>{1.0}, paramShape, paramDtype, "Const"));
        p.gammaValue = ones;
    }
    if (options.center) {
        TSTUDIO_AD_TRY(beta, addWeight(b, "beta", paramShape, paramDtype, options.betaInitializer,
                                       options.betaRegularizer, options.trainable));
        p.beta = beta;
        p.betaValue = beta.value();
    } else if (fused) {
        TSTUDIO_AD_TRY(zeros, ops::constant(b, std::vector<double>{0.0}, paramShape, paramDtype, "Const"));
        p.betaValue = zeros;
    }
    TSTUDIO_AD_TRY(movingMean, addWeight(b, "moving_mean", paramShape, paramDtype, options.movingMeanInitializer,
                                         Regularizer(), false));
    TSTUDIO_AD_TRY(movingVariance, addWeight(b, "moving_variance", paramShape, paramDtype,
                                             options.movingVarianceInitializer, Regularizer(), false));

    if (fused)
        return buildFused(b, inputs, options, dataFormat, p, movingMean, movingVariance, training, trainingTensor);

    std::vector<int> reductionAxes;
    for (int i = 0; i < ndims; ++i)
        if (std::find(axes.begin(), axes.end(), i) == axes.end())
            reductionAxes.push_back(i);
    std::vector<int> allButLast(static_cast<std::size_t>(ndims - 1));
    std::iota(allButLast.begin(), allButLast.end(), 0);
    std::vector<std::int64_t> broadcastShape(static_cast<std::size_t>(ndims), 1);
    broadcastShape[static_cast<std::size_t>(axes[0])] = inputShape.dim(axes[0]);
    auto broadcast = [&](const Output& v) -> Expected<Output> {
        if (!v.isValid() || v.shape().rank() == ndims || reductionAxes == allButLast)
            return v;
        return py::reshape(b, v, broadcastShape);
    };
    TSTUDIO_AD_TRY(scale, broadcast(p.gammaValue));
    TSTUDIO_AD_TRY(offset, broadcast(p.betaValue));

    Output mean = movingMean.value();
    Output variance = movingVariance.value();
    if (training || trainingTensor) {
        TSTUDIO_AD_TRY(x, py::cast(b, inputs, paramDtype));
        const bool keepDims = axes.size() > 1;
        std::vector<std::int64_t> reduction(reductionAxes.begin(), reductionAxes.end());
        TSTUDIO_AD_TRY(moments, b.nameScope("moments"));
        auto reduceMean = [&](const Output& t, std::string_view name) -> Expected<Output> {
            auto scope = b.nameScope(name);
            if (!scope)
                return unexpected(scope.error());
            auto indices = ops::constantInts(b, reduction, TensorShape{static_cast<std::int64_t>(reduction.size())},
                                             tensorflow::DT_INT32, "reduction_indices");
            if (!indices)
                return indices;
            return ops::firstOutput(b.op("Mean", {t, *indices}, {{"keep_dims", attr::b(true)}}, scope->name()));
        };
        TSTUDIO_AD_TRY(batchMean, reduceMean(x, "mean"));
        TSTUDIO_AD_TRY(stopped, py::genOp(b, "StopGradient", {batchMean}));
        TSTUDIO_AD_TRY(squared, py::genOp(b, "SquaredDifference", {x, stopped}));
        TSTUDIO_AD_TRY(batchVariance, reduceMean(squared, "variance"));
        mean = batchMean;
        variance = batchVariance;
        if (!keepDims) {
            AttrMap squeeze = {{"squeeze_dims", attr::ints(reduction)}};
            TSTUDIO_AD_TRY(m, ops::firstOutput(b.op("Squeeze", {batchMean}, squeeze, "Squeeze")));
            TSTUDIO_AD_TRY(v, ops::firstOutput(b.op("Squeeze", {batchVariance}, squeeze, "Squeeze")));
            mean = m;
            variance = v;
        }
        moments.close();
        if (trainingTensor) {
            // smart_cond(training, batch statistic, moving statistic) for each ("cond", "cond_1"), and
            // each update as smart_cond(training, assign, moving value) ("cond_2", "cond_3"), whose
            // Merge is the UPDATE_OPS entry.
            const Output batchMean = mean;
            const Output batchVariance = variance;
            auto choose = [&](const Output& batch, const Variable& moving) {
                return cond(
                    b, *trainingTensor, [&](GraphBuilder&) { return single(batch); },
                    [&](GraphBuilder&) { return single(moving.value()); });
            };
            TSTUDIO_AD_TRY(chosenMean, choose(batchMean, movingMean));
            TSTUDIO_AD_TRY(chosenVariance, choose(batchVariance, movingVariance));
            mean = chosenMean.front();
            variance = chosenVariance.front();
            auto update = [&](const Variable& moving, const Output& value) -> Expected<Operation> {
                TSTUDIO_AD_TRY(merged, cond(
                                           b, *trainingTensor,
                                           [&](GraphBuilder& g) -> Expected<std::vector<Output>> {
                                               TSTUDIO_AD_TRY(assign, assignMovingAverage(g, moving, value, Output(),
                                                                                          options.momentum));
                                               return std::vector<Output>{assign.output(0)};
                                           },
                                           [&](GraphBuilder&) { return single(moving.value()); }));
                return b.operation(merged.front().node());
            };
            TSTUDIO_AD_TRY(meanUpdate, update(movingMean, mean));
            TSTUDIO_AD_TRY(varianceUpdate, update(movingVariance, variance));
            addUpdate(b, meanUpdate);
            addUpdate(b, varianceUpdate);
        } else {
            TSTUDIO_AD_TRY(meanUpdate, assignMovingAverage(b, movingMean, mean, Output(), options.momentum));
            TSTUDIO_AD_TRY(varianceUpdate,
                           assignMovingAverage(b, movingVariance, variance, Output(), options.momentum));
            addUpdate(b, meanUpdate);
            addUpdate(b, varianceUpdate);
        }
    }
    TSTUDIO_AD_TRY(castMean, py::cast(b, mean, dtype));
    TSTUDIO_AD_TRY(castVariance, py::cast(b, variance, dtype));
    Output castOffset = offset;
    Output castScale = scale;
    if (offset.isValid()) {
        TSTUDIO_AD_TRY(o, py::cast(b, offset, dtype));
        castOffset = o;
    }
    if (scale.isValid()) {
        TSTUDIO_AD_TRY(s, py::cast(b, scale, dtype));
        castScale = s;
    }
    TSTUDIO_AD_TRY(meanB, broadcast(castMean));
    TSTUDIO_AD_TRY(varianceB, broadcast(castVariance));
    return batchnorm(b, inputs, meanB, varianceB, castOffset, castScale, options.epsilon);
}

} // namespace

Expected<Output> batchNormalization(GraphBuilder& b, const Output& inputs, const BatchNormalizationOptions& options,
                                    bool training)
{
    return buildLayer(b, inputs, options, training, nullptr);
}

Expected<Output> batchNormalization(GraphBuilder& b, const Output& inputs, const BatchNormalizationOptions& options,
                                    const Output& training)
{
    if (!training.isValid() || training.baseDtype() != tensorflow::DT_BOOL) {
        return unexpected(invalidArgumentError("tf.layers.batch_normalization: `training` must be a bool tensor, got " +
                                               (training.isValid() ? dataTypeName(training.baseDtype()) : "none")));
    }
    // tf_utils.constant_value(training): a known value builds the layer as the Python bool does.
    if (const Tensor* known = b.constantValue(training); known != nullptr && known->shape().rank() == 0)
        return buildLayer(b, inputs, options, known->values<bool>()[0], nullptr);
    return buildLayer(b, inputs, options, false, &training);
}

} // namespace tstudio::layers
