// tf.layers.dropout: Identity, nn.dropout's GreaterEqual mask, or (training tensor) tf.cond of both.
#include "layers/dropout.h"

#include "builder/python_ops.h"
#include "builder/cond.h"
#include "builder/ops_sugar.h"
#include "layers/layer_scope.h"

#include <cstdio>

namespace tstudio::layers {

namespace {

/// keras Dropout._get_noise_shape: the mask shape as an int32 tensor, in the current scope.
Expected<Output> layerNoiseShape(GraphBuilder& b, const Output& inputs,
                                 const std::vector<std::optional<std::int64_t>>& noiseShape)
{
    if (inputs.shape().rank() >= 0 && static_cast<int>(noiseShape.size()) != inputs.shape().rank()) {
        return unexpected(invalidArgumentError("noise_shape has " + std::to_string(noiseShape.size()) +
                                               " entries but the input has rank " +
                                               std::to_string(inputs.shape().rank())));
    }
    TSTUDIO_AD_TRY(concrete, py::shape(b, inputs));
    std::vector<std::pair<Output, std::int64_t>> elements;
    bool anyTensor = false;
    for (std::size_t i = 0; i < noiseShape.size(); ++i) {
        if (noiseShape[i]) {
            elements.emplace_back(Output(), *noiseShape[i]);
            continue;
        }
        TSTUDIO_AD_TRY(dim, elementAt(b, concrete, static_cast<std::int64_t>(i)));
        elements.emplace_back(dim, 0);
        anyTensor = true;
    }
    if (anyTensor)
        return autopack(b, elements, "packed");
    std::vector<std::int64_t> values;
    for (const auto& element : elements)
        values.push_back(element.second);
    return ops::constantInts(b, values, TensorShape{static_cast<std::int64_t>(values.size())}, tensorflow::DT_INT32,
                             "Const");
}

/// random_ops.random_uniform(shape tensor, dtype, seed) in [0, 1): scope "random_uniform" with
/// "min", "max", "RandomUniform", "sub", "mul" and the Add named after the scope.
Expected<Output> randomUniform(GraphBuilder& b, const Output& shape, DataType dtype, std::optional<std::int64_t> seed)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("random_uniform"));
    TSTUDIO_AD_TRY(minT, ops::constant(b, 0.0, dtype, "min"));
    TSTUDIO_AD_TRY(maxT, ops::constant(b, 1.0, dtype, "max"));
    const RandomSeeds seeds = b.seedsFor(seed);
    AttrMap attrs = {{"seed", attr::i(seeds.seed)}, {"seed2", attr::i(seeds.seed2)}, {"dtype", attr::type(dtype)}};
    TSTUDIO_AD_TRY(rnd, ops::firstOutput(b.op("RandomUniform", {shape}, std::move(attrs))));
    TSTUDIO_AD_TRY(width, ops::sub(b, maxT, minT, "sub"));
    TSTUDIO_AD_TRY(scaled, ops::mul(b, rnd, width, "mul"));
    return ops::add(b, scaled, minT, scope.name());
}

