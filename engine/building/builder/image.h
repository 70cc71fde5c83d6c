// tf.image's building API of TensorFlow 1.15 (image_ops_impl.py, random_ops.random_crop): resizing
// with every method, crops, flips, transposition, colour adjustments and their random forms,
// per-image standardisation, dtype conversion, and the codec op wrappers, composing the same ops
// under the same node names as the Python functions.
#pragma once

#include "builder/graph_builder.h"
#include "builder/image_resize.h"
#include "core/expected.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::image {

// Conventions. `image` is a 3-D [height, width, channels] tensor or, where TensorFlow allows it, a
// 4-D batch. Functions enter TensorFlow's name scope ("flip_left_right", "adjust_hue", ...; made
// unique: "flip_left_right_1") and return the tensor the Python function returns. Like TensorFlow
// they first pass the image through _AssertAtLeast3DImage: an Identity "control_dependency",
// colocated with the image, that waits for runtime checks ("assert_positive" on the shape and
// "assert_greater_equal" on the rank) when the shape is not fully known. Errors TensorFlow raises
// while building (ValueError) are InvalidArgument with its words ("'image' must be at least
// three-dimensional.", "'image' must have either 3 or 4 dimensions.", "central_fraction must be
// within (0, 1]", ...); the builder's own errors pass through. Runtime failures (an image smaller
// than a crop, a dimension 0) are the Assert ops' "assertion failed: [...]" when the step runs.
// Random functions take TensorFlow's op seed: with the graph's seed (GraphBuilder::setRandomSeed)
// and the same op seeds, two graphs built the same way draw the same values, as in TensorFlow.

/// The complete tf.image.resize_images (tf.compat.v1.image.resize): every ResizeMethod.
struct ResizeOptions {
    ResizeMethod method = ResizeMethod::kBilinear;
    bool alignCorners = false;
};

/// _resize_images_common with skip_resize_if_same: scope `name` ("resize"); a 3-D image gets a
/// batch dimension ("ExpandDims") and loses it again ("Squeeze"); `size` is a 1-D int32 tensor of
/// 2 elements (a list becomes the Const "size"); when the image's height and width and the size's
/// values are known and equal, the image is returned unresized; else "ResizeBilinear",
/// "ResizeNearestNeighbor", "ResizeBicubic" or "ResizeArea" with align_corners (half_pixel_centers
/// left at false), its height and width set from a known size. Output float32, except nearest
/// neighbour (the image's dtype) and the skipped resize. preserve_aspect_ratio is not offered.
/// This overload serves all four methods; image_resize.h's older overloads cover two.
Expected<Output> resizeImages(GraphBuilder& b, const Output& images, const Output& size, const ResizeOptions& options,
                              std::string_view name = {});
Expected<Output> resizeImages(GraphBuilder& b, const Output& images, std::array<std::int64_t, 2> size,
                              const ResizeOptions& options, std::string_view name = {});

/// tf.image.central_crop(image, central_fraction): scope "central_crop"; fraction 1 returns the
/// image; else a "Slice" of begin "stack" and size "stack_1" (Consts for known dims; for unknown
/// dims the start is Cast((d - d * fraction) / 2) in float64 and the stacks are Packs). 3-D or 4-D.
Expected<Output> centralCrop(GraphBuilder& b, const Output& image, double centralFraction);

/// tf.image.random_crop(value, size, seed): scope `name` ("random_crop"); "size" Const, "Shape",
/// the Assert "Need value.shape >= size, got " (summarize 1000), "control_dependency", limit
/// shape - size + 1, offsets RandomUniformInt in [0, 2^31 - 1) ("random_uniform") mod limit, then the
/// Slice named after the scope. Any rank; `size` has one entry per dimension.
Expected<Output> randomCrop(GraphBuilder& b, const Output& value, const std::vector<std::int64_t>& size,
                            std::optional<std::int64_t> seed = {}, std::string_view name = {});
