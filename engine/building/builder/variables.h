// Creating variables as TensorFlow 1.x does (tf.get_variable, tf.Variable) and initializing them
// (tf.global_variables_initializer and friends).
#pragma once

#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/variable.h"
#include "builder/variable_scope.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

/// Makes a variable's initial value under "x/Initializer/" (tf.Variable with a callable).
using InitialValueFunction = std::function<Expected<Output>(GraphBuilder&)>;

/// tf.get_variable(name, shape, dtype, initializer, trainable, collections) in the current
/// variable scope: the variable "<scope>/<name>" is created, or returned when it exists and the
/// scope reuses. A new variable is built as TensorFlow builds it: its initializer's ops under
/// "x/Initializer/" (colocated with x: "_class" "loc:@x", no device), the VariableV2 "x" (with
/// the same "_class"), "x/Assign" (validate_shape, use_locking) and "x/read"; outside any name
/// scope and control dependencies. The initializer is `initializer`, else the scope's, else
/// glorot_uniform for floating dtypes and zeros for integers, bool and string. It is added to
/// `collections` (default: GLOBAL_VARIABLES) and, when `trainable`, to TRAINABLE_VARIABLES.
/// Errors, InvalidArgument in TensorFlow's words:
///   "Variable dense/kernel already exists, disallowed. Did you mean to set reuse=True or
///    reuse=tf.AUTO_REUSE in VarScope?"
///   "Variable dense/kernel does not exist, or was not created with tf.get_variable(). Did you
///    mean to set reuse=tf.AUTO_REUSE in VarScope?"
///   "Trying to share variable dense/kernel, but specified shape (3, 4) and found shape (4, 3)."
///   "Trying to share variable dense/kernel, but specified dtype int32 and found dtype float32_ref."
///   "Shape of a new variable (dense/kernel) must be fully defined, but instead was (?, 4)."
///   "An initializer for variable dense/kernel of complex64 is required"
/// and the initializer's errors. `shape` unknown means "not given" (fine when reusing).
Expected<Variable> getVariable(GraphBuilder& b, std::string_view name,
                               const TensorShape& shape = TensorShape::unknown(), DataType dtype = tensorflow::DT_FLOAT,
                               std::optional<Initializer> initializer = {}, bool trainable = true,
                               std::optional<std::vector<std::string>> collections = {});

/// tf.Variable(initial_value, name=...) with a value: "name/initial_value" (a Const holding
/// `initialValue`), "name", "name/Assign", "name/read", in the current name scope, the name made
/// unique ("Variable", "Variable_1", ...). Collections as getVariable.
Expected<Variable> variable(GraphBuilder& b, const tensorflow::TensorProto& initialValue,
                            std::string_view name = "Variable", bool trainable = true,
                            std::optional<std::vector<std::string>> collections = {});
/// tf.Variable(tensor): the initial value is an existing tensor (its shape must be fully defined).
Expected<Variable> variable(GraphBuilder& b, const Output& initialValue, std::string_view name = "Variable",
                            bool trainable = true, std::optional<std::vector<std::string>> collections = {});
/// tf.Variable(callable): `makeInitialValue` runs under "name/Initializer/" with the variable's
/// colocation attr, as getVariable does. InvalidArgument "initial_value must have a shape
/// specified: <unknown>" when the value's shape is not fully defined.
Expected<Variable> variable(GraphBuilder& b, const InitialValueFunction& makeInitialValue,
                            std::string_view name = "Variable", bool trainable = true,
                            std::optional<std::vector<std::string>> collections = {});

/// tf.variables_initializer(vars, name): a NoOp (tf.group) with control inputs on each variable's
/// "x/Assign", in order; with no variables, a plain NoOp.
Expected<Operation> variablesInitializer(GraphBuilder& b, const std::vector<Variable>& variables,
                                         std::string_view name = "init");
/// tf.global_variables_initializer(): variablesInitializer over GLOBAL_VARIABLES, named "init".
Expected<Operation> globalVariablesInitializer(GraphBuilder& b);
/// tf.local_variables_initializer(): over LOCAL_VARIABLES, named "init".
Expected<Operation> localVariablesInitializer(GraphBuilder& b);

/// tf.global_variables() / tf.trainable_variables() / tf.local_variables().
std::vector<Variable> globalVariables(const GraphBuilder& b);
std::vector<Variable> trainableVariables(const GraphBuilder& b);
std::vector<Variable> localVariables(const GraphBuilder& b);

/// A shape as Python's TensorShape prints it in TensorFlow 1.x messages: "(3, 4)", "(3,)", "()",
/// "(?, 4)", "<unknown>".
std::string pythonShapeString(const TensorShape& shape);

} // namespace tstudio
