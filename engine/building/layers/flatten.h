// tf.layers.flatten: [batch, ...] -> [batch, prod(...)], built as TensorFlow 1.15 builds it.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <string>

namespace tstudio::layers {

struct FlattenOptions {
    std::string dataFormat = "channels_last"; ///< "channels_first": channels moved last first
    std::string name;                         ///< empty: "flatten", "flatten_1", ...
};

/// tf.layers.flatten(inputs): with channels_first and rank > 1 a "flatten/transpose" (perm
/// [0, 2, ..., 1]) first; then, when every dimension after the first is known, "flatten/Reshape"
/// to the Const "flatten/Reshape/shape" = [-1, prod]; otherwise to (batch, -1) where batch is the
/// known first dimension, or "flatten/Shape"[0] (StridedSlice "flatten/strided_slice") packed with
/// "-1" into "flatten/Reshape/shape". Errors: "Input 0 of layer flatten is incompatible with the
/// layer: : expected min_ndim=1, found ndim=0. ...", bad data_format.
Expected<Output> flatten(GraphBuilder& b, const Output& inputs, const FlattenOptions& options = {});

} // namespace tstudio::layers