Expected<Output> randomCrop(GraphBuilder& b, const Output& value, const Output& size,
                            std::optional<std::int64_t> seed = {}, std::string_view name = {});

/// tf.image.crop_to_bounding_box with Python-int offsets and sizes: scope "crop_to_bounding_box",
/// 3-D images batched ("ExpandDims") and unbatched ("Squeeze"), "Slice" of begin "stack" [0, oh,
/// ow, 0] and size "stack_1" [-1, th, tw, -1]. Known dims are checked now ("width must be >=
/// target + offset.", "offset_height must be >= 0.", "target_width must be > 0.", ...); unknown
/// ones by Assert ops when the step runs.
Expected<Output> cropToBoundingBox(GraphBuilder& b, const Output& image, std::int64_t offsetHeight,
                                   std::int64_t offsetWidth, std::int64_t targetHeight, std::int64_t targetWidth);

/// tf.image.flip_left_right / flip_up_down: scope "flip_left_right" / "flip_up_down", "ReverseV2"
/// along width / height (axis 1 / 0 of a 3-D image, 2 / 1 of a 4-D batch).
Expected<Output> flipLeftRight(GraphBuilder& b, const Output& image);
Expected<Output> flipUpDown(GraphBuilder& b, const Output& image);

/// tf.image.random_flip_left_right / random_flip_up_down: a 3-D image (or unknown rank) is flipped
/// with probability 1/2 by tf.cond(random_uniform([]) < 0.5, reverse, identity) named after the
/// scope; a 4-D batch flips each image by its own draw (round(u) * flipped + (1 - round(u)) * image).
Expected<Output> randomFlipLeftRight(GraphBuilder& b, const Output& image, std::optional<std::int64_t> seed = {});
Expected<Output> randomFlipUpDown(GraphBuilder& b, const Output& image, std::optional<std::int64_t> seed = {});

/// tf.image.transpose_image: scope `name` ("transpose"), a Transpose "transpose" with perm [1, 0, 2]
/// (4-D: [0, 2, 1, 3]).
Expected<Output> transposeImage(GraphBuilder& b, const Output& image, std::string_view name = {});

/// tf.image.convert_image_dtype(image, dtype, saturate, name): an Identity when the dtype is
/// already `dtype`; else in scope `name` ("convert_image"): integer to float Cast then Mul by
/// 1 / MAX_in; float to integer Mul by MAX_out + 0.5 then Cast (saturate: Maximum / Minimum at the
/// target's range first); integer to integer FloorDiv or Mul by the ratio of the ranges; float to
/// float Cast. InvalidArgument "dtype must be either floating point or integer" otherwise.
Expected<Output> convertImageDtype(GraphBuilder& b, const Output& image, DataType dtype, bool saturate = false,
                                   std::string_view name = {});

/// tf.image.adjust_brightness: scope "adjust_brightness"; non-half/float images converted to float32
/// and back (saturating); the Add named after the scope; `delta` a Python number ("Cast/x") or a
/// float scalar tensor.
Expected<Output> adjustBrightness(GraphBuilder& b, const Output& image, double delta);
Expected<Output> adjustBrightness(GraphBuilder& b, const Output& image, const Output& delta);
/// tf.image.adjust_contrast: scope "adjust_contrast", AdjustContrastv2 named after the scope.
Expected<Output> adjustContrast(GraphBuilder& b, const Output& images, double contrastFactor);
Expected<Output> adjustContrast(GraphBuilder& b, const Output& images, const Output& contrastFactor);
/// tf.image.adjust_hue: scope `name` ("adjust_hue"), "AdjustHue", converted back without saturation.
Expected<Output> adjustHue(GraphBuilder& b, const Output& image, double delta, std::string_view name = {});
Expected<Output> adjustHue(GraphBuilder& b, const Output& image, const Output& delta, std::string_view name = {});
/// tf.image.adjust_saturation: scope `name` ("adjust_saturation"), "AdjustSaturation".
Expected<Output> adjustSaturation(GraphBuilder& b, const Output& image, double saturationFactor,
                                  std::string_view name = {});
