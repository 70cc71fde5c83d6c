// GradientDescentOptimizer: var -= learning_rate * grad through ApplyGradientDescent
// (tf.train.GradientDescentOptimizer).
#pragma once

#include "training/optimizer.h"

namespace tstudio::training {

/// tf.train.GradientDescentOptimizer(learning_rate, use_locking, name="GradientDescent"): no slots;
/// "<name>/learning_rate" (a number) and "<name>/update_<var>/ApplyGradientDescent"(var, lr, grad),
/// the rate cast to the variable's dtype when it differs.
class GradientDescentOptimizer : public Optimizer {
public:
    explicit GradientDescentOptimizer(Hyper learningRate, bool useLocking = false,
                                      std::string name = "GradientDescent");

protected:
    Status prepare(GraphBuilder& b) override;
    Expected<Operation> applyDense(GraphBuilder& b, const Output& grad, const Variable& var) override;
    /// _apply_sparse_duplicate_indices: ScatterSub(var, indices, values * lr) ("mul", then
    /// "ScatterSub"), without summing repeated indices first (ScatterSub adds them up).
    Expected<Operation> applySparseDuplicateIndices(GraphBuilder& b, const IndexedSlices& grad,
                                                    const Variable& var) override;

private:
    Hyper m_learningRate;
    Output m_learningRateTensor;
};

} // namespace tstudio::training
