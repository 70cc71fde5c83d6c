// Activation: the activation functions a tf.layers layer applies to its output (tf.nn.relu, ...).
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <string_view>

namespace tstudio::layers {

/// The `activation` argument of tf.layers.dense / conv2d. Each builds one op named as the Python
/// function names it, under the layer's scope: "Relu", "Relu6", "Elu", "Selu", "Softplus",
/// "Softsign", "Sigmoid", "Tanh", "Softmax" (tf.nn.softmax over the last axis). kNone: no op.
enum class Activation { kNone, kRelu, kRelu6, kElu, kSelu, kSoftplus, kSoftsign, kSigmoid, kTanh, kSoftmax };

/// The op type of `activation` ("Relu", ...), empty for kNone.
std::string_view activationOpType(Activation activation);

/// Applies `activation` to `x` in the current name scope; kNone returns `x` itself.
/// Errors: GraphBuilder::op's (e.g. a dtype the op does not take).
Expected<Output> applyActivation(GraphBuilder& b, const Output& x, Activation activation);

} // namespace tstudio::layers
