// Variable scopes: name, reuse and initializer inheritance, and the name scope each one opens.
#include "builder/variable_scope.h"

#include "builder/graph_builder.h"

#include <memory>

namespace tstudio {

const Variable* VariableStore::find(std::string_view fullName) const
{
    auto it = m_variables.find(fullName);
    return it == m_variables.end() ? nullptr : &it->second;
}

Expected<ScopeGuard> variableScope(GraphBuilder& b, std::string_view name, Reuse reuse,
                                   std::optional<Initializer> initializer)
{
    VariableStore& store = b.variableStore();
    const VariableScopeState& parent = store.current();

    VariableScopeState state;
    state.name = parent.name.empty() ? std::string(name) : parent.name + "/" + std::string(name);
    // TensorFlow: `reuse = reuse or parent.reuse`, so False inherits and True / AUTO_REUSE win.
    state.reuse = reuse == Reuse::kFalse ? parent.reuse : reuse;
    state.initializer = initializer ? std::move(initializer) : parent.initializer;

    // Open the name scope first: if the name is invalid nothing has changed.
    std::optional<ScopeGuard> nameGuard;
    if (!name.empty()) {
        auto scope = b.nameScope(name);
        if (!scope)
            return unexpected(scope.error());
        nameGuard.emplace(std::move(*scope));
    }
    const std::size_t depth = store.depth();
    std::string fullName = state.name;
    store.push(std::move(state));
    auto nameScope = std::make_shared<std::optional<ScopeGuard>>(std::move(nameGuard));
    return ScopeGuard(fullName, [&b, depth, nameScope] {
        b.variableStore().popTo(depth);
        nameScope->reset(); // leaves the name scope
    });
}

void reuseVariables(GraphBuilder& b)
{
    b.variableStore().current().reuse = Reuse::kTrue;
}

} // namespace tstudio
