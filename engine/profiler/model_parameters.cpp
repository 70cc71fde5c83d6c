// modelParameters: variable nodes, their shapes, and which of them count as model parameters.
#include "profiler/model_parameters.h"

#include "framework/data_type.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"
#include "proto/variable.pb.h"

#include <limits>
#include <set>
#include <string_view>

namespace tstudio::profiler {
namespace {

bool isVariableOp(const std::string& op)
{
    return op == "VariableV2" || op == "Variable" || op == "VarHandleOp";
}

/// "w:0" -> "w"; "w" stays.
std::string nodeNameOf(std::string_view name)
{
    const std::size_t colon = name.rfind(':');
    if (colon != std::string_view::npos && colon + 1 < name.size() &&
        name.substr(colon + 1).find_first_not_of("0123456789") == std::string_view::npos)
        name = name.substr(0, colon);
    return std::string(name);
}

/// The shape attr as dims (-1 unknown), whether it was fully known, and its elements (a scalar is 1).
void readShape(const tensorflow::NodeDef& node, VariableParameters& v)
{
    const auto it = node.attr().find("shape");
    if (it == node.attr().end() || !it->second.has_shape() || it->second.shape().unknown_rank()) {
        v.complete = false;
        return;
    }
    std::int64_t n = 1;
    for (const auto& d : it->second.shape().dim()) {
        v.shape.push_back(d.size() < 0 ? -1 : d.size());
        if (d.size() < 0)
            v.complete = false;
        else if (d.size() != 0 && n > std::numeric_limits<std::int64_t>::max() / d.size())
            n = std::numeric_limits<std::int64_t>::max();
        else
            n *= d.size();
    }
    v.parameters = v.complete ? n : 0;
}

/// The variable this one is colocated with ("_class": "loc:@w"), other than itself; "" when none.
std::string colocatedVariable(const tensorflow::NodeDef& node, const std::set<std::string>& variables)
{
    const auto it = node.attr().find("_class");
    if (it == node.attr().end())
        return {};
    constexpr std::string_view kPrefix = "loc:@";
    for (const std::string& s : it->second.list().s())
        if (s.starts_with(kPrefix)) {
            std::string target = s.substr(kPrefix.size());
            if (target != node.name() && variables.count(target))
                return target;
        }
    return {};
}

/// The longest other variable whose name + "/" starts this one's ("w/Momentum" -> "w"); "" when none.
std::string enclosingVariable(const std::string& name, const std::set<std::string>& variables)
{
    for (std::size_t slash = name.rfind('/'); slash != std::string::npos && slash > 0;
         slash = name.rfind('/', slash - 1)) {
        const std::string prefix = name.substr(0, slash);
        if (variables.count(prefix))
            return prefix;
    }
    return {};
}

} // namespace

ModelParameters modelParameters(const tensorflow::GraphDef& graph, const ModelParametersOptions& options)
{
    ModelParameters out;
    out.rule = options.trainableVariables ? ParameterRule::TrainableCollection : ParameterRule::AllButSlotsAndLocals;
    std::set<std::string> variables;
    for (const auto& node : graph.node())
        if (isVariableOp(node.op()))
            variables.insert(node.name());
    std::set<std::string> trainable;
    if (options.trainableVariables)
        for (const std::string& name : *options.trainableVariables)
            trainable.insert(nodeNameOf(name));
    std::set<std::string> locals;
    for (const std::string& name : options.localVariables)
        locals.insert(nodeNameOf(name));

    for (const auto& node : graph.node()) {
        if (!isVariableOp(node.op()))
            continue;
        VariableParameters v;
        v.name = node.name();
        v.op = node.op();
        readShape(node, v);
        if (out.rule == ParameterRule::TrainableCollection) {
            if (!trainable.count(v.name))
                v.excludedBecause = "not in trainable_variables";
        } else {
            const auto dtype = node.attr().find("dtype");
            const DataType type = dtype == node.attr().end() ? tensorflow::DT_INVALID : dtype->second.type();
            std::string other;
            if (locals.count(v.name))
                v.excludedBecause = "local variable";
            else if (dtype != node.attr().end() && !isFloating(type) && !isComplex(type))
                v.excludedBecause = "integer dtype";
            else if (!(other = colocatedVariable(node, variables)).empty())
                v.excludedBecause = "colocated with '" + other + "'";
            else if (!(other = enclosingVariable(v.name, variables)).empty())
                v.excludedBecause = "optimizer slot of '" + other + "'";
        }
        v.counted = v.excludedBecause.empty();
        if (v.counted) {
            out.total += v.parameters;
            out.complete = out.complete && v.complete;
        }
        out.variables.push_back(std::move(v));
    }
    return out;
}

Expected<std::optional<std::vector<std::string>>> variableCollection(const tensorflow::MetaGraphDef& metaGraph,
                                                                     const std::string& collection)
{
    const auto it = metaGraph.collection_def().find(collection);
    if (it == metaGraph.collection_def().end())
        return std::optional<std::vector<std::string>>();
    std::vector<std::string> names;
    int index = 0;
    for (const std::string& bytes : it->second.bytes_list().value()) {
        tensorflow::VariableDef def;
        if (!def.ParseFromString(bytes))
            return unexpected(dataLossError("collection '" + collection + "': entry " + std::to_string(index) +
                                            " is not a serialized VariableDef (" + std::to_string(bytes.size()) +
                                            " bytes)"));
        names.push_back(nodeNameOf(def.variable_name()));
        ++index;
    }
    return std::optional<std::vector<std::string>>(std::move(names));
}

} // namespace tstudio::profiler
