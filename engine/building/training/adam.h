// AdamOptimizer: Adam updates through ApplyAdam with the beta1_power / beta2_power accumulators
// (tf.train.AdamOptimizer).
#pragma once

#include "training/optimizer.h"

namespace tstudio::training {

/// tf.train.AdamOptimizer(learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking,
/// name="Adam"), as TensorFlow 1.15 builds it:
///  - slots: the non-slot float32 variables "beta1_power" (initial beta1) and "beta2_power"
///    (initial beta2), colocated with the variable whose name sorts first; then per variable the
///    zeros slots "m" = "<var>/Adam" and "v" = "<var>/Adam_1";
///  - "Adam/learning_rate", "Adam/beta1", "Adam/beta2", "Adam/epsilon" (for numbers);
///  - "Adam/update_<var>/ApplyAdam"(var, m, v, beta1_power/read, beta2_power/read, lr, beta1, beta2,
///    epsilon, grad), each scalar cast to the variable's dtype where it differs (the "Cast" names
///    are used up even when no Cast is needed for the powers, as in TensorFlow);
///  - finish: after every update, "Adam/mul" = beta1_power * beta1 and "Adam/Assign" to
///    beta1_power, "Adam/mul_1" and "Adam/Assign_1" for beta2_power (colocated with beta1_power),
///    then the group of the updates and both assigns.
/// Only use_nesterov=False (tf.train.AdamOptimizer has no Nesterov switch).
class AdamOptimizer : public Optimizer {
public:
    explicit AdamOptimizer(Hyper learningRate = 0.001, Hyper beta1 = 0.9, Hyper beta2 = 0.999, Hyper epsilon = 1e-8,
                           bool useLocking = false, std::string name = "Adam");

    /// _get_beta_accumulators(): beta1_power and beta2_power once the slots exist.
    std::optional<std::pair<Variable, Variable>> betaAccumulators() const;

protected:
    Status createSlots(GraphBuilder& b, const std::vector<Variable>& vars) override;
    Status prepare(GraphBuilder& b) override;
    Expected<Operation> applyDense(GraphBuilder& b, const Output& grad, const Variable& var) override;
    Expected<Operation> applySparse(GraphBuilder& b, const IndexedSlices& grad, const Variable& var) override;
    Expected<Operation> finish(GraphBuilder& b, const std::vector<Operation>& updateOps,
                               std::string_view nameScope) override;

    /// What Adam's and LazyAdam's sparse updates of `var` start with, made in TensorFlow's order:
    /// the slots m and v; the beta powers, lr_t, beta1_t, beta2_t and epsilon_t cast to the
    /// variable's dtype; lr = lr_t * sqrt(1 - beta2_power) / (1 - beta1_power).
    struct SparseUpdateInputs {
        Variable m, v;
        Output beta1, beta2, epsilon, lr;
    };
    Expected<SparseUpdateInputs> sparseUpdateInputs(GraphBuilder& b, const Variable& var) const;

private:
    Hyper m_lr, m_beta1, m_beta2, m_epsilon;
    Output m_lrT, m_beta1T, m_beta2T, m_epsilonT;
};

} // namespace tstudio::training
