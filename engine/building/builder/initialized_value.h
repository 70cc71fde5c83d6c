// Variable.initialized_value() of TensorFlow 1.15 (RefVariable): the variable's value once it is
// initialised, else its initial value, so that another variable's initial value may depend on it
// in any order of initialisation.
#pragma once

#include "builder/graph_builder.h"
#include "builder/variable.h"
#include "core/expected.h"

namespace tstudio {

/// v.initialized_value(): in init_scope (outside control-flow contexts, without control
/// dependencies), tf.cond(is_variable_initialized(v), v.read_value, lambda: v.initial_value):
/// "IsVariableInitialized", the cond "cond" (its Switch, the true branch's Identity "read" of the
/// variable, the false branch's Identity of the initial value, and the Merge "cond/Merge", which
/// is returned). InvalidArgument for a variable without an initial value (one imported without
/// it); the builder's errors.
Expected<Output> initializedValue(GraphBuilder& b, const Variable& variable);

} // namespace tstudio
