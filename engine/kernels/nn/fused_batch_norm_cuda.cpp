// GPU kernels of FusedBatchNorm (V1, V2, V3) and FusedBatchNormGrad (V1, V2, V3) with the CPU
// kernels' checks and outputs: batch_variance Bessel-corrected in training, reserve_space_1/2 the
// batch mean and biased variance (the population statistics when not training), reserve_space_3 a
// zero scalar, so the CPU and GPU kernels of the forward and gradient ops can be mixed. The sums
// are computed in double in hand-written kernels (fused_batch_norm_cuda.cu), not by cuDNN.
#include "kernels/nn/fused_batch_norm_cuda.h"
#include "kernels/nn/conv_pool_cuda.h"
#include "kernels/nn/fused_batch_norm.h"

#include "devices/cuda/cuda_kernel.h"

#include <array>
#include <limits>

namespace tstudio::nn {

namespace {

void* devicePointer(Tensor& t)
{
    return t.tensorData().data();
}

const void* devicePointer(const Tensor& t)
{
    return t.tensorData().data();
}

float* floats(Tensor& t)
{
    return reinterpret_cast<float*>(devicePointer(t));
}

const float* floats(const Tensor& t)
{
    return reinterpret_cast<const float*>(devicePointer(t));
}

double* doubles(Tensor& t)
{
    return reinterpret_cast<double*>(devicePointer(t));
}

Expected<gpu::BnElement> bnElement(DataType dtype)
{
    if (dtype == tensorflow::DT_HALF)
        return gpu::BnElement::kHalf;
    if (dtype == tensorflow::DT_FLOAT)
        return gpu::BnElement::kFloat;
    return unexpected(internalError("GPU batch-norm kernel called for " + dataTypeString(dtype)));
}

gpu::BnLayout bnLayout(const BatchNormLayout& l)
{
    return {l.outer, l.channels, l.inner};
}

Status launched(bool queued, const char* kernels)
{
    if (!queued)
        return internalError(std::string(kernels) + " were not launched");
    return cuda::lastLaunchStatus(kernels);
}

/// A temporary of the context's device.
Expected<Tensor> temporary(OpKernelContext& ctx, DataType dtype, std::int64_t elements)
{
    return Tensor::allocateUninitialized(ctx.allocator(), dtype, TensorShape{elements});
}

/// New tensors for outputs 0..N-1, every element of which the kernels write: output 0 of x's dtype
/// and shape, the others per-channel floats shaped as `scale`.
template <std::size_t N>
Expected<std::array<Tensor, N>> uninitializedOutputs(OpKernelContext& ctx, const Tensor& x, const Tensor& scale)
{
    std::array<Tensor, N> out;
    for (std::size_t i = 0; i < N; ++i) {
        auto t = Tensor::allocateUninitialized(ctx.allocator(), i == 0 ? x.dtype() : tensorflow::DT_FLOAT,
                                               i == 0 ? x.shape() : scale.shape());
        if (!t)
            return unexpected(t.error());
        out[i] = std::move(*t);
    }
    return out;
}

/// Sets outputs 0..N-1 to `out`.
template <std::size_t N> Status setOutputs(OpKernelContext& ctx, std::array<Tensor, N>& out)
{
    for (std::size_t i = 0; i < N; ++i) {
        if (Status s = ctx.setOutput(static_cast<int>(i), std::move(out[i])); !s.isOk())
            return s;
    }
    return Status::ok();
}

/// FusedBatchNorm, V2 and V3 (whose reserve_space_3 is a scalar zero, as on the CPU).
class FusedBatchNormGpuOp : public NnKernel {
public:
    explicit FusedBatchNormGpuOp(OpKernelConstruction& c) : NnKernel(c) { read(batchNormAttrs(c.node()), m_attrs); }

