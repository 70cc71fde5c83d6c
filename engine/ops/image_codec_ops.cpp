// The image codec ops: DecodeJpeg, DecodeAndCropJpeg, ExtractJpegShape, DecodePng, EncodeJpeg and
// EncodePng as TensorFlow 1.15 defines them (core/ops/image_ops.cc), and DecodeImage as TensorFlow
// 2.3 added it (1.15's tf.image.decode_image is a Python function over the others), with their
// shape functions.
// Repeats on purpose: ops with the same signature have shape functions of one shape, one per TensorFlow op.
#include "ops/ops.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

using SIC = ShapeInferenceContext;

constexpr const char* kContentsDoc = "0-D. The encoded image bytes.";
constexpr const char* kChannelsDoc =
    "Number of colour channels of the output: 0 keeps the file's, 1 grey, 3 RGB, 4 RGBA (not for JPEG).";

/// The channels attr as a dimension: unknown for 0; "channels must be non-negative, got -1".
Expected<std::int64_t> channelsDim(SIC& c)
{
    auto channels = c.attrInt("channels");
    if (!channels)
        return unexpected(channels.error());
    if (*channels < 0)
        return unexpected(invalidArgumentError("channels must be non-negative, got " + std::to_string(*channels)));
    return *channels == 0 ? std::int64_t{-1} : *channels;
}

/// DecodeImageShapeFn: contents scalar, output [?, ?, channels].
Status decodeImageShape(SIC& c)
{
    if (auto contents = c.withRank(0, 0); !contents)
        return contents.error();
    auto channels = channelsDim(c);
    if (!channels)
        return channels.error();
    c.setOutput(0, TensorShape(std::vector<std::int64_t>{-1, -1, *channels}));
    return Status::ok();
}

/// DecodeImageV2ShapeFn: unknown rank with expand_animations (a GIF gives 4-D), else [?, ?, channels].
Status decodeImageV2Shape(SIC& c)
{
    if (auto contents = c.withRank(0, 0); !contents)
        return contents.error();
    auto channels = channelsDim(c);
    if (!channels)
        return channels.error();
    auto expand = c.attrBool("expand_animations");
    if (!expand)
        return expand.error();
    c.setOutput(0, *expand ? TensorShape::unknown() : TensorShape(std::vector<std::int64_t>{-1, -1, *channels}));
    return Status::ok();
}

/// DecodeAndCropJpeg: [crop_window[2], crop_window[3], channels] when the window is known.
Status decodeAndCropJpegShape(SIC& c)
{
    if (auto contents = c.withRank(0, 0); !contents)
        return contents.error();
    auto channels = channelsDim(c);
    if (!channels)
        return channels.error();
    auto window = c.withRank(1, 1);
    if (!window)
        return window.error();
    if (auto four = SIC::withValue(SIC::dim(*window, 0), 4); !four)
        return four.error();
    std::int64_t height = -1;
    std::int64_t width = -1;
    if (const Tensor* value = c.inputValue(1); value != nullptr && value->numElements() == 4) {
        const auto v = value->values<std::int32_t>();
        height = v[2];
        width = v[3];
    }
    c.setOutput(0, TensorShape(std::vector<std::int64_t>{height, width, *channels}));
    return Status::ok();
}

/// EncodeImageShapeFn: image rank 3, contents scalar.
Status encodeImageShape(SIC& c)
{
    if (auto image = c.withRank(0, 3); !image)
        return image.error();
    c.setOutput(0, TensorShape::scalar());
    return Status::ok();
}

Status extractJpegShapeShape(SIC& c)
{
    if (auto contents = c.withRank(0, 0); !contents)
        return contents.error();
    c.setOutput(0, TensorShape{3});
    return Status::ok();
}

OpDefBuilder codecOp(std::string name, std::string summary)
{
    OpDefBuilder op(std::move(name));
    op.summary(std::move(summary)).category(op_category::kNN);
    return op;
}

/// DecodeJpeg's and DecodeAndCropJpeg's attrs, in TensorFlow's order.
void jpegDecodeAttrs(OpDefBuilder& op)
{
    op.attr("channels: int = 0")
        .attr("ratio: int = 1")
        .attr("fancy_upscaling: bool = true")
        .attr("try_recover_truncated: bool = false")
        .attr("acceptable_fraction: float = 1.0")
        .attr("dct_method: string = ''")
        .output("image: uint8")
        .doc("contents", kContentsDoc)
        .doc("channels", "Number of colour channels of the output: 0 keeps the file's, 1 grey, 3 RGB.")
        .doc("ratio", "Downscaling ratio while decoding: 1, 2, 4 or 8.")
        .doc("fancy_upscaling", "Upsample the chroma planes with libjpeg's smooth (slower) filter.")
        .doc("try_recover_truncated", "Decode a file that ends early as if it ended there.")
        .doc("acceptable_fraction", "The fraction of rows a file that ends early must still give; the rest are 0.")
        .doc("dct_method", "'' or 'INTEGER_FAST' (libjpeg's fast integer IDCT), 'INTEGER_ACCURATE' (the slow one).")
        .doc("image", "3-D uint8 [height, width, channels].");
}

} // namespace

