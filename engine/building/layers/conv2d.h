// tf.layers.conv2d: a 2-D convolution layer built as TensorFlow 1.15 builds it (keras Conv2D via tf.layers).
#pragma once

#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/variable_scope.h"
#include "core/expected.h"
#include "layers/activation.h"
#include "losses/regularizers.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace tstudio::layers {

/// The arguments of tf.layers.conv2d, with TensorFlow's defaults (filters and kernelSize must be set).
struct Conv2DOptions {
    std::int64_t filters = 0;
    std::array<std::int64_t, 2> kernelSize{0, 0};
    std::array<std::int64_t, 2> strides{1, 1};
    std::string padding = "valid";            ///< "valid" or "same", any case
    std::string dataFormat = "channels_last"; ///< or "channels_first" (NCHW)
    std::array<std::int64_t, 2> dilationRate{1, 1};
    Activation activation = Activation::kNone;
    bool useBias = true;
    /// nullopt: the variable scope's initializer, else glorot_uniform (fans of a conv kernel).
    std::optional<Initializer> kernelInitializer;
    Initializer biasInitializer = Initializer::zeros();
    Regularizer kernelRegularizer;
    Regularizer biasRegularizer;
    bool trainable = true;
    std::string name; ///< empty: "conv2d", "conv2d_1", ...
    Reuse reuse = Reuse::kFalse;
};

/// tf.layers.conv2d(inputs, filters, kernel_size, ...): variables "<scope>/kernel"
/// [kh, kw, in_channels, filters] and "<scope>/bias" [filters]; ops "conv2d/Conv2D" (strides
/// [1, sh, sw, 1], or [1, 1, sh, sw] for channels_first, padding "VALID"/"SAME", data_format
/// "NHWC"/"NCHW"), "conv2d/BiasAdd" (same data_format) and the activation. Returns the output.
/// Errors (InvalidArgument unless said): "Input 0 of layer conv2d is incompatible with the layer:
/// expected ndim=4, found ndim=3. Full shape received: [...]", "The channel dimension of the inputs
/// should be defined. Found `None`.", bad padding / data_format (conv_utils.h), non-positive
/// filters / kernel_size / strides; Unimplemented for dilation_rate other than (1, 1): TensorFlow
/// 1.15 builds that through SpaceToBatchND / BatchToSpaceND, which TensorStudio does not have.
Expected<Output> conv2d(GraphBuilder& b, const Output& inputs, const Conv2DOptions& options);

} // namespace tstudio::layers
