// Restoring every variable of a session from a checkpoint by name.
#include "model/restore_variables.h"

#include "framework/data_type.h"
#include "framework/node_attrs.h"
#include "graph/tensor_id.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "runtime/session.h"

#include <unordered_map>

namespace tstudio {
namespace {

using NodeIndex = std::unordered_map<std::string, const tensorflow::NodeDef*>;

const tensorflow::NodeDef* find(const NodeIndex& nodes, const std::string& name)
{
    const auto it = nodes.find(name);
    return it == nodes.end() ? nullptr : it->second;
}

/// "restore_variables", or the first "restore_variables_N" no node of `graph` uses as a name or
/// a name scope.
std::string freshScope(const Graph& graph)
{
    const std::string base = "restore_variables";
    for (int n = 0;; ++n) {
        const std::string scope = n == 0 ? base : base + "_" + std::to_string(n);
        bool used = false;
        for (int i = 0; i < graph.nodeCount() && !used; ++i) {
            const std::string& name = graph.node(i).name();
            used = name == scope || name.starts_with(scope + "/");
        }
        if (!used)
            return scope;
    }
}

tensorflow::AttrValue typeAttr(DataType dtype)
{
    tensorflow::AttrValue v;
    v.set_type(dtype);
    return v;
}

tensorflow::AttrValue boolAttr(bool value)
{
    tensorflow::AttrValue v;
    v.set_b(value);
    return v;
}

} // namespace

bool isVariableOp(std::string_view op)
{
    return op == "VariableV2" || op == "Variable" || op == "VarHandleOp";
}

std::map<std::string, std::string> saverCheckpointKeys(const tensorflow::GraphDef& graph)
{
    NodeIndex nodes;
    for (const auto& node : graph.node())
        nodes.emplace(node.name(), &node);
    std::map<std::string, std::string> keys;
    for (const auto& node : graph.node()) {
        if ((node.op() != "Assign" && node.op() != "AssignVariableOp") || node.input_size() < 2)
            continue;
        auto value = parseTensorId(node.input(1));
        const auto variable = parseTensorId(node.input(0));
        if (!value || !variable || value->isControl())
            continue;
        // The value may pass through Identity nodes (resource variables restore through one).
        const tensorflow::NodeDef* source = find(nodes, value->node);
        for (int hops = 0; source && source->op() == "Identity" && source->input_size() > 0 && hops < 16; ++hops) {
            value = parseTensorId(source->input(0));
            source = value && !value->isControl() ? find(nodes, value->node) : nullptr;
        }
        // RestoreV2: element i of its tensor_names; the V1 ops Restore and RestoreSlice: their
        // scalar tensor_name.
        const bool v1 = source && (source->op() == "Restore" || source->op() == "RestoreSlice");
        if (!source || (source->op() != "RestoreV2" && !v1) || source->input_size() < 2)
            continue;
        const auto namesId = parseTensorId(source->input(1));
        const tensorflow::NodeDef* names = namesId ? find(nodes, namesId->node) : nullptr;
        if (!names || names->op() != "Const")
            continue;
        const auto* tensor = findAttr(*names, "value");
        const int element = v1 ? 0 : value->index;
        if (!tensor || element < 0 || element >= tensor->tensor().string_val_size() || (v1 && value->index != 0))
            continue;
        keys.emplace(variable->node, tensor->tensor().string_val(element));
    }
    return keys;
}

Expected<Tensor> readVariableFromCheckpoint(const tensorflow::NodeDef& variable, const CheckpointReader& reader,
                                            const std::map<std::string, std::string>& saverKeys, Allocator& allocator)
{
    std::string key = variable.name();
    if (!reader.contains(key)) {
        const auto saved = saverKeys.find(variable.name());
        if (saved == saverKeys.end() || !reader.contains(saved->second))
            return unexpected(notFoundError(
                "variable '" + variable.name() + "' (" + variable.op() + ") is not in checkpoint '" + reader.prefix() +
                "': it has no tensor named '" + variable.name() + "'" +
                (saved == saverKeys.end() ? "" : " nor '" + saved->second + "' (the key its saver restores)")));
        key = saved->second;
    }
    auto info = reader.lookUp(key);
    if (!info)
        return unexpected(info.error());
    auto dtype = attrType(variable, "dtype");
    if (!dtype)
        return unexpected(dtype.error().withContext("variable '" + variable.name() + "'"));
    if (baseType(*dtype) != info->dtype)
        return unexpected(invalidArgumentError("variable '" + variable.name() + "' has dtype " +
                                               dataTypeString(baseType(*dtype)) + " in the graph but checkpoint '" +
                                               reader.prefix() + "' holds '" + key + "' as " +
                                               dataTypeString(info->dtype)));
    if (findAttr(variable, "shape")) {
        auto shape = attrShape(variable, "shape");
        if (!shape)
            return unexpected(shape.error().withContext("variable '" + variable.name() + "'"));
        if (!shape->isCompatibleWith(info->shape))
            return unexpected(invalidArgumentError("variable '" + variable.name() + "' has shape " + shape->toString() +
                                                   " in the graph but checkpoint '" + reader.prefix() + "' holds '" +
                                                   key + "' with shape " + info->shape.toString()));
    }
    return reader.read(key, allocator);
}

Expected<RestoredVariables> restoreVariablesByName(Session& session, const std::string& prefix)
{
    const Graph* graph = session.graph();
    if (!graph)
        return unexpected(
            failedPreconditionError("the session has no graph yet: create it before restoring variables"));
    auto reader = CheckpointReader::open(prefix);
    if (!reader)
        return unexpected(reader.error());
    const std::map<std::string, std::string> saverKeys = saverCheckpointKeys(graph->graphDef());
    const std::string scope = freshScope(*graph);

    // Declared before the feeds so the tensors go before their allocator.
    CpuAllocator allocator;
    RestoredVariables result;
    tensorflow::GraphDef assigns;
    std::vector<std::pair<std::string, Tensor>> feeds;
    std::vector<std::string> targets;
    for (int i = 0; i < graph->nodeCount(); ++i) {
        const tensorflow::NodeDef& variable = graph->node(i);
        if (!isVariableOp(variable.op()))
            continue;
        const auto saved = saverKeys.find(variable.name());
        if (!reader->contains(variable.name()) && (saved == saverKeys.end() || !reader->contains(saved->second))) {
            result.notInCheckpoint.push_back(variable.name());
            continue;
        }
        auto value = readVariableFromCheckpoint(variable, *reader, saverKeys, allocator);
        if (!value)
            return unexpected(value.error());
        tensorflow::NodeDef* placeholder = assigns.add_node();
        placeholder->set_name(scope + "/" + variable.name() + "/value");
        placeholder->set_op("Placeholder");
        (*placeholder->mutable_attr())["dtype"] = typeAttr(value->dtype());
        *(*placeholder->mutable_attr())["shape"].mutable_shape() = value->shape().toProto();
        tensorflow::NodeDef* assign = assigns.add_node();
        assign->set_name(scope + "/" + variable.name() + "/assign");
        assign->add_input(variable.name());
        assign->add_input(placeholder->name());
        if (variable.op() == "VarHandleOp") {
            assign->set_op("AssignVariableOp");
            (*assign->mutable_attr())["dtype"] = typeAttr(value->dtype());
        } else {
            assign->set_op("Assign");
            (*assign->mutable_attr())["T"] = typeAttr(value->dtype());
            (*assign->mutable_attr())["validate_shape"] = boolAttr(true);
            (*assign->mutable_attr())["use_locking"] = boolAttr(true);
        }
        if (!variable.device().empty())
            assign->set_device(variable.device());
        feeds.emplace_back(placeholder->name(), std::move(*value));
        targets.push_back(assign->name());
        result.restored.push_back(variable.name());
    }
    if (targets.empty())
        return result;
    if (Status s = session.extend(std::move(assigns)); !s.isOk())
        return unexpected(s);
    std::vector<Tensor> none;
    if (Status s = session.run(feeds, {}, targets, &none); !s.isOk())
        return unexpected(s);
    return result;
}

} // namespace tstudio
