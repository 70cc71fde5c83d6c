// Select's, SelectV2's and AddN's shape rules, shared by their CPU and GPU kernels.
#include "kernels/math/cwise_shape_checks.h"

#include <string>
#include <vector>

namespace tstudio {

namespace {

Status sameSizeError(const TensorShape& t, const TensorShape& e)
{
    return invalidArgumentError("'then' and 'else' must have the same size.  but received: " + t.toString() + " vs. " +
                                e.toString());
}

Status notSameShapeError(const OpKernel& kernel, const TensorShape& first, int i, const TensorShape& other)
{
    return invalidArgumentError("Inputs to operation " + kernel.name() + " of type " + kernel.op() +
                                " must have the same size and shape.  Input 0: " + first.toString() + " != input " +
                                std::to_string(i) + ": " + other.toString());
}

} // namespace

Expected<SelectShapes> selectShapes(const OpKernel& kernel, const TensorShape& condition, const TensorShape& t,
                                    const TensorShape& e)
{
    if (condition.rank() == 0) {
        if (!(t == e))
            return unexpected(sameSizeError(t, e));
        return SelectShapes{BroadcastPlan{condition, t, e}, t, /*scalarCondition=*/true};
    }
    if (condition.rank() == 1 && t.rank() != 1) {
        // The condition picks rows: entry i decides t[i, ...] or e[i, ...].
        if (t.rank() == 0)
            return unexpected(invalidArgumentError("'then' must be at least a vector, but saw shape: " + t.toString()));
        if (t.dim(0) != condition.dim(0)) {
            return unexpected(invalidArgumentError(
                "Number of batches of 'then' must match size of 'cond', but saw: " + std::to_string(t.dim(0)) +
                " vs. " + std::to_string(condition.dim(0))));
        }
        if (!(t == e))
            return unexpected(sameSizeError(t, e));
        std::vector<std::int64_t> rows(static_cast<std::size_t>(t.rank()), 1);
        rows[0] = condition.dim(0);
        return SelectShapes{BroadcastPlan{TensorShape(rows), t, e}, t};
    }
    if (!(t == condition))
        return unexpected(notSameShapeError(kernel, condition, 1, t));
    if (!(e == condition))
        return unexpected(notSameShapeError(kernel, condition, 2, e));
    return SelectShapes{BroadcastPlan{condition, t, e}, t};
}

Expected<SelectShapes> selectV2Shapes(const TensorShape& condition, const TensorShape& t, const TensorShape& e)
{
    if (!BroadcastPlan{t, e}.valid())
        return unexpected(
            invalidArgumentError("then " + t.toString() + " and else " + e.toString() + " must be broadcastable"));
    BroadcastPlan plan{condition, t, e};
    if (!plan.valid()) {
        return unexpected(invalidArgumentError("condition " + condition.toString() + ", then " + t.toString() +
                                               ", and else " + e.toString() + " must be broadcastable"));
    }
    TensorShape output = plan.outputShape();
    return SelectShapes{std::move(plan), std::move(output)};
}

Status checkSameShapes(const OpKernel& kernel, const OpKernelContext& context)
{
    const TensorShape& first = context.input(0).shape();
    for (int i = 1; i < context.numInputs(); ++i) {
        if (!(context.input(i).shape() == first))
            return notSameShapeError(kernel, first, i, context.input(i).shape());
    }
    return Status::ok();
}

} // namespace tstudio
