// The image resize ops of TensorFlow 1.15 (image_ops.cc): ResizeBilinear, ResizeNearestNeighbor and
// their gradients ResizeBilinearGrad and ResizeNearestNeighborGrad, ResizeBicubic and ResizeArea,
// and tf.contrib.resampler's Resampler and ResamplerGrad, with their shape functions.
// Repeats on purpose: ops with the same signature have shape functions of one shape, one per TensorFlow op.
#include "ops/op_families.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

using SIC = ShapeInferenceContext;

constexpr const char* kAlignCornersDoc =
    "If true, the centers of the 4 corner pixels of input and output are aligned: the scale is "
    "(in - 1) / (out - 1) instead of in / out.";
constexpr const char* kHalfPixelDoc =
    "If true, pixel centers are at (i + 0.5): source coordinates are (i + 0.5) * scale - 0.5 "
    "(nearest neighbor: (i + 0.5) * scale, floored).";

/// The `size` input: rank 1 with 2 elements; its values when known (TensorFlow reads only a fully
/// known value here, not a partial shape tensor), else two unknown dims.
Expected<std::pair<std::int64_t, std::int64_t>> sizeDims(ShapeInferenceContext& c, int input)
{
    auto size = c.withRank(input, 1);
    if (!size)
        return unexpected(size.error());
    if (auto two = SIC::withValue(SIC::dim(*size, 0), 2); !two)
        return unexpected(two.error());
    const Tensor* value = c.inputValue(input);
    if (value == nullptr || value->numElements() != 2)
        return std::pair<std::int64_t, std::int64_t>{-1, -1};
    const auto v = value->values<std::int32_t>();
    return std::pair<std::int64_t, std::int64_t>{v[0], v[1]};
}

/// ResizeShapeFn: images rank 4, output [batch, size[0], size[1], channels].
Status resizeShape(ShapeInferenceContext& c)
{
    auto images = c.withRank(0, 4);
    if (!images)
        return images.error();
    auto hw = sizeDims(c, 1);
    if (!hw)
        return hw.error();
    c.setOutput(
        0, TensorShape(std::vector<std::int64_t>{SIC::dim(*images, 0), hw->first, hw->second, SIC::dim(*images, 3)}));
    return Status::ok();
}

/// ResizeNearestNeighborGrad: grads rank 4 with dims 1 and 2 replaced by `size`.
Status resizeNearestNeighborGradShape(ShapeInferenceContext& c)
{
    auto grads = c.withRank(0, 4);
    if (!grads)
        return grads.error();
    auto hw = sizeDims(c, 1);
    if (!hw)
        return hw.error();
    c.setOutput(
        0, TensorShape(std::vector<std::int64_t>{SIC::dim(*grads, 0), hw->first, hw->second, SIC::dim(*grads, 3)}));
    return Status::ok();
}

/// ResizeBilinearGrad: the shape of original_image, as it is.
Status resizeBilinearGradShape(ShapeInferenceContext& c)
{
    c.setOutput(0, c.input(1));
    return Status::ok();
}

/// Resampler: data rank >= 4, warp rank >= 2; the output is warp's shape without its last
/// dimension, then data's last (the channels).
Status resamplerShape(ShapeInferenceContext& c)
{
    auto data = c.withRankAtLeast(0, 4);
    if (!data)
        return data.error();
    auto warp = c.withRankAtLeast(1, 2);
    if (!warp)
        return warp.error();
    auto points = SIC::subshape(*warp, 0, -1);
    if (!points)
        return points.error();
    if (points->isUnknownRank()) {
        c.setOutput(0, TensorShape::unknown());
        return Status::ok();
    }
    c.setOutput(0, points->concatenate(TensorShape(std::vector<std::int64_t>{SIC::dim(*data, -1)})));
    return Status::ok();
}

/// ResamplerGrad: grad_data has data's shape, grad_warp warp's.
Status resamplerGradShape(ShapeInferenceContext& c)
{
    c.setOutput(0, c.input(0));
    c.setOutput(1, c.input(1));
    return Status::ok();
}

/// An op of the family: its inputs and output, then T (`types`), align_corners and
/// half_pixel_centers, in TensorFlow's order.
OpDefBuilder resizeOp(std::string name, std::string summary, const std::vector<std::string>& inputs,
                      const std::string& output, const std::string& types)
{
    OpDefBuilder op(std::move(name));
    op.summary(std::move(summary)).category(op_category::kNN);
    for (const std::string& input : inputs)
        op.input(input);
    op.output(output)
        .attr(types)
        .attr("align_corners: bool = false")
        .attr("half_pixel_centers: bool = false")
        .doc("align_corners", kAlignCornersDoc)
        .doc("half_pixel_centers", kHalfPixelDoc);
    return op;
}

} // namespace

