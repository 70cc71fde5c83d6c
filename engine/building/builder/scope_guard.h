// ScopeGuard: the RAII object a GraphBuilder scope returns; leaving the C++ scope leaves the graph scope.
#pragma once

#include <functional>
#include <string>
#include <utility>

namespace tstudio {

/// Restores the builder state it was created from when destroyed (Python's `with` block ending).
/// Move-only. Scopes must end in the reverse order of their creation, as `with` blocks do; a guard
/// that outlives the GraphBuilder it came from must not be destroyed after it (it would touch a
/// dead object), so keep guards in narrower C++ scopes than their builder.
class [[nodiscard]] ScopeGuard {
public:
    ScopeGuard() = default;
    ScopeGuard(std::string name, std::function<void()> restore) : m_name(std::move(name)), m_restore(std::move(restore))
    {
    }
    ScopeGuard(ScopeGuard&& other) noexcept
        : m_name(std::move(other.m_name)), m_restore(std::exchange(other.m_restore, nullptr))
    {
    }
    ScopeGuard& operator=(ScopeGuard&& other) noexcept
    {
        if (this != &other) {
            close();
            m_name = std::move(other.m_name);
            m_restore = std::exchange(other.m_restore, nullptr);
        }
        return *this;
    }
    ScopeGuard(const ScopeGuard&) = delete;
    ScopeGuard& operator=(const ScopeGuard&) = delete;
    ~ScopeGuard() { close(); }

    /// What the scope yields, as Python's `with ... as name`: for a name scope the full scope with
    /// its trailing slash ("layer1_1/", "" at the root); for a variable scope its name ("dense");
    /// empty for the other scopes.
    const std::string& name() const { return m_name; }

    /// Leaves the scope now (idempotent).
    void close()
    {
        if (m_restore)
            std::exchange(m_restore, nullptr)();
    }

private:
    std::string m_name;
    std::function<void()> m_restore;
};

} // namespace tstudio
