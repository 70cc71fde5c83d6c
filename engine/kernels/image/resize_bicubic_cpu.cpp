// CPU kernel of ResizeBicubic as TensorFlow 1.15 computes it (resize_bicubic_op.cc): per output row
// and column the four source indices around the source coordinate, clamped to the image, with
// weights from a 1025-entry table of the cubic convolution kernel (a = -0.75; with half-pixel
// centers Keys' a = -0.5, taps outside the image dropped and the rest renormalised); each output
// value interpolates the four rows at each of the four columns, then those four along x, in float.
// One thread: results do not depend on the thread count.
// Repeats on purpose: the registration and compute prologue of the other resize kernels (prepareResize and
// readResizeAttrs are shared); what differs is the sampling.
#include "kernels/image/image_kernels.h"

#include "kernels/array/array_kernel_util.h"
#include "kernels/image/image_resize.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace tstudio::image {

namespace {

constexpr int kTableSize = 1 << 10;

/// The kernel's values at (i / 1024) and (i / 1024 + 1), interleaved, for i in [0, 1024].
std::vector<float> coefficientsTable(double a)
{
    std::vector<float> table(static_cast<std::size_t>(kTableSize + 1) * 2);
    for (int i = 0; i <= kTableSize; ++i) {
        float x = static_cast<float>(i * 1.0 / kTableSize);
        table[static_cast<std::size_t>(i) * 2] = static_cast<float>(((a + 2) * x - (a + 3)) * x * x + 1);
        x += 1.0f;
        table[static_cast<std::size_t>(i) * 2 + 1] = static_cast<float>(((a * x - 5 * a) * x + 8 * a) * x - 4 * a);
    }
    return table;
}

const std::vector<float>& table(bool keysCubic)
{
    static const std::vector<float> keys = coefficientsTable(-0.5f);
    static const std::vector<float> legacy = coefficientsTable(-0.75f);
    return keysCubic ? keys : legacy;
}

std::int64_t bound(std::int64_t value, std::int64_t limit)
{
    return std::min(limit - 1, std::max(std::int64_t{0}, value));
}

/// The four source indices and weights of one output row or column.
struct Taps {
    std::array<std::int64_t, 4> index{};
    std::array<float, 4> weight{};
};

Taps tapsAt(std::int64_t out, float scale, std::int64_t limit, bool halfPixelCenters)
{
    const float in = halfPixelCenters ? halfPixelCoordinate(out, scale) : legacyCoordinate(out, scale);
    const auto base = static_cast<std::int64_t>(std::floor(in));
    const float delta = in - static_cast<float>(base);
    const auto offset = static_cast<std::int64_t>(std::lrintf(delta * static_cast<float>(kTableSize)));
    const std::vector<float>& t = table(halfPixelCenters);
    const float raw[4] = {t[static_cast<std::size_t>(offset * 2 + 1)], t[static_cast<std::size_t>(offset * 2)],
                          t[static_cast<std::size_t>((kTableSize - offset) * 2)],
                          t[static_cast<std::size_t>((kTableSize - offset) * 2 + 1)]};
    Taps taps;
    for (int k = 0; k < 4; ++k) {
        taps.index[static_cast<std::size_t>(k)] = bound(base - 1 + k, limit);
        // Keys' variant gives no weight to taps outside the image (they would repeat an edge pixel).
        const bool inside = taps.index[static_cast<std::size_t>(k)] == base - 1 + k;
        taps.weight[static_cast<std::size_t>(k)] = !halfPixelCenters || inside ? raw[k] : 0.0f;
    }
    if (halfPixelCenters) {
        const float sum = taps.weight[0] + taps.weight[1] + taps.weight[2] + taps.weight[3];
        if (std::abs(sum) >= 1000.0f * std::numeric_limits<float>::min()) {
            const float inverse = 1.0f / sum;
            for (float& w : taps.weight)
                w *= inverse;
        }
    }
    return taps;
}

float interpolate(const std::array<float, 4>& w, float v0, float v1, float v2, float v3)
{
    return v0 * w[0] + v1 * w[1] + v2 * w[2] + v3 * w[3];
}

using ResizeBicubicTypes = TypeList<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::int64_t,
                                    Eigen::half, float, double>;

class ResizeBicubicOp : public array::ArrayKernel {
public:
    explicit ResizeBicubicOp(OpKernelConstruction& construction) : ArrayKernel(construction)
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
        std::vector<Taps> xs(static_cast<std::size_t>(st.outWidth));
        for (std::int64_t x = 0; x < st.outWidth; ++x)
            xs[static_cast<std::size_t>(x)] = tapsAt(x, st.widthScale, st.inWidth, m_attrs.halfPixelCenters);
        const Tensor& input = context.input(0);
        std::span<float> out = st.output->values<float>();
        return dispatchDataType<ResizeBicubicTypes>(input.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T* in = input.values<T>().data();
            const std::int64_t c = st.channels;
            const std::int64_t rowSize = st.inWidth * c;
            std::size_t o = 0;
            for (std::int64_t b = 0; b < st.batch; ++b) {
                const T* image = in + b * st.inHeight * rowSize;
                for (std::int64_t y = 0; y < st.outHeight; ++y) {
                    const Taps ys = tapsAt(y, st.heightScale, st.inHeight, m_attrs.halfPixelCenters);
                    const T* rows[4];
                    for (int k = 0; k < 4; ++k)
                        rows[k] = image + ys.index[static_cast<std::size_t>(k)] * rowSize;
                    for (const Taps& x : xs) {
                        for (std::int64_t ch = 0; ch < c; ++ch) {
                            float columns[4];
                            for (int k = 0; k < 4; ++k) {
                                const std::int64_t at = x.index[static_cast<std::size_t>(k)] * c + ch;
                                columns[k] = interpolate(
                                    ys.weight, static_cast<float>(rows[0][at]), static_cast<float>(rows[1][at]),
                                    static_cast<float>(rows[2][at]), static_cast<float>(rows[3][at]));
                            }
                            out[o++] = interpolate(x.weight, columns[0], columns[1], columns[2], columns[3]);
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

Status registerResizeBicubicCpuKernels(KernelRegistry& registry)
{
    using namespace tensorflow;
    KernelDef def = array::cpuDef(
        "ResizeBicubic",
        {{"T", {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32, DT_INT64, DT_HALF, DT_FLOAT, DT_DOUBLE}}});
    def.hostMemoryArgs = {"size"};
    array::KernelAdder adder(registry);
    adder.add<ResizeBicubicOp>(std::move(def));
    return adder.status();
}

} // namespace tstudio::image
