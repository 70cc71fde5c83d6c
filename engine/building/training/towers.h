// Data-parallel towers in one graph, as TensorFlow 1.x's multi-GPU example (cifar10_multi_gpu_train)
// builds them: one copy of the model per device, shared variables, averaged gradients.
#pragma once

#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/variable.h"
#include "core/expected.h"
#include "training/optimizer.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

/// Where the towers go.
struct TowerOptions {
    int count = 1;                   ///< N >= 1 towers
    std::string deviceType = "CPU";  ///< tower i runs on "/device:<deviceType>:i"
    std::string towerName = "tower"; ///< tower i builds under the name scope "<towerName>_<i>"
};

/// One tower as built: its index, device and name scope ("tower_0/"), the loss the model function
/// returned and its gradients (Optimizer.compute_gradients inside the tower's scopes).
struct Tower {
    int index = 0;
    std::string device;
    std::string nameScope;
    Output loss;
    std::vector<training::GradAndVar> gradients;
};

/// Builds tower i's model inside its device and name scopes and returns its loss (a float scalar
/// whose gradients are averaged: a mean over the tower's part of the batch gives the one-device
/// gradient of the whole batch). Variables must come from getVariable (towerVariable places them
/// on the variable device): the first tower creates them, the others reuse them.
using TowerModelFunction = std::function<Expected<Output>(GraphBuilder& b, int tower)>;

/// The loop of the multi-GPU example:
///   with tf.variable_scope(tf.get_variable_scope()):
///     for i in range(N):
///       with tf.device('/<type>:%d' % i), tf.name_scope('tower_%d' % i) as scope:
///         loss = model(i); tf.get_variable_scope().reuse_variables()
///         grads = opt.compute_gradients(loss, var_list)
/// so the towers' ops are "tower_i/..." on device i and there is one set of variables (reuse is
/// switched on for the current variable scope after the first tower and off again afterwards).
/// `varList` as computeGradients (default: TRAINABLE_VARIABLES once tower 0 made them).
/// Errors: InvalidArgument "towers: count must be at least 1, got 0"; a device type that does not
/// parse; the model function's and computeGradients' errors, prefixed "tower 1: ".
Expected<std::vector<Tower>> buildTowers(GraphBuilder& b, const TowerOptions& options, const TowerModelFunction& model,
                                         training::Optimizer& optimizer,
                                         std::optional<std::vector<Variable>> varList = {});

/// average_gradients of the example, in the current scopes: for each variable, the towers'
/// gradients stacked with tf.expand_dims(g, 0) + tf.concat(axis=0) and reduced with
/// tf.reduce_mean(axis=0) ("ExpandDims", "concat", "Mean", made unique; with one tower "concat" is
/// an Identity, as tf.concat of one value). Variables are taken from the first tower; a variable
/// without a gradient in every tower keeps none. Errors: InvalidArgument when the towers list
/// different variables or a gradient in some towers only ("average_gradients: tower 1 has no
/// gradient for 'w' but tower 0 has one"), or when `towerGradients` is empty.
Expected<std::vector<training::GradAndVar>>
averageGradients(GraphBuilder& b, const std::vector<std::vector<training::GradAndVar>>& towerGradients);

/// _variable_on_cpu of the example: getVariable inside a device scope `device` (default
/// "/device:CPU:0"), so that the towers share one copy on that device.
Expected<Variable> towerVariable(GraphBuilder& b, std::string_view name, const TensorShape& shape,
                                 DataType dtype = tensorflow::DT_FLOAT, std::optional<Initializer> initializer = {},
                                 std::string_view device = "/device:CPU:0");

} // namespace tstudio