Status registerImageOps(OpRegistry& registry)
{
    std::vector<std::pair<OpDefBuilder, ShapeFunction>> ops;
    {
        OpDefBuilder op = resizeOp("ResizeBilinear",
                                   "Resizes images [batch, height, width, channels] to `size` by bilinear "
                                   "interpolation; the output is float.",
                                   {"images: T", "size: int32"}, "resized_images: float",
                                   "T: {int8, uint8, int16, uint16, int32, int64, bfloat16, half, float, double}");
        op.doc("size", "1-D int32 of 2 elements: new_height, new_width.");
        ops.emplace_back(std::move(op), resizeShape);
    }
    {
        OpDefBuilder op =
            resizeOp("ResizeBilinearGrad",
                     "Gradient of ResizeBilinear: spreads each gradient over the 4 source pixels by "
                     "their interpolation weights.",
                     {"grads: float", "original_image: T"}, "output: T", "T: {float, bfloat16, half, double}");
        op.doc("original_image", "The image that was resized; only its shape is read.");
        ops.emplace_back(std::move(op), resizeBilinearGradShape);
    }
    {
        OpDefBuilder op = resizeOp("ResizeNearestNeighbor",
                                   "Resizes images [batch, height, width, channels] to `size` by copying the "
                                   "nearest source pixel.",
                                   {"images: T", "size: int32"}, "resized_images: T",
                                   "T: {int8, uint8, int16, uint16, int32, int64, half, float, double}");
        op.doc("size", "1-D int32 of 2 elements: new_height, new_width.");
        ops.emplace_back(std::move(op), resizeShape);
    }
    {
        OpDefBuilder op =
            resizeOp("ResizeNearestNeighborGrad",
                     "Gradient of ResizeNearestNeighbor: sums each gradient into the source pixel it "
                     "was copied from.",
                     {"grads: T", "size: int32"}, "output: T", "T: {uint8, int8, int32, half, float, double}");
        op.doc("size", "1-D int32 of 2 elements: the original height and width.");
        ops.emplace_back(std::move(op), resizeNearestNeighborGradShape);
    }
    {
        OpDefBuilder op = resizeOp("ResizeBicubic",
                                   "Resizes images [batch, height, width, channels] to `size` by bicubic "
                                   "interpolation (Keys' kernel, a = -0.75; -0.5 with half-pixel centers); the "
                                   "output is float.",
                                   {"images: T", "size: int32"}, "resized_images: float",
                                   "T: {int8, uint8, int16, uint16, int32, int64, half, float, double}");
        op.doc("size", "1-D int32 of 2 elements: new_height, new_width.");
        ops.emplace_back(std::move(op), resizeShape);
    }
    {
        // ResizeArea has align_corners only: its pixel areas were always centred.
        OpDefBuilder op("ResizeArea");
        op.summary("Resizes images [batch, height, width, channels] to `size` by averaging the source pixels each "
                   "output pixel covers, weighted by the covered area; the output is float.")
            .category(op_category::kNN)
            .input("images: T")
            .input("size: int32")
            .output("resized_images: float")
            .attr("T: {int8, uint8, int16, uint16, int32, int64, half, float, double}")
            .attr("align_corners: bool = false")
            .doc("align_corners", kAlignCornersDoc)
            .doc("size", "1-D int32 of 2 elements: new_height, new_width.");
        ops.emplace_back(std::move(op), resizeShape);
    }
    {
        // tf.contrib.resampler (TensorFlow 1.15's contrib/resampler).
        OpDefBuilder op("Resampler");
        op.summary("Samples data [batch, height, width, channels] at the (x, y) points of warp [batch, ..., 2] by "
                   "bilinear interpolation, zero outside the image.")
            .category(op_category::kNN)
            .input("data: T")
            .input("warp: T")
            .output("output: T")
            .attr("T: {half, bfloat16, float, double}")
            .doc("warp", "The sampling points: x (along the width) then y (along the height), in pixels.")
            .doc("output", "warp's shape without its last dimension, then the channels.");
        ops.emplace_back(std::move(op), resamplerShape);
    }
    {
        OpDefBuilder op("ResamplerGrad");
        op.summary("Gradient of Resampler with respect to its data and its warp.")
            .category(op_category::kNN)
            .input("data: T")
            .input("warp: T")
            .input("grad_output: T")
            .output("grad_data: T")
            .output("grad_warp: T")
            .attr("T: {half, bfloat16, float, double}");
        ops.emplace_back(std::move(op), resamplerGradShape);
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
