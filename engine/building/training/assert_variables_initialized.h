// assertVariablesInitialized: a tensor whose evaluation fails while any of the variables is not
// initialized (tf.assert_variables_initialized).
#pragma once

#include "builder/graph_builder.h"
#include "builder/variable.h"
#include "core/expected.h"

#include <optional>
#include <vector>

namespace tstudio::training {

/// tf.assert_variables_initialized(var_list): per variable (default: global then local variables;
/// when there are none, every VariableV2 / Variable node of the graph), the Rank "Rank", "Rank_1",
/// ... of its value ("x/read"), colocated with it; one variable gives its Rank, several the Pack
/// "stack" of them. Running it fails with the uninitialized variable's error. nullopt when there
/// is no variable at all (TensorFlow's None).
Expected<std::optional<Output>>
assertVariablesInitialized(GraphBuilder& b, std::optional<std::vector<Variable>> variables = std::nullopt);

} // namespace tstudio::training
