// decodeImage: PNG and JPEG file images through the engine's codecs (io/image/png_codec.h,
// jpeg_codec.h), with the errors worded for data sources.
#include "project/sources/image_decoder.h"

#include "io/image/image_format.h"
#include "io/image/jpeg_codec.h"
#include "io/image/png_codec.h"

namespace tstudio::project {
namespace {

Expected<DecodedImage> decodePngFile(const std::string& bytes, int channels, const std::string& what)
{
    DecodedImage image;
    image_io::PngDecodeOptions options;
    options.channels = channels;
    options.bitDepth = 8;
    options.maxSide = kMaxImagePixels;
    options.maxPixels = kMaxImagePixels;
    auto decoded = image_io::decodePng(bytes, options, [&](int height, int width, int c) -> Expected<void*> {
        image.pixels.resize(static_cast<std::size_t>(height) * static_cast<std::size_t>(width) *
                            static_cast<std::size_t>(c));
        return image.pixels.data();
    });
    if (!decoded)
        return unexpected(decoded.error().withContext(what));
    image.width = decoded->width;
    image.height = decoded->height;
    image.channels = decoded->channels;
    return image;
}

Expected<DecodedImage> decodeJpegFile(const std::string& bytes, int channels, const std::string& what)
{
    DecodedImage image;
    image_io::JpegDecodeOptions options; // TensorFlow's defaults: fast integer DCT, fancy upsampling
    options.channels = channels;
    options.maxOutputBytes = kMaxImagePixels * channels + 1;
    auto decoded = image_io::decodeJpeg(bytes, options, [&](int height, int width, int c) -> Expected<std::uint8_t*> {
        image.pixels.resize(static_cast<std::size_t>(height) * static_cast<std::size_t>(width) *
                            static_cast<std::size_t>(c));
        return image.pixels.data();
    });
    if (!decoded) {
        if (decoded.error().code() == StatusCode::kDataLoss) // TensorFlow refuses truncated files too
            return unexpected(dataLossError(what + ": the JPEG data is truncated"));
        return unexpected(decoded.error().withContext(what));
    }
    image.width = decoded->width;
    image.height = decoded->height;
    image.channels = decoded->channels;
    return image;
}

} // namespace

Expected<DecodedImage> decodeImage(const std::string& bytes, int channels, const std::string& what)
{
    if (channels != 1 && channels != 3)
        return unexpected(invalidArgumentError(what + ": channels must be 1 or 3, got " + std::to_string(channels)));
    switch (image_io::classifyImageFormat(bytes)) {
    case image_io::ImageFormat::kPng: return decodePngFile(bytes, channels, what);
    case image_io::ImageFormat::kJpeg: return decodeJpegFile(bytes, channels, what);
    default: return unexpected(invalidArgumentError(what + ": not a PNG or JPEG image"));
    }
}

} // namespace tstudio::project
