// randomShiftImages: each image moved by its own random (dy, dx), zero-filled.
#include "image_shift.h"

#include <algorithm>
#include <cstring>

namespace tstudio::examples {

Expected<Tensor> randomShiftImages(const Tensor& images, int height, int width, int maxShift, std::mt19937_64& engine,
                                   Allocator& allocator)
{
    if (images.dtype() != tensorflow::DT_FLOAT || images.shape().rank() != 2 || height < 1 || width < 1 ||
        images.shape().dim(1) != static_cast<std::int64_t>(height) * width)
        return unexpected(invalidArgumentError("random shift: expected float32 images of shape [N, " + std::to_string(height) +
                                    "*" + std::to_string(width) + "], got " + images.shape().toString()));
    if (maxShift < 0 || maxShift >= height || maxShift >= width)
        return unexpected(invalidArgumentError("random shift: the largest shift must be >= 0 and smaller than the image, got " +
                                    std::to_string(maxShift)));
    auto out = Tensor::allocate(allocator, tensorflow::DT_FLOAT, images.shape());
    if (!out)
        return unexpected(out.error());
    const auto src = images.values<float>();
    auto dst = out->values<float>();
    std::fill(dst.begin(), dst.end(), 0.0f);
    const std::int64_t pixels = static_cast<std::int64_t>(height) * width;
    // A draw in [0, 2 maxShift] from the engine's raw bits (uniform_int_distribution's algorithm is
    // not fixed by the standard; this modulo bias is below 2^-50).
    const auto draw = [&] { return static_cast<int>(engine() % static_cast<std::uint64_t>(2 * maxShift + 1)) - maxShift; };
    for (std::int64_t n = 0; n < images.shape().dim(0); ++n) {
        const int dy = draw();
        const int dx = draw();
        const float* in = src.data() + n * pixels;
        float* o = dst.data() + n * pixels;
        // Output (y, x) takes input (y - dy, x - dx) where that lies inside the image.
        const int x0 = std::max(0, dx);
        const int x1 = std::min(width, width + dx);
        for (int y = std::max(0, dy); y < std::min(height, height + dy); ++y)
            std::memcpy(o + y * width + x0, in + (y - dy) * width + (x0 - dx), static_cast<std::size_t>(x1 - x0) * sizeof(float));
    }
    return std::move(*out);
}

} // namespace tstudio::examples