Status registerImageCodecOps(OpRegistry& registry)
{
    std::vector<std::pair<OpDefBuilder, ShapeFunction>> ops;
    {
        OpDefBuilder op = codecOp("DecodeJpeg", "Decodes a JPEG image to a uint8 tensor (PNG data is decoded too, "
                                                "as TensorFlow 1.15's kernel does).");
        op.input("contents: string");
        jpegDecodeAttrs(op);
        ops.emplace_back(std::move(op), decodeImageShape);
    }
    {
        OpDefBuilder op = codecOp("DecodeAndCropJpeg", "Decodes the crop window of a JPEG image, skipping the rows "
                                                       "and columns outside it where libjpeg can.");
        op.input("contents: string").input("crop_window: int32");
        jpegDecodeAttrs(op);
        op.doc("crop_window", "1-D int32 of 4 elements: [crop_y, crop_x, crop_height, crop_width].");
        ops.emplace_back(std::move(op), decodeAndCropJpegShape);
    }
    {
        OpDefBuilder op = codecOp("ExtractJpegShape", "Reads the shape [height, width, channels] of a JPEG image "
                                                      "from its header without decoding it.");
        op.input("contents: string")
            .output("image_shape: output_type")
            .attr("output_type: {int32, int64} = DT_INT32")
            .doc("contents", kContentsDoc)
            .doc("output_type", "The dtype of the shape.");
        ops.emplace_back(std::move(op), extractJpegShapeShape);
    }
    {
        OpDefBuilder op = codecOp("DecodePng", "Decodes a PNG image to a uint8 or uint16 tensor (JPEG data is decoded "
                                               "too, as TensorFlow 1.15's kernel does).");
        op.input("contents: string")
            .attr("channels: int = 0")
            .attr("dtype: {uint8, uint16} = DT_UINT8")
            .output("image: dtype")
            .doc("contents", kContentsDoc)
            .doc("channels", kChannelsDoc)
            .doc("dtype", "uint8, or uint16 for 16 bits per sample (8-bit files are widened: v * 257).")
            .doc("image", "3-D [height, width, channels].");
        ops.emplace_back(std::move(op), decodeImageShape);
    }
    {
        OpDefBuilder op = codecOp("DecodeImage", "Decodes a JPEG or PNG image (by its signature) to a uint8, uint16 "
                                                 "or float32 tensor scaled as convert_image_dtype scales.");
        op.input("contents: string")
            .attr("channels: int = 0")
            .attr("dtype: {uint8, uint16, float32} = DT_UINT8")
            .output("image: dtype")
            .attr("expand_animations: bool = true")
            .doc("contents", kContentsDoc)
            .doc("channels", kChannelsDoc)
            .doc("dtype", "The output dtype; float32 values are in [0, 1].")
            .doc("expand_animations", "GIFs give 4-D [frames, height, width, 3] when true, their first frame "
                                      "otherwise (GIF decoding is not built in: such files are an error).")
            .doc("image", "3-D [height, width, channels] for JPEG and PNG.");
        ops.emplace_back(std::move(op), decodeImageV2Shape);
    }
    {
        OpDefBuilder op = codecOp("EncodeJpeg", "Encodes a uint8 image [height, width, channels] as JPEG.");
        op.input("image: uint8")
            .attr("format: {'', 'grayscale', 'rgb'} = ''")
            .attr("quality: int = 95")
            .attr("progressive: bool = false")
            .attr("optimize_size: bool = false")
            .attr("chroma_downsampling: bool = true")
            .attr("density_unit: {'in', 'cm'} = 'in'")
            .attr("x_density: int = 300")
            .attr("y_density: int = 300")
            .attr("xmp_metadata: string = ''")
            .output("contents: string")
            .doc("image", "3-D uint8 with 1 (grey) or 3 (RGB) channels.")
            .doc("format", "'' picks grey or RGB from the channels; 'grayscale' and 'rgb' require them.")
            .doc("quality", "Quality from 0 to 100 (higher is better and larger).")
            .doc("progressive", "Write a progressive JPEG (coarse scans first).")
            .doc("optimize_size", "Compute optimal Huffman tables: smaller files, slower encoding.")
            .doc("chroma_downsampling", "Halve the colour planes' resolution (libjpeg's default).")
            .doc("density_unit", "Unit of the pixel densities: pixels per inch or per centimetre.")
            .doc("x_density", "Horizontal pixels per density unit.")
            .doc("y_density", "Vertical pixels per density unit.")
            .doc("xmp_metadata", "XMP metadata embedded in an APP1 marker when not empty.")
            .doc("contents", "0-D. The JPEG file's bytes.");
        ops.emplace_back(std::move(op), encodeImageShape);
    }
    {
        OpDefBuilder op = codecOp("EncodePng", "Encodes a uint8 or uint16 image [height, width, channels] as PNG.");
        op.attr("compression: int = -1")
            .attr("T: {uint8, uint16} = DT_UINT8")
            .input("image: T")
            .output("contents: string")
            .doc("compression", "zlib compression level from 0 to 9; -1 is zlib's default.")
            .doc("image", "3-D with 1 to 4 channels.")
            .doc("contents", "0-D. The PNG file's bytes.");
        ops.emplace_back(std::move(op), encodeImageShape);
    }
    for (auto& [op, shapeFunction] : ops) {
        const std::string name = op.opName();
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;
        if (Status s = registry.setShapeFunction(name, shapeFunction); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
