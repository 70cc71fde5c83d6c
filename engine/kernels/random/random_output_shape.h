// The output shape of the random ops from their host-memory `shape` input, for every device's kernels.
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"

namespace tstudio::random {

/// The shape a 1-D int32/int64 tensor describes, in TensorFlow's words when it is not one ("shape
/// must be a vector of {int32,int64}, got shape [2,2]", "Dimension -1 must be >= 0", "Too many
/// dimensions") or its element count overflows.
Expected<TensorShape> outputShape(const Tensor& shape);

} // namespace tstudio::random
