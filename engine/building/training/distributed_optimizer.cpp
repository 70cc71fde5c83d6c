// DistributedOptimizer and broadcastGlobalVariables: Horovod 0.1x's graph-building side over the
// HorovodAllreduce and HorovodBroadcast ops (registered only in builds with MPI).
#include "training/distributed_optimizer.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"

namespace tstudio::distributed {

namespace {

/// Horovod's _normalize_name: every character but letters, digits and '_' becomes '_'
/// ("dense/kernel:0" -> "dense_kernel_0").
std::string normalizedName(const Output& tensor)
{
    std::string name = tensor.node() + ":" + std::to_string(tensor.index());
    for (char& c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            c = '_';
    return name;
}

} // namespace

Expected<Output> allreduce(GraphBuilder& b, const Output& tensor, int size, bool average)
{
    auto summed = ops::firstOutput(b.op("HorovodAllreduce", {OpInput(tensor)}, {}, "HorovodAllreduce_" + normalizedName(tensor)));
    if (!summed || !average)
        return summed;
    auto divisor = ops::constant(b, static_cast<double>(size), summed->dtype());
    if (!divisor)
        return divisor;
    return ops::realDiv(b, *summed, *divisor, "div");
}

Expected<Operation> broadcastGlobalVariables(GraphBuilder& b, int rootRank)
{
    const std::vector<Variable> vars = globalVariables(b);
    if (vars.empty())
        return tl::unexpected(invalidArgumentError("broadcast_global_variables: the graph has no global variables"));
    std::vector<Operation> assigns;
    for (const Variable& var : vars) {
        auto value = ops::firstOutput(b.op("HorovodBroadcast", {OpInput(var.value())}, {{"root_rank", attr::i(rootRank)}},
                                      "HorovodBroadcast_" + normalizedName(var.ref())));
        if (!value)
            return tl::unexpected(value.error());
        auto assign = b.op("Assign", {OpInput(var.ref()), OpInput(*value)}, {}, "Assign");
        if (!assign)
            return assign;
        assigns.push_back(*assign);
    }
    return ops::group(b, assigns, "group_deps");
}

DistributedOptimizer::DistributedOptimizer(training::Optimizer& inner, int size)
    : m_inner(inner), m_size(size), m_name("Distributed" + inner.name())
{
}

Expected<std::vector<training::GradAndVar>> DistributedOptimizer::computeGradients(
    GraphBuilder& b, const Output& loss, std::optional<std::vector<Variable>> varList)
{
    auto grads = m_inner.computeGradients(b, loss, std::move(varList));
    if (!grads || m_size <= 1)
        return grads;
    auto scope = b.nameScope(m_name + "_Allreduce");
    if (!scope)
        return tl::unexpected(scope.error());
    std::vector<training::GradAndVar> averaged;
    averaged.reserve(grads->size());
    for (auto& [grad, var] : *grads) {
        if (!grad) {
            averaged.emplace_back(std::nullopt, var);
            continue;
        }
        auto avg = allreduce(b, *grad, m_size, true);
        if (!avg)
            return tl::unexpected(avg.error());
        averaged.emplace_back(*avg, var);
    }
    return averaged;
}

Expected<Operation> DistributedOptimizer::applyGradients(GraphBuilder& b,
                                                         const std::vector<training::GradAndVar>& gradsAndVars,
                                                         const std::optional<Variable>& globalStep)
{
    return m_inner.applyGradients(b, gradsAndVars, globalStep);
}

Expected<Operation> DistributedOptimizer::minimize(GraphBuilder& b, const Output& loss,
                                                   const std::optional<Variable>& globalStep,
                                                   std::optional<std::vector<Variable>> varList)
{
    auto grads = computeGradients(b, loss, std::move(varList));
    if (!grads)
        return tl::unexpected(grads.error());
    return applyGradients(b, *grads, globalStep);
}

} // namespace tstudio::distributed
