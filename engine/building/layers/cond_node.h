// The node editor's Cond node: tf.cond(pred, lambda: true_value, lambda: false_value) built with the
// builder's cond (builder/cond.h), so the graph holds TensorFlow's Switch / Merge nodes and names.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "layers/layer_catalog.h"

#include <string_view>
#include <vector>

namespace tstudio::layers {

/// The Cond type (category "Layers", beside Concat and Add): inputs "pred", "true", "false", output
/// "output", no params.
LayerType condLayerType();

/// Checks what a Cond node is fed before anything is built. Ok, or InvalidArgument naming the port,
/// what it takes and what it got (the caller prefixes the layer):
///   "port 'pred' takes a bool scalar; got float32 []"
///   "port 'pred' takes a bool scalar; got bool [?]: reduce it to one value first (tf.reduce_any,
///    tf.reduce_all)"
///   "ports 'true' and 'false' take tensors of one dtype; got float32 [?,4] and int32 [?,4]"
/// A pred of unknown rank passes (the Switch kernel checks it at run time, as TensorFlow's). The two
/// values may differ in shape, as tf.cond allows: the output's dimensions that differ are unknown.
Status checkCondPorts(const Output& pred, const Output& trueValue, const Output& falseValue);

/// tf.cond(inputs[0], lambda: inputs[1], lambda: inputs[2], name) of TensorFlow 1.15: under the name
/// scope `name` ("cond" when empty, made unique: "cond_1") the nodes "Switch", "switch_t",
/// "switch_f", "pred_id", one Switch per value passing it into its branch ("Switch_1" for true,
/// "Switch_2" for false; RefSwitch for a ref) and the "Merge" whose output 0 is the node's output.
/// Errors: checkCondPorts' (before any node is added), cond's.
Expected<LayerExpansion> expandCondNode(GraphBuilder& b, std::string_view name, const std::vector<Output>& inputs);

} // namespace tstudio::layers
