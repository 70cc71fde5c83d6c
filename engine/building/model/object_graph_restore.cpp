// Object-based restore of a TensorFlow 2 SavedModel's variables (TrackableObjectGraph paths).
#include "model/object_graph_restore.h"

#include "framework/node_attrs.h"
#include "graph/tensor_id.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/proto_parse.h"
#include "model/meta_graph.h"
#include "runtime/session.h"

#include <map>

namespace tstudio {
namespace {

std::string joinPath(const std::vector<std::string>& path)
{
    std::string out;
    for (const std::string& part : path)
        out += (out.empty() ? "" : "/") + part;
    return out;
}

std::string describe(const SavedObjectVariable& v)
{
    return "variable '" + v.name + "' (object graph node " + std::to_string(v.nodeId) + ", path '" + joinPath(v.path) +
           "')";
}

/// "restore_objects", or the first "restore_objects_N" no node of `graph` uses as name or scope.
std::string freshScope(const tensorflow::GraphDef& graph)
{
    for (int n = 0;; ++n) {
        const std::string scope = n == 0 ? "restore_objects" : "restore_objects_" + std::to_string(n);
        bool used = false;
        for (const auto& node : graph.node())
            used = used || node.name() == scope || node.name().starts_with(scope + "/");
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

/// Object graph node id -> the graph node holding that variable's handle.
std::map<int, std::string> variableHandles(const tensorflow::GraphDef& graph,
                                           const tensorflow::SavedObjectGraph& objectGraph,
                                           const SavedObjectGraphInfo& info)
{
    std::map<std::string, const tensorflow::NodeDef*> byName;
    for (const auto& node : graph.node())
        byName.emplace(node.name(), &node);
    std::map<int, std::string> handles;
    for (const auto& node : graph.node()) {
        if (node.op() != "StatefulPartitionedCall" && node.op() != "PartitionedCall")
            continue;
        const tensorflow::AttrValue* f = findAttr(node, "f");
        if (!f || f->value_case() != tensorflow::AttrValue::kFunc)
            continue;
        const auto concrete = objectGraph.concrete_functions().find(f->func().name());
        if (concrete == objectGraph.concrete_functions().end())
            continue;
        std::vector<std::string> data;
        for (const std::string& input : node.input())
            if (!input.starts_with("^"))
                data.push_back(input);
        const auto& bound = concrete->second.bound_inputs();
        if (static_cast<std::size_t>(bound.size()) > data.size())
            continue;
        const std::size_t first = data.size() - static_cast<std::size_t>(bound.size());
        for (int i = 0; i < bound.size(); ++i) {
            auto id = parseTensorId(data[first + static_cast<std::size_t>(i)]);
            const auto source = id ? byName.find(id->node) : byName.end();
            if (source != byName.end() && source->second->op() == "VarHandleOp")
                handles.emplace(bound[i], id->node);
        }
    }
    for (const SavedObjectVariable& v : info.variables) {
        if (handles.contains(v.nodeId))
            continue;
        for (const auto& node : graph.node()) {
            if (node.op() != "VarHandleOp")
                continue;
            auto shared = attrString(node, "shared_name");
            if (shared && !shared->empty() && *shared == v.name) {
                handles.emplace(v.nodeId, node.name());
                break;
            }
        }
    }
    return handles;
}

} // namespace

Expected<tensorflow::TrackableObjectGraph> readCheckpointObjectGraph(const CheckpointReader& reader)
{
    const std::string key(kObjectGraphKey);
    if (!reader.contains(key))
        return unexpected(notFoundError("checkpoint '" + reader.prefix() + "' has no " + key +
                                        " entry: it is not an object-based (TensorFlow 2) checkpoint"));
    CpuAllocator allocator;
    auto tensor = reader.read(key, allocator);
    if (!tensor)
        return unexpected(tensor.error());
    tensorflow::TrackableObjectGraph graph;
    if (tensor->dtype() != tensorflow::DT_STRING || tensor->numElements() != 1 ||
        !parseBinaryProto(tensor->strings()[0], graph))
        return unexpected(dataLossError("checkpoint '" + reader.prefix() + "': its " + key +
                                        " entry is not a string scalar holding a TrackableObjectGraph"));
    return graph;
}

Expected<std::string> variableCheckpointKey(const SavedObjectVariable& variable,
                                            const tensorflow::TrackableObjectGraph& checkpointGraph,
                                            const std::string& prefix)
{
    if (checkpointGraph.nodes_size() == 0)
        return unexpected(
            notFoundError(describe(variable) + ": the object graph of checkpoint '" + prefix + "' is empty"));
    // A node no child edge reaches (a slot variable, referenced by its optimizer's slot_variables)
    // has the same id in both graphs, as TensorFlow writes them.
    int node = variable.path.empty() && variable.nodeId > 0 && variable.nodeId < checkpointGraph.nodes_size()
                   ? variable.nodeId
                   : 0;
    for (const std::string& local : variable.path) {
        int next = -1;
        for (const auto& child : checkpointGraph.nodes(node).children())
            if (child.local_name() == local) {
                next = child.node_id();
                break;
            }
        if (next < 0 || next >= checkpointGraph.nodes_size())
            return unexpected(notFoundError(describe(variable) + " is not in the object graph of checkpoint '" +
                                            prefix + "': no child '" + local + "' there"));
        node = next;
    }
    for (const auto& attribute : checkpointGraph.nodes(node).attributes())
        if (attribute.name() == "VARIABLE_VALUE")
            return attribute.checkpoint_key();
    return unexpected(notFoundError(describe(variable) + ": its object in the object graph of checkpoint '" + prefix +
                                    "' has no VARIABLE_VALUE attribute"));
}

Expected<ObjectGraphRestoreResult> restoreObjectGraphVariables(Session& session, const ImportedMetaGraph& imported,
                                                               const tensorflow::SavedObjectGraph& objectGraph,
                                                               const SavedObjectGraphInfo& info,
                                                               const std::string& prefix)
{
    auto reader = CheckpointReader::open(prefix);
    if (!reader)
        return unexpected(reader.error());
    ObjectGraphRestoreResult result;
    if (info.variables.empty())
        return result;
    auto checkpointGraph = readCheckpointObjectGraph(*reader);
    if (!checkpointGraph)
        return unexpected(checkpointGraph.error());
    const std::map<int, std::string> handles = variableHandles(imported.graph, objectGraph, info);
    const std::string scope = freshScope(imported.graph);

    CpuAllocator allocator; // declared before the feeds, so their tensors go first
    tensorflow::GraphDef assigns;
    std::vector<std::pair<std::string, Tensor>> feeds;
    std::vector<std::string> targets;
    for (const SavedObjectVariable& variable : info.variables) {
        // A variable no node of the graph holds (an optimizer's slot, a variable no function
        // captures) has nothing to be assigned to: it is listed, not looked up.
        const auto handle = handles.find(variable.nodeId);
        if (handle == handles.end()) {
            result.withoutHandle.push_back(variable.name);
            continue;
        }
        auto key = variableCheckpointKey(variable, *checkpointGraph, prefix);
        if (!key)
            return unexpected(key.error());
        if (!reader->contains(*key))
            return unexpected(
                notFoundError(describe(variable) + ": key '" + *key + "' is missing from checkpoint '" + prefix + "'"));
        auto saved = reader->lookUp(*key);
        if (!saved)
            return unexpected(saved.error());
        if (variable.dtype != tensorflow::DT_INVALID && baseType(variable.dtype) != saved->dtype)
            return unexpected(invalidArgumentError(describe(variable) + " is " + dataTypeString(variable.dtype) +
                                                   " but checkpoint '" + prefix + "' holds '" + *key + "' as " +
                                                   dataTypeString(saved->dtype)));
        if (!variable.shape.isCompatibleWith(saved->shape))
            return unexpected(invalidArgumentError(describe(variable) + " has shape " + variable.shape.toString() +
                                                   " but checkpoint '" + prefix + "' holds '" + *key + "' with shape " +
                                                   saved->shape.toString()));
        auto value = reader->read(*key, allocator);
        if (!value)
            return unexpected(value.error());
        const std::string base = scope + "/" + std::to_string(variable.nodeId);
        tensorflow::NodeDef* placeholder = assigns.add_node();
        placeholder->set_name(base + "/value");
        placeholder->set_op("Placeholder");
        (*placeholder->mutable_attr())["dtype"] = typeAttr(value->dtype());
        *(*placeholder->mutable_attr())["shape"].mutable_shape() = value->shape().toProto();
        tensorflow::NodeDef* assign = assigns.add_node();
        assign->set_name(base + "/assign");
        assign->set_op("AssignVariableOp");
        assign->add_input(handle->second);
        assign->add_input(placeholder->name());
        (*assign->mutable_attr())["dtype"] = typeAttr(value->dtype());
        feeds.emplace_back(placeholder->name(), std::move(*value));
        targets.push_back(assign->name());
        result.restored.push_back(variable.name + " <- " + *key);
    }
    if (targets.empty())
        return result;
    if (Status s = session.extend(std::move(assigns)); !s.isOk())
        return unexpected(s.withContext("restoring the object graph's variables from '" + prefix + "'"));
    std::vector<Tensor> none;
    if (Status s = session.run(feeds, {}, targets, &none); !s.isOk())
        return unexpected(s.withContext("restoring the object graph's variables from '" + prefix + "'"));
    return result;
}

} // namespace tstudio
