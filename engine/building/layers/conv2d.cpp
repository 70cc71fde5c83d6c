// tf.layers.conv2d: Conv2D + BiasAdd and the activation, with TensorFlow 1.15's variables and node names.
#include "layers/conv2d.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "layers/conv_utils.h"
#include "layers/layer_scope.h"

namespace tstudio::layers {

Expected<Output> conv2d(GraphBuilder& b, const Output& inputs, const Conv2DOptions& options)
{
    TSTUDIO_AD_TRY(layer, LayerScope::enter(b, "conv2d", options.name, options.reuse));
    TSTUDIO_AD_TRY(padding, normalizePadding(options.padding));
    TSTUDIO_AD_TRY(format, normalizeDataFormat(options.dataFormat));
    if (options.filters <= 0)
        return unexpected(invalidArgumentError("conv2d: `filters` must be a positive integer, got " +
                                               std::to_string(options.filters)));
    TSTUDIO_AD_CHECK(checkPositivePair(options.kernelSize, "kernel_size"));
    TSTUDIO_AD_CHECK(checkPositivePair(options.strides, "strides"));
    TSTUDIO_AD_CHECK(checkPositivePair(options.dilationRate, "dilation_rate"));
    if (options.dilationRate[0] != 1 || options.dilationRate[1] != 1) {
        return unexpected(unimplementedError(
            "conv2d with dilation_rate (" + std::to_string(options.dilationRate[0]) + ", " +
            std::to_string(options.dilationRate[1]) +
            "): TensorFlow 1.15 builds dilated convolutions with SpaceToBatchND and BatchToSpaceND, which "
            "TensorStudio does not support yet"));
    }
    TSTUDIO_AD_CHECK(checkInputNdim(layer.layerName(), inputs, 4));
    const int channelAxis = format == "NCHW" ? 1 : 3;
    const std::int64_t inputDim = inputs.shape().dim(channelAxis);
    if (inputDim < 0)
        return unexpected(invalidArgumentError("The channel dimension of the inputs should be defined. Found `None`."));
    const DataType dtype = inputs.baseDtype();

    TSTUDIO_AD_TRY(kernel,
                   addWeight(b, "kernel",
                             TensorShape{options.kernelSize[0], options.kernelSize[1], inputDim, options.filters},
                             dtype, options.kernelInitializer, options.kernelRegularizer, options.trainable));
    Variable bias;
    if (options.useBias) {
        TSTUDIO_AD_TRY(created, addWeight(b, "bias", TensorShape{options.filters}, dtype, options.biasInitializer,
                                          options.biasRegularizer, options.trainable));
        bias = created;
    }

    const auto strides = windowAttr(options.strides, format);
    AttrMap attrs = {{"strides", attr::ints({strides.begin(), strides.end()})},
                     {"padding", attr::s(padding)},
                     {"data_format", attr::s(format)}};
    TSTUDIO_AD_TRY(outputs, ops::firstOutput(b.op("Conv2D", {inputs, kernel.value()}, std::move(attrs), "Conv2D")));
    Output result = outputs;
    if (options.useBias) {
        TSTUDIO_AD_TRY(biased, ops::firstOutput(b.op("BiasAdd", {result, bias.value()},
                                                     {{"data_format", attr::s(format)}}, "BiasAdd")));
        result = biased;
    }
    return applyActivation(b, result, options.activation);
}

} // namespace tstudio::layers
