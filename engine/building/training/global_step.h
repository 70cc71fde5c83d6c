// The global step: the int64 variable that counts training steps (tf.train.get_or_create_global_step).
#pragma once

#include "builder/graph_builder.h"
#include "builder/variable.h"
#include "core/expected.h"

#include <optional>

namespace tstudio::training {

/// tf.train.get_global_step(): the one variable of the GLOBAL_STEP collection, or, when that
/// collection is empty, the variable whose node is "global_step"; nullopt when there is none or
/// when the collection holds several (TensorFlow logs "Multiple tensors in global_step
/// collection." and returns None). The variable found is checked as TensorFlow's
/// assert_global_step checks it, InvalidArgument in TensorFlow's words:
///   'Existing "global_step" must be a Variable or Tensor: x.'  (a node that is no variable here)
///   'Existing "global_step" does not have integer type: <dtype: 'float32'>'
///   'Existing "global_step" is not scalar: (2,)'
Expected<std::optional<Variable>> getGlobalStep(const GraphBuilder& b);

/// tf.train.create_global_step(): the variable "global_step" (in the current variable scope, as
/// TensorFlow's get_variable does) of dtype int64 and shape [], zeros initializer, not trainable,
/// in the GLOBAL_VARIABLES and GLOBAL_STEP collections; built at the root name scope:
/// "global_step/Initializer/zeros", "global_step", "global_step/Assign", "global_step/read".
/// InvalidArgument '"global_step" already exists.' when getGlobalStep finds one.
Expected<Variable> createGlobalStep(GraphBuilder& b);

/// tf.train.get_or_create_global_step(): getGlobalStep, else createGlobalStep.
Expected<Variable> getOrCreateGlobalStep(GraphBuilder& b);

} // namespace tstudio::training
