// Freezing: prune to the outputs, then replace variables by Consts holding checkpoint values.
#include "model/freeze.h"

#include "builder/learning_phase.h"
#include "builder/tensor_proto_values.h"
#include "framework/allocator.h"
#include "framework/data_type.h"
#include "framework/node_attrs.h"
#include "framework/tensor.h"
#include "graph/graph.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "model/restore_variables.h"

#include <deque>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace tstudio {
namespace {

/// The node an input string refers to: "^a" and "a:1" both name "a" (TensorFlow's _node_name).
std::string nodeNameOf(std::string_view input)
{
    if (!input.empty() && input.front() == '^')
        input.remove_prefix(1);
    return std::string(input.substr(0, input.find(':')));
}

/// The node names a NodeDef's "_class" attr colocates it with ("loc:@x" -> "x").
std::vector<std::string> colocatedWith(const tensorflow::NodeDef& node)
{
    std::vector<std::string> names;
    const auto it = node.attr().find("_class");
    if (it == node.attr().end())
        return names;
    constexpr std::string_view kPrefix = "loc:@";
    for (const std::string& s : it->second.list().s())
        if (s.starts_with(kPrefix))
            names.push_back(s.substr(kPrefix.size()));
    return names;
}

tensorflow::NodeDef makeConst(const std::string& name, const tensorflow::AttrValue& dtype, const Tensor& value)
{
    tensorflow::NodeDef node;
    node.set_name(name);
    node.set_op("Const");
    (*node.mutable_attr())["dtype"] = dtype;
    value.toProto((*node.mutable_attr())["value"].mutable_tensor(),
                  makeTensorProtoUsesContent(value.dtype(), value.numElements()));
    return node;
}

/// Ops TensorFlow's freezing walks through from a ReadVariableOp back to its VarHandleOp.
bool forwardsResource(std::string_view op)
{
    return op == "Identity" || op == "Switch" || op == "Enter" || op == "Exit" || op == "Merge" ||
           op == "NextIteration";
}

/// The variables a ReadVariableOp / ResourceGather reads, and the nodes on the way.
struct ResourcePath {
    std::vector<std::string> variables;
    std::vector<std::string> forwarders;
};

Expected<ResourcePath> traceResource(const tensorflow::NodeDef& reader,
                                     const std::unordered_map<std::string, const tensorflow::NodeDef*>& byName)
{
    ResourcePath path;
    std::deque<std::string> pending;
    std::unordered_set<std::string> seen;
    if (reader.input_size() > 0)
        pending.push_back(nodeNameOf(reader.input(0)));
    while (!pending.empty()) {
        const std::string name = pending.front();
        pending.pop_front();
        if (!seen.insert(name).second)
            continue;
        const auto it = byName.find(name);
        if (it != byName.end() && it->second->op() == "VarHandleOp") {
            path.variables.push_back(name);
            continue;
        }
        if (it == byName.end() || !forwardsResource(it->second->op()) || it->second->input_size() == 0)
            return unexpected(invalidArgumentError("node '" + reader.name() + "' (" + reader.op() +
                                                   "): Cannot find the variable that is an input to the "
                                                   "ReadVariableOp."));
        path.forwarders.push_back(name);
        const tensorflow::NodeDef& node = *it->second;
        // A Merge forwards every branch; the others forward their first input (Switch's second
        // input is its predicate).
        const int forwarded = node.op() == "Merge" ? node.input_size() : 1;
        for (int i = 0; i < forwarded; ++i)
            if (!node.input(i).starts_with("^"))
                pending.push_back(nodeNameOf(node.input(i)));
    }
    return path;
}

/// A copy of `node` with T set to the resource's value dtype and no "_output_shapes" (the
/// shapes recorded were those of the resource handle).
tensorflow::NodeDef retypedForwarder(const tensorflow::NodeDef& node, const tensorflow::AttrValue& dtype)
{
    tensorflow::NodeDef out;
    out.set_name(node.name());
    out.set_op(node.op());
    *out.mutable_input() = node.input();
    for (const auto& [key, value] : node.attr())
        if (key != "_output_shapes")
            (*out.mutable_attr())[key] = value;
    (*out.mutable_attr())["T"] = dtype;
    return out;
}

Expected<std::vector<tensorflow::NodeDef>>
readAsIdentityOrGather(const tensorflow::NodeDef& node, const tensorflow::AttrValue& dtype, Allocator& allocator)
{
    std::vector<tensorflow::NodeDef> out;
    const auto classAttr = node.attr().find("_class");
    if (node.op() == "ReadVariableOp") {
        tensorflow::NodeDef identity;
        identity.set_name(node.name());
        identity.set_op("Identity");
        identity.add_input(node.input(0));
        (*identity.mutable_attr())["T"] = dtype;
        if (classAttr != node.attr().end())
            (*identity.mutable_attr())["_class"] = classAttr->second;
        out.push_back(std::move(identity));
        return out;
    }
    // ResourceGather -> GatherV2(params, indices, axis) with a Const axis of 0.
    if (const auto* batchDims = findAttr(node, "batch_dims"); batchDims && batchDims->i() != 0)
        return unexpected(invalidArgumentError("node '" + node.name() +
                                               "' (ResourceGather): batch_dims != 0 is not supported by freezing"));
    if (node.input_size() < 2)
        return unexpected(invalidArgumentError("node '" + node.name() + "' (ResourceGather) has fewer than 2 inputs"));
    const auto indices = node.attr().find("Tindices");
    if (indices == node.attr().end())
        return unexpected(invalidArgumentError("node '" + node.name() + "' (ResourceGather) has no attr 'Tindices'"));
    auto axis = Tensor::allocate(allocator, indices->second.type(), TensorShape::scalar());
    if (!axis)
        return unexpected(axis.error().withContext("node '" + node.name() + "'"));
    out.push_back(makeConst(node.name() + "/axis", indices->second, *axis));
    tensorflow::NodeDef gather;
    gather.set_name(node.name());
    gather.set_op("GatherV2");
    gather.add_input(node.input(0));
    gather.add_input(node.input(1));
    gather.add_input(node.name() + "/axis");
    (*gather.mutable_attr())["Tparams"] = dtype;
    (*gather.mutable_attr())["Tindices"] = indices->second;
    (*gather.mutable_attr())["Taxis"] = indices->second;
    if (classAttr != node.attr().end())
        (*gather.mutable_attr())["_class"] = classAttr->second;
    out.push_back(std::move(gather));
    return out;
}

} // namespace

