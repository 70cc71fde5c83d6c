// resizeBilinear: TensorFlow 1.x's ResizeBilinear (tf.image.resize_images' default method) on one
// image, with align_corners=false and half_pixel_centers=false.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tstudio::project {

/// Resizes `pixels` (row-major [inHeight, inWidth, channels], 0..255) to [outHeight, outWidth,
/// channels] floats exactly as TF 1.x's ResizeBilinear kernel does with its defaults: source
/// coordinate y * (inHeight / outHeight) (no half-pixel offset), the top-left neighbour at its
/// floor, the other clamped to the last row / column, interpolated across x first, then y, in
/// float. Every output value is multiplied by `scale` (1/255 gives [0, 1]). Sizes must be
/// positive and `pixels` must hold inHeight * inWidth * channels values (the caller checks).
std::vector<float> resizeBilinear(std::span<const std::uint8_t> pixels, int inHeight, int inWidth, int channels,
                                  int outHeight, int outWidth, float scale);

} // namespace tstudio::project
