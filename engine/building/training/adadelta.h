// AdadeltaOptimizer: Adadelta updates through ApplyAdadelta (tf.train.AdadeltaOptimizer).
#pragma once

#include "training/optimizer.h"

namespace tstudio::training {

/// tf.train.AdadeltaOptimizer(learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking,
/// name="Adadelta"): zeros slots "accum" = "<var>/Adadelta" and "accum_update" =
/// "<var>/Adadelta_1"; "<name>/lr", "<name>/rho", "<name>/epsilon" (TensorFlow names the rate "lr"
/// here); "<name>/update_<var>/ApplyAdadelta"(var, accum, accum_update, lr, rho, epsilon, grad).
class AdadeltaOptimizer : public Optimizer {
public:
    explicit AdadeltaOptimizer(Hyper learningRate = 0.001, Hyper rho = 0.95, Hyper epsilon = 1e-8,
                               bool useLocking = false, std::string name = "Adadelta");

protected:
    Status createSlots(GraphBuilder& b, const std::vector<Variable>& vars) override;
    Status prepare(GraphBuilder& b) override;
    Expected<Operation> applyDense(GraphBuilder& b, const Output& grad, const Variable& var) override;

private:
    Hyper m_lr, m_rho, m_epsilon;
    Output m_lrT, m_rhoT, m_epsilonT;
};

} // namespace tstudio::training
