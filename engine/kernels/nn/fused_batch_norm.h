// FusedBatchNorm (V1/V2/V3) and FusedBatchNormGrad arithmetic: TensorFlow 1.15's CPU formulas on a
// 4-D x viewed as [outer, channels, inner] (NHWC: inner = 1; NCHW: outer = batch, inner = H*W).
#pragma once

#include "kernels/nn/nn_kernel_util.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tstudio::nn {

/// The [outer, channels, inner] view of x.
struct BatchNormLayout {
    std::int64_t outer = 0;
    std::int64_t channels = 0;
    std::int64_t inner = 0;
    /// Elements per channel: the batch-norm "rest size".
    std::int64_t rest() const { return outer * inner; }
};

/// The attrs every batch-norm op and gradient has.
struct BatchNormAttrs {
    float epsilon = 0.0001f;
    DataFormat format = DataFormat::kNhwc;
    bool training = true;
};

/// Reads epsilon, data_format and is_training.
Expected<BatchNormAttrs> batchNormAttrs(const tensorflow::NodeDef& node);

/// The [outer, channels, inner] view of a 4-D x in `format`.
BatchNormLayout batchNormLayout(const TensorShape& x, DataFormat format);

/// FusedBatchNorm's checks in TensorFlow's words ("input must be 4-dimensional[2,3]", "scale must
/// have the same number of elements as the channels of x, got 2 and 3", and when not training the
/// same for mean and variance); returns x's layout. The CPU and GPU kernels share it.
Expected<BatchNormLayout> checkFusedBatchNormInputs(const BatchNormAttrs& attrs, const Tensor& x, const Tensor& scale,
                                                    const Tensor& offset, const Tensor& mean, const Tensor& variance);

/// FusedBatchNormGrad's checks (ranks, "x and y_backprop must have same shape, ...", the channel
/// counts of scale, reserve_space_1 and reserve_space_2); returns x's layout.
Expected<BatchNormLayout> checkFusedBatchNormGradInputs(const Tensor& dy, const Tensor& x, const Tensor& scale,
                                                        const Tensor& mean, const Tensor& variance, DataFormat format);

/// Registers Forward as FusedBatchNorm, FusedBatchNormV2 and FusedBatchNormV3 and Grad as
/// FusedBatchNormGrad, V2 and V3 on `deviceType`, with TensorFlow 1.15's dtypes on both the CPU and
/// the GPU: V1 for T = float, V2 and V3 for T in {half, float} with U = float.
template <typename Forward, typename Grad>
Status addBatchNormKernels(KernelRegistry& registry, const std::string& deviceType)
{
    auto def = [&](const char* op, bool v1) {
        KernelDef d{op, deviceType, {}, {}};
        if (v1) {
            d.typeConstraints.emplace_back("T", std::vector<DataType>{tensorflow::DT_FLOAT});
        } else {
            d.typeConstraints.emplace_back("T", std::vector<DataType>{tensorflow::DT_HALF, tensorflow::DT_FLOAT});
            d.typeConstraints.emplace_back("U", std::vector<DataType>{tensorflow::DT_FLOAT});
        }
        return d;
    };
    KernelAdder r(registry);
    r.add<Forward>(def("FusedBatchNorm", true));
    r.add<Forward>(def("FusedBatchNormV2", false));
    r.add<Forward>(def("FusedBatchNormV3", false));
    r.add<Grad>(def("FusedBatchNormGrad", true));
    r.add<Grad>(def("FusedBatchNormGradV2", false));
    r.add<Grad>(def("FusedBatchNormGradV3", false));
    return r.status();
}

/// The CPU arithmetic for x of T (half or float) and statistics of float; per-channel sums are
/// accumulated in double, elementwise steps computed in float as TensorFlow does.
template <typename T> struct FusedBatchNormCpu {
    /// Training: y = (x - mean) * scale / sqrt(var + epsilon) + offset with the batch's mean and
    /// biased variance; `mean` and `variance` receive them. Requires rest() > 0.
    static void training(const Eigen::ThreadPoolDevice& d, const BatchNormLayout& l, const T* x, const float* scale,
                         const float* offset, float epsilon, T* y, float* mean, float* variance);
    /// Inference: the same with the given mean and variance.
    static void inference(const Eigen::ThreadPoolDevice& d, const BatchNormLayout& l, const T* x, const float* scale,
                          const float* offset, const float* mean, const float* variance, float epsilon, T* y);
    /// Gradients. Training: x_backprop = scale * rsqrt(var + eps) * (dy - mean(dy) - (x - mean) *
    /// mean(dy * (x - mean)) / (var + eps)); inference: x_backprop = dy * scale * rsqrt(var + eps).
    /// Both: scale_backprop = sum(dy * (x - mean)) * rsqrt(var + eps), offset_backprop = sum(dy).
    static void grad(const Eigen::ThreadPoolDevice& d, const BatchNormLayout& l, bool training, const T* dy, const T* x,
                     const float* scale, const float* mean, const float* variance, float epsilon, T* dx,
                     float* scaleBackprop, float* offsetBackprop);
};

} // namespace tstudio::nn
