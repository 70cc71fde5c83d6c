// decodeImage: PNG through libpng's progressive-free read API and JPEG through libjpeg, both with
// their errors turned into Status (longjmp out of the libraries' error callbacks).
#include "image_decoder.h"

#include <png.h>
// jpeglib.h needs size_t and FILE declared first.
#include <cstddef>
#include <cstdio>
#include <jerror.h> // JWRN_JPEG_EOF
#include <jpeglib.h>

#include <csetjmp>
#include <cstring>

namespace tstudio::project {
namespace {

Status tooLarge(const std::string& what, std::int64_t width, std::int64_t height)
{
    return resourceExhaustedError(what + ": the image is " + std::to_string(width) + " x " + std::to_string(height) +
                                  " pixels; at most " + std::to_string(kMaxImagePixels) + " are read");
}

bool isPng(const std::string& bytes)
{
    return bytes.size() >= 8 && png_sig_cmp(reinterpret_cast<png_const_bytep>(bytes.data()), 0, 8) == 0;
}

bool isJpeg(const std::string& bytes)
{
    return bytes.size() >= 3 && static_cast<unsigned char>(bytes[0]) == 0xFF &&
           static_cast<unsigned char>(bytes[1]) == 0xD8 && static_cast<unsigned char>(bytes[2]) == 0xFF;
}

// --- PNG -------------------------------------------------------------------------------------------

/// Everything decodePng reads after a longjmp lives here, behind a pointer libpng holds, so no
/// local is left indeterminate by the jump.
struct PngState {
    const std::string* bytes = nullptr;
    std::size_t offset = 0;
    bool truncated = false;
    bool sizeRefused = false;
    png_uint_32 width = 0;
    png_uint_32 height = 0;
    std::string error;
    DecodedImage image;
    std::vector<png_bytep> rows;
};

void readPngBytes(png_structp png, png_bytep out, std::size_t length)
{
    auto* state = static_cast<PngState*>(png_get_io_ptr(png));
    if (state->bytes->size() - state->offset < length) {
        state->truncated = true;
        png_error(png, "the PNG data is truncated");
    }
    std::memcpy(out, state->bytes->data() + state->offset, length);
    state->offset += length;
}

[[noreturn]] void onPngError(png_structp png, png_const_charp message)
{
    // libpng's error callbacks must not return: record the text and jump back to decodePng.
    auto* state = static_cast<PngState*>(png_get_error_ptr(png));
    if (state->error.empty())
        state->error = message ? message : "unknown libpng error";
    png_longjmp(png, 1);
}

void onPngWarning(png_structp, png_const_charp)
{
}

Expected<DecodedImage> decodePng(const std::string& bytes, int channels, const std::string& what)
{
    PngState state;
    state.bytes = &bytes;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, onPngError, onPngWarning);
    if (!png)
        return unexpected(internalError(what + ": libpng could not start"));
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, nullptr, nullptr);
        return unexpected(internalError(what + ": libpng could not start"));
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        if (state.sizeRefused)
            return unexpected(tooLarge(what, state.width, state.height));
        if (state.truncated)
            return unexpected(dataLossError(what + ": " + state.error));
        return unexpected(invalidArgumentError(what + ": " + state.error));
    }
    png_set_read_fn(png, &state, readPngBytes);
    png_read_info(png, info);
    const png_uint_32 width = png_get_image_width(png, info);
    const png_uint_32 height = png_get_image_height(png, info);
    state.width = width;
    state.height = height;
    if (static_cast<std::int64_t>(width) * static_cast<std::int64_t>(height) > kMaxImagePixels) {
        state.sizeRefused = true;
        png_longjmp(png, 1);
    }
    const int colorType = png_get_color_type(png, info);
    const int bitDepth = png_get_bit_depth(png, info);
    // As tensorflow/core/lib/png/png_io.cc sets up a decode without alpha.
    if (colorType == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    const bool isGrey = (colorType & PNG_COLOR_MASK_COLOR) == 0;
    if (isGrey && bitDepth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (channels == 1) {
        if (!isGrey)
            png_set_rgb_to_gray(png, 1, 0.299, 0.587);
    } else if (isGrey) {
        png_set_gray_to_rgb(png);
    }
    if (colorType & PNG_COLOR_MASK_ALPHA)
        png_set_strip_alpha(png);
    if (bitDepth > 8)
        png_set_strip_16(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_channels(png, info) != channels || png_get_rowbytes(png, info) != std::size_t{width} * channels) {
        state.error = "libpng gave " + std::to_string(png_get_channels(png, info)) + " channels where " +
                      std::to_string(channels) + " were asked for";
        png_longjmp(png, 1);
    }
    DecodedImage& image = state.image;
    image.width = static_cast<int>(width);
    image.height = static_cast<int>(height);
    image.channels = channels;
    image.pixels.resize(std::size_t{width} * height * static_cast<std::size_t>(channels));
    state.rows.resize(height);
    for (png_uint_32 y = 0; y < height; ++y)
        state.rows[y] = image.pixels.data() + std::size_t{y} * width * static_cast<std::size_t>(channels);
    png_read_image(png, state.rows.data());
    png_read_end(png, nullptr);
    png_destroy_read_struct(&png, &info, nullptr);
    return std::move(state.image);
}

// --- JPEG ------------------------------------------------------------------------------------------

/// libjpeg's error manager first (libjpeg hands it back as jpeg_error_mgr*), then everything
/// decodeJpeg reads after a longjmp, so no local is left indeterminate by the jump.
struct JpegError {
    jpeg_error_mgr mgr;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX] = {};
    bool truncated = false;
    bool sizeRefused = false;
    bool cmyk = false;
    DecodedImage image;
};

