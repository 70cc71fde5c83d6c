// CPU kernels of FusedBatchNorm, FusedBatchNormV2, FusedBatchNormV3 and their gradients, with
// TensorFlow 1.15's outputs: in training batch_variance is the Bessel-corrected (n / (n - 1))
// variance while reserve_space_2 keeps the biased one the gradient uses.
#define EIGEN_USE_THREADS

#include "kernels/nn/fused_batch_norm.h"
#include "kernels/nn/nn_kernels_internal.h"

#include "framework/node_attrs.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <limits>
#include <tuple>

namespace tstudio::nn {

namespace {

using BatchNormTypes = TypeList<Eigen::half, float>;

std::string str(std::int64_t v)
{
    return std::to_string(v);
}

Status requireRank(const Tensor& t, int rank, const std::string& what)
{
    if (t.rank() == rank)
        return Status::ok();
    return invalidArgumentError(what + " must be " + str(rank) + "-dimensional" + t.shape().toString());
}

Status requireChannels(const Tensor& t, std::int64_t channels, const std::string& what)
{
    if (t.numElements() == channels)
        return Status::ok();
    return invalidArgumentError(what + " must have the same number of elements as the channels of x, got " +
                                str(t.numElements()) + " and " + str(channels));
}

} // namespace

Expected<BatchNormAttrs> batchNormAttrs(const tensorflow::NodeDef& node)
{
    BatchNormAttrs a;
    auto epsilon = attrFloat(node, "epsilon");
    if (!epsilon)
        return unexpected(epsilon.error());
    a.epsilon = *epsilon;
    auto format = dataFormatAttr(node);
    if (!format)
        return unexpected(format.error());
    a.format = *format;
    auto training = attrBool(node, "is_training");
    if (!training)
        return unexpected(training.error());
    a.training = *training;
    return a;
}

BatchNormLayout batchNormLayout(const TensorShape& x, DataFormat format)
{
    if (format == DataFormat::kNhwc)
        return {x.dim(0) * x.dim(1) * x.dim(2), x.dim(3), 1};
    return {x.dim(0), x.dim(1), x.dim(2) * x.dim(3)};
}

Expected<BatchNormLayout> checkFusedBatchNormInputs(const BatchNormAttrs& attrs, const Tensor& x, const Tensor& scale,
                                                    const Tensor& offset, const Tensor& mean, const Tensor& variance)
{
    for (const auto& [t, rank, what] :
         {std::tuple{&x, 4, "input"}, std::tuple{&scale, 1, "scale"}, std::tuple{&offset, 1, "offset"},
          std::tuple{&mean, 1, "estimated_mean"}, std::tuple{&variance, 1, "estimated_variance"}}) {
        if (Status s = requireRank(*t, rank, what); !s.isOk())
            return unexpected(s);
    }
    const BatchNormLayout l = batchNormLayout(x.shape(), attrs.format);
    if (Status s = requireChannels(scale, l.channels, "scale"); !s.isOk())
        return unexpected(s);
    if (Status s = requireChannels(offset, l.channels, "offset"); !s.isOk())
        return unexpected(s);
    if (!attrs.training) {
        if (Status s = requireChannels(mean, l.channels, "When is_training=false, mean"); !s.isOk())
            return unexpected(s);
        if (Status s = requireChannels(variance, l.channels, "When is_training=false, variance"); !s.isOk())
            return unexpected(s);
    }
    return l;
}

Expected<BatchNormLayout> checkFusedBatchNormGradInputs(const Tensor& dy, const Tensor& x, const Tensor& scale,
                                                        const Tensor& mean, const Tensor& variance, DataFormat format)
{
    for (const auto& [t, rank, what] :
         {std::tuple{&dy, 4, "input"}, std::tuple{&x, 4, "input"}, std::tuple{&scale, 1, "scale"},
          std::tuple{&mean, 1, "saved mean"}, std::tuple{&variance, 1, "saved variance"}}) {
        if (Status s = requireRank(*t, rank, what); !s.isOk())
            return unexpected(s);
    }
    if (!(x.shape() == dy.shape())) {
        return unexpected(invalidArgumentError("x and y_backprop must have same shape, but x has shape " +
                                               x.shape().toString() + " and y_backprop has shape " +
                                               dy.shape().toString()));
    }
    const BatchNormLayout l = batchNormLayout(x.shape(), format);
    if (Status s = requireChannels(scale, l.channels, "scale"); !s.isOk())
        return unexpected(s);
    if (Status s = requireChannels(mean, l.channels, "reserve_space_1"); !s.isOk())
        return unexpected(s);
    if (Status s = requireChannels(variance, l.channels, "reserve_space_2"); !s.isOk())
        return unexpected(s);
    return l;
}

namespace {

/// FusedBatchNorm, V2 and V3 (which adds reserve_space_3, a scalar on the CPU).
class FusedBatchNormOp : public NnKernel {
public:
    explicit FusedBatchNormOp(OpKernelConstruction& c) : NnKernel(c) { read(batchNormAttrs(c.node()), m_attrs); }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& x = ctx.input(0);
        const Tensor& scale = ctx.input(1);
        const Tensor& offset = ctx.input(2);
        const Tensor& mean = ctx.input(3);
        const Tensor& variance = ctx.input(4);
        auto checked = checkFusedBatchNormInputs(m_attrs, x, scale, offset, mean, variance);
        if (!checked)
            return checked.error();
        const BatchNormLayout l = *checked;
        std::array<Tensor*, 5> out{};
        for (int i = 0; i < 5; ++i) {
            // An empty x leaves the reserve spaces as zeros (the batch statistics become NaN below).
            const TensorShape& shape = i == 0 ? x.shape() : scale.shape();
            auto t = x.numElements() == 0 ? ctx.allocateZeroedOutput(i, shape) : ctx.allocateOutput(i, shape);
            if (!t)
                return t.error();
            out[static_cast<std::size_t>(i)] = *t;
        }
        if (ctx.numOutputs() == 6) {
            auto reserve3 = ctx.allocateZeroedOutput(5, TensorShape::scalar()); // a scalar zero, as TensorFlow's
            if (!reserve3)
                return reserve3.error();
        }
        float* batchMean = out[1]->data<float>();
        float* batchVariance = out[2]->data<float>();
        const auto channels = static_cast<std::size_t>(l.channels);
        if (x.numElements() == 0) {
            std::fill_n(batchMean, channels, std::numeric_limits<float>::quiet_NaN());
            std::fill_n(batchVariance, channels, std::numeric_limits<float>::quiet_NaN());
            return Status::ok();
        }
        float* reserve1 = out[3]->data<float>();
        float* reserve2 = out[4]->data<float>();
        return dispatchDataType<BatchNormTypes>(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            const auto& d = cpuDevice(ctx);
            if (m_attrs.training) {
                FusedBatchNormCpu<T>::training(d, l, x.data<T>(), scale.data<float>(), offset.data<float>(),
                                               m_attrs.epsilon, out[0]->data<T>(), reserve1, reserve2);
                // Bessel's correction for the running statistics; the gradient gets the biased one.
                const std::int64_t rest = l.rest();
                const float adjust = float(rest) / float(std::max<std::int64_t>(rest - 1, 1));
                std::copy_n(reserve1, channels, batchMean);
                for (std::size_t c = 0; c < channels; ++c)
                    batchVariance[c] = reserve2[c] * adjust;
            } else {
                FusedBatchNormCpu<T>::inference(d, l, x.data<T>(), scale.data<float>(), offset.data<float>(),
                                                mean.data<float>(), variance.data<float>(), m_attrs.epsilon,
                                                out[0]->data<T>());
                std::copy_n(mean.data<float>(), channels, batchMean);
                std::copy_n(variance.data<float>(), channels, batchVariance);
                // TensorFlow leaves the reserve spaces undefined here; the population statistics are
                // what its gradient function passes back in their place.
                std::copy_n(mean.data<float>(), channels, reserve1);
                std::copy_n(variance.data<float>(), channels, reserve2);
            }
        });
    }

private:
    BatchNormAttrs m_attrs;
};

