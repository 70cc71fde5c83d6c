// initializedValue (initialized_value.h).
#include "builder/initialized_value.h"

#include "builder/cond.h"
#include "builder/python_ops.h"

namespace tstudio {

Expected<Output> initializedValue(GraphBuilder& b, const Variable& variable)
{
    if (!variable.initialValue().isValid())
        return unexpected(invalidArgumentError("Variable '" + variable.ref().node() + "' has no initial value"));
    // ops.init_scope(): out of any control-flow context and control-dependency scope.
    ScopeGuard noContext = b.controlFlowContextScope(nullptr);
    ScopeGuard noControls = b.clearControlDependencies();
    TSTUDIO_AD_TRY(initialized, py::genOp(b, "IsVariableInitialized", {variable.ref()}, {}, "IsVariableInitialized"));
    const Output ref = variable.ref();
    const Output initial = variable.initialValue();
    auto readValue = [ref](GraphBuilder& g) -> Expected<std::vector<Output>> {
        // RefVariable.read_value(): array_ops.identity(self._variable, name="read").
        TSTUDIO_AD_TRY(read, py::genOp(g, "Identity", {ref}, {}, "read"));
        return std::vector<Output>{read};
    };
    auto initialValue = [initial](GraphBuilder& g) -> Expected<std::vector<Output>> {
        // A branch returning an outside tensor gets an Identity of it in the branch (cond's rule).
        TSTUDIO_AD_TRY(value, py::genOp(g, "Identity", {initial}, {}, "Identity"));
        return std::vector<Output>{value};
    };
    TSTUDIO_AD_TRY(merged, cond(b, initialized, readValue, initialValue));
    return merged.front();
}

} // namespace tstudio