[[noreturn]] void onJpegError(j_common_ptr info)
{
    auto* error = reinterpret_cast<JpegError*>(info->err);
    (*info->err->format_message)(info, error->message);
    std::longjmp(error->jump, 1);
}

void onJpegMessage(j_common_ptr info, int level)
{
    // Warnings are level -1. libjpeg fills a truncated stream with grey and only warns; TensorFlow
    // refuses such files, and so do we. Other warnings (extraneous bytes, ...) are tolerated as TF does.
    auto* error = reinterpret_cast<JpegError*>(info->err);
    if (level == -1 && info->err->msg_code == JWRN_JPEG_EOF)
        error->truncated = true;
}

Expected<DecodedImage> decodeJpeg(const std::string& bytes, int channels, const std::string& what)
{
    jpeg_decompress_struct info;
    JpegError error;
    DecodedImage& image = error.image;
    info.err = jpeg_std_error(&error.mgr);
    error.mgr.error_exit = onJpegError;
    error.mgr.emit_message = onJpegMessage;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        if (error.sizeRefused)
            return unexpected(tooLarge(what, error.image.width, error.image.height));
        if (error.cmyk)
            return unexpected(unimplementedError(what + ": CMYK JPEG images are not read"));
        if (error.truncated) // e.g. "JPEG datastream contains no image" after the data ran out
            return unexpected(dataLossError(what + ": the JPEG data is truncated"));
        return unexpected(invalidArgumentError(what + ": " + error.message));
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<unsigned long>(bytes.size()));
    jpeg_read_header(&info, TRUE);
    image.width = static_cast<int>(info.image_width);
    image.height = static_cast<int>(info.image_height);
    if (static_cast<std::int64_t>(info.image_width) * info.image_height > kMaxImagePixels) {
        error.sizeRefused = true;
        std::longjmp(error.jump, 1);
    }
    if (info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK) {
        error.cmyk = true;
        std::longjmp(error.jump, 1);
    }
    info.out_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    info.dct_method = JDCT_IFAST;
    info.do_fancy_upsampling = TRUE;
    jpeg_start_decompress(&info);
    image.channels = channels;
    const std::size_t stride = std::size_t{info.output_width} * static_cast<std::size_t>(channels);
    image.pixels.resize(stride * info.output_height);
    while (info.output_scanline < info.output_height && !error.truncated) {
        JSAMPROW row = image.pixels.data() + std::size_t{info.output_scanline} * stride;
        if (jpeg_read_scanlines(&info, &row, 1) != 1)
            break;
    }
    const bool complete = info.output_scanline == info.output_height && !error.truncated;
    if (complete)
        jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    if (!complete || error.truncated)
        return unexpected(dataLossError(what + ": the JPEG data is truncated"));
    return std::move(error.image);
}

} // namespace

Expected<DecodedImage> decodeImage(const std::string& bytes, int channels, const std::string& what)
{
    if (channels != 1 && channels != 3)
        return unexpected(invalidArgumentError(what + ": channels must be 1 or 3, got " + std::to_string(channels)));
    if (isPng(bytes))
        return decodePng(bytes, channels, what);
    if (isJpeg(bytes))
        return decodeJpeg(bytes, channels, what);
    return unexpected(invalidArgumentError(what + ": not a PNG or JPEG image"));
}

} // namespace tstudio::project
