// tf.image.resize_images, resize_bilinear and resize_nearest_neighbor with TensorFlow 1.15's nodes.
#include "builder/image_resize.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"

#include <optional>
#include <string>

namespace tstudio::image {

namespace {

AttrMap resizeAttrs(bool alignCorners, bool halfPixelCenters)
{
    return {{"align_corners", attr::b(alignCorners)}, {"half_pixel_centers", attr::b(halfPixelCenters)}};
}

/// A generated op wrapper given a Python list `size`: the Const "<name>/size" inside the op's scope.
Expected<Output> resizeOpWithListSize(GraphBuilder& b, std::string_view type, const Output& images,
                                      std::array<std::int64_t, 2> size, AttrMap attrs, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name));
    TSTUDIO_AD_TRY(sizeT, ops::constantInts(b, {size[0], size[1]}, TensorShape{2}, tensorflow::DT_INT32, "size"));
    return py::genOp(b, type, {images, sizeT}, std::move(attrs), scope.name());
}

/// The known values of a 1-D int size tensor, else nullopt (tensor_util.constant_value_as_shape on
/// a value known while building).
std::optional<std::array<std::int64_t, 2>> knownSize(const GraphBuilder& b, const Output& size)
{
    const Tensor* value = b.constantValue(size);
    if (value == nullptr || value->numElements() != 2 || value->dtype() != tensorflow::DT_INT32)
        return std::nullopt;
    const auto v = value->values<std::int32_t>();
    return std::array<std::int64_t, 2>{v[0], v[1]};
}

/// _resize_images_common with the size already a tensor, inside the open scope.
Expected<Output> resizeImagesIn(GraphBuilder& b, const Output& imagesIn, const Output& size, ResizeMethod method,
                                bool alignCorners)
{
    Output images = imagesIn;
    const TensorShape& shape = images.shape();
    if (shape.isUnknownRank())
        return unexpected(invalidArgumentError("'images' contains no shape."));
    const bool isBatch = shape.rank() != 3;
    if (!isBatch) {
        TSTUDIO_AD_TRY(expanded, py::expandDims(b, images, 0));
        images = expanded;
    } else if (shape.rank() != 4) {
        return unexpected(invalidArgumentError("'images' must have either 3 or 4 dimensions."));
    }
    const TensorShape& sizeShape = size.shape();
    if (!sizeShape.isUnknownRank() && (sizeShape.rank() != 1 || (sizeShape.dim(0) >= 0 && sizeShape.dim(0) != 2)))
        return unexpected(invalidArgumentError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width"));
    if (method == ResizeMethod::kBicubic || method == ResizeMethod::kArea)
        return unexpected(unimplementedError(std::string("resize_images: method ") +
                                             (method == ResizeMethod::kBicubic ? "BICUBIC" : "AREA") +
                                             " needs ResizeBicubic / ResizeArea, which TensorStudio does not have"));
    const std::int64_t height = images.shape().dim(1);
    const std::int64_t width = images.shape().dim(2);
    const std::optional<std::array<std::int64_t, 2>> newSize = knownSize(b, size);
    Output resized;
    if (newSize && height >= 0 && width >= 0 && (*newSize)[0] == height && (*newSize)[1] == width) {
        resized = images; // skip_resize_if_same
    } else {
        const std::string_view type = method == ResizeMethod::kBilinear ? "ResizeBilinear" : "ResizeNearestNeighbor";
        // The v1 function passes align_corners only; half_pixel_centers keeps its default.
        TSTUDIO_AD_TRY(r, py::genOp(b, type, {images, size}, {{"align_corners", attr::b(alignCorners)}}));
        if (newSize) {
            TSTUDIO_AD_CHECK(b.setShape(r, TensorShape{-1, (*newSize)[0], (*newSize)[1], -1}));
            TSTUDIO_AD_TRY(refined, b.tensor(r.name()));
            resized = refined;
        } else {
            resized = r;
        }
    }
    if (!isBatch) {
        TSTUDIO_AD_TRY(squeezed, py::genOp(b, "Squeeze", {resized}, {{"squeeze_dims", attr::ints({0})}}));
        return squeezed;
    }
    return resized;
}

} // namespace

Expected<Output> resizeImages(GraphBuilder& b, const Output& images, const Output& size, ResizeMethod method,
                              bool alignCorners, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("resize") : name));
    return resizeImagesIn(b, images, size, method, alignCorners);
}

Expected<Output> resizeImages(GraphBuilder& b, const Output& images, std::array<std::int64_t, 2> size,
                              ResizeMethod method, bool alignCorners, std::string_view name)
{
    TSTUDIO_AD_TRY(scope, b.nameScope(name.empty() ? std::string_view("resize") : name));
    TSTUDIO_AD_TRY(sizeT, ops::constantInts(b, {size[0], size[1]}, TensorShape{2}, tensorflow::DT_INT32, "size"));
    return resizeImagesIn(b, images, sizeT, method, alignCorners);
}

Expected<Output> resizeBilinear(GraphBuilder& b, const Output& images, const Output& size, bool alignCorners,
                                bool halfPixelCenters, std::string_view name)
{
    return py::genOp(b, "ResizeBilinear", {images, size}, resizeAttrs(alignCorners, halfPixelCenters), name);
}

Expected<Output> resizeBilinear(GraphBuilder& b, const Output& images, std::array<std::int64_t, 2> size,
                                bool alignCorners, bool halfPixelCenters, std::string_view name)
{
    return resizeOpWithListSize(b, "ResizeBilinear", images, size, resizeAttrs(alignCorners, halfPixelCenters), name);
}

Expected<Output> resizeNearestNeighbor(GraphBuilder& b, const Output& images, const Output& size, bool alignCorners,
                                       bool halfPixelCenters, std::string_view name)
{
    return py::genOp(b, "ResizeNearestNeighbor", {images, size}, resizeAttrs(alignCorners, halfPixelCenters), name);
}

Expected<Output> resizeNearestNeighbor(GraphBuilder& b, const Output& images, std::array<std::int64_t, 2> size,
                                       bool alignCorners, bool halfPixelCenters, std::string_view name)
{
    return resizeOpWithListSize(b, "ResizeNearestNeighbor", images, size, resizeAttrs(alignCorners, halfPixelCenters),
                                name);
}

} // namespace tstudio::image
