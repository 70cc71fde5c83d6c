// tf.layers.max_pooling2d and average_pooling2d, built as TensorFlow 1.15 builds them.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <array>
#include <cstdint>
#include <string>

namespace tstudio::layers {

/// The arguments of tf.layers.max_pooling2d / average_pooling2d. TensorFlow has no default for
/// pool_size and strides: both must be set here too.
struct Pooling2DOptions {
    std::array<std::int64_t, 2> poolSize{0, 0};
    std::array<std::int64_t, 2> strides{0, 0};
    std::string padding = "valid";            ///< "valid" or "same"
    std::string dataFormat = "channels_last"; ///< or "channels_first"
    std::string name;                         ///< empty: "max_pooling2d", "max_pooling2d_1", ...
};

/// tf.layers.max_pooling2d: "max_pooling2d/MaxPool" with ksize [1, ph, pw, 1] and strides
/// [1, sh, sw, 1] (NCHW: [1, 1, h, w]). Errors: the 4-D input check ("Input 0 of layer
/// max_pooling2d is incompatible with the layer: expected ndim=4, ..."), bad padding / data_format,
/// non-positive pool_size / strides.
Expected<Output> maxPooling2d(GraphBuilder& b, const Output& inputs, const Pooling2DOptions& options);
/// tf.layers.average_pooling2d: "average_pooling2d/AvgPool" (padding not counted, as AvgPool).
Expected<Output> averagePooling2d(GraphBuilder& b, const Output& inputs, const Pooling2DOptions& options);

} // namespace tstudio::layers
