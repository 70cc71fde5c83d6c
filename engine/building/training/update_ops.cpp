// UPDATE_OPS from the builder's collections, a MetaGraphDef's node_list or TensorFlow's batch-norm names.
#include "training/update_ops.h"

#include "builder/collections.h"

#include <map>
#include <regex>
#include <variant>

namespace tstudio::training {
namespace {

std::string nodeOfInput(const std::string& input)
{
    std::string name = input.starts_with('^') ? input.substr(1) : input;
    return name.substr(0, name.find(':'));
}

} // namespace

std::vector<Operation> updateOps(const GraphBuilder& b)
{
    std::vector<Operation> ops;
    for (const CollectionItem& item : b.collections().get(graph_keys::kUpdateOps)) {
        if (const Operation* op = std::get_if<Operation>(&item))
            ops.push_back(*op);
        else if (const Output* tensor = std::get_if<Output>(&item))
            if (auto op = b.operation(tensor->node()))
                ops.push_back(*op);
    }
    return ops;
}

ScopeGuard afterUpdateOps(GraphBuilder& b)
{
    return b.controlDependencies(updateOps(b));
}

Expected<std::vector<Operation>> recoverUpdateOps(GraphBuilder& b, const std::map<std::string, ImportedCollection>* collections)
{
    if (auto present = updateOps(b); !present.empty())
        return present;
    if (collections != nullptr) {
        const auto it = collections->find(std::string(graph_keys::kUpdateOps));
        if (it != collections->end() && it->second.def.has_node_list()) {
            for (const std::string& name : it->second.def.node_list().value()) {
                auto op = b.operation(nodeOfInput(name));
                if (!op)
                    return unexpected(notFoundError("collection 'update_ops' names '" + name + "', which is not an op of the graph"));
                b.collections().add(graph_keys::kUpdateOps, *op);
            }
            return updateOps(b);
        }
    }
    const tensorflow::GraphDef& graph = b.graphDef();
    std::map<std::string, std::vector<const tensorflow::NodeDef*>> consumers; // data consumers by node
    for (const tensorflow::NodeDef& node : graph.node())
        for (const std::string& input : node.input())
            if (!input.starts_with('^'))
                consumers[nodeOfInput(input)].push_back(&node);
    static const std::regex kName(R"((.*/)?AssignMovingAvg(_[0-9]+)?)");
    for (const tensorflow::NodeDef& node : graph.node()) {
        if ((node.op() != "AssignSub" && node.op() != "AssignSubVariableOp") || !std::regex_match(node.name(), kName))
            continue;
        std::vector<std::string> updates;
        const auto it = consumers.find(node.name());
        if (it == consumers.end()) {
            updates.push_back(node.name());
        } else {
            // With a training tensor the unfused layer assigns in a cond branch: the cond's Merge is the update.
            for (const tensorflow::NodeDef* consumer : it->second)
                if (consumer->op() == "Merge" || consumer->op() == "RefMerge")
                    updates.push_back(consumer->name());
            if (updates.size() != it->second.size())
                continue;
        }
        for (const std::string& name : updates)
            if (auto op = b.operation(name))
                b.collections().add(graph_keys::kUpdateOps, *op);
    }
    return updateOps(b);
}

} // namespace tstudio::training
