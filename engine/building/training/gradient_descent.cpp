// GradientDescentOptimizer as TensorFlow 1.15's gradient_descent.py builds it.
#include "training/gradient_descent.h"

#include "builder/python_ops.h"

namespace tstudio::training {

GradientDescentOptimizer::GradientDescentOptimizer(Hyper learningRate, bool useLocking, std::string name)
    : Optimizer(std::move(name), useLocking), m_learningRate(std::move(learningRate))
{
}

Status GradientDescentOptimizer::prepare(GraphBuilder& b)
{
    auto lr = toTensor(b, m_learningRate, "learning_rate");
    if (!lr)
        return lr.error();
    m_learningRateTensor = *lr;
    return Status::ok();
}

Expected<Operation> GradientDescentOptimizer::applyDense(GraphBuilder& b, const Output& grad, const Variable& var)
{
    auto lr = cast(b, m_learningRateTensor, var.dtype());
    if (!lr)
        return unexpected(lr.error());
    return applyOp(b, "ApplyGradientDescent", {var.ref(), *lr, grad});
}

Expected<Operation> GradientDescentOptimizer::applySparseDuplicateIndices(GraphBuilder& b, const IndexedSlices& grad,
                                                                          const Variable& var)
{
    auto lr = cast(b, m_learningRateTensor, var.dtype());
    if (!lr)
        return unexpected(lr.error());
    auto delta = py::binary(b, py::Operator::kMul, grad.values, *lr);
    if (!delta)
        return unexpected(delta.error());
    return b.op("ScatterSub", {var.ref(), grad.indices, *delta}, {{"use_locking", attr::b(useLocking())}});
}

} // namespace tstudio::training
