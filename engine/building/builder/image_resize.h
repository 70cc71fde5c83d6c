// tf.image's resize functions of TensorFlow 1.15 (image_ops_impl.py): resize_images and the direct
// op wrappers resize_bilinear and resize_nearest_neighbor, with their node names.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace tstudio::image {

/// tf.image.ResizeMethod of TensorFlow 1.x.
enum class ResizeMethod { kBilinear = 0, kNearestNeighbor = 1, kBicubic = 2, kArea = 3 };

/// tf.image.resize_images(images, size, method, align_corners) (tf.compat.v1.image.resize): in the
/// scope `name` (default "resize"): a 3-D [h, w, c] image gets a batch dimension ("ExpandDims") and
/// loses it again at the end ("Squeeze"); `size` is a 1-D int32 tensor of 2 elements; when both the
/// image's height and width and the size's values are known and equal, the image is returned
/// unresized (TensorFlow's skip_resize_if_same); else "ResizeBilinear" (float output) or
/// "ResizeNearestNeighbor" (the images' dtype), half_pixel_centers false, and the output's height
/// and width set from the size when it is a known value. Errors as TensorFlow's ValueErrors
/// (InvalidArgument): "'images' contains no shape.", "'images' must have either 3 or 4 dimensions.",
/// "'size' must be a 1-D Tensor of 2 elements: new_height, new_width"; Unimplemented for the
/// bicubic and area methods (TensorStudio has no ResizeBicubic or ResizeArea ops) and for
/// preserve_aspect_ratio (not offered here).
Expected<Output> resizeImages(GraphBuilder& b, const Output& images, const Output& size,
                              ResizeMethod method = ResizeMethod::kBilinear, bool alignCorners = false,
                              std::string_view name = {});
/// resizeImages with a Python list size: the int32 Const "<scope>/size".
Expected<Output> resizeImages(GraphBuilder& b, const Output& images, std::array<std::int64_t, 2> size,
                              ResizeMethod method = ResizeMethod::kBilinear, bool alignCorners = false,
                              std::string_view name = {});

/// tf.image.resize_bilinear / tf.compat.v1.image.resize_bilinear: the op "ResizeBilinear" (named
/// `name`) on 4-D images; a list size becomes the Const "<name>/size".
Expected<Output> resizeBilinear(GraphBuilder& b, const Output& images, const Output& size, bool alignCorners = false,
                                bool halfPixelCenters = false, std::string_view name = "ResizeBilinear");
Expected<Output> resizeBilinear(GraphBuilder& b, const Output& images, std::array<std::int64_t, 2> size,
                                bool alignCorners = false, bool halfPixelCenters = false,
                                std::string_view name = "ResizeBilinear");
/// tf.image.resize_nearest_neighbor: the op "ResizeNearestNeighbor" (named `name`).
Expected<Output> resizeNearestNeighbor(GraphBuilder& b, const Output& images, const Output& size,
                                       bool alignCorners = false, bool halfPixelCenters = false,
                                       std::string_view name = "ResizeNearestNeighbor");
Expected<Output> resizeNearestNeighbor(GraphBuilder& b, const Output& images, std::array<std::int64_t, 2> size,
                                       bool alignCorners = false, bool halfPixelCenters = false,
                                       std::string_view name = "ResizeNearestNeighbor");

} // namespace tstudio::image
