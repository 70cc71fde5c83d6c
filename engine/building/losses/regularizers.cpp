// The l1 / l2 / l1_l2 weight penalties of tf.contrib.layers and their registration in
// REGULARIZATION_LOSSES, with the node names TensorFlow 1.15 gives them.
#include "losses/regularizers.h"

#include "builder/python_ops.h"
#include "builder/collections.h"

#include <cstdio>
#include <string>

namespace tstudio {
namespace {

/// Python's '%g' % value, as TensorFlow formats the scale in its error.
std::string pythonG(double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

/// TensorFlow's l1_regularizer words it without a final period, l2_regularizer with one.
Status checkScale(double scale, bool period)
{
    if (scale < 0.0)
        return invalidArgumentError("Setting a scale less than 0 on a regularizer: " + pythonG(scale) +
                                    (period ? "." : ""));
    return Status::ok();
}

/// A regularizer that reports `status` when used (TensorFlow raises when the regularizer is made;
/// a std::function cannot carry that error, so it surfaces on first use).
Regularizer failing(Status status)
{
    return [status](GraphBuilder&, const Output&) -> Expected<Output> { return unexpected(status); };
}

/// A regularizer that adds no penalty (TensorFlow's `lambda _: None`).
Regularizer none()
{
    return [](GraphBuilder&, const Output&) -> Expected<Output> { return Output{}; };
}

/// scale * penalty(weights) under the name scope `scopeName` (made unique), the Mul named after it.
template <typename Penalty> Regularizer scaled(double scale, std::string scopeName, Penalty penalty)
{
    return [scale, scopeName, penalty](GraphBuilder& b, const Output& weights) -> Expected<Output> {
        TSTUDIO_AD_TRY(scope, b.nameScope(scopeName));
        TSTUDIO_AD_TRY(scaleT, py::constant(b, scale, weights.baseDtype(), "scale"));
        TSTUDIO_AD_TRY(value, penalty(b, weights));
        return py::genOp(b, "Mul", {scaleT, value}, {}, scope.name());
    };
}

Regularizer l1Scoped(double scale, std::string scopeName)
{
    if (Status s = checkScale(scale, false); !s.isOk())
        return failing(s);
    if (scale == 0.0)
        return none();
    return scaled(scale, std::move(scopeName), [](GraphBuilder& b, const Output& w) -> Expected<Output> {
        TSTUDIO_AD_TRY(absW, py::genOp(b, "Abs", {w}));
        // math_ops.reduce_sum over every axis: the axes Const, then Sum.
        std::vector<std::int64_t> axes;
        if (!absW.shape().isUnknownRank()) {
            for (int i = 0; i < absW.shape().rank(); ++i)
                axes.push_back(i);
        } else {
            return unexpected(unimplementedError("l1_regularizer: weights of unknown rank are not supported"));
        }
        TSTUDIO_AD_TRY(axesT, py::intVector(b, axes, "Const"));
        return py::reduceSum(b, absW, axesT);
    });
}

Regularizer l2Scoped(double scale, std::string scopeName)
{
    if (Status s = checkScale(scale, true); !s.isOk())
        return failing(s);
    if (scale == 0.0)
        return none();
    return scaled(scale, std::move(scopeName),
                  [](GraphBuilder& b, const Output& w) { return py::genOp(b, "L2Loss", {w}); });
}

} // namespace

Regularizer l1Regularizer(double scale)
{
    return l1Scoped(scale, "l1_regularizer");
}

Regularizer l2Regularizer(double scale)
{
    return l2Scoped(scale, "l2_regularizer");
}

Regularizer l1l2Regularizer(double scaleL1, double scaleL2)
{
    // A scale of 0 drops that penalty and gives the other one the l1_l2 scope name; otherwise the
    // two are made (l1 first, so its negative scale is reported first) and summed (sum_regularizer).
    const std::string scopeName = "l1_l2_regularizer";
    if (scaleL1 == 0.0)
        return l2Scoped(scaleL2, scopeName);
    if (scaleL2 == 0.0)
        return l1Scoped(scaleL1, scopeName);
    if (Status s = checkScale(scaleL1, false); !s.isOk())
        return failing(s);
    if (Status s = checkScale(scaleL2, true); !s.isOk())
        return failing(s);
    Regularizer l1 = l1Regularizer(scaleL1);
    Regularizer l2 = l2Regularizer(scaleL2);
    return [l1, l2, scopeName](GraphBuilder& b, const Output& weights) -> Expected<Output> {
        TSTUDIO_AD_TRY(scope, b.nameScope(scopeName));
        TSTUDIO_AD_TRY(a, l1(b, weights));
        TSTUDIO_AD_TRY(c, l2(b, weights));
        return py::genOp(b, "AddN", {std::vector<Output>{a, c}}, {}, scope.name());
    };
}

Expected<Output> addRegularizationLoss(GraphBuilder& b, const Variable& variable, const Regularizer& regularizer)
{
    if (!variable.isValid())
        return unexpected(invalidArgumentError("addRegularizationLoss: invalid variable"));
    if (!regularizer)
        return unexpected(
            invalidArgumentError("addRegularizationLoss: no regularizer for variable " + variable.name()));
    TSTUDIO_AD_TRY(varOp, b.operation(variable.name()));
    // _VariableStore: colocate_with(v), name_scope(name + "/Regularizer/"), init_scope (which clears
    // the control dependencies); the penalty reads the variable through its "x/read" snapshot.
    ScopeGuard colocation = b.colocateWith(varOp);
    TSTUDIO_AD_TRY(scope, b.nameScope(variable.name() + "/Regularizer/"));
    ScopeGuard noControls = b.clearControlDependencies();
    TSTUDIO_AD_TRY(loss, regularizer(b, variable.value()));
    if (loss.isValid())
        b.collections().add(graph_keys::kRegularizationLosses, loss);
    return loss;
}

} // namespace tstudio
