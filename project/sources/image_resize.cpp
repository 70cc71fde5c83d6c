// resizeBilinear: TF 1.x's legacy ResizeBilinear (tensorflow/core/kernels/resize_bilinear_op.cc,
// LegacyScaler), one image at a time.
#include "project/sources/image_resize.h"

#include <algorithm>
#include <cmath>

namespace tstudio::project {
namespace {

/// One axis's interpolation: the two source indices and the weight of the second.
struct Interpolation {
    std::int64_t lower = 0;
    std::int64_t upper = 0;
    float lerp = 0;
};

std::vector<Interpolation> axis(int in, int out)
{
    // CalculateResizeScale with align_corners=false: in / out, as float as TF computes it.
    const float scale = static_cast<float>(in) / static_cast<float>(out);
    std::vector<Interpolation> result(static_cast<std::size_t>(out));
    for (int i = 0; i < out; ++i) {
        const float source = static_cast<float>(i) * scale;
        Interpolation& r = result[static_cast<std::size_t>(i)];
        r.lower = static_cast<std::int64_t>(std::floor(source));
        r.upper = std::min<std::int64_t>(r.lower + 1, in - 1);
        r.lerp = source - static_cast<float>(r.lower);
    }
    return result;
}

} // namespace

std::vector<float> resizeBilinear(std::span<const std::uint8_t> pixels, int inHeight, int inWidth, int channels,
                                  int outHeight, int outWidth, float scale)
{
    const std::vector<Interpolation> ys = axis(inHeight, outHeight);
    const std::vector<Interpolation> xs = axis(inWidth, outWidth);
    std::vector<float> out(static_cast<std::size_t>(outHeight) * static_cast<std::size_t>(outWidth) *
                           static_cast<std::size_t>(channels));
    const auto at = [&](std::int64_t y, std::int64_t x, int c) {
        return static_cast<float>(pixels[static_cast<std::size_t>((y * inWidth + x) * channels + c)]);
    };
    std::size_t k = 0;
    for (const Interpolation& y : ys) {
        for (const Interpolation& x : xs) {
            for (int c = 0; c < channels; ++c) {
                const float topLeft = at(y.lower, x.lower, c);
                const float topRight = at(y.lower, x.upper, c);
                const float bottomLeft = at(y.upper, x.lower, c);
                const float bottomRight = at(y.upper, x.upper, c);
                const float top = topLeft + (topRight - topLeft) * x.lerp;
                const float bottom = bottomLeft + (bottomRight - bottomLeft) * x.lerp;
                out[k++] = (top + (bottom - top) * y.lerp) * scale;
            }
        }
    }
    return out;
}

} // namespace tstudio::project
