// AdagradOptimizer: Adagrad updates through ApplyAdagrad (tf.train.AdagradOptimizer).
#pragma once

#include "training/optimizer.h"

namespace tstudio::training {

/// tf.train.AdagradOptimizer(learning_rate, initial_accumulator_value=0.1, use_locking,
/// name="Adagrad"): slot "accumulator" = "<var>/Adagrad", a constant initializer
/// ("<var>/Adagrad/Initializer/Const"); "<name>/learning_rate";
/// "<name>/update_<var>/ApplyAdagrad"(var, accum, lr, grad) (update_slots true).
/// create() fails InvalidArgument "initial_accumulator_value must be positive: 0.0" for <= 0.
class AdagradOptimizer : public Optimizer {
public:
    static Expected<std::unique_ptr<AdagradOptimizer>> create(Hyper learningRate, double initialAccumulatorValue = 0.1,
                                                              bool useLocking = false, std::string name = "Adagrad");

protected:
    Status createSlots(GraphBuilder& b, const std::vector<Variable>& vars) override;
    Status prepare(GraphBuilder& b) override;
    Expected<Operation> applyDense(GraphBuilder& b, const Output& grad, const Variable& var) override;
    Expected<Operation> applySparse(GraphBuilder& b, const IndexedSlices& grad, const Variable& var) override;

private:
    AdagradOptimizer(Hyper learningRate, double initialAccumulatorValue, bool useLocking, std::string name);

    Hyper m_lr;
    double m_initialAccumulatorValue;
    Output m_lrT;
};

} // namespace tstudio::training
