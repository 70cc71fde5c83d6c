// getLocalVariable: tf.get_local_variable, a variable of the LOCAL_VARIABLES collection.
#pragma once

#include "builder/variables.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

/// tf.get_local_variable(name, shape, dtype, initializer, collections): getVariable with
/// trainable false and `collections` (default none) plus LOCAL_VARIABLES, so that
/// localVariablesInitializer initializes it and no optimizer trains it. Errors as getVariable.
Expected<Variable> getLocalVariable(GraphBuilder& b, std::string_view name,
                                    const TensorShape& shape = TensorShape::unknown(),
                                    DataType dtype = tensorflow::DT_FLOAT, std::optional<Initializer> initializer = {},
                                    std::vector<std::string> collections = {});

} // namespace tstudio
