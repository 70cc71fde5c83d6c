// Variable::toVariableDef: the proto TensorFlow's RefVariable.to_proto writes.
#include "builder/variable.h"

namespace tstudio {

tensorflow::VariableDef Variable::toVariableDef() const
{
    tensorflow::VariableDef def;
    def.set_variable_name(m_ref.name());
    if (m_initialValue.isValid())
        def.set_initial_value_name(m_initialValue.name());
    def.set_trainable(m_trainable);
    def.set_initializer_name(m_initializer.name());
    def.set_snapshot_name(m_value.name());
    return def;
}

} // namespace tstudio
