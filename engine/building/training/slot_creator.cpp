// Slot variables named, placed and collected as TensorFlow 1.15's slot_creator makes them.
#include "training/slot_creator.h"

#include "builder/variables.h"

#include <optional>

namespace tstudio::training {
namespace {

/// The builder state slot creation runs in: TensorFlow's init_scope (root name scope, no control
/// dependencies), the root variable scope, and colocation with the primary variable.
class SlotScope {
public:
    static Expected<std::unique_ptr<SlotScope>> enter(GraphBuilder& b, const Variable& primary)
    {
        auto op = b.operation(primary.name());
        if (!op)
            return unexpected(op.error());
        auto root = b.nameScope("");
        if (!root)
            return unexpected(root.error());
        auto scope = std::unique_ptr<SlotScope>(new SlotScope(b));
        scope->m_root.emplace(std::move(*root));
        scope->m_noControl.emplace(b.clearControlDependencies());
        scope->m_colocated.emplace(b.colocateWith(*op));
        return scope;
    }
    ~SlotScope()
    {
        m_colocated.reset();
        m_noControl.reset();
        m_root.reset();
        m_b.variableStore().popTo(m_depth);
    }
    SlotScope(const SlotScope&) = delete;
    SlotScope& operator=(const SlotScope&) = delete;

private:
    explicit SlotScope(GraphBuilder& b) : m_b(b), m_depth(b.variableStore().depth())
    {
        m_b.variableStore().push(VariableScopeState{});
    }

    GraphBuilder& m_b;
    std::size_t m_depth;
    std::optional<ScopeGuard> m_root;
    std::optional<ScopeGuard> m_noControl;
    std::optional<ScopeGuard> m_colocated;
};

} // namespace

std::string uniqueSlotName(const GraphBuilder& b, const Variable& primary, std::string_view name)
{
    const std::string base = primary.name() + "/" + std::string(name);
    std::string candidate = base;
    for (int i = 1; b.variableStore().find(candidate) || b.findNode(candidate); ++i)
        candidate = base + "_" + std::to_string(i);
    return candidate;
}

Expected<Variable> createSlotWithInitializer(GraphBuilder& b, const Variable& primary, const Initializer& initializer,
                                             const TensorShape& shape, DataType dtype, std::string_view name)
{
    const std::string slotName = uniqueSlotName(b, primary, name);
    auto scope = SlotScope::enter(b, primary);
    if (!scope)
        return unexpected(scope.error());
    return getVariable(b, slotName, shape, baseType(dtype), initializer, false);
}

Expected<Variable> createZerosSlot(GraphBuilder& b, const Variable& primary, std::string_view name)
{
    return createSlotWithInitializer(b, primary, Initializer::zeros(), primary.shape(), primary.dtype(), name);
}

Expected<Variable> createSlot(GraphBuilder& b, const Variable& primary, const Output& value, std::string_view name)
{
    const std::string slotName = uniqueSlotName(b, primary, name);
    auto scope = SlotScope::enter(b, primary);
    if (!scope)
        return unexpected(scope.error());
    auto slot = variable(b, value, slotName, false);
    if (!slot)
        return unexpected(slot.error());
    b.variableStore().add(slotName, *slot);
    return slot;
}

} // namespace tstudio::training