Expected<Output> adjustSaturation(GraphBuilder& b, const Output& image, const Output& saturationFactor,
                                  std::string_view name = {});

/// The random adjustments: a scalar "random_uniform" in [-maxDelta, maxDelta) or [lower, upper),
/// then the adjustment. Errors as TensorFlow's: "max_delta must be non-negative.", "max_delta must
/// be <= 0.5." (hue), "upper must be > lower.", "lower must be non-negative.".
Expected<Output> randomBrightness(GraphBuilder& b, const Output& image, double maxDelta,
                                  std::optional<std::int64_t> seed = {});
Expected<Output> randomContrast(GraphBuilder& b, const Output& image, double lower, double upper,
                                std::optional<std::int64_t> seed = {});
Expected<Output> randomHue(GraphBuilder& b, const Output& image, double maxDelta,
                           std::optional<std::int64_t> seed = {});
Expected<Output> randomSaturation(GraphBuilder& b, const Output& image, double lower, double upper,
                                  std::optional<std::int64_t> seed = {});

/// tf.image.per_image_standardization as TensorFlow 1.15.x: scope "per_image_standardization";
/// non-half/float images converted to float32; (x - mean) / max(std, 1 / sqrt(N)) over each image's
/// last three dimensions (reduce_std's scope "reduce_std/reduce_variance"), the RealDiv named after
/// the scope, then converted back to the original dtype with saturation.
Expected<Output> perImageStandardization(GraphBuilder& b, const Output& image);

// --- Codec op wrappers (gen_image_ops: the node is named after the op type unless `name` is given) ---

/// DecodeJpeg's attrs with TensorFlow's defaults.
struct DecodeJpegAttrs {
    std::int64_t channels = 0;
    std::int64_t ratio = 1;
    bool fancyUpscaling = true;
    bool tryRecoverTruncated = false;
    float acceptableFraction = 1.0f;
    std::string dctMethod;
};
Expected<Output> decodeJpeg(GraphBuilder& b, const Output& contents, const DecodeJpegAttrs& attrs = {},
                            std::string_view name = "DecodeJpeg");
Expected<Output> decodePng(GraphBuilder& b, const Output& contents, std::int64_t channels = 0,
                           DataType dtype = tensorflow::DT_UINT8, std::string_view name = "DecodePng");
/// The DecodeImage op (TensorFlow 2.3's; 1.15's tf.image.decode_image is a Python cond over the
/// other decoders, which needs ops TensorStudio lacks).
Expected<Output> decodeImage(GraphBuilder& b, const Output& contents, std::int64_t channels = 0,
                             DataType dtype = tensorflow::DT_UINT8, bool expandAnimations = true,
                             std::string_view name = "DecodeImage");
/// EncodeJpeg's attrs with TensorFlow's defaults.
struct EncodeJpegAttrs {
    std::string format;
    std::int64_t quality = 95;
    bool progressive = false;
    bool optimizeSize = false;
    bool chromaDownsampling = true;
    std::string densityUnit = "in";
    std::int64_t xDensity = 300;
    std::int64_t yDensity = 300;
    std::string xmpMetadata;
};
Expected<Output> encodeJpeg(GraphBuilder& b, const Output& image, const EncodeJpegAttrs& attrs = {},
                            std::string_view name = "EncodeJpeg");
Expected<Output> encodePng(GraphBuilder& b, const Output& image, std::int64_t compression = -1,
                           std::string_view name = "EncodePng");

/// tf.contrib.resampler.resampler(data, warp, name): the op "Resampler" in scope `name`
/// ("resampler/Resampler"): data [batch, height, width, channels] sampled bilinearly at warp's
/// (x, y) points [batch, ..., 2], zero outside the image; the output is [batch, ..., channels].
Expected<Output> resampler(GraphBuilder& b, const Output& data, const Output& warp,
                           std::string_view name = "resampler");

} // namespace tstudio::image
