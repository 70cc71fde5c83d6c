// decodeImage: PNG and JPEG file images to 8-bit grey or RGB pixels, as TensorFlow's decode_png /
// decode_jpeg give them for image_dataset_from_directory (the engine's codecs, io/image/).
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tstudio::project {

/// The most pixels (width x height) one image may have; a header that declares more is refused
/// before anything is allocated.
inline constexpr std::int64_t kMaxImagePixels = std::int64_t{1} << 26;

/// Decoded pixels: row-major, height rows of width x channels bytes.
struct DecodedImage {
    int width = 0;
    int height = 0;
    int channels = 0;
    std::vector<std::uint8_t> pixels;
};

/// Decodes a PNG or JPEG file image (told apart by their signatures, not the file name) to
/// `channels` 1 (grey) or 3 (RGB) as tf.io.decode_png / decode_jpeg with that channel count do:
/// PNG palettes and low bit depths expanded, 16-bit samples cut to 8, alpha dropped (not blended),
/// colour to grey with png_set_rgb_to_gray's 0.299 / 0.587 / 0.114 weights; JPEG through libjpeg's
/// own colour conversion with TF's defaults (fast integer DCT, fancy upsampling; CMYK files
/// converted to RGB as TF does). `what` names the file in errors:
///   InvalidArgument "<what>: not a PNG or JPEG image", "<what>: <library's message>";
///   DataLoss "<what>: the JPEG data is truncated", "<what>: the PNG data is truncated" (TF refuses
///   those too);
///   ResourceExhausted "<what>: the image is 100000 x 100000 pixels; at most 67108864 are read"
///   (JPEG: "<what>: the image is W x H x C = N bytes, more than the limit of M").
/// Thread-safe (no shared state).
Expected<DecodedImage> decodeImage(const std::string& bytes, int channels, const std::string& what);

} // namespace tstudio::project
