// ArgMinMaxFunctor: the index of the largest or smallest element along one axis, for any Eigen device.
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"
#include "proto/node_def.pb.h"

#include <cstdint>

namespace tstudio::reduction {

/// An ArgMax/ArgMin of `input` along `dimension` (a scalar int32 or int64 tensor in host memory),
/// checked as TensorFlow does; the input is viewed as [outer, axisSize, inner]. Shared by the CPU
/// and GPU kernels.
struct ArgMinMaxShape {
    TensorShape output;
    std::int64_t outer = 1;
    std::int64_t axisSize = 1;
    std::int64_t inner = 1;
};
Expected<ArgMinMaxShape> argMinMaxShape(const TensorShape& input, const Tensor& dimension);

/// The node's output_type: int32 or int64, else InvalidArgument.
Expected<DataType> argMinMaxOutputType(const tensorflow::NodeDef& node);

/// out[o, i] = the index j of the largest (kMax) or smallest element in[o, j, i], where the
/// input is viewed as [outer, axis, inner]. Eigen's tuple reducers, as TensorFlow's ArgOp:
/// ties go to the first index; NaN never compares greater or smaller, so it is skipped, and a
/// slice of NaNs only answers 0.
template <typename Device, typename T, typename Tout, bool kMax> struct ArgMinMaxFunctor {
    void operator()(const Device& d, ConstShapedTensor<T, 3> in, ShapedTensor<Tout, 2> out) const
    {
        if constexpr (kMax)
            out.device(d) = in.argmax(1).template cast<Tout>();
        else
            out.device(d) = in.argmin(1).template cast<Tout>();
    }
};

} // namespace tstudio::reduction
