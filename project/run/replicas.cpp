// buildReplicas: the project's loss copied into towers that read their part of each batch.
#include "project/run/replicas.h"

#include "builder/ops_sugar.h"
#include "training/towers.h"
#include "framework/op_registry.h"
#include "graph/tensor_id.h"
#include "project/format/graph_dependencies.h"

#include <functional>
#include <set>

namespace tstudio::project {

namespace {

/// Ops whose copies would not be separate: while-loop frames, and updates of shared state.
bool isFrameOp(const std::string& op)
{
    return op == "Enter" || op == "RefEnter" || op == "Exit" || op == "RefExit" || op == "NextIteration" ||
           op == "RefNextIteration" || op == "LoopCond";
}

struct Input {
    std::string node;
    int index = 0;
    bool control = false;
};

Input parseInput(const std::string& text)
{
    Input in;
    if (!text.empty() && text.front() == '^') {
        in.control = true;
        in.node = text.substr(1);
        return in;
    }
    auto id = parseTensorId(text);
    if (id) {
        in.node = id->node;
        in.index = id->index;
    } else {
        in.node = text;
    }
    return in;
}

} // namespace

Expected<ReplicatedGradients> buildReplicas(GraphBuilder& b, const Output& loss, int count,
                                            const std::string& deviceType, const std::vector<std::string>& splitFeeds,
                                            training::Optimizer& optimizer,
                                            const std::optional<std::vector<Variable>>& varList,
                                            const std::string& where)
{
    // The nodes the loss needs, copied: the graph grows while the towers are built.
    const tensorflow::GraphDef graph = b.graphDef();
    const auto byName = nodesByName(graph);
    std::set<std::string> needed;
    addWithInputs(byName, loss.node(), needed);
    std::set<std::string> fed;
    for (const std::string& feed : splitFeeds) {
        auto id = parseTensorId(feed);
        if (id && needed.count(id->node))
            fed.insert(id->node);
    }

    // Which needed nodes depend on the data (they are copied per tower), in an order where every
    // node comes after its inputs.
    std::map<std::string, bool> dependsOnData;
    std::vector<std::string> order;
    std::function<bool(const std::string&)> visit = [&](const std::string& name) -> bool {
        if (auto it = dependsOnData.find(name); it != dependsOnData.end())
            return it->second;
        dependsOnData[name] = false; // a cycle (loop back edge) is refused below via its frame ops
        const auto node = byName.find(name);
        if (node == byName.end())
            return false;
        bool data = fed.count(name) > 0;
        for (const std::string& input : node->second->input())
            data = visit(parseInput(input).node) || data;
        dependsOnData[name] = data;
        if (data && !fed.count(name))
            order.push_back(name);
        return data;
    };
    if (!visit(loss.node()))
        return unexpected(invalidArgumentError(where + ": the loss '" + loss.name() +
                                               "' depends on no placeholder a data source feeds; there is no batch "
                                               "to split across the towers"));
    for (const std::string& name : order) {
        const tensorflow::NodeDef& node = *byName.at(name);
        const OpRegistration* registration = b.registry().find(node.op());
        if (!registration)
            return unexpected(invalidArgumentError(where + ": node '" + name + "' (op '" + node.op() +
                                                   "') cannot be copied into the towers: it is not a registered op"));
        if (isFrameOp(node.op()))
            return unexpected(invalidArgumentError(where + ": node '" + name + "' (op '" + node.op() +
                                                   "') belongs to a while loop, which the towers cannot copy"));
        for (const auto& arg : registration->opDef.input_arg())
            if (arg.is_ref())
                return unexpected(invalidArgumentError(
                    where + ": node '" + name + "' (op '" + node.op() +
                    "') updates shared state inside the forward pass, which the towers cannot copy"));
    }

    // Split(num_split = count) of each fed placeholder on CPU:0: tower i reads part i.
    std::map<std::string, std::vector<Output>> parts;
    {
        auto cpu = b.device("/device:CPU:0");
        if (!cpu)
            return unexpected(cpu.error());
        auto scope = b.nameScope("tower_batches");
        if (!scope)
            return unexpected(scope.error());
        auto axis = ops::constant(b, 0.0, tensorflow::DT_INT32, "split_dim");
        if (!axis)
            return unexpected(axis.error());
        for (const std::string& name : fed) {
            auto value = b.tensor(name + ":0");
            if (!value)
                return unexpected(value.error());
            auto split = b.op("Split", {*axis, *value}, {{"num_split", attr::i(count)}}, name);
            if (!split)
                return unexpected(split.error().withContext(where));
            parts[name] = split->outputs();
        }
    }

    const TowerModelFunction model = [&](GraphBuilder& g, int tower) -> Expected<Output> {
        std::map<std::string, Operation> copies;
        for (const std::string& name : order) {
            const tensorflow::NodeDef& node = *byName.at(name);
            const tensorflow::OpDef& def = g.registry().find(node.op())->opDef;
            std::vector<Output> data;
            std::vector<std::string> controls;
            for (const std::string& text : node.input()) {
                const Input in = parseInput(text);
                if (in.control) {
                    auto copy = copies.find(in.node);
                    controls.push_back(copy != copies.end() ? copy->second.name() : in.node);
                    continue;
                }
                if (auto part = parts.find(in.node); part != parts.end()) {
                    data.push_back(part->second[static_cast<std::size_t>(tower)]);
                } else if (auto copy = copies.find(in.node); copy != copies.end()) {
                    data.push_back(copy->second.output(in.index));
                } else {
                    auto shared = g.tensor(in.node + ":" + std::to_string(in.index));
                    if (!shared)
                        return unexpected(shared.error().withContext(where + ": node '" + name + "'"));
                    data.push_back(*shared);
                }
            }
            // One OpInput per input argument, as the OpDef groups them.
            std::vector<OpInput> inputs;
            std::size_t next = 0;
            for (const auto& arg : def.input_arg()) {
                std::size_t n = 1;
                const bool list = !arg.number_attr().empty() || !arg.type_list_attr().empty();
                if (!arg.number_attr().empty())
                    n = static_cast<std::size_t>(node.attr().at(arg.number_attr()).i());
                else if (!arg.type_list_attr().empty())
                    n = static_cast<std::size_t>(node.attr().at(arg.type_list_attr()).list().type_size());
                if (next + n > data.size())
                    return unexpected(invalidArgumentError(where + ": node '" + name + "' has " +
                                                           std::to_string(data.size()) + " inputs, fewer than its " +
                                                           "op '" + node.op() + "' takes"));
                std::vector<Output> slice(data.begin() + static_cast<std::ptrdiff_t>(next),
                                          data.begin() + static_cast<std::ptrdiff_t>(next + n));
                next += n;
                if (list)
                    inputs.emplace_back(std::move(slice));
                else
                    inputs.emplace_back(std::move(slice.front()));
            }
            AttrMap attrs;
            for (const auto& [key, value] : node.attr())
                if (key != "_class" && key != "_output_shapes")
                    attrs[key] = value;
            auto copy = g.op(node.op(), std::move(inputs), std::move(attrs), name);
            if (!copy)
                return unexpected(copy.error().withContext(where + ": copying node '" + name + "'"));
            for (const std::string& control : controls)
                if (Status s = g.addControlInput(copy->name(), control); !s.isOk())
                    return unexpected(s.withContext(where));
            copies.emplace(name, *copy);
        }
        return copies.at(loss.node()).output(loss.index());
    };

    TowerOptions options;
    options.count = count;
    options.deviceType = deviceType;
    auto towers = buildTowers(b, options, model, optimizer, varList);
    if (!towers)
        return unexpected(towers.error().withContext(where));

    ReplicatedGradients out;
    auto cpu = b.device("/device:CPU:0");
    if (!cpu)
        return unexpected(cpu.error());
    std::vector<std::vector<training::GradAndVar>> grads;
    std::vector<Output> losses;
    for (const Tower& t : *towers) {
        grads.push_back(t.gradients);
        losses.push_back(t.loss);
        out.devices.push_back(t.device);
    }
    auto averaged = averageGradients(b, grads);
    if (!averaged)
        return unexpected(averaged.error().withContext(where));
    out.gradients = std::move(*averaged);
    auto scope = b.nameScope("tower_loss");
    if (!scope)
        return unexpected(scope.error());
    auto stacked = ops::firstOutput(b.op("Pack", {OpInput(losses)}));
    if (!stacked)
        return unexpected(stacked.error().withContext(where));
    auto axis = ops::constant(b, 0.0, tensorflow::DT_INT32, "axis");
    if (!axis)
        return unexpected(axis.error());
    const std::string name = scope->name();
    scope->close();
    auto mean = ops::firstOutput(b.op("Mean", {*stacked, *axis}, {}, name));
    if (!mean)
        return unexpected(mean.error().withContext(where));
    out.loss = *mean;
    return out;
}

} // namespace tstudio::project