/// FusedBatchNormGrad, V2 and V3 (which takes reserve_space_3 and ignores it).
class FusedBatchNormGradOp : public NnKernel {
public:
    explicit FusedBatchNormGradOp(OpKernelConstruction& c) : NnKernel(c) { read(batchNormAttrs(c.node()), m_attrs); }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& dy = ctx.input(0);
        const Tensor& x = ctx.input(1);
        const Tensor& scale = ctx.input(2);
        const Tensor& mean = ctx.input(3);
        const Tensor& variance = ctx.input(4);
        auto checked = checkFusedBatchNormGradInputs(dy, x, scale, mean, variance, m_attrs.format);
        if (!checked)
            return checked.error();
        const BatchNormLayout l = *checked;
        std::array<Tensor*, 5> out{};
        // The last two outputs are placeholders: [0] in training, [channels] of zeros otherwise
        // (TensorFlow's shape function).
        const TensorShape placeholder{m_attrs.training ? 0 : l.channels};
        for (int i = 0; i < 5; ++i) {
            // The placeholders are zeros, and so is every gradient of an empty x (a sum over nothing).
            const TensorShape& shape = i == 0 ? x.shape() : i < 3 ? scale.shape() : placeholder;
            auto t = i >= 3 || x.numElements() == 0 ? ctx.allocateZeroedOutput(i, shape) : ctx.allocateOutput(i, shape);
            if (!t)
                return t.error();
            out[static_cast<std::size_t>(i)] = *t;
        }
        if (x.numElements() == 0)
            return Status::ok();
        return dispatchDataType<BatchNormTypes>(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            FusedBatchNormCpu<T>::grad(cpuDevice(ctx), l, m_attrs.training, dy.data<T>(), x.data<T>(),
                                       scale.data<float>(), mean.data<float>(), variance.data<float>(), m_attrs.epsilon,
                                       out[0]->data<T>(), out[1]->data<float>(), out[2]->data<float>());
        });
    }

private:
    BatchNormAttrs m_attrs;
};

} // namespace

Status registerBatchNormKernels(KernelRegistry& registry)
{
    return addBatchNormKernels<FusedBatchNormOp, FusedBatchNormGradOp>(registry, "CPU");
}

} // namespace tstudio::nn
