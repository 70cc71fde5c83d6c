// Variable scopes: name, reuse and initializer inheritance, the name scope each one opens, default
// names made unique, and re-entry of a captured scope.
#include "builder/variable_scope.h"

#include "builder/graph_builder.h"

#include <memory>

namespace tstudio {

namespace {

/// Pushes `state` after opening `nameScope` (when set): the guard pops the variable scope, then
/// leaves the name scope, then runs `onExit` (the open counts' bookkeeping).
ScopeGuard pushScope(GraphBuilder& b, VariableScopeState state, std::optional<ScopeGuard> nameScope,
                     std::function<void()> onExit)
{
    VariableStore& store = b.variableStore();
    const std::size_t depth = store.depth();
    std::string fullName = state.name;
    store.push(std::move(state));
    auto held = std::make_shared<std::optional<ScopeGuard>>(std::move(nameScope));
    return ScopeGuard(fullName, [&b, depth, held, onExit = std::move(onExit)] {
        b.variableStore().popTo(depth);
        held->reset(); // leaves the name scope
        onExit();
    });
}

} // namespace

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
        state.originalNameScope = scope->name();
        nameGuard.emplace(std::move(*scope));
    } else {
        state.originalNameScope = parent.originalNameScope;
    }
    const std::string fullName = state.name;
    store.openScope(fullName);
    return pushScope(b, std::move(state), std::move(nameGuard),
                     [&b, fullName] { b.variableStore().closeSubscopes(fullName); });
}

Expected<ScopeGuard> variableScopeWithDefaultName(GraphBuilder& b, std::string_view defaultName, Reuse reuse,
                                                  std::optional<Initializer> initializer)
{
    if (reuse == Reuse::kTrue)
        return unexpected(invalidArgumentError("reuse=True cannot be used without a name_or_scope"));
    VariableStore& store = b.variableStore();
    const VariableScopeState& parent = store.current();
    // The name scope: default_name made unique by the graph.
    auto nameScope = b.nameScope(defaultName);
    if (!nameScope)
        return unexpected(nameScope.error());
    // The variable scope: default_name made unique by the counts (_get_unique_variable_scope).
    const std::string prefix =
        parent.name.empty() ? std::string(defaultName) : parent.name + "/" + std::string(defaultName);
    std::string unique(defaultName);
    if (store.openCount(prefix) > 0) {
        int index = 1;
        while (store.openCount(prefix + "_" + std::to_string(index)) > 0)
            ++index;
        unique += "_" + std::to_string(index);
    }
    VariableScopeState state;
    state.name = parent.name.empty() ? unique : parent.name + "/" + unique;
    state.reuse = reuse == Reuse::kFalse ? parent.reuse : reuse;
    state.initializer = initializer ? std::move(initializer) : parent.initializer;
    state.originalNameScope = nameScope->name();
    const std::string fullName = state.name;
    store.openScope(fullName);
    return pushScope(b, std::move(state), std::move(*nameScope),
                     [&b, fullName] { b.variableStore().closeSubscopes(fullName); });
}

VariableScopeState currentVariableScope(const GraphBuilder& b)
{
    return b.variableStore().current();
}

Expected<ScopeGuard> variableScope(GraphBuilder& b, const VariableScopeState& scope, Reuse reuse)
{
    VariableStore& store = b.variableStore();
    VariableScopeState state = scope;
    if (reuse != Reuse::kFalse)
        state.reuse = reuse;
    // The ops go into the scope's original name scope itself (an absolute scope, "a/b/").
    std::optional<ScopeGuard> nameGuard;
    if (!scope.originalNameScope.empty()) {
        auto entered = b.nameScope(scope.originalNameScope);
        if (!entered)
            return unexpected(entered.error());
        nameGuard.emplace(std::move(*entered));
    }
    store.openScope(state.name);
    // Leaving restores the counts as they were on entry (TensorFlow keeps _old_subscopes).
    auto counts = store.openCounts();
    return pushScope(b, std::move(state), std::move(nameGuard),
                     [&b, counts = std::move(counts)] { b.variableStore().setOpenCounts(counts); });
}

void reuseVariables(GraphBuilder& b)
{
    b.variableStore().current().reuse = Reuse::kTrue;
}

} // namespace tstudio
