// MomentumOptimizer as TensorFlow 1.15's momentum.py builds it.
#include "training/momentum.h"

namespace tstudio::training {

MomentumOptimizer::MomentumOptimizer(Hyper learningRate, Hyper momentum, bool useLocking, std::string name,
                                     bool useNesterov)
    : Optimizer(std::move(name), useLocking), m_learningRate(std::move(learningRate)), m_momentum(std::move(momentum)),
      m_useNesterov(useNesterov)
{
}

Status MomentumOptimizer::createSlots(GraphBuilder& b, const std::vector<Variable>& vars)
{
    for (const Variable& v : vars)
        if (auto s = zerosSlot(b, v, "momentum"); !s)
            return s.error();
    return Status::ok();
}

Status MomentumOptimizer::prepare(GraphBuilder& b)
{
    auto lr = toTensor(b, m_learningRate, "learning_rate");
    if (!lr)
        return lr.error();
    auto momentum = toTensor(b, m_momentum, "momentum");
    if (!momentum)
        return momentum.error();
    m_learningRateTensor = *lr;
    m_momentumTensor = *momentum;
    return Status::ok();
}

Expected<Operation> MomentumOptimizer::applyDense(GraphBuilder& b, const Output& grad, const Variable& var)
{
    auto accum = slot(var, "momentum");
    if (!accum)
        return unexpected(accum.error());
    auto lr = cast(b, m_learningRateTensor, var.dtype());
    if (!lr)
        return unexpected(lr.error());
    auto momentum = cast(b, m_momentumTensor, var.dtype());
    if (!momentum)
        return unexpected(momentum.error());
    return applyOp(b, "ApplyMomentum", {var.ref(), accum->ref(), *lr, grad, *momentum},
                   {{"use_nesterov", attr::b(m_useNesterov)}});
}

Expected<Operation> MomentumOptimizer::applySparse(GraphBuilder& b, const IndexedSlices& grad, const Variable& var)
{
    auto accum = slot(var, "momentum");
    if (!accum)
        return unexpected(accum.error());
    auto lr = cast(b, m_learningRateTensor, var.dtype());
    if (!lr)
        return unexpected(lr.error());
    auto momentum = cast(b, m_momentumTensor, var.dtype());
    if (!momentum)
        return unexpected(momentum.error());
    return applyOp(b, "SparseApplyMomentum", {var.ref(), accum->ref(), *lr, grad.values, grad.indices, *momentum},
                   {{"use_nesterov", attr::b(m_useNesterov)}});
}

} // namespace tstudio::training
