// CPU kernels of tf.contrib.resampler's Resampler and ResamplerGrad as TensorFlow 1.15 computes them
// (contrib/resampler/kernels/resampler_ops.cc): bilinear sampling of data [batch, height, width,
// channels] at warp's (x, y) points, the image padded with zeros so that the value goes to zero
// smoothly over the pixel beyond each border, and zero further out. Each value is the sum, in
// TensorFlow's order, of the four corners times their weights, computed in T (half in Eigen::half's
// arithmetic, as TensorFlow). The gradient adds into the four corners' data gradients and into the
// point's two warp gradients. One thread: the gradient's sums have one order.
#include "kernels/image/image_kernels.h"

#include "kernels/array/array_kernel_util.h"

#include <Eigen/Core>

#include <cmath>
#include <string>

namespace tstudio::image {

namespace {

/// The shapes both ops check, with TensorFlow's messages; the output's shape.
Expected<TensorShape> resamplerOutputShape(const TensorShape& data, const TensorShape& warp)
{
    if (data.rank() != 4)
        return unexpected(unimplementedError(
            "Only bilinear interpolation is currently supported. The input data shape must be [batch_size, "
            "data_height, data_width, data_channels], but is: " + data.toString()));
    if (warp.rank() < 2)
        return unexpected(invalidArgumentError("warp should be at least a matrix, got shape " + warp.toString()));
    if (warp.dim(warp.rank() - 1) != 2)
        return unexpected(unimplementedError(
            "Only bilinear interpolation is supported, warping coordinates must be 2D; warp shape last entry "
            "should be 2, but shape vector is: " + warp.toString()));
    if (data.dim(0) != warp.dim(0))
        return unexpected(invalidArgumentError(
            "Batch size of data and warp tensor must be the same, but input shapes are: " + data.toString() + ", " +
            warp.toString()));
    std::vector<std::int64_t> dims(warp.dims().begin(), warp.dims().end() - 1);
    dims.push_back(data.dim(3));
    return TensorShape(dims);
}

/// The geometry of one call.
struct Sampling {
    std::int64_t batch = 0, height = 0, width = 0, channels = 0, points = 0;
};

Sampling samplingOf(const TensorShape& data, std::int64_t warpElements)
{
    Sampling s;
    s.batch = data.dim(0);
    s.height = data.dim(1);
    s.width = data.dim(2);
    s.channels = data.dim(3);
    s.points = s.batch > 0 ? warpElements / s.batch / 2 : 0;
    return s;
}

/// The data as the sampling reads it: a pixel outside the image reads 0.
template <typename T> struct Pixels {
    const T* data;
    const Sampling& s;

    bool inside(std::int64_t x, std::int64_t y) const { return x >= 0 && y >= 0 && x < s.width && y < s.height; }
    std::int64_t index(std::int64_t b, std::int64_t x, std::int64_t y, std::int64_t c) const
    {
        return ((b * s.height + y) * s.width + x) * s.channels + c;
    }
    T at(std::int64_t b, std::int64_t x, std::int64_t y, std::int64_t c) const
    {
        return inside(x, y) ? data[index(b, x, y, c)] : T(0.0f);
    }
};

/// Calls f(b, p, x, y, fx, fy, dx, dy) for every point inside the zero-padded image.
template <typename T, typename F> void forEachPoint(const Sampling& s, const T* warp, F&& f)
{
    for (std::int64_t b = 0; b < s.batch; ++b) {
        for (std::int64_t p = 0; p < s.points; ++p) {
            const T x = warp[(b * s.points + p) * 2];
            const T y = warp[(b * s.points + p) * 2 + 1];
            if (!(x > T(-1.0f) && y > T(-1.0f) && x < T(static_cast<float>(s.width)) &&
                  y < T(static_cast<float>(s.height))))
                continue;
            const auto fx = static_cast<std::int64_t>(std::floor(static_cast<float>(x)));
            const auto fy = static_cast<std::int64_t>(std::floor(static_cast<float>(y)));
            const T dx = T(static_cast<float>(fx + 1)) - x;
            const T dy = T(static_cast<float>(fy + 1)) - y;
            f(b, p, fx, fy, dx, dy);
        }
    }
}

template <typename T> class ResamplerOp : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        const Tensor& data = context.input(0);
        const Tensor& warp = context.input(1);
        auto shape = resamplerOutputShape(data.shape(), warp.shape());
        if (!shape)
            return shape.error();
        auto out = context.allocateZeroedOutput(0, *shape);
        if (!out)
            return out.error();
        const Sampling s = samplingOf(data.shape(), warp.numElements());
        const Pixels<T> pixels{data.values<T>().data(), s};
        T* output = (*out)->values<T>().data();
        const T one(1.0f);
        auto at = [&](std::int64_t b, std::int64_t x, std::int64_t y, std::int64_t c) { return pixels.at(b, x, y, c); };
        forEachPoint(s, warp.values<T>().data(),
                     [&](std::int64_t b, std::int64_t p, std::int64_t fx, std::int64_t fy, T dx, T dy) {
                         const std::int64_t cx = fx + 1, cy = fy + 1;
                         T* o = output + (b * s.points + p) * s.channels;
                         for (std::int64_t c = 0; c < s.channels; ++c) {
                             const T fxfy = dx * dy * at(b, fx, fy, c);
                             const T cxcy = (one - dx) * (one - dy) * at(b, cx, cy, c);
                             const T fxcy = dx * (one - dy) * at(b, fx, cy, c);
                             const T cxfy = (one - dx) * dy * at(b, cx, fy, c);
                             o[c] = fxfy + cxcy + fxcy + cxfy;
                         }
                     });
        return Status::ok();
    }
};

