// The checks and shapes of Gather/GatherV2 and OneHot that every device's kernels share.
#pragma once

#include "core/expected.h"
#include "framework/tensor_shape.h"

#include <cstdint>

namespace tstudio {
class Tensor;
}

namespace tstudio::array {

/// The shape of a gather: params [batch, outer, limit, inner], indices [batch, count] (already
/// checked to lie in [0, limit)), output [batch, outer, count, inner].
struct GatherShape {
    std::int64_t batch = 1;
    std::int64_t outer = 1;
    std::int64_t limit = 0;
    std::int64_t count = 0;
    std::int64_t inner = 1;
};

/// A checked Gather/GatherV2: the loop's shape and the output's.
struct GatherPlan {
    GatherShape shape;
    TensorShape outputShape;
};

/// TensorFlow's GatherOp checks on the shapes of `params` and `indices`, the axis (`axis` is the
/// host-memory axis input of GatherV2, nullptr for Gather) and the batch_dims attr, in its order
/// and words ("params must be at least 1 dimensional", "axis must be scalar", "Shape must be at
/// least rank 2 but is rank 1", "batch_dims (2) must be less than rank(params) (2).", ...). The
/// index values are not looked at (they may be in device memory).
Expected<GatherPlan> planGather(const Tensor& params, const Tensor& indices, const Tensor* axis,
                                std::int64_t batchDims);

/// A checked OneHot: output [prefix, depth, suffix].
struct OneHotPlan {
    std::int64_t prefix = 0;
    std::int64_t depth = 0;
    std::int64_t suffix = 0;
    TensorShape outputShape;
};

/// TensorFlow's OneHotOp checks on the axis attr and the shapes of its inputs, and `depth` (a
/// host-memory int32 scalar): "Expected axis to be -1 or between [0, 2).  But received: 3", "depth
/// must be a scalar, but got: [2]", "on_value must be a scalar, ...", "depth must be non-negative,
/// got: -1". The values of indices, on_value and off_value are not looked at.
Expected<OneHotPlan> planOneHot(std::int64_t axisAttr, const Tensor& indices, const Tensor& depth, const Tensor& on,
                                const Tensor& off);

} // namespace tstudio::array
