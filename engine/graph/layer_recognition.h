// Layer recognition: what the ops of a name scope compute, told by their pattern (MatMul + BiasAdd +
// activation reading weights of the scope is a Dense layer), for views that show a graph by scope.
#pragma once

#include "proto/graph.pb.h"

#include <map>
#include <string>
#include <vector>

namespace tstudio {

/// A name scope recognised as a layer (or another well-known block of a TensorFlow 1.x graph).
struct RecognisedLayer {
    /// "Dense", "Conv2D", "BatchNorm", "MaxPool", "AvgPool", "Dropout", "Flatten",
    /// "SoftmaxCrossEntropy", "SparseSoftmaxCrossEntropy", "MeanSquaredError", an optimizer
    /// ("Adam", "GradientDescent", "Momentum", "RMSProp", "Adagrad", "Adadelta", "Ftrl"),
    /// "Gradients" (tf.gradients' scope), "Saver", or "Variable" (a variable with its
    /// Assign/read/Initializer ops).
    std::string type;
    /// What the pattern tells, in TensorFlow's parameter names and values, in this order of
    /// interest: Dense: units, activation (TF's function name: "relu", "sigmoid", ...; absent for
    /// none), use_bias ("false" only). Conv2D: filters, kernel_size ("5x5"), strides ("2x2";
    /// absent for 1x1), padding, activation, use_bias. MaxPool/AvgPool: pool_size, strides,
    /// padding. BatchNorm: epsilon (fused only). Variable: shape ("784x64", "" for a scalar).
    std::vector<std::pair<std::string, std::string>> params;

    /// "Dense(64, relu)", "Conv2D(32, 5x5, relu)", "MaxPool(2x2)", "Variable 784x64", "Adam".
    std::string describe() const;
};

/// Recognises every name scope of `graph` whose ops match a pattern, by scope path ("dense",
/// "model/conv1"). A scope is recognised only from what lies inside it: a Dense layer's MatMul must
/// read a rank-2 weight (variable or constant, through Identity / ReadVariableOp) inside the same
/// scope, so tf.gradients' mirror scopes ("gradients/dense/MatMul_grad") are not layers. A scope
/// inside one recognised as the same type (an optimizer's "Adam/update_w") is left out. Never
/// fails: unknown ops and malformed inputs only make fewer scopes recognised.
std::map<std::string, RecognisedLayer> recogniseLayers(const tensorflow::GraphDef& graph);

} // namespace tstudio
