// AdamOptimizer as TensorFlow 1.15's adam.py builds it.
#include "training/adam.h"

#include "builder/python_ops.h"
#include "builder/ops_sugar.h"

#include <algorithm>

namespace tstudio::training {

AdamOptimizer::AdamOptimizer(Hyper learningRate, Hyper beta1, Hyper beta2, Hyper epsilon, bool useLocking,
                             std::string name)
    : Optimizer(std::move(name), useLocking), m_lr(std::move(learningRate)), m_beta1(std::move(beta1)),
      m_beta2(std::move(beta2)), m_epsilon(std::move(epsilon))
{
}

std::optional<std::pair<Variable, Variable>> AdamOptimizer::betaAccumulators() const
{
    auto beta1 = findNonSlot("beta1_power");
    auto beta2 = findNonSlot("beta2_power");
    if (!beta1 || !beta2)
        return std::nullopt;
    return std::make_pair(*beta1, *beta2);
}

Status AdamOptimizer::createSlots(GraphBuilder& b, const std::vector<Variable>& vars)
{
    // min(var_list, key=lambda x: x.name): names compare as "w:0" strings.
    const Variable& first = *std::min_element(
        vars.begin(), vars.end(), [](const Variable& x, const Variable& y) { return x.ref().name() < y.ref().name(); });
    // The initial values are Python numbers; a tensor beta uses its constant value when known.
    auto number = [&b](const Hyper& h) -> Expected<double> {
        if (const double* d = std::get_if<double>(&h))
            return *d;
        const Tensor* known = b.constantValue(std::get<Output>(h));
        if (!known || known->numElements() != 1 || known->dtype() != tensorflow::DT_FLOAT)
            return unexpected(unimplementedError("AdamOptimizer: a beta given as a tensor must be a float32 "
                                                 "constant here (its value seeds beta1_power / beta2_power)"));
        return static_cast<double>(known->values<float>()[0]);
    };
    auto beta1 = number(m_beta1);
    if (!beta1)
        return beta1.error();
    auto beta2 = number(m_beta2);
    if (!beta2)
        return beta2.error();
    if (auto v = nonSlotVariable(b, *beta1, "beta1_power", first); !v)
        return v.error();
    if (auto v = nonSlotVariable(b, *beta2, "beta2_power", first); !v)
        return v.error();
    for (const Variable& v : vars) {
        if (auto s = zerosSlot(b, v, "m"); !s)
            return s.error();
        if (auto s = zerosSlot(b, v, "v"); !s)
            return s.error();
    }
    return Status::ok();
}

Status AdamOptimizer::prepare(GraphBuilder& b)
{
    auto lr = toTensor(b, m_lr, "learning_rate");
    if (!lr)
        return lr.error();
    auto beta1 = toTensor(b, m_beta1, "beta1");
    if (!beta1)
        return beta1.error();
    auto beta2 = toTensor(b, m_beta2, "beta2");
    if (!beta2)
        return beta2.error();
    auto epsilon = toTensor(b, m_epsilon, "epsilon");
    if (!epsilon)
        return epsilon.error();
    m_lrT = *lr;
    m_beta1T = *beta1;
    m_beta2T = *beta2;
    m_epsilonT = *epsilon;
    return Status::ok();
}

Expected<Operation> AdamOptimizer::applyDense(GraphBuilder& b, const Output& grad, const Variable& var)
{
    auto m = slot(var, "m");
    if (!m)
        return unexpected(m.error());
    auto v = slot(var, "v");
    if (!v)
        return unexpected(v.error());
    auto powers = betaAccumulators();
    if (!powers)
        return unexpected(internalError("AdamOptimizer: beta1_power / beta2_power were not created"));
    const DataType t = var.dtype();
    auto beta1Power = cast(b, powers->first, t);
    if (!beta1Power)
        return unexpected(beta1Power.error());
    auto beta2Power = cast(b, powers->second, t);
    if (!beta2Power)
        return unexpected(beta2Power.error());
    std::vector<Output> scalars;
    for (const Output* h : {&m_lrT, &m_beta1T, &m_beta2T, &m_epsilonT}) {
        auto c = cast(b, *h, t);
        if (!c)
            return unexpected(c.error());
        scalars.push_back(*c);
    }
    return applyOp(
        b, "ApplyAdam",
        {var.ref(), m->ref(), v->ref(), *beta1Power, *beta2Power, scalars[0], scalars[1], scalars[2], scalars[3], grad},
        {{"use_nesterov", attr::b(false)}});
}

Expected<AdamOptimizer::SparseUpdateInputs> AdamOptimizer::sparseUpdateInputs(GraphBuilder& b, const Variable& var) const
{
    auto m = slot(var, "m");
    if (!m)
        return unexpected(m.error());
    auto v = slot(var, "v");
    if (!v)
        return unexpected(v.error());
    auto powers = betaAccumulators();
    if (!powers)
        return unexpected(internalError("AdamOptimizer: beta1_power / beta2_power were not created"));
    const DataType t = var.dtype();
    TSTUDIO_AD_TRY(beta1Power, cast(b, powers->first, t));
    TSTUDIO_AD_TRY(beta2Power, cast(b, powers->second, t));
    TSTUDIO_AD_TRY(lrT, cast(b, m_lrT, t));
    TSTUDIO_AD_TRY(beta1T, cast(b, m_beta1T, t));
    TSTUDIO_AD_TRY(beta2T, cast(b, m_beta2T, t));
    TSTUDIO_AD_TRY(epsilonT, cast(b, m_epsilonT, t));
    // lr = lr_t * sqrt(1 - beta2_power) / (1 - beta1_power)
    TSTUDIO_AD_TRY(oneMinusB2P, py::binary(b, py::Operator::kSub, 1.0, beta2Power));
    TSTUDIO_AD_TRY(sqrtB2P, py::genOp(b, "Sqrt", {oneMinusB2P}));
    TSTUDIO_AD_TRY(lrScaled, py::binary(b, py::Operator::kMul, lrT, sqrtB2P));
    TSTUDIO_AD_TRY(oneMinusB1P, py::binary(b, py::Operator::kSub, 1.0, beta1Power));
    TSTUDIO_AD_TRY(lr, py::binary(b, py::Operator::kTrueDiv, lrScaled, oneMinusB1P));
    return SparseUpdateInputs{*m, *v, beta1T, beta2T, epsilonT, lr};
}

Expected<Operation> AdamOptimizer::applySparse(GraphBuilder& b, const IndexedSlices& grad, const Variable& var)
{
    // _apply_sparse_shared with state_ops.scatter_add: m and v decay everywhere (Assign), the
    // scaled gradient is added to the named rows (ScatterAdd), then var moves by the whole
    // lr * m / (sqrt(v) + epsilon) (AssignSub); rows never named keep m = v = 0 and do not move.
    TSTUDIO_AD_TRY(in, sparseUpdateInputs(b, var));
    const bool locking = useLocking();
    // slot = slot * decay (Assign), then, after it, slot[indices] += scaled (ScatterAdd): the new slot.
    auto decayThenScatterAdd = [&](const Variable& slotVar, const Output& decay,
                                   const Output& scaled) -> Expected<Output> {
        TSTUDIO_AD_TRY(decayed, py::binary(b, py::Operator::kMul, slotVar.value(), decay));
        TSTUDIO_AD_TRY(assign, b.op("Assign", {slotVar.ref(), decayed}, {{"use_locking", attr::b(locking)}}));
        auto after = b.controlDependencies({assign});
        TSTUDIO_AD_TRY(added,
                       b.op("ScatterAdd", {slotVar.ref(), grad.indices, scaled}, {{"use_locking", attr::b(locking)}}));
        return added.output(0);
    };
    // m_t = beta1 * m + (1 - beta1) * g_t
    TSTUDIO_AD_TRY(oneMinusB1, py::binary(b, py::Operator::kSub, 1.0, in.beta1));
    TSTUDIO_AD_TRY(mScaledG, py::binary(b, py::Operator::kMul, grad.values, oneMinusB1));
    TSTUDIO_AD_TRY(mT, decayThenScatterAdd(in.m, in.beta1, mScaledG));
    // v_t = beta2 * v + (1 - beta2) * (g_t * g_t)
    TSTUDIO_AD_TRY(gSquared, py::binary(b, py::Operator::kMul, grad.values, grad.values));
    TSTUDIO_AD_TRY(oneMinusB2, py::binary(b, py::Operator::kSub, 1.0, in.beta2));
    TSTUDIO_AD_TRY(vScaledG, py::binary(b, py::Operator::kMul, gSquared, oneMinusB2));
    TSTUDIO_AD_TRY(vT, decayThenScatterAdd(in.v, in.beta2, vScaledG));
    TSTUDIO_AD_TRY(vSqrt, py::genOp(b, "Sqrt", {vT}));
    TSTUDIO_AD_TRY(lrM, py::binary(b, py::Operator::kMul, in.lr, mT));
    TSTUDIO_AD_TRY(denominator, py::binary(b, py::Operator::kAdd, vSqrt, in.epsilon));
    TSTUDIO_AD_TRY(step, py::binary(b, py::Operator::kTrueDiv, lrM, denominator));
    TSTUDIO_AD_TRY(varUpdate, b.op("AssignSub", {var.ref(), step}, {{"use_locking", attr::b(locking)}}));
    TSTUDIO_AD_TRY(mOp, py::producer(b, mT));
    TSTUDIO_AD_TRY(vOp, py::producer(b, vT));
    return ops::group(b, {varUpdate, mOp, vOp}, "group_deps");
}

Expected<Operation> AdamOptimizer::finish(GraphBuilder& b, const std::vector<Operation>& updateOps,
                                          std::string_view nameScope)
{
    auto powers = betaAccumulators();
    if (!powers)
        return unexpected(internalError("AdamOptimizer: beta1_power / beta2_power were not created"));
    std::vector<Operation> all = updateOps;
    {
        auto control = b.controlDependencies(updateOps);
        auto beta1Op = b.operation(powers->first.name());
        if (!beta1Op)
            return unexpected(beta1Op.error());
        auto colocated = b.colocateWith(*beta1Op);
        const std::pair<const Variable*, const Output*> pairs[] = {{&powers->first, &m_beta1T},
                                                                   {&powers->second, &m_beta2T}};
        for (const auto& [power, beta] : pairs) {
            auto product = py::binary(b, py::Operator::kMul, power->value(), *beta);
            if (!product)
                return unexpected(product.error());
            auto assign = b.op("Assign", {power->ref(), *product}, {{"use_locking", attr::b(useLocking())}});
            if (!assign)
                return unexpected(assign.error());
            all.push_back(*assign);
        }
    }
    return Optimizer::finish(b, all, nameScope);
}

} // namespace tstudio::training
