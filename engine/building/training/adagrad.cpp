// AdagradOptimizer as TensorFlow 1.15's adagrad.py builds it.
#include "training/adagrad.h"

#include <sstream>

namespace tstudio::training {

AdagradOptimizer::AdagradOptimizer(Hyper learningRate, double initialAccumulatorValue, bool useLocking,
                                   std::string name)
    : Optimizer(std::move(name), useLocking), m_lr(std::move(learningRate)),
      m_initialAccumulatorValue(initialAccumulatorValue)
{
}

Expected<std::unique_ptr<AdagradOptimizer>> AdagradOptimizer::create(Hyper learningRate, double initialAccumulatorValue,
                                                                     bool useLocking, std::string name)
{
    if (!(initialAccumulatorValue > 0.0)) {
        std::ostringstream text;
        text << initialAccumulatorValue;
        std::string number = text.str();
        if (number.find_first_of(".en") == std::string::npos)
            number += ".0"; // Python prints floats with a decimal point
        return unexpected(invalidArgumentError("initial_accumulator_value must be positive: " + number));
    }
    return std::unique_ptr<AdagradOptimizer>(
        new AdagradOptimizer(std::move(learningRate), initialAccumulatorValue, useLocking, std::move(name)));
}

Status AdagradOptimizer::createSlots(GraphBuilder& b, const std::vector<Variable>& vars)
{
    for (const Variable& v : vars)
        if (auto s = slotWithInitializer(b, v, Initializer::constant(m_initialAccumulatorValue), "accumulator"); !s)
            return s.error();
    return Status::ok();
}

Status AdagradOptimizer::prepare(GraphBuilder& b)
{
    auto lr = toTensor(b, m_lr, "learning_rate");
    if (!lr)
        return lr.error();
    m_lrT = *lr;
    return Status::ok();
}

Expected<Operation> AdagradOptimizer::applyDense(GraphBuilder& b, const Output& grad, const Variable& var)
{
    auto accum = slot(var, "accumulator");
    if (!accum)
        return unexpected(accum.error());
    auto lr = cast(b, m_lrT, var.dtype());
    if (!lr)
        return unexpected(lr.error());
    return applyOp(b, "ApplyAdagrad", {var.ref(), accum->ref(), *lr, grad}, {{"update_slots", attr::b(true)}});
}

Expected<Operation> AdagradOptimizer::applySparse(GraphBuilder& b, const IndexedSlices& grad, const Variable& var)
{
    auto accum = slot(var, "accumulator");
    if (!accum)
        return unexpected(accum.error());
    auto lr = cast(b, m_lrT, var.dtype());
    if (!lr)
        return unexpected(lr.error());
    return applyOp(b, "SparseApplyAdagrad", {var.ref(), accum->ref(), *lr, grad.values, grad.indices});
}

} // namespace tstudio::training