    Status compute(OpKernelContext& ctx) override
    {
        auto device = cuda::gpuOf(ctx);
        if (!device)
            return device.error();
        const Tensor& x = ctx.input(0);
        const Tensor& scale = ctx.input(1);
        const Tensor& offset = ctx.input(2);
        const Tensor& mean = ctx.input(3);
        const Tensor& variance = ctx.input(4);
        auto checked = checkFusedBatchNormInputs(m_attrs, x, scale, offset, mean, variance);
        if (!checked)
            return checked.error();
        const gpu::BnLayout l = bnLayout(*checked);
        const cudaStream_t stream = (*device)->computeStream();
        if (ctx.numOutputs() == 6) {
            if (auto reserve3 = ctx.allocateZeroedOutput(5, TensorShape::scalar()); !reserve3)
                return reserve3.error();
        }
        if (x.numElements() == 0) {
            // As the CPU kernel: zeros, and NaN batch statistics (a mean over nothing).
            std::array<Tensor*, 5> out{};
            for (int i = 0; i < 5; ++i) {
                auto t = ctx.allocateZeroedOutput(i, i == 0 ? x.shape() : scale.shape());
                if (!t)
                    return t.error();
                out[static_cast<std::size_t>(i)] = *t;
            }
            for (int i : {1, 2}) {
                if (l.channels == 0)
                    break;
                if (Status s = launched(gpu::launchFillFloat(stream, floats(*out[static_cast<std::size_t>(i)]),
                                                             l.channels, std::numeric_limits<float>::quiet_NaN()),
                                        "fillKernel");
                    !s.isOk())
                    return s;
            }
            return Status::ok();
        }
        auto element = bnElement(x.dtype());
        if (!element)
            return element.error();
        auto outputs = uninitializedOutputs<5>(ctx, x, scale);
        if (!outputs)
            return outputs.error();
        std::array<Tensor, 5>& out = *outputs;
        auto factor = temporary(ctx, tensorflow::DT_FLOAT, l.channels);
        if (!factor)
            return factor.error();
        gpu::BnForward args;
        args.layout = l;
        args.epsilon = m_attrs.epsilon;
        args.x = devicePointer(x);
        args.scale = floats(scale);
        args.offset = floats(offset);
        args.y = devicePointer(out[0]);
        args.batchMean = floats(out[1]);
        args.batchVariance = floats(out[2]);
        args.reserve1 = floats(out[3]);
        args.reserve2 = floats(out[4]);
        args.factor = floats(*factor);
        Tensor partial;
        Tensor channelMean;
        if (m_attrs.training) {
            args.plan = gpu::bnReductionPlan(l);
            auto p = temporary(ctx, tensorflow::DT_DOUBLE, args.plan.chunks * l.channels);
            if (!p)
                return p.error();
            partial = std::move(*p);
            auto m = temporary(ctx, tensorflow::DT_DOUBLE, l.channels);
            if (!m)
                return m.error();
            channelMean = std::move(*m);
            args.partial = doubles(partial);
            args.channelMean = doubles(channelMean);
            if (Status s =
                    launched(gpu::launchBnForwardTraining(stream, *element, args), "batch-norm training kernels");
                !s.isOk())
                return s;
        } else {
            args.mean = floats(mean);
            args.variance = floats(variance);
            if (Status s =
                    launched(gpu::launchBnForwardInference(stream, *element, args), "batch-norm inference kernels");
                !s.isOk())
                return s;
        }
        return setOutputs(ctx, out);
    }

private:
    BatchNormAttrs m_attrs;
};

/// FusedBatchNormGrad, V2 and V3 (which takes reserve_space_3 and ignores it).
class FusedBatchNormGradGpuOp : public NnKernel {
public:
    explicit FusedBatchNormGradGpuOp(OpKernelConstruction& c) : NnKernel(c) { read(batchNormAttrs(c.node()), m_attrs); }

    Status compute(OpKernelContext& ctx) override
    {
        auto device = cuda::gpuOf(ctx);
        if (!device)
            return device.error();
        const Tensor& dy = ctx.input(0);
        const Tensor& x = ctx.input(1);
        const Tensor& scale = ctx.input(2);
        const Tensor& mean = ctx.input(3);
        const Tensor& variance = ctx.input(4);
        auto checked = checkFusedBatchNormGradInputs(dy, x, scale, mean, variance, m_attrs.format);
        if (!checked)
            return checked.error();
        const gpu::BnLayout l = bnLayout(*checked);
        // The last two outputs are placeholders: [0] in training, [channels] of zeros otherwise.
        const TensorShape placeholder{m_attrs.training ? 0 : l.channels};
        for (int i : {3, 4}) {
            if (auto t = ctx.allocateZeroedOutput(i, placeholder); !t)
                return t.error();
        }
        if (x.numElements() == 0) {
            for (int i = 0; i < 3; ++i) {
                if (auto t = ctx.allocateZeroedOutput(i, i == 0 ? x.shape() : scale.shape()); !t)
                    return t.error();
            }
            return Status::ok();
        }
        auto element = bnElement(x.dtype());
        if (!element)
            return element.error();
        auto outputs = uninitializedOutputs<3>(ctx, x, scale); // dx, scale_backprop, offset_backprop
        if (!outputs)
            return outputs.error();
        std::array<Tensor, 3>& out = *outputs;
        gpu::BnBackward args;
        args.layout = l;
        args.plan = gpu::bnReductionPlan(l);
        args.epsilon = m_attrs.epsilon;
        args.training = m_attrs.training;
        args.dy = devicePointer(dy);
        args.x = devicePointer(x);
        args.scale = floats(scale);
        args.mean = floats(mean);
        args.variance = floats(variance);
        args.dx = devicePointer(out[0]);
        args.scaleBackprop = floats(out[1]);
        args.offsetBackprop = floats(out[2]);
        auto partialDy = temporary(ctx, tensorflow::DT_DOUBLE, args.plan.chunks * l.channels);
        if (!partialDy)
            return partialDy.error();
        auto partialDyCentered = temporary(ctx, tensorflow::DT_DOUBLE, args.plan.chunks * l.channels);
        if (!partialDyCentered)
            return partialDyCentered.error();
        auto coefficients = temporary(ctx, tensorflow::DT_FLOAT, 3 * l.channels);
        if (!coefficients)
            return coefficients.error();
        args.partialDy = doubles(*partialDy);
        args.partialDyCentered = doubles(*partialDyCentered);
        args.coefficients = floats(*coefficients);
        if (Status s = launched(gpu::launchBnBackward((*device)->computeStream(), *element, args),
                                "batch-norm gradient kernels");
            !s.isOk())
            return s;
        return setOutputs(ctx, out);
    }

private:
    BatchNormAttrs m_attrs;
};

} // namespace

Status registerFusedBatchNormGpuKernels(KernelRegistry& registry)
{
    return addBatchNormKernels<FusedBatchNormGpuOp, FusedBatchNormGradGpuOp>(registry, "GPU");
}

} // namespace tstudio::nn
