// Variables: the VariableV2 / Assign / read pattern, get_variable's store rules, and the initializer ops.
#include "builder/variables.h"

#include "builder/ops_sugar.h"

#include <algorithm>
#include <variant>

namespace tstudio {
namespace {

using InitialSource = std::variant<tensorflow::TensorProto, Output, InitialValueFunction>;

/// RefVariable._init_from_args: the initial value, "x", "x/Assign" and "x/read", outside control
/// dependencies and outside any while loop or cond (TensorFlow's init_scope: a layer built in a
/// loop body has its variables outside, and the body reads them through Enters), then the
/// collections.
Expected<Variable> makeVariable(GraphBuilder& b, std::string_view name, const InitialSource& source, bool trainable,
                                const std::optional<std::vector<std::string>>& collections)
{
    auto noControl = b.clearControlDependencies();
    auto noContext = b.controlFlowContextScope(nullptr);
    auto scope = b.nameScope(name.empty() ? std::string_view("Variable") : name);
    if (!scope)
        return unexpected(scope.error());
    const std::string& scopeName = scope->name(); // "x/"
    const std::string trueName = scopeName.substr(0, scopeName.size() - 1);

    Output initial;
    std::optional<ScopeGuard> colocationAttr;
    if (const auto* fn = std::get_if<InitialValueFunction>(&source)) {
        // The initializer's ops and the variable carry "_class" = "loc:@x" although x does not exist
        // yet: TensorFlow's way of colocating them with it.
        colocationAttr.emplace(b.attrScope({{"_class", attr::strings({"loc:@" + trueName})}}));
        auto initScope = b.nameScope("Initializer");
        if (!initScope)
            return unexpected(initScope.error());
        auto noDevice = b.clearDevice();
        auto value = (*fn)(b);
        if (!value)
            return unexpected(value.error());
        initial = *value;
    } else if (const auto* proto = std::get_if<tensorflow::TensorProto>(&source)) {
        auto value = ops::constant(b, *proto, "initial_value");
        if (!value)
            return unexpected(value.error());
        initial = *value;
    } else {
        initial = std::get<Output>(source);
    }
    if (!initial.shape().isFullyDefined())
        return unexpected(
            invalidArgumentError("initial_value must have a shape specified: " + pythonShapeString(initial.shape())));

    auto var = b.op("VariableV2", {},
                    {{"shape", attr::shape(initial.shape())}, {"dtype", attr::type(initial.baseDtype())}}, scopeName);
    colocationAttr.reset();
    if (!var)
        return unexpected(var.error());
    auto assign = b.op("Assign", {var->output(0), initial}, {{"validate_shape", attr::b(true)}}, "Assign");
    if (!assign)
        return unexpected(assign.error());
    Expected<Output> read = [&] {
        auto colocated = b.colocateWith(*var);
        return ops::identity(b, var->output(0), "read");
    }();
    if (!read)
        return unexpected(read.error());

    Variable result(var->output(0), *read, initial, *assign, trainable);
    std::vector<std::string> keys =
        collections.value_or(std::vector<std::string>{std::string(graph_keys::kGlobalVariables)});
    if (trainable && std::find(keys.begin(), keys.end(), graph_keys::kTrainableVariables) == keys.end())
        keys.emplace_back(graph_keys::kTrainableVariables);
    b.collections().addToEach(keys, result);
    return result;
}

} // namespace

std::string pythonShapeString(const TensorShape& shape)
{
    if (shape.isUnknownRank())
        return "<unknown>";
    auto dim = [](std::int64_t d) { return d < 0 ? std::string("?") : std::to_string(d); };
    if (shape.rank() == 1)
        return "(" + dim(shape.dim(0)) + ",)";
    std::string out = "(";
    for (int i = 0; i < shape.rank(); ++i)
        out += (i > 0 ? ", " : "") + dim(shape.dim(i));
    return out + ")";
}

Expected<Variable> getVariable(GraphBuilder& b, std::string_view name, const TensorShape& shape, DataType dtype,
                               std::optional<Initializer> initializer, bool trainable,
                               std::optional<std::vector<std::string>> collections)
{
    VariableStore& store = b.variableStore();
    const VariableScopeState& scope = store.current();
    const std::string fullName = scope.name.empty() ? std::string(name) : scope.name + "/" + std::string(name);

    if (const Variable* found = store.find(fullName)) {
        if (scope.reuse == Reuse::kFalse)
            return unexpected(invalidArgumentError("Variable " + fullName +
                                                   " already exists, disallowed. Did you mean to set reuse=True or "
                                                   "reuse=tf.AUTO_REUSE in VarScope?"));
        if (!shape.isCompatibleWith(found->shape()))
            return unexpected(invalidArgumentError("Trying to share variable " + fullName + ", but specified shape " +
                                                   pythonShapeString(shape) + " and found shape " +
                                                   pythonShapeString(found->shape()) + "."));
        if (baseType(dtype) != found->dtype())
            return unexpected(invalidArgumentError("Trying to share variable " + fullName + ", but specified dtype " +
                                                   dataTypeName(dtype) + " and found dtype " +
                                                   dataTypeName(found->ref().dtype()) + "."));
        return *found;
    }
    if (scope.reuse == Reuse::kTrue)
        return unexpected(invalidArgumentError("Variable " + fullName +
                                               " does not exist, or was not created with tf.get_variable(). Did you "
                                               "mean to set reuse=tf.AUTO_REUSE in VarScope?"));
    if (!shape.isFullyDefined())
        return unexpected(invalidArgumentError("Shape of a new variable (" + fullName +
                                               ") must be fully defined, but instead was " + pythonShapeString(shape) +
                                               "."));
    if (!initializer)
        initializer = scope.initializer;
    if (!initializer) {
        if (isFloating(dtype))
            initializer = Initializer::glorotUniform();
        else if (isInteger(dtype) || dtype == tensorflow::DT_BOOL || dtype == tensorflow::DT_STRING)
            initializer = Initializer::zeros();
        else
            return unexpected(invalidArgumentError("An initializer for variable " + fullName + " of <dtype: '" +
                                                   dataTypeName(baseType(dtype)) + "'> is required"));
    }

    // Variable names depend on the variable scope only: build from the root name scope.
    auto root = b.nameScope("");
    if (!root)
        return unexpected(root.error());
    const Initializer init = *initializer;
    const DataType valueType = baseType(dtype);
    auto made = makeVariable(b, fullName, InitialSource(InitialValueFunction([init, shape, valueType](GraphBuilder& g) {
                                 return init.build(g, shape, valueType);
                             })),
                             trainable, collections);
    if (!made)
        return unexpected(made.error());
    store.add(fullName, *made);
    return made;
}

Expected<Variable> variable(GraphBuilder& b, const tensorflow::TensorProto& initialValue, std::string_view name,
                            bool trainable, std::optional<std::vector<std::string>> collections)
{
    return makeVariable(b, name, InitialSource(initialValue), trainable, collections);
}

Expected<Variable> variable(GraphBuilder& b, const Output& initialValue, std::string_view name, bool trainable,
                            std::optional<std::vector<std::string>> collections)
{
    return makeVariable(b, name, InitialSource(initialValue), trainable, collections);
}

Expected<Variable> variable(GraphBuilder& b, const InitialValueFunction& makeInitialValue, std::string_view name,
                            bool trainable, std::optional<std::vector<std::string>> collections)
{
    if (!makeInitialValue)
        return unexpected(invalidArgumentError("tf.Variable needs an initial value"));
    return makeVariable(b, name, InitialSource(makeInitialValue), trainable, collections);
}

Expected<Operation> variablesInitializer(GraphBuilder& b, const std::vector<Variable>& variables, std::string_view name)
{
    if (variables.empty())
        return ops::noOp(b, name);
    std::vector<Operation> assigns;
    assigns.reserve(variables.size());
    for (const Variable& v : variables)
        assigns.push_back(v.initializer());
    return ops::group(b, assigns, name);
}

Expected<Operation> globalVariablesInitializer(GraphBuilder& b)
{
    return variablesInitializer(b, globalVariables(b), "init");
}

Expected<Operation> localVariablesInitializer(GraphBuilder& b)
{
    return variablesInitializer(b, localVariables(b), "init");
}

std::vector<Variable> globalVariables(const GraphBuilder& b)
{
    return b.collections().variables(graph_keys::kGlobalVariables);
}

std::vector<Variable> trainableVariables(const GraphBuilder& b)
{
    return b.collections().variables(graph_keys::kTrainableVariables);
}

std::vector<Variable> localVariables(const GraphBuilder& b)
{
    return b.collections().variables(graph_keys::kLocalVariables);
}

} // namespace tstudio
