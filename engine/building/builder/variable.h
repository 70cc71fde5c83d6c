// Variable: a TensorFlow 1.x ref variable as built in a graph (tf.Variable / RefVariable).
#pragma once

#include "builder/output.h"
#include "proto/variable.pb.h"

#include <string>

namespace tstudio {

/// The nodes that make up one variable, as TensorFlow builds them for "x":
///   "x"         VariableV2 (output x:0 of dtype float_ref)          -> ref()
///   "x/Assign"  Assign(x, initial value), the variable's initializer -> initializer()
///   "x/read"    Identity(x), the value other ops read               -> value()
/// and the initial value, "x/Initializer/..." (get_variable) or "x/initial_value" (tf.Variable).
/// A value type; it refers to nodes by name and does not keep the builder alive.
class Variable {
public:
    Variable() = default;
    Variable(Output ref, Output value, Output initialValue, Operation initializer, bool trainable)
        : m_ref(std::move(ref)), m_value(std::move(value)), m_initialValue(std::move(initialValue)),
          m_initializer(std::move(initializer)), m_trainable(trainable)
    {
    }

    bool isValid() const { return m_ref.isValid(); }
    /// The variable's node name, e.g. "dense/kernel" (tf.Variable.op.name).
    const std::string& name() const { return m_ref.node(); }
    /// The VariableV2 output (a ref dtype): what Assign* and the optimizers' Apply* ops take.
    const Output& ref() const { return m_ref; }
    /// The "x/read" snapshot: what the model's ops consume.
    const Output& value() const { return m_value; }
    const Output& initialValue() const { return m_initialValue; }
    /// The "x/Assign" op that initializes the variable.
    const Operation& initializer() const { return m_initializer; }
    bool trainable() const { return m_trainable; }
    /// The value dtype (float32 for a float32_ref variable).
    DataType dtype() const { return m_ref.baseDtype(); }
    const TensorShape& shape() const { return m_ref.shape(); }

    /// The VariableDef TensorFlow 1.15 stores in a MetaGraphDef's variable collections:
    /// variable_name "x:0", initializer_name "x/Assign", snapshot_name "x/read:0",
    /// initial_value_name, trainable (synchronization and aggregation left at AUTO / NONE).
    tensorflow::VariableDef toVariableDef() const;

private:
    Output m_ref;
    Output m_value;
    Output m_initialValue;
    Operation m_initializer;
    bool m_trainable = true;
};

} // namespace tstudio
