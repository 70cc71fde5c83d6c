// LazyAdamOptimizer: Adam whose sparse updates touch only the rows a step names
// (tf.contrib.opt.LazyAdamOptimizer).
#pragma once

#include "training/adam.h"

namespace tstudio::training {

/// tf.contrib.opt.LazyAdamOptimizer(learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
/// use_locking, name="Adam"): AdamOptimizer in every respect (slots, beta powers, dense updates
/// through ApplyAdam, the finish) except the update of a variable whose gradient is IndexedSlices,
/// which TensorFlow 1.15's contrib builds, inside "update_<var>", as
///  - the casts and lr = lr_t * sqrt(1 - beta2_power) / (1 - beta1_power), as Adam's sparse path;
///  - m_t = ScatterUpdate(m, indices, beta1 * GatherV2(m, indices) + (1 - beta1) * values);
///  - v_t = ScatterUpdate(v, indices, beta2 * GatherV2(v, indices) + (1 - beta2) * Square(values));
///  - ScatterSub(var, indices, lr * GatherV2(m_t, indices) / (Sqrt(GatherV2(v_t, indices)) + epsilon));
///  - "group_deps" of the three.
/// So the moments of rows a step does not name neither decay nor move the row (Adam decays every
/// row's moments every step, which moves rows seen earlier): a different, cheaper algorithm, whose
/// cost follows the rows named rather than the table's size. Repeated indices are summed first
/// (_apply_sparse_duplicate_indices), as for every optimizer.
class LazyAdamOptimizer : public AdamOptimizer {
public:
    explicit LazyAdamOptimizer(Hyper learningRate = 0.001, Hyper beta1 = 0.9, Hyper beta2 = 0.999,
                               Hyper epsilon = 1e-8, bool useLocking = false, std::string name = "Adam");

protected:
    Expected<Operation> applySparse(GraphBuilder& b, const IndexedSlices& grad, const Variable& var) override;
};

} // namespace tstudio::training
