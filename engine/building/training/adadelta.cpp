// AdadeltaOptimizer as TensorFlow 1.15's adadelta.py builds it.
#include "training/adadelta.h"

namespace tstudio::training {

AdadeltaOptimizer::AdadeltaOptimizer(Hyper learningRate, Hyper rho, Hyper epsilon, bool useLocking, std::string name)
    : Optimizer(std::move(name), useLocking), m_lr(std::move(learningRate)), m_rho(std::move(rho)),
      m_epsilon(std::move(epsilon))
{
}

Status AdadeltaOptimizer::createSlots(GraphBuilder& b, const std::vector<Variable>& vars)
{
    for (const Variable& v : vars) {
        if (auto s = zerosSlot(b, v, "accum"); !s)
            return s.error();
        if (auto s = zerosSlot(b, v, "accum_update"); !s)
            return s.error();
    }
    return Status::ok();
}

Status AdadeltaOptimizer::prepare(GraphBuilder& b)
{
    auto lr = toTensor(b, m_lr, "lr");
    if (!lr)
        return lr.error();
    auto rho = toTensor(b, m_rho, "rho");
    if (!rho)
        return rho.error();
    auto epsilon = toTensor(b, m_epsilon, "epsilon");
    if (!epsilon)
        return epsilon.error();
    m_lrT = *lr;
    m_rhoT = *rho;
    m_epsilonT = *epsilon;
    return Status::ok();
}

Expected<Operation> AdadeltaOptimizer::applyDense(GraphBuilder& b, const Output& grad, const Variable& var)
{
    auto accum = slot(var, "accum");
    if (!accum)
        return unexpected(accum.error());
    auto accumUpdate = slot(var, "accum_update");
    if (!accumUpdate)
        return unexpected(accumUpdate.error());
    std::vector<Output> scalars;
    for (const Output* h : {&m_lrT, &m_rhoT, &m_epsilonT}) {
        auto c = cast(b, *h, var.dtype());
        if (!c)
            return unexpected(c.error());
        scalars.push_back(*c);
    }
    return applyOp(b, "ApplyAdadelta",
                   {var.ref(), accum->ref(), accumUpdate->ref(), scalars[0], scalars[1], scalars[2], grad});
}

} // namespace tstudio::training
