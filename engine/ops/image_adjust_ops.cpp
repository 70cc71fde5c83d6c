// The colour adjustment ops tf.image builds on: AdjustContrastv2, AdjustHue, AdjustSaturation,
// RGBToHSV and HSVToRGB as TensorFlow 1.15 defines them (core/ops/image_ops.cc), with their shape
// functions.
// Repeats on purpose: ops with the same signature have shape functions of one shape, one per TensorFlow op.
#include "ops/ops.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

using SIC = ShapeInferenceContext;

/// AdjustContrastv2: contrast_factor scalar, images unchanged with rank >= 3.
Status adjustContrastShape(SIC& c)
{
    if (auto factor = c.withRank(1, 0); !factor)
        return factor.error();
    return unchangedShapeWithRankAtLeast(c, 3);
}

Status rankAtLeast3Shape(SIC& c)
{
    return unchangedShapeWithRankAtLeast(c, 3);
}

/// ColorspaceShapeFn: rank >= 1 and the last dimension 3.
Status colorspaceShape(SIC& c)
{
    auto input = c.withRankAtLeast(0, 1);
    if (!input)
        return input.error();
    auto last = SIC::withValue(SIC::dim(*input, -1), 3);
    if (!last)
        return last.error();
    auto out = SIC::replaceDim(*input, -1, *last);
    if (!out)
        return out.error();
    c.setOutput(0, *out);
    return Status::ok();
}

OpDefBuilder adjustOp(std::string name, std::string summary, const std::string& types)
{
    OpDefBuilder op(std::move(name));
    op.summary(std::move(summary)).category(op_category::kNN).input("images: T");
    op.attr(types);
    return op;
}

} // namespace

Status registerImageAdjustOps(OpRegistry& registry)
{
    std::vector<std::pair<OpDefBuilder, ShapeFunction>> ops;
    {
        OpDefBuilder op = adjustOp("AdjustContrastv2",
                                   "Adjusts the contrast of images: each channel of each image becomes (x - mean) * "
                                   "contrast_factor + mean, the mean taken over the image's pixels.",
                                   "T: {half, float} = DT_FLOAT");
        op.input("contrast_factor: float")
            .output("output: T")
            .doc("images", "At least 3-D; the last three dimensions are [height, width, channels].")
            .doc("contrast_factor", "Scalar multiplier of the distance from the mean.");
        ops.emplace_back(std::move(op), adjustContrastShape);
    }
    {
        OpDefBuilder op = adjustOp("AdjustHue",
                                   "Rotates the hue of RGB images by `delta` (a fraction of the colour circle), "
                                   "keeping their value range.",
                                   "T: {half, float} = DT_FLOAT");
        op.input("delta: float")
            .output("output: T")
            .doc("images", "At least 3-D, the last dimension 3 (RGB).")
            .doc("delta", "Scalar hue rotation, in [-1, 1].");
        ops.emplace_back(std::move(op), rankAtLeast3Shape);
    }
    {
        OpDefBuilder op =
            adjustOp("AdjustSaturation", "Multiplies the HSV saturation of RGB images by `scale`, clipped to [0, 1].",
                     "T: {half, float} = DT_FLOAT");
        op.input("scale: float")
            .output("output: T")
            .doc("images", "At least 3-D, the last dimension 3 (RGB).")
            .doc("scale", "Scalar saturation factor.");
        ops.emplace_back(std::move(op), rankAtLeast3Shape);
    }
    {
        OpDefBuilder op = adjustOp("RGBToHSV", "Converts RGB values in [0, 1] to hue, saturation and value in [0, 1].",
                                   "T: {half, bfloat16, float, double} = DT_FLOAT");
        op.output("output: T")
            .doc("images", "At least 1-D, the last dimension 3 (R, G, B).")
            .doc("output", "The same shape: H, S, V.");
        ops.emplace_back(std::move(op), colorspaceShape);
    }
    {
        OpDefBuilder op = adjustOp("HSVToRGB", "Converts hue, saturation and value in [0, 1] to RGB values.",
                                   "T: {half, bfloat16, float, double} = DT_FLOAT");
        op.output("output: T")
            .doc("images", "At least 1-D, the last dimension 3 (H, S, V).")
            .doc("output", "The same shape: R, G, B.");
        ops.emplace_back(std::move(op), colorspaceShape);
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
