// tf.layers.dense: a fully connected layer built as TensorFlow 1.15 builds it (keras Dense via tf.layers).
#pragma once

#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/variable_scope.h"
#include "core/expected.h"
#include "layers/activation.h"
#include "losses/regularizers.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tstudio::layers {

/// The arguments of tf.layers.dense, with TensorFlow's defaults.
struct DenseOptions {
    std::int64_t units = 0;
    Activation activation = Activation::kNone;
    bool useBias = true;
    /// nullopt: the variable scope's initializer, else glorot_uniform (tf.get_variable's default).
    std::optional<Initializer> kernelInitializer;
    Initializer biasInitializer = Initializer::zeros();
    Regularizer kernelRegularizer; ///< empty: none
    Regularizer biasRegularizer;   ///< empty: none
    bool trainable = true;
    std::string name; ///< empty: "dense", "dense_1", ...
    Reuse reuse = Reuse::kFalse;
};

/// outputs = activation(inputs . kernel + bias), as tf.layers.dense(inputs, units, ...):
///  variables "<scope>/kernel" [last_dim, units] and "<scope>/bias" [units] (inputs' dtype);
///  rank 2: "dense/MatMul" and "dense/BiasAdd"; rank > 2: math_ops.tensordot over the last axis
///  ("dense/Tensordot/..." and the Reshape "dense/Tensordot"; with a partially known input shape the
///  run-time shape path: Shape, GatherV2, Prod, ConcatV2, Pack); then the activation ("dense/Relu").
/// Returns the layer's output. Errors (InvalidArgument, TensorFlow's words):
///  "Input 0 of layer dense is incompatible with the layer: : expected min_ndim=2, found ndim=1. ...",
///  "The last dimension of the inputs to `Dense` should be defined. Found `None`.",
///  "Unable to build `Dense` layer with non-floating point dtype <dtype: 'int32'>",
///  "Received an invalid value for `units`, expected a positive integer, got 0." (TF 2's check;
///  TF 1.15 would build a zero-width layer), and getVariable's (reuse, shape mismatch).
Expected<Output> dense(GraphBuilder& b, const Output& inputs, const DenseOptions& options);

} // namespace tstudio::layers
