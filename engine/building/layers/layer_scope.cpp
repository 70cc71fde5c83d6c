// The scopes, weights and input checks shared by the tf.layers functions (TensorFlow 1.15's base Layer).
#include "layers/layer_scope.h"

#include "builder/ops_sugar.h"
#include "builder/variables.h"

#include <memory>
#include <utility>

namespace tstudio::layers {

Expected<LayerScope> LayerScope::enter(GraphBuilder& b, std::string_view baseName, std::string_view name, Reuse reuse)
{
    LayerScope scope;
    if (!name.empty() || reuse != Reuse::kFalse) {
        const std::string_view scopeName = name.empty() ? baseName : name;
        auto guard = tstudio::variableScope(b, scopeName, reuse);
        if (!guard)
            return unexpected(guard.error());
        scope.m_layerName = std::string(scopeName);
        scope.m_variableScope = guard->name();
        scope.m_guard = std::move(*guard);
        return scope;
    }
    // variable_scope(None, default_name=baseName): a unique name, used for both scopes.
    auto nameGuard = b.nameScope(baseName);
    if (!nameGuard)
        return unexpected(nameGuard.error());
    std::string full = nameGuard->name(); // "outer/dense_1/"
    full.pop_back();
    const std::size_t slash = full.rfind('/');
    std::string unique = slash == std::string::npos ? full : full.substr(slash + 1);

    VariableStore& store = b.variableStore();
    VariableScopeState state = store.current();
    state.name = state.name.empty() ? unique : state.name + "/" + unique;
    const std::size_t depth = store.depth();
    scope.m_layerName = unique;
    scope.m_variableScope = state.name;
    store.push(std::move(state));
    auto names = std::make_shared<ScopeGuard>(std::move(*nameGuard));
    scope.m_guard = ScopeGuard(scope.m_variableScope, [&b, depth, names] {
        b.variableStore().popTo(depth);
        names->close();
    });
    return scope;
}

Expected<Variable> addWeight(GraphBuilder& b, std::string_view name, const TensorShape& shape, DataType dtype,
                             const std::optional<Initializer>& initializer, const Regularizer& regularizer,
                             bool trainable)
{
    const std::string& scope = b.variableStore().current().name;
    const std::string fullName = scope.empty() ? std::string(name) : scope + "/" + std::string(name);
    const bool existed = b.variableStore().find(fullName) != nullptr;
    auto variable = getVariable(b, name, shape, dtype, initializer, trainable);
    if (!variable)
        return variable;
    if (regularizer && !existed) {
        auto loss = addRegularizationLoss(b, *variable, regularizer);
        if (!loss)
            return unexpected(loss.error());
    }
    return variable;
}

std::string pythonShapeList(const TensorShape& shape)
{
    if (shape.isUnknownRank())
        return "None";
    std::string text = "[";
    for (int i = 0; i < shape.rank(); ++i) {
        if (i > 0)
            text += ", ";
        text += shape.dim(i) < 0 ? std::string("None") : std::to_string(shape.dim(i));
    }
    return text + "]";
}

namespace {

std::string incompatible(const std::string& layerName)
{
    return "Input 0 of layer " + layerName + " is incompatible with the layer: ";
}

Status undefinedRank(const std::string& layerName)
{
    return invalidArgumentError(incompatible(layerName) +
                                "its rank is undefined, but the layer requires a defined rank.");
}

} // namespace

Status checkInputNdim(const std::string& layerName, const Output& x, int ndim)
{
    const TensorShape& shape = x.shape();
    if (shape.isUnknownRank())
        return undefinedRank(layerName);
    if (shape.rank() != ndim) {
        return invalidArgumentError(incompatible(layerName) + "expected ndim=" + std::to_string(ndim) +
                                    ", found ndim=" + std::to_string(shape.rank()) +
                                    ". Full shape received: " + pythonShapeList(shape));
    }
    return Status();
}

Status checkInputMinNdim(const std::string& layerName, const Output& x, int minNdim)
{
    const TensorShape& shape = x.shape();
    if (shape.isUnknownRank())
        return undefinedRank(layerName);
    if (shape.rank() < minNdim) {
        return invalidArgumentError(incompatible(layerName) + ": expected min_ndim=" + std::to_string(minNdim) +
                                    ", found ndim=" + std::to_string(shape.rank()) +
                                    ". Full shape received: " + pythonShapeList(shape));
    }
    return Status();
}

Expected<Output> elementAt(GraphBuilder& b, const Output& x, std::int64_t index)
{
    auto scope = b.nameScope("strided_slice");
    if (!scope)
        return unexpected(scope.error());
    auto begin = ops::constantInts(b, {index}, TensorShape{1}, tensorflow::DT_INT32, "stack");
    if (!begin)
        return begin;
    auto end = ops::constantInts(b, {index + 1}, TensorShape{1}, tensorflow::DT_INT32, "stack_1");
    if (!end)
        return end;
    auto strides = ops::constantInts(b, {1}, TensorShape{1}, tensorflow::DT_INT32, "stack_2");
    if (!strides)
        return strides;
    AttrMap attrs = {{"begin_mask", attr::i(0)},
                     {"end_mask", attr::i(0)},
                     {"ellipsis_mask", attr::i(0)},
                     {"new_axis_mask", attr::i(0)},
                     {"shrink_axis_mask", attr::i(1)}};
    return ops::firstOutput(b.op("StridedSlice", {x, *begin, *end, *strides}, std::move(attrs), scope->name()));
}

Expected<Output> autopack(GraphBuilder& b, const std::vector<std::pair<Output, std::int64_t>>& elements,
                          std::string_view name)
{
    auto scope = b.nameScope(name);
    if (!scope)
        return unexpected(scope.error());
    std::vector<Output> values;
    for (std::size_t i = 0; i < elements.size(); ++i) {
        if (elements[i].first.isValid()) {
            values.push_back(elements[i].first);
            continue;
        }
        auto value =
            ops::constantInts(b, {elements[i].second}, TensorShape::scalar(), tensorflow::DT_INT32, std::to_string(i));
        if (!value)
            return value;
        values.push_back(*value);
    }
    return ops::firstOutput(b.op("Pack", {OpInput(values)}, {{"axis", attr::i(0)}}, scope->name()));
}

} // namespace tstudio::layers
