// CPU kernel of ResizeArea as TensorFlow 1.15 computes it (resize_area_op.cc): output pixel (y, x)
// covers source rows [y * sy, (y + 1) * sy) and columns [x * sx, (x + 1) * sx); each source pixel
// counts with the covered fraction of its row times that of its column (rows and columns past the
// image clamp to its edge), summed along x per row, then along y, times 1 / (sy * sx), in float.
// One thread: results do not depend on the thread count.
// Repeats on purpose: the registration and compute prologue of the other resize kernels (prepareResize and
// readResizeAttrs are shared); what differs is the sampling.
#include "kernels/image/image_kernels.h"

#include "framework/node_attrs.h"
#include "kernels/array/array_kernel_util.h"
#include "kernels/image/image_resize.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tstudio::image {

namespace {

std::int64_t bound(std::int64_t value, std::int64_t limit)
{
    return std::min(limit - 1, std::max(std::int64_t{0}, value));
}

/// The covered fraction of source cell `v` by the output span [in, in1) of width `scale`.
float coverage(std::int64_t v, float in, float in1, float scale)
{
    const auto fv = static_cast<float>(v);
    if (fv < in)
        return fv + 1.0f > in1 ? scale : fv + 1.0f - in;
    return fv + 1.0f > in1 ? in1 - fv : 1.0f;
}

/// The source cells [start, end) one output column covers and the fractions of the first and last.
struct Span {
    std::int64_t start = 0;
    std::int64_t end = 0;
    float startScale = 0.0f;
    float endMinusOneScale = 0.0f;
};

Span spanAt(std::int64_t x, float scale)
{
    const float in = static_cast<float>(x) * scale;
    const float in1 = static_cast<float>(x + 1) * scale;
    Span s;
    s.start = static_cast<std::int64_t>(std::floor(in));
    s.startScale = coverage(s.start, in, in1, scale);
    s.end = static_cast<std::int64_t>(std::ceil(in1));
    s.endMinusOneScale = coverage(s.end - 1, in, in1, scale);
    return s;
}

using ResizeAreaTypes = TypeList<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::int64_t,
                                 Eigen::half, float, double>;

class ResizeAreaOp : public array::ArrayKernel {
public:
    explicit ResizeAreaOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        // The op always centred its areas: half_pixel_centers does not exist here.
        read(attrBool(node(), "align_corners"), m_attrs.alignCorners);
    }

    Status compute(OpKernelContext& context) override
    {
        auto state = prepareResize(context, m_attrs);
        if (!state)
            return state.error();
        const ResizeState& st = *state;
        if (st.output->numElements() == 0)
            return Status::ok();
        std::vector<Span> xs(static_cast<std::size_t>(st.outWidth));
        for (std::int64_t x = 0; x < st.outWidth; ++x)
            xs[static_cast<std::size_t>(x)] = spanAt(x, st.widthScale);
        const float scale = static_cast<float>(1.0 / (st.heightScale * st.widthScale));
        const Tensor& input = context.input(0);
        std::span<float> out = st.output->values<float>();
        return dispatchDataType<ResizeAreaTypes>(input.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T* in = input.values<T>().data();
            const std::int64_t c = st.channels;
            const std::int64_t rowSize = st.inWidth * c;
            std::vector<float> yScales;
            std::vector<const T*> rows;
            std::size_t o = 0;
            for (std::int64_t b = 0; b < st.batch; ++b) {
                for (std::int64_t y = 0; y < st.outHeight; ++y) {
                    const float inY = static_cast<float>(y) * st.heightScale;
                    const float inY1 = static_cast<float>(y + 1) * st.heightScale;
                    const auto yStart = static_cast<std::int64_t>(std::floor(inY));
                    const auto yEnd = static_cast<std::int64_t>(std::ceil(inY1));
                    yScales.clear();
                    rows.clear();
                    for (std::int64_t i = yStart; i < yEnd; ++i) {
                        yScales.push_back(coverage(i, inY, inY1, st.heightScale));
                        rows.push_back(in + (b * st.inHeight + bound(i, st.inHeight)) * rowSize);
                    }
                    for (const Span& x : xs) {
                        for (std::int64_t ch = 0; ch < c; ++ch) {
                            const auto at = [&](std::int64_t column) { return bound(column, st.inWidth) * c + ch; };
                            float sum = 0.0f;
                            for (std::size_t i = 0; i < rows.size(); ++i) {
                                const T* row = rows[i];
                                float sumY = static_cast<float>(row[at(x.start)]) * x.startScale;
                                if (x.start + 1 != x.end) {
                                    for (std::int64_t column = x.start + 1; column < x.end - 1; ++column)
                                        sumY += static_cast<float>(row[at(column)]);
                                    sumY += static_cast<float>(row[at(x.end - 1)]) * x.endMinusOneScale;
                                }
                                sum += sumY * yScales[i];
                            }
                            out[o++] = sum * scale;
                        }
                    }
                }
            }
        });
    }

private:
    ResizeAttrs m_attrs;
};

} // namespace

Status registerResizeAreaCpuKernels(KernelRegistry& registry)
{
    using namespace tensorflow;
    KernelDef def = array::cpuDef(
        "ResizeArea",
        {{"T", {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32, DT_INT64, DT_HALF, DT_FLOAT, DT_DOUBLE}}});
    def.hostMemoryArgs = {"size"};
    array::KernelAdder adder(registry);
    adder.add<ResizeAreaOp>(std::move(def));
    return adder.status();
}

} // namespace tstudio::image
