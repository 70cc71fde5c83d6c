// Towers: the multi-GPU example's tower loop, average_gradients and _variable_on_cpu.
#include "training/towers.h"

#include "builder/ops_sugar.h"
#include "builder/variable_scope.h"
#include "builder/variables.h"

#include <utility>

namespace tstudio {

namespace {

/// An op whose helper constant lives in its own name scope, as op_def_library converts Python
/// numbers: "ExpandDims/dim", "concat/axis", "Mean/reduction_indices".
Expected<Output> opWithIntConstant(GraphBuilder& b, std::string_view type, std::vector<OpInput> inputs,
                                   std::string_view constantName, std::string_view name = {})
{
    auto scope = b.nameScope(name.empty() ? type : name);
    if (!scope)
        return unexpected(scope.error());
    auto value = ops::constant(b, 0.0, tensorflow::DT_INT32, constantName);
    if (!value)
        return unexpected(value.error());
    inputs.emplace_back(*value);
    const std::string opName = scope->name();
    scope->close();
    return ops::firstOutput(b.op(type, std::move(inputs), {}, opName));
}

} // namespace

Expected<std::vector<Tower>> buildTowers(GraphBuilder& b, const TowerOptions& options, const TowerModelFunction& model,
                                         training::Optimizer& optimizer, std::optional<std::vector<Variable>> varList)
{
    if (options.count < 1)
        return unexpected(
            invalidArgumentError("towers: count must be at least 1, got " + std::to_string(options.count)));
    // tf.variable_scope(tf.get_variable_scope()): reuse switched on inside stays inside.
    auto outer = variableScope(b, "");
    if (!outer)
        return unexpected(outer.error());
    std::vector<Tower> towers;
    for (int i = 0; i < options.count; ++i) {
        const std::string where = "tower " + std::to_string(i) + ": ";
        Tower tower;
        tower.index = i;
        tower.device = "/device:" + options.deviceType + ":" + std::to_string(i);
        auto device = b.device(tower.device);
        if (!device)
            return unexpected(Status(device.error().code(), where + device.error().message()));
        auto scope = b.nameScope(options.towerName + "_" + std::to_string(i));
        if (!scope)
            return unexpected(scope.error());
        tower.nameScope = scope->name();
        auto loss = model(b, i);
        if (!loss)
            return unexpected(Status(loss.error().code(), where + loss.error().message()));
        tower.loss = *loss;
        // Variables were made by tower 0; the others share them.
        reuseVariables(b);
        auto grads = optimizer.computeGradients(b, tower.loss, varList);
        if (!grads)
            return unexpected(Status(grads.error().code(), where + grads.error().message()));
        tower.gradients = std::move(*grads);
        towers.push_back(std::move(tower));
    }
    return towers;
}

Expected<std::vector<training::GradAndVar>>
averageGradients(GraphBuilder& b, const std::vector<std::vector<training::GradAndVar>>& towerGradients)
{
    if (towerGradients.empty())
        return unexpected(invalidArgumentError("average_gradients: no towers"));
    const std::vector<training::GradAndVar>& first = towerGradients.front();
    for (std::size_t t = 1; t < towerGradients.size(); ++t) {
        if (towerGradients[t].size() != first.size())
            return unexpected(invalidArgumentError("average_gradients: tower " + std::to_string(t) + " has " +
                                                   std::to_string(towerGradients[t].size()) +
                                                   " variables but tower 0 has " + std::to_string(first.size())));
    }
    std::vector<training::GradAndVar> averaged;
    for (std::size_t v = 0; v < first.size(); ++v) {
        const Variable& var = first[v].second;
        std::vector<Output> grads;
        for (std::size_t t = 0; t < towerGradients.size(); ++t) {
            const auto& [grad, towerVar] = towerGradients[t][v];
            if (towerVar.name() != var.name())
                return unexpected(invalidArgumentError("average_gradients: variable " + std::to_string(v) +
                                                       " of tower " + std::to_string(t) + " is '" + towerVar.name() +
                                                       "' but tower 0's is '" + var.name() + "'"));
            if (grad.has_value() != first[v].first.has_value()) {
                const std::size_t with = grad ? t : 0, without = grad ? 0 : t;
                return unexpected(invalidArgumentError("average_gradients: tower " + std::to_string(without) +
                                                       " has no gradient for '" + var.name() + "' but tower " +
                                                       std::to_string(with) + " has one"));
            }
            if (grad)
                grads.push_back(*grad);
        }
        if (grads.empty()) {
            averaged.emplace_back(std::nullopt, var);
            continue;
        }
        std::vector<Output> expanded;
        for (const Output& g : grads) {
            auto e = opWithIntConstant(b, "ExpandDims", {g}, "dim");
            if (!e)
                return unexpected(e.error());
            expanded.push_back(*e);
        }
        Expected<Output> stacked = unexpected(internalError("unset"));
        if (expanded.size() == 1) {
            // tf.concat of one value is an identity named after the scope.
            auto scope = b.nameScope("concat");
            if (!scope)
                return unexpected(scope.error());
            const std::string name = scope->name();
            scope->close();
            stacked = ops::firstOutput(b.op("Identity", {expanded.front()}, {}, name));
        } else {
            stacked = opWithIntConstant(b, "ConcatV2", {OpInput(expanded)}, "axis", "concat");
        }
        if (!stacked)
            return unexpected(stacked.error());
        auto mean = opWithIntConstant(b, "Mean", {*stacked}, "reduction_indices");
        if (!mean)
            return unexpected(mean.error());
        averaged.emplace_back(*mean, var);
    }
    return averaged;
}

Expected<Variable> towerVariable(GraphBuilder& b, std::string_view name, const TensorShape& shape, DataType dtype,
                                 std::optional<Initializer> initializer, std::string_view device)
{
    auto onDevice = b.device(device);
    if (!onDevice)
        return unexpected(onDevice.error());
    return getVariable(b, name, shape, dtype, std::move(initializer));
}

} // namespace tstudio
