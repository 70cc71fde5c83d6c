// CPU kernels of ResizeNearestNeighbor and ResizeNearestNeighborGrad as TensorFlow 1.15 computes
// them (resize_nearest_neighbor_op.cc): the source index of output index i is
// floor(i * scale), or round(i * scale) with align_corners, or floor((i + 0.5) * scale) with
// half-pixel centers, capped at size - 1; the gradient sums every incoming value into that source
// pixel. One thread: results do not depend on the thread count.
// Repeats on purpose: the registration and compute prologue of the other resize kernels (prepareResize and
// readResizeAttrs are shared); what differs is the sampling.
#include "kernels/image/image_resize.h"

#include "kernels/array/array_kernel_util.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tstudio::image {

namespace {

/// The source index of each of `outSize` output indices over `inSize` source pixels.
std::vector<std::int64_t> sourceIndices(std::int64_t outSize, float scale, std::int64_t inSize,
                                        const ResizeAttrs& attrs)
{
    std::vector<std::int64_t> indices(static_cast<std::size_t>(std::max<std::int64_t>(outSize, 0)));
    for (std::int64_t i = 0; i < outSize; ++i) {
        const float in = attrs.halfPixelCenters ? halfPixelCoordinateForNearest(i, scale) : legacyCoordinate(i, scale);
        // roundf: halves away from zero, as std::round.
        std::int64_t j =
            std::min(static_cast<std::int64_t>(attrs.alignCorners ? std::round(in) : std::floor(in)), inSize - 1);
        if (attrs.halfPixelCenters)
            j = std::max(j, std::int64_t{0});
        indices[static_cast<std::size_t>(i)] = j;
    }
    return indices;
}

using ResizeNearestTypes = TypeList<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::int64_t,
                                    Eigen::half, float, double>;
using ResizeNearestGradTypes = TypeList<std::uint8_t, std::int8_t, std::int32_t, Eigen::half, float, double>;

class ResizeNearestNeighborOp : public array::ArrayKernel {
public:
    explicit ResizeNearestNeighborOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        read(readResizeAttrs(node()), m_attrs);
    }

    Status compute(OpKernelContext& context) override
    {
        auto state = prepareResize(context, m_attrs);
        if (!state)
            return state.error();
        const ResizeState& st = *state;
        if (st.output->numElements() == 0)
            return Status::ok();
        const std::vector<std::int64_t> ys = sourceIndices(st.outHeight, st.heightScale, st.inHeight, m_attrs);
        const std::vector<std::int64_t> xs = sourceIndices(st.outWidth, st.widthScale, st.inWidth, m_attrs);
        const Tensor& input = context.input(0);
        return dispatchDataType<ResizeNearestTypes>(input.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            std::span<const T> in = input.values<T>();
            std::span<T> out = st.output->values<T>();
            const std::int64_t c = st.channels;
            std::size_t o = 0;
            for (std::int64_t b = 0; b < st.batch; ++b) {
                for (std::int64_t y : ys) {
                    for (std::int64_t x : xs) {
                        const T* src = in.data() + ((b * st.inHeight + y) * st.inWidth + x) * c;
                        std::copy_n(src, c, out.data() + o);
                        o += static_cast<std::size_t>(c);
                    }
                }
            }
        });
    }

private:
    ResizeAttrs m_attrs;
};

class ResizeNearestNeighborGradOp : public array::ArrayKernel {
public:
    explicit ResizeNearestNeighborGradOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        read(readResizeAttrs(node()), m_attrs);
    }

    Status compute(OpKernelContext& context) override
    {
        const Tensor& grads = context.input(0);
        if (grads.rank() != 4)
            return invalidArgumentError("input must be 4-dimensional" + grads.shape().toString());
        const Tensor& size = context.input(1);
        if (size.rank() != 1)
            return invalidArgumentError("shape_t must be 1-dimensional" + size.shape().toString());
        if (size.numElements() != 2)
            return invalidArgumentError("shape_t must have two elements" + size.shape().toString());
        const auto hw = size.values<std::int32_t>();
        if (hw[0] <= 0 || hw[1] <= 0)
            return invalidArgumentError("shape_t's elements must be positive");
        const std::int64_t batch = grads.shape().dim(0);
        const std::int64_t inHeight = grads.shape().dim(1);
        const std::int64_t inWidth = grads.shape().dim(2);
        const std::int64_t channels = grads.shape().dim(3);
        const std::int64_t outHeight = hw[0];
        const std::int64_t outWidth = hw[1];
        auto out = context.allocateZeroedOutput(0, TensorShape{batch, outHeight, outWidth, channels});
        if (!out)
            return out.error();
        Tensor& output = **out;
        if (output.numElements() == 0)
            return Status::ok();
        // The forward op's scale (original size over resized size) and source indices.
        const float heightScale = resizeScale(outHeight, inHeight, m_attrs.alignCorners);
        const float widthScale = resizeScale(outWidth, inWidth, m_attrs.alignCorners);
        const std::vector<std::int64_t> ys = sourceIndices(inHeight, heightScale, outHeight, m_attrs);
        const std::vector<std::int64_t> xs = sourceIndices(inWidth, widthScale, outWidth, m_attrs);
        return dispatchDataType<ResizeNearestGradTypes>(grads.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            std::span<const T> g = grads.values<T>();
            std::span<T> o = output.values<T>();
            // TensorFlow's loop order: rows, columns, then batch and channels.
            for (std::int64_t y = 0; y < inHeight; ++y) {
                for (std::int64_t x = 0; x < inWidth; ++x) {
                    for (std::int64_t b = 0; b < batch; ++b) {
                        const T* src = g.data() + ((b * inHeight + y) * inWidth + x) * channels;
                        T* dst = o.data() + ((b * outHeight + ys[static_cast<std::size_t>(y)]) * outWidth +
                                             xs[static_cast<std::size_t>(x)]) *
                                                channels;
                        for (std::int64_t k = 0; k < channels; ++k)
                            dst[k] = static_cast<T>(dst[k] + src[k]);
                    }
                }
            }
        });
    }

private:
    ResizeAttrs m_attrs;
};

} // namespace

Status registerResizeNearestNeighborCpuKernels(KernelRegistry& registry)
{
    using namespace tensorflow;
    KernelDef forward = array::cpuDef(
        "ResizeNearestNeighbor",
        {{"T", {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32, DT_INT64, DT_HALF, DT_FLOAT, DT_DOUBLE}}});
    forward.hostMemoryArgs = {"size"};
    KernelDef grad = array::cpuDef("ResizeNearestNeighborGrad",
                                   {{"T", {DT_UINT8, DT_INT8, DT_INT32, DT_HALF, DT_FLOAT, DT_DOUBLE}}});
    grad.hostMemoryArgs = {"size"};
    array::KernelAdder adder(registry);
    adder.add<ResizeNearestNeighborOp>(std::move(forward));
    adder.add<ResizeNearestNeighborGradOp>(std::move(grad));
    return adder.status();
}

} // namespace tstudio::image