Expected<tensorflow::GraphDef> extractSubGraph(const tensorflow::GraphDef& graph,
                                               const std::vector<std::string>& outputNodes)
{
    if (outputNodes.empty())
        return unexpected(invalidArgumentError("no output nodes given: name the nodes the frozen graph must compute"));
    // Graph::fromGraphDef reports duplicate names, dangling inputs and bad input strings by node.
    if (auto checked = Graph::fromGraphDef(graph); !checked)
        return unexpected(checked.error());
    std::unordered_map<std::string, int> position;
    for (int i = 0; i < graph.node_size(); ++i)
        position.emplace(graph.node(i).name(), i);
    std::vector<bool> keep(static_cast<std::size_t>(graph.node_size()), false);
    std::deque<int> pending;
    for (const std::string& name : outputNodes) {
        const auto it = position.find(name);
        if (it == position.end()) {
            const std::string base = nodeNameOf(name);
            const bool tensorName = base != name && position.contains(base);
            return unexpected(invalidArgumentError(
                "output node '" + name + "' is not in the graph" +
                (tensorName ? " (outputs are node names: '" + base + "', not tensor names)" : "")));
        }
        pending.push_back(it->second);
    }
    while (!pending.empty()) {
        const int index = pending.front();
        pending.pop_front();
        if (keep[static_cast<std::size_t>(index)])
            continue;
        keep[static_cast<std::size_t>(index)] = true;
        const tensorflow::NodeDef& node = graph.node(index);
        std::vector<std::string> next;
        for (const std::string& input : node.input())
            next.push_back(nodeNameOf(input));
        for (std::string& name : colocatedWith(node))
            next.push_back(std::move(name));
        for (const std::string& name : next)
            if (const auto it = position.find(name);
                it != position.end() && !keep[static_cast<std::size_t>(it->second)])
                pending.push_back(it->second);
    }
    tensorflow::GraphDef out;
    for (int i = 0; i < graph.node_size(); ++i)
        if (keep[static_cast<std::size_t>(i)])
            *out.add_node() = graph.node(i);
    *out.mutable_library() = graph.library();
    *out.mutable_versions() = graph.versions();
    return out;
}

