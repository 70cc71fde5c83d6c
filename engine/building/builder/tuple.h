// tf.tuple (TensorFlow 1.15's control_flow_ops.tuple): tensors and operations gated together, so
// that none of them is used before all of them are computed.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <optional>
#include <string_view>
#include <variant>
#include <vector>

namespace tstudio {

/// An element of tf.tuple's list: a tensor, an operation, or None.
using TupleElement = std::optional<std::variant<Output, Operation>>;

/// tf.tuple(tensors, name, control_inputs): under name scope `name` ("tuple", made unique), the gate,
/// the NoOp "group_deps" with control inputs on every element's operation and on `controlInputs`,
/// each once, in the order the graph made them; then per element, in order: for a tensor the
/// Identity "control_dependency" ("control_dependency_1", ...) of it after the gate, colocated with
/// it; for an operation the NoOp "group_deps_1", ... on it after the gate; None stays None.
/// Errors: InvalidArgument "Must have at least one Tensor: [None, None]" when nothing is to be
/// gated, and for an element or control input that is not in the graph.
Expected<std::vector<TupleElement>> tuple(GraphBuilder& b, const std::vector<TupleElement>& tensors,
                                          const std::vector<Operation>& controlInputs = {},
                                          std::string_view name = "tuple");

} // namespace tstudio
