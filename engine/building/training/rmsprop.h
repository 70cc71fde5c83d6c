// RMSPropOptimizer: RMSProp updates through ApplyRMSProp (tf.train.RMSPropOptimizer).
#pragma once

#include "training/optimizer.h"

namespace tstudio::training {

/// tf.train.RMSPropOptimizer(learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking,
/// centered=False, name="RMSProp"): slots "rms" (initialised to ones: "<var>/RMSProp"), with
/// centered "mg" (zeros), then "momentum" (zeros): "<var>/RMSProp_1" (or _2 when centered);
/// "<name>/learning_rate", "decay", "momentum", "epsilon"; "<name>/update_<var>/ApplyRMSProp"(var,
/// rms, mom, lr, decay, momentum, epsilon, grad), or with centered=True
/// "<name>/update_<var>/ApplyCenteredRMSProp"(var, mg, rms, mom, lr, decay, momentum, epsilon, grad).
/// A registry without ApplyCenteredRMSProp (registerAllOps has it) makes centered applyGradients
/// fail before adding any node with Unimplemented "RMSPropOptimizer(centered=True) needs the op
/// ApplyCenteredRMSProp, which is not registered".
class RMSPropOptimizer : public Optimizer {
public:
    explicit RMSPropOptimizer(Hyper learningRate, Hyper decay = 0.9, Hyper momentum = 0.0, Hyper epsilon = 1e-10,
                              bool useLocking = false, bool centered = false, std::string name = "RMSProp");

protected:
    Status createSlots(GraphBuilder& b, const std::vector<Variable>& vars) override;
    Status prepare(GraphBuilder& b) override;
    Expected<Operation> applyDense(GraphBuilder& b, const Output& grad, const Variable& var) override;
    Expected<Operation> applySparse(GraphBuilder& b, const IndexedSlices& grad, const Variable& var) override;

private:
    Hyper m_lr, m_decay, m_momentum, m_epsilon;
    bool m_centered = false;
    Output m_lrT, m_decayT, m_momentumT, m_epsilonT;
};

} // namespace tstudio::training
