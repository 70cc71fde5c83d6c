// The checks of the random ops' host-memory inputs (the output shape, RandomUniformInt's bounds), for
// every device's kernels.
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"

#include <string>

namespace tstudio::random {

/// The shape a 1-D int32/int64 tensor describes, in TensorFlow's words when it is not one ("shape
/// must be a vector of {int32,int64}, got shape [2,2]", "Dimension -1 must be >= 0", "Too many
/// dimensions") or its element count overflows.
Expected<TensorShape> outputShape(const Tensor& shape);

/// RandomUniformInt's checks of its inputs before it draws: minval and maxval scalars ("minval
/// must be 0-D, got shape [2]"), then outputShape(shape).
Expected<TensorShape> uniformIntOutputShape(const Tensor& shape, const Tensor& minval, const Tensor& maxval);

/// RandomUniformInt's bounds check, made only when the output has elements (an empty output is
/// fine whatever the bounds): "Need minval < maxval, got 5 >= 2".
template <typename Int> Status checkUniformIntRange(Int lo, Int hi)
{
    if (lo < hi)
        return Status::ok();
    return invalidArgumentError("Need minval < maxval, got " + std::to_string(lo) + " >= " + std::to_string(hi));
}

} // namespace tstudio::random
