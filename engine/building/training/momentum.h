// MomentumOptimizer: momentum (or Nesterov) updates through ApplyMomentum (tf.train.MomentumOptimizer).
#pragma once

#include "training/optimizer.h"

namespace tstudio::training {

/// tf.train.MomentumOptimizer(learning_rate, momentum, use_locking, name="Momentum", use_nesterov):
/// one zeros slot "momentum" per variable ("<var>/Momentum"); "<name>/learning_rate" and
/// "<name>/momentum" (numbers); "<name>/update_<var>/ApplyMomentum"(var, accum, lr, grad, momentum)
/// with use_nesterov. TensorFlow's update: accum = accum * momentum + grad; var -= lr * accum
/// (Nesterov: var -= lr * grad + lr * momentum * accum).
class MomentumOptimizer : public Optimizer {
public:
    MomentumOptimizer(Hyper learningRate, Hyper momentum, bool useLocking = false, std::string name = "Momentum",
                      bool useNesterov = false);

protected:
    Status createSlots(GraphBuilder& b, const std::vector<Variable>& vars) override;
    Status prepare(GraphBuilder& b) override;
    Expected<Operation> applyDense(GraphBuilder& b, const Output& grad, const Variable& var) override;
    Expected<Operation> applySparse(GraphBuilder& b, const IndexedSlices& grad, const Variable& var) override;

private:
    Hyper m_learningRate;
    Hyper m_momentum;
    bool m_useNesterov = false;
    Output m_learningRateTensor;
    Output m_momentumTensor;
};

} // namespace tstudio::training
