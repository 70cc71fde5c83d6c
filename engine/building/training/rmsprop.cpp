// RMSPropOptimizer as TensorFlow 1.15's rmsprop.py builds it.
#include "training/rmsprop.h"

#include "framework/op_registry.h"

namespace tstudio::training {

RMSPropOptimizer::RMSPropOptimizer(Hyper learningRate, Hyper decay, Hyper momentum, Hyper epsilon, bool useLocking,
                                   bool centered, std::string name)
    : Optimizer(std::move(name), useLocking), m_lr(std::move(learningRate)), m_decay(std::move(decay)),
      m_momentum(std::move(momentum)), m_epsilon(std::move(epsilon)), m_centered(centered)
{
}

Status RMSPropOptimizer::createSlots(GraphBuilder& b, const std::vector<Variable>& vars)
{
    if (m_centered && !b.registry().find("ApplyCenteredRMSProp"))
        return unimplementedError("RMSPropOptimizer(centered=True) needs the op ApplyCenteredRMSProp, which is not "
                                  "registered");
    for (const Variable& v : vars) {
        if (auto s = slotWithInitializer(b, v, Initializer::ones(), "rms"); !s)
            return s.error();
        if (m_centered)
            if (auto s = zerosSlot(b, v, "mg"); !s)
                return s.error();
        if (auto s = zerosSlot(b, v, "momentum"); !s)
            return s.error();
    }
    return Status::ok();
}

Status RMSPropOptimizer::prepare(GraphBuilder& b)
{
    const std::pair<const Hyper*, const char*> hypers[] = {
        {&m_lr, "learning_rate"}, {&m_decay, "decay"}, {&m_momentum, "momentum"}, {&m_epsilon, "epsilon"}};
    Output* targets[] = {&m_lrT, &m_decayT, &m_momentumT, &m_epsilonT};
    for (int i = 0; i < 4; ++i) {
        auto t = toTensor(b, *hypers[i].first, hypers[i].second);
        if (!t)
            return t.error();
        *targets[i] = *t;
    }
    return Status::ok();
}

Expected<Operation> RMSPropOptimizer::applyDense(GraphBuilder& b, const Output& grad, const Variable& var)
{
    auto rms = slot(var, "rms");
    if (!rms)
        return unexpected(rms.error());
    auto mom = slot(var, "momentum");
    if (!mom)
        return unexpected(mom.error());
    std::vector<Output> scalars;
    for (const Output* h : {&m_lrT, &m_decayT, &m_momentumT, &m_epsilonT}) {
        auto c = cast(b, *h, var.dtype());
        if (!c)
            return unexpected(c.error());
        scalars.push_back(*c);
    }
    if (m_centered) {
        auto mg = slot(var, "mg");
        if (!mg)
            return unexpected(mg.error());
        return applyOp(
            b, "ApplyCenteredRMSProp",
            {var.ref(), mg->ref(), rms->ref(), mom->ref(), scalars[0], scalars[1], scalars[2], scalars[3], grad});
    }
    return applyOp(b, "ApplyRMSProp",
                   {var.ref(), rms->ref(), mom->ref(), scalars[0], scalars[1], scalars[2], scalars[3], grad});
}

Expected<Operation> RMSPropOptimizer::applySparse(GraphBuilder& b, const IndexedSlices& grad, const Variable& var)
{
    auto rms = slot(var, "rms");
    if (!rms)
        return unexpected(rms.error());
    auto mom = slot(var, "momentum");
    if (!mom)
        return unexpected(mom.error());
    std::vector<Output> scalars;
    for (const Output* h : {&m_lrT, &m_decayT, &m_momentumT, &m_epsilonT}) {
        auto c = cast(b, *h, var.dtype());
        if (!c)
            return unexpected(c.error());
        scalars.push_back(*c);
    }
    if (m_centered) {
        auto mg = slot(var, "mg");
        if (!mg)
            return unexpected(mg.error());
        return applyOp(b, "SparseApplyCenteredRMSProp",
                       {var.ref(), mg->ref(), rms->ref(), mom->ref(), scalars[0], scalars[1], scalars[2], scalars[3],
                        grad.values, grad.indices});
    }
    return applyOp(b, "SparseApplyRMSProp",
                   {var.ref(), rms->ref(), mom->ref(), scalars[0], scalars[1], scalars[2], scalars[3], grad.values,
                    grad.indices});
}

} // namespace tstudio::training