std::string pythonG(double value)
{
    char text[64];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

/// nn.dropout's `rate`: the Const "rate" of a Python number, or the rate tensor; an invalid Output
/// when nothing is dropped (rate 0, or a rate tensor whose value is known to be 0).
Expected<Output> rateTensor(GraphBuilder& b, const DropoutOptions& options, DataType dtype)
{
    if (!options.rateTensor.isValid()) {
        if (!(options.rate >= 0.0 && options.rate < 1.0)) {
            return unexpected(invalidArgumentError("rate must be a scalar tensor or a float in the range [0, 1), got " +
                                                   pythonG(options.rate)));
        }
        if (options.rate == 0.0)
            return Output();
        return ops::constant(b, options.rate, dtype, "rate");
    }
    const Output& rate = options.rateTensor;
    if (rate.baseDtype() != dtype) {
        return unexpected(invalidArgumentError("Tensor conversion requested dtype " + dataTypeName(dtype) +
                                               " for Tensor with dtype " + dataTypeName(rate.baseDtype()) + ": " +
                                               rate.name()));
    }
    if (!rate.shape().isCompatibleWith(TensorShape::scalar())) {
        return unexpected(
            invalidArgumentError("Shapes " + pythonShapeList(rate.shape()) + " and () are incompatible (rate)"));
    }
    // tensor_util.constant_value(rate) == 0: nothing to drop.
    if (const Tensor* known = b.constantValue(rate); known != nullptr && known->numElements() == 1) {
        if ((dtype == tensorflow::DT_FLOAT && known->values<float>()[0] == 0.0f) ||
            (dtype == tensorflow::DT_DOUBLE && known->values<double>()[0] == 0.0))
            return Output();
    }
    return rate;
}

/// The layer's dropped_inputs(): the noise shape (current scope) and nn.dropout under "dropout".
/// Returns `inputs` itself when nothing is dropped, as nn.dropout does.
Expected<Output> droppedInputs(GraphBuilder& b, const Output& inputs, const DropoutOptions& options)
{
    Output noiseShape;
    if (options.noiseShape) {
        TSTUDIO_AD_TRY(shape, layerNoiseShape(b, inputs, *options.noiseShape));
        noiseShape = shape;
    }

    TSTUDIO_AD_TRY(scope, b.nameScope("dropout"));
    const DataType dtype = inputs.baseDtype();
    if (!isFloating(dtype)) {
        return unexpected(
            invalidArgumentError("x has to be a floating point tensor since it's going to be scaled. Got a " +
                                 dataTypeName(dtype) + " tensor instead."));
    }
    TSTUDIO_AD_TRY(rate, rateTensor(b, options, dtype));
    if (!rate.isValid())
        return inputs;
    if (!noiseShape.isValid()) {
        TSTUDIO_AD_TRY(shape, py::shape(b, inputs)); // a Const "Shape" for a fully defined shape
        noiseShape = shape;
    }
    TSTUDIO_AD_TRY(random, randomUniform(b, noiseShape, dtype, options.seed));
    TSTUDIO_AD_TRY(keepProb, py::binary(b, py::Operator::kSub, 1.0, rate));
    TSTUDIO_AD_TRY(scale, py::binary(b, py::Operator::kTrueDiv, 1.0, keepProb));
    TSTUDIO_AD_TRY(keepMask, ops::firstOutput(b.op("GreaterEqual", {random, rate})));
    TSTUDIO_AD_TRY(scaled, py::binary(b, py::Operator::kMul, inputs, scale));
    TSTUDIO_AD_TRY(mask, py::cast(b, keepMask, dtype));
    return py::binary(b, py::Operator::kMul, scaled, mask);
}

} // namespace

Expected<Output> dropout(GraphBuilder& b, const Output& inputs, const DropoutOptions& options, bool training)
{
    TSTUDIO_AD_TRY(layer, LayerScope::enter(b, "dropout", options.name, Reuse::kFalse));
    if (!training)
        return ops::identity(b, inputs, "Identity");
    return droppedInputs(b, inputs, options);
}

Expected<Output> dropout(GraphBuilder& b, const Output& inputs, const DropoutOptions& options, const Output& training)
{
    if (training.baseDtype() != tensorflow::DT_BOOL) {
        return unexpected(invalidArgumentError("tf.layers.dropout: `training` must be a bool tensor, got " +
                                               dataTypeName(training.baseDtype())));
    }
    if (const Tensor* known = b.constantValue(training); known && known->shape().rank() == 0)
        return dropout(b, inputs, options, known->values<bool>()[0]);

    TSTUDIO_AD_TRY(layer, LayerScope::enter(b, "dropout", options.name, Reuse::kFalse));
    auto dropped = [&](GraphBuilder& g) -> Expected<std::vector<Output>> {
        TSTUDIO_AD_TRY(y, droppedInputs(g, inputs, options));
        return std::vector<Output>{y};
    };
    auto passed = [&](GraphBuilder& g) -> Expected<std::vector<Output>> {
        TSTUDIO_AD_TRY(y, ops::identity(g, inputs, "Identity"));
        return std::vector<Output>{y};
    };
    TSTUDIO_AD_TRY(merged, cond(b, training, dropped, passed));
    return merged.front();
}

} // namespace tstudio::layers
