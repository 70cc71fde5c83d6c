// Shape checks that the CPU and GPU kernels of the math family share, with TensorFlow's error texts:
// Select's and SelectV2's element layouts and AddN's same-shape rule.
#pragma once

#include "core/expected.h"
#include "framework/op_kernel.h"
#include "kernels/math/broadcast.h"

namespace tstudio {

/// How Select or SelectV2 lines its inputs (condition, t, e) up with its output.
struct SelectShapes {
    BroadcastPlan plan; ///< over (condition, t, e), valid
    TensorShape output; ///< the output's shape
    /// Select with a rank-0 condition: the output is t or e as a whole (the plan broadcasts the
    /// condition, for devices that cannot read it on the host).
    bool scalarCondition = false;
};

/// Select (TensorFlow 1's rules): a scalar condition with t and e of the same shape, a vector
/// condition choosing rows of t and e (its length their first dimension), or a condition of their
/// shape. InvalidArgument in TensorFlow's words otherwise ("'then' and 'else' must have the same
/// size.  but received: [2] vs. [3]", "Inputs to operation s of type Select must have the same size
/// and shape.  Input 0: [2] != input 1: [3]", ...). `kernel` names the node in messages.
Expected<SelectShapes> selectShapes(const OpKernel& kernel, const TensorShape& condition, const TensorShape& t,
                                    const TensorShape& e);

/// SelectV2: condition, t and e broadcast together ("then [2] and else [3] must be broadcastable",
/// "condition [4], then [2], and else [2] must be broadcastable").
Expected<SelectShapes> selectV2Shapes(const TensorShape& condition, const TensorShape& t, const TensorShape& e);

/// AddN (and other ops whose inputs must all match input 0): "Inputs to operation s of type AddN
/// must have the same size and shape.  Input 0: [2] != input 1: [3]".
Status checkSameShapes(const OpKernel& kernel, const OpKernelContext& context);

} // namespace tstudio
