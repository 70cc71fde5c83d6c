// get_global_step / create_global_step / get_or_create_global_step as TensorFlow 1.15's training_util.
#include "training/global_step.h"

#include "builder/variables.h"

#include <variant>

namespace tstudio::training {
namespace {

/// assert_global_step: an integer scalar (or a scalar of unknown rank).
Status checkGlobalStep(const Variable& v)
{
    if (!isInteger(v.dtype()))
        return invalidArgumentError("Existing \"global_step\" does not have integer type: <dtype: '" +
                                    dataTypeName(v.dtype()) + "'>");
    const TensorShape& shape = v.shape();
    if (!shape.isUnknownRank() && shape.rank() != 0 && shape.isFullyDefined())
        return invalidArgumentError("Existing \"global_step\" is not scalar: " + pythonShapeString(shape));
    return Status::ok();
}

/// The variable of GLOBAL_VARIABLES (or any collection) whose node is `node`.
std::optional<Variable> variableNamed(const GraphBuilder& b, const std::string& node)
{
    for (const std::string& key : b.collections().keys())
        for (const Variable& v : b.collections().variables(key))
            if (v.name() == node)
                return v;
    return std::nullopt;
}

} // namespace

Expected<std::optional<Variable>> getGlobalStep(const GraphBuilder& b)
{
    const std::vector<CollectionItem> items = b.collections().get(graph_keys::kGlobalStep);
    std::optional<Variable> found;
    std::string nodeName;
    if (items.size() == 1) {
        if (const auto* v = std::get_if<Variable>(&items.front()))
            found = *v;
        else
            nodeName = collectionItemName(items.front());
    } else if (items.empty()) {
        if (!b.findNode("global_step"))
            return std::optional<Variable>{};
        nodeName = "global_step";
    } else {
        return std::optional<Variable>{}; // TensorFlow: "Multiple tensors in global_step collection."
    }
    if (!found) {
        // A tensor "x:0" or an op name: only a variable can be stepped here.
        const std::string node = nodeName.substr(0, nodeName.find(':'));
        found = variableNamed(b, node);
        if (!found)
            return unexpected(
                invalidArgumentError("Existing \"global_step\" must be a Variable or Tensor: " + nodeName + "."));
    }
    if (Status s = checkGlobalStep(*found); !s.isOk())
        return unexpected(s);
    return found;
}

Expected<Variable> createGlobalStep(GraphBuilder& b)
{
    auto existing = getGlobalStep(b);
    if (!existing)
        return unexpected(existing.error());
    if (*existing)
        return unexpected(invalidArgumentError("\"global_step\" already exists."));
    auto root = b.nameScope("");
    if (!root)
        return unexpected(root.error());
    return getVariable(
        b, "global_step", TensorShape::scalar(), tensorflow::DT_INT64, Initializer::zeros(), false,
        std::vector<std::string>{std::string(graph_keys::kGlobalVariables), std::string(graph_keys::kGlobalStep)});
}

Expected<Variable> getOrCreateGlobalStep(GraphBuilder& b)
{
    auto existing = getGlobalStep(b);
    if (!existing)
        return unexpected(existing.error());
    if (*existing)
        return **existing;
    return createGlobalStep(b);
}

} // namespace tstudio::training