Expected<FrozenGraph> freezeGraph(const tensorflow::GraphDef& graph, const std::string& checkpointPrefix,
                                  const std::vector<std::string>& outputNodes, const FreezeOptions& options)
{
    auto sub = extractSubGraph(graph, outputNodes);
    if (!sub)
        return unexpected(sub.error());
    if (options.clearDevices)
        for (auto& node : *sub->mutable_node())
            node.clear_device();

    std::unordered_map<std::string, const tensorflow::NodeDef*> byName;
    for (const auto& node : sub->node())
        byName.emplace(node.name(), &node);
    auto frozenByChoice = [&](const std::string& name) {
        return (!options.variableAllowlist || options.variableAllowlist->contains(name)) &&
               !options.variableBlocklist.contains(name);
    };

    // Resource reads whose variables are all frozen; the nodes between them get the value dtype.
    std::unordered_map<std::string, tensorflow::AttrValue> convertedReads;
    std::unordered_map<std::string, tensorflow::AttrValue> retypedForwarders;
    for (const auto& node : sub->node()) {
        if (node.op() != "ReadVariableOp" && node.op() != "ResourceGather")
            continue;
        auto path = traceResource(node, byName);
        if (!path)
            return unexpected(path.error());
        bool allFrozen = !path->variables.empty();
        for (const std::string& v : path->variables)
            allFrozen = allFrozen && frozenByChoice(v);
        const auto dtype = node.attr().find("dtype");
        if (!allFrozen || dtype == node.attr().end())
            continue;
        convertedReads.emplace(node.name(), dtype->second);
        for (const std::string& f : path->forwarders)
            retypedForwarders.emplace(f, dtype->second);
    }

    auto reader = CheckpointReader::open(checkpointPrefix);
    if (!reader)
        return unexpected(reader.error());
    const std::map<std::string, std::string> saverKeys = saverCheckpointKeys(graph);
    CpuAllocator allocator;
    FrozenGraph result;
    // A frozen graph infers: the learning phase (batch norm, dropout) becomes the constant false.
    const std::optional<std::string> phase = findLearningPhase(*sub);
    const std::string phaseNode = phase ? phase->substr(0, phase->find(':')) : std::string();
    for (const auto& node : sub->node()) {
        if (!phaseNode.empty() && node.name() == phaseNode && options.learningPhaseFalse) {
            tensorflow::AttrValue dtype;
            dtype.set_type(tensorflow::DT_BOOL);
            auto value = Tensor::fromVector<bool>(allocator, TensorShape::scalar(), {false});
            if (!value)
                return unexpected(value.error());
            *result.graph.add_node() = makeConst(node.name(), dtype, *value);
            result.learningPhaseFixed = true;
        } else if (isVariableOp(node.op()) && frozenByChoice(node.name())) {
            auto value = readVariableFromCheckpoint(node, *reader, saverKeys, allocator);
            if (!value)
                return unexpected(value.error());
            *result.graph.add_node() = makeConst(node.name(), node.attr().at("dtype"), *value);
            result.frozenVariables.push_back(node.name());
        } else if (const auto read = convertedReads.find(node.name()); read != convertedReads.end()) {
            auto replaced = readAsIdentityOrGather(node, read->second, allocator);
            if (!replaced)
                return unexpected(replaced.error());
            for (auto& n : *replaced)
                *result.graph.add_node() = std::move(n);
        } else if (const auto forwarder = retypedForwarders.find(node.name()); forwarder != retypedForwarders.end()) {
            *result.graph.add_node() = retypedForwarder(node, forwarder->second);
        } else {
            *result.graph.add_node() = node;
        }
    }
    *result.graph.mutable_library() = sub->library();
    return result;
}

} // namespace tstudio
