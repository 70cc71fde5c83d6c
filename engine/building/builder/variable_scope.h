// Variable scopes and the variable store behind getVariable (tf.variable_scope, _VariableStore).
#pragma once

#include "builder/initializers.h"
#include "builder/scope_guard.h"
#include "builder/variable.h"
#include "core/expected.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

class GraphBuilder;

/// The `reuse` argument of tf.variable_scope. kFalse does not switch reuse off inside a scope that
/// reuses (reuse is inherited and True stays on, as in TensorFlow); kTrue requires variables to
/// exist; kAutoReuse (tf.AUTO_REUSE) creates them the first time and reuses them afterwards.
enum class Reuse { kFalse, kTrue, kAutoReuse };

/// One level of variable scope: its full name ("outer/dense", "" at the root), its effective reuse,
/// and the default initializer for getVariable inside it (inherited from the parent unless set).
struct VariableScopeState {
    std::string name;
    Reuse reuse = Reuse::kFalse;
    std::optional<Initializer> initializer;
    /// The name scope the variable scope opened, with its trailing '/' ("dense_1/"; "" at the root):
    /// VariableScope.original_name_scope, where re-entering the scope puts ops again.
    std::string originalNameScope;
};

/// Owned by the GraphBuilder: the stack of variable scopes and the variables getVariable created,
/// by full name (TensorFlow's _VariableStore). Not synchronised.
class VariableStore {
public:
    VariableStore() { m_scopes.push_back({}); }

    const VariableScopeState& current() const { return m_scopes.back(); }
    VariableScopeState& current() { return m_scopes.back(); }
    /// The variable getVariable made under `fullName`, or nullptr.
    const Variable* find(std::string_view fullName) const;
    void add(const std::string& fullName, Variable variable) { m_variables.emplace(fullName, std::move(variable)); }
    /// Every variable made by getVariable, by full name.
    const std::map<std::string, Variable, std::less<>>& variables() const { return m_variables; }

    void push(VariableScopeState state) { m_scopes.push_back(std::move(state)); }
    std::size_t depth() const { return m_scopes.size(); }

    // How many times each variable scope was opened (TensorFlow's variable_scopes_count), which
    // default names are made unique by; leaving a scope forgets the counts of the scopes under it.
    void openScope(const std::string& fullName) { ++m_openCounts[fullName]; }
    int openCount(const std::string& fullName) const
    {
        const auto it = m_openCounts.find(fullName);
        return it == m_openCounts.end() ? 0 : it->second;
    }
    void closeSubscopes(const std::string& fullName)
    {
        for (auto& [name, count] : m_openCounts)
            if (name.starts_with(fullName + "/"))
                count = 0;
    }
    std::map<std::string, int> openCounts() const { return m_openCounts; }
    void setOpenCounts(std::map<std::string, int> counts) { m_openCounts = std::move(counts); }
    /// Drops the scopes above `depth` (never the root).
    void popTo(std::size_t depth)
    {
        if (depth >= 1 && depth < m_scopes.size())
            m_scopes.resize(depth);
    }

private:
    std::vector<VariableScopeState> m_scopes;
    std::map<std::string, Variable, std::less<>> m_variables;
    std::map<std::string, int> m_openCounts;
};

/// Enters tf.variable_scope(name, reuse=..., initializer=...): the variable scope becomes
/// "<parent>/<name>" with reuse `reuse` or the parent's (kTrue and kAutoReuse are inherited by
/// nested scopes), the default initializer `initializer` or the parent's, and a name scope `name`
/// is opened too (made unique, so re-entering "dense" gives ops "dense_1/..." while variables stay
/// "dense/..."). "" at the root keeps the root scope (useful with kTrue) and opens no name scope.
/// The guard's name() is the variable scope's full name. Errors: nameScope's.
Expected<ScopeGuard> variableScope(GraphBuilder& b, std::string_view name, Reuse reuse = Reuse::kFalse,
                                   std::optional<Initializer> initializer = {});

/// tf.variable_scope(None, default_name=...): the variable scope's name is `defaultName` made unique
/// among the variable scopes opened beside it ("dense", "dense_1", ...; counts are forgotten when
/// the enclosing variable scope is left, so re-entering it starts again, which is how tf.layers
/// reuse variables), the name scope `defaultName` made unique by the graph on its own.
/// InvalidArgument "reuse=True cannot be used without a name_or_scope" for kTrue.
Expected<ScopeGuard> variableScopeWithDefaultName(GraphBuilder& b, std::string_view defaultName,
                                                  Reuse reuse = Reuse::kFalse,
                                                  std::optional<Initializer> initializer = {});

/// tf.get_variable_scope(): the current variable scope (the VariableScope object `with ... as scope`
/// binds); its originalNameScope is the name scope it opened.
VariableScopeState currentVariableScope(const GraphBuilder& b);

/// with tf.variable_scope(scope) for a captured scope: the variable scope `scope.name` itself
/// (wherever it is re-entered), its reuse (or `reuse` when kTrue / kAutoReuse) and initializer,
/// and the ops in exactly the name scope it first opened (original_name_scope, not a new "_1").
/// The guard's name() is the scope's name.
Expected<ScopeGuard> variableScope(GraphBuilder& b, const VariableScopeState& scope, Reuse reuse = Reuse::kFalse);

/// tf.get_variable_scope().reuse_variables(): the current variable scope reuses from now on.
void reuseVariables(GraphBuilder& b);

} // namespace tstudio