template <typename T> class ResamplerGradOp : public OpKernel {
public:
    using OpKernel::OpKernel;

    Status compute(OpKernelContext& context) override
    {
        const Tensor& data = context.input(0);
        const Tensor& warp = context.input(1);
        const Tensor& gradOutput = context.input(2);
        auto shape = resamplerOutputShape(data.shape(), warp.shape());
        if (!shape)
            return shape.error();
        if (gradOutput.shape() != *shape)
            return invalidArgumentError(
                "grad_output shape is not consistent with data and warp shapes; it should be " + shape->toString() +
                " but is " + gradOutput.shape().toString());
        auto gradData = context.allocateZeroedOutput(0, data.shape());
        if (!gradData)
            return gradData.error();
        auto gradWarp = context.allocateZeroedOutput(1, warp.shape());
        if (!gradWarp)
            return gradWarp.error();
        const Sampling s = samplingOf(data.shape(), warp.numElements());
        const Pixels<T> pixels{data.values<T>().data(), s};
        const T* g = gradOutput.values<T>().data();
        T* dData = (*gradData)->values<T>().data();
        T* dWarp = (*gradWarp)->values<T>().data();
        const T one(1.0f);
        auto at = [&](std::int64_t b, std::int64_t x, std::int64_t y, std::int64_t c) { return pixels.at(b, x, y, c); };
        auto add = [&](std::int64_t b, std::int64_t x, std::int64_t y, std::int64_t c, T value) {
            if (pixels.inside(x, y))
                dData[pixels.index(b, x, y, c)] += value;
        };
        forEachPoint(s, warp.values<T>().data(),
                     [&](std::int64_t b, std::int64_t p, std::int64_t fx, std::int64_t fy, T dx, T dy) {
                         const std::int64_t cx = fx + 1, cy = fy + 1;
                         const T* go = g + (b * s.points + p) * s.channels;
                         T* w = dWarp + (b * s.points + p) * 2;
                         for (std::int64_t c = 0; c < s.channels; ++c) {
                             const T value = go[c];
                             const T fxfy = at(b, fx, fy, c);
                             const T cxcy = at(b, cx, cy, c);
                             const T fxcy = at(b, fx, cy, c);
                             const T cxfy = at(b, cx, fy, c);
                             w[0] += value * ((one - dy) * (cxcy - fxcy) + dy * (cxfy - fxfy));
                             w[1] += value * ((one - dx) * (cxcy - cxfy) + dx * (fxcy - fxfy));
                             add(b, fx, fy, c, value * dx * dy);
                             add(b, cx, cy, c, value * (one - dx) * (one - dy));
                             add(b, fx, cy, c, value * dx * (one - dy));
                             add(b, cx, fy, c, value * (one - dx) * dy);
                         }
                     });
        return Status::ok();
    }
};

} // namespace

Status registerResamplerCpuKernels(KernelRegistry& registry)
{
    using namespace tensorflow;
    array::KernelAdder adder(registry);
    adder.add<ResamplerOp<Eigen::half>>(array::cpuDef("Resampler", {{"T", {DT_HALF}}}))
        .add<ResamplerOp<float>>(array::cpuDef("Resampler", {{"T", {DT_FLOAT}}}))
        .add<ResamplerOp<double>>(array::cpuDef("Resampler", {{"T", {DT_DOUBLE}}}))
        .add<ResamplerGradOp<Eigen::half>>(array::cpuDef("ResamplerGrad", {{"T", {DT_HALF}}}))
        .add<ResamplerGradOp<float>>(array::cpuDef("ResamplerGrad", {{"T", {DT_FLOAT}}}))
        .add<ResamplerGradOp<double>>(array::cpuDef("ResamplerGrad", {{"T", {DT_DOUBLE}}}));
    return adder.status();
}

} // namespace tstudio::image
