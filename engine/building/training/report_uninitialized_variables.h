// reportUninitializedVariables: the names of the variables not yet initialized, as a string tensor
// (tf.report_uninitialized_variables), and its empty twin for resources.
#pragma once

#include "builder/graph_builder.h"
#include "builder/variable.h"
#include "core/expected.h"

#include <optional>
#include <string_view>
#include <vector>

namespace tstudio::training {

/// tf.report_uninitialized_variables(var_list): a 1-D string tensor with the node names of the
/// variables of `variables` (default: global then local variables) whose IsVariableInitialized is
/// false, in list order. Nodes, under the name scope `name` (made unique):
/// "IsVariableInitialized", "IsVariableInitialized_1", ... (one per variable), then on
/// "/device:CPU:0": "stack" (Pack), "LogicalNot", "Const" (the names) and the mask
/// "boolean_mask/Where", "boolean_mask/Squeeze", "boolean_mask/GatherV2/axis",
/// "boolean_mask/GatherV2" (the result). TensorFlow's boolean_mask first reshapes its operands to
/// one dimension (a dozen shape nodes); both are 1-D here already, so those nodes are left out.
/// With no variables: the empty string vector "Const" on the CPU.
Expected<Output> reportUninitializedVariables(GraphBuilder& b,
                                              std::optional<std::vector<Variable>> variables = std::nullopt,
                                              std::string_view name = "report_uninitialized_variables");

/// tf.report_uninitialized_resources() for a graph without resources registered in the shared or
/// local resource collections (ours has none): the empty string vector "<name>/Const" on the CPU.
Expected<Output> reportUninitializedResources(GraphBuilder& b,
                                              std::string_view name = "report_uninitialized_resources");

} // namespace tstudio::training
