// LazyAdamOptimizer as TensorFlow 1.15's tf.contrib.opt builds its sparse update.
#include "training/lazy_adam.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"

namespace tstudio::training {

LazyAdamOptimizer::LazyAdamOptimizer(Hyper learningRate, Hyper beta1, Hyper beta2, Hyper epsilon, bool useLocking,
                                     std::string name)
    : AdamOptimizer(std::move(learningRate), std::move(beta1), std::move(beta2), std::move(epsilon), useLocking,
                    std::move(name))
{
}

namespace {

/// array_ops.gather(params, indices) with the default axis: "GatherV2/axis" and "GatherV2".
Expected<Output> gather(GraphBuilder& b, const Output& params, const Output& indices)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("GatherV2"));
    TSTUDIO_AD_TRY(axis, ops::constantInts(b, {0}, TensorShape::scalar(), tensorflow::DT_INT32, "axis"));
    return py::genOp(b, "GatherV2", {params, indices, axis}, {}, scope.name());
}

} // namespace

Expected<Operation> LazyAdamOptimizer::applySparse(GraphBuilder& b, const IndexedSlices& grad, const Variable& var)
{
    TSTUDIO_AD_TRY(in, sparseUpdateInputs(b, var));
    const bool locking = useLocking();
    // state_ops.scatter_update(slot, indices, updates): the slot's ref after the rows are written.
    auto scatterUpdate = [&](const Variable& target, const Output& updates) -> Expected<Output> {
        TSTUDIO_AD_TRY(op,
                       b.op("ScatterUpdate", {target.ref(), grad.indices, updates}, {{"use_locking", attr::b(locking)}}));
        return op.output(0);
    };
    // m_t = scatter_update(m, indices, beta1_t * gather(m, indices) + (1 - beta1_t) * values)
    TSTUDIO_AD_TRY(mRows, gather(b, in.m.value(), grad.indices));
    TSTUDIO_AD_TRY(mDecayed, py::binary(b, py::Operator::kMul, in.beta1, mRows));
    TSTUDIO_AD_TRY(oneMinusB1, py::binary(b, py::Operator::kSub, 1.0, in.beta1));
    TSTUDIO_AD_TRY(mScaledG, py::binary(b, py::Operator::kMul, oneMinusB1, grad.values));
    TSTUDIO_AD_TRY(mUpdates, py::binary(b, py::Operator::kAdd, mDecayed, mScaledG));
    TSTUDIO_AD_TRY(mT, scatterUpdate(in.m, mUpdates));
    // v_t = scatter_update(v, indices, beta2_t * gather(v, indices) + (1 - beta2_t) * square(values))
    TSTUDIO_AD_TRY(vRows, gather(b, in.v.value(), grad.indices));
    TSTUDIO_AD_TRY(vDecayed, py::binary(b, py::Operator::kMul, in.beta2, vRows));
    TSTUDIO_AD_TRY(oneMinusB2, py::binary(b, py::Operator::kSub, 1.0, in.beta2));
    TSTUDIO_AD_TRY(gSquared, py::genOp(b, "Square", {grad.values}));
    TSTUDIO_AD_TRY(vScaledG, py::binary(b, py::Operator::kMul, oneMinusB2, gSquared));
    TSTUDIO_AD_TRY(vUpdates, py::binary(b, py::Operator::kAdd, vDecayed, vScaledG));
    TSTUDIO_AD_TRY(vT, scatterUpdate(in.v, vUpdates));
    // var -= lr * gather(m_t, indices) / (sqrt(gather(v_t, indices)) + epsilon_t), on those rows only
    TSTUDIO_AD_TRY(mTRows, gather(b, mT, grad.indices));
    TSTUDIO_AD_TRY(vTRows, gather(b, vT, grad.indices));
    TSTUDIO_AD_TRY(vSqrt, py::genOp(b, "Sqrt", {vTRows}));
    TSTUDIO_AD_TRY(denominator, py::binary(b, py::Operator::kAdd, vSqrt, in.epsilon));
    TSTUDIO_AD_TRY(lrM, py::binary(b, py::Operator::kMul, in.lr, mTRows));
    TSTUDIO_AD_TRY(step, py::binary(b, py::Operator::kTrueDiv, lrM, denominator));
    TSTUDIO_AD_TRY(varUpdate, b.op("ScatterSub", {var.ref(), grad.indices, step}, {{"use_locking", attr::b(locking)}}));
    TSTUDIO_AD_TRY(mOp, py::producer(b, mT));
    TSTUDIO_AD_TRY(vOp, py::producer(b, vT));
    return ops::group(b, {varUpdate, mOp, vOp}, "group_deps");
}

} // namespace tstudio::training
