// tf.layers.conv2d_transpose: a transposed 2-D convolution layer built as TensorFlow 1.15 builds it
// (keras Conv2DTranspose via tf.layers, on a machine without a GPU).
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

/// The arguments of tf.layers.conv2d_transpose, with TensorFlow's defaults (filters and kernelSize
/// must be set).
struct Conv2DTransposeOptions {
    std::int64_t filters = 0;
    std::array<std::int64_t, 2> kernelSize{0, 0};
    std::array<std::int64_t, 2> strides{1, 1};
    std::string padding = "valid";            ///< "valid" or "same", any case
    std::string dataFormat = "channels_last"; ///< or "channels_first" (NCHW)
    Activation activation = Activation::kNone;
    bool useBias = true;
    /// nullopt: the variable scope's initializer, else glorot_uniform (fans of the kernel's shape).
    std::optional<Initializer> kernelInitializer;
    Initializer biasInitializer = Initializer::zeros();
    Regularizer kernelRegularizer;
    Regularizer biasRegularizer;
    bool trainable = true;
    std::string name; ///< empty: "conv2d_transpose", "conv2d_transpose_1", ...
    Reuse reuse = Reuse::kFalse;
};

/// The output length of a transposed convolution over `inputLength` (keras
/// conv_utils.deconv_output_length without output padding): input * stride, plus
/// max(kernel - stride, 0) for "VALID". -1 (unknown) stays -1.
std::int64_t deconvOutputLength(std::int64_t inputLength, std::int64_t kernel, std::int64_t stride,
                                std::string_view padding);

/// tf.layers.conv2d_transpose(inputs, filters, kernel_size, strides, padding, ...): variables
/// "<scope>/kernel" [kh, kw, filters, in_channels] and "<scope>/bias" [filters]; the output shape is
/// computed at run time from the input's: "Shape" (a Const when the input's shape is fully
/// defined), "strided_slice" (batch), "strided_slice_1" and
/// "strided_slice_2" (height and width), "mul" (and "add" for VALID) per dimension, packed with the
/// filters into "stack"; keras' backend then reads output_shape[0] ("strided_slice_3", unused) and
/// builds the Conv2DBackpropInput "<scope>/conv2d_transpose" (strides [1, sh, sw, 1], padding
/// "SAME"/"VALID", data_format "NHWC", dilations 1) from the stack, the kernel and the inputs; the
/// static output shape [batch, out_h, out_w, filters] is set; then "BiasAdd" and the activation.
/// channels_first is built as TensorFlow builds it without a GPU: the input transposed to NHWC
/// ("transpose"), the packed shape permuted ("strided_slice_3" .. "strided_slice_6", "stack_1"),
/// the NHWC op, the result transposed back ("transpose_1"), BiasAdd with data_format "NCHW".
/// Errors (InvalidArgument unless said): the input rank ("Input 0 of layer conv2d_transpose is
/// incompatible with the layer: expected ndim=4, found ndim=3. Full shape received: [...]"), "The
/// channel dimension of the inputs should be defined. Found `None`.", bad padding / data_format
/// (conv_utils.h), non-positive filters / kernel_size / strides.
Expected<Output> conv2dTranspose(GraphBuilder& b, const Output& inputs, const Conv2DTransposeOptions& options);

} // namespace tstudio::layers
