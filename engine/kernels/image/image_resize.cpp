// The attr reading and input checks the resize kernels share (image_resize.h).
#include "kernels/image/image_resize.h"

#include "framework/node_attrs.h"

#include <limits>
#include <string>

namespace tstudio::image {

Expected<ResizeAttrs> readResizeAttrs(const tensorflow::NodeDef& node)
{
    ResizeAttrs attrs;
    auto align = attrBool(node, "align_corners");
    if (!align)
        return unexpected(align.error());
    auto halfPixel = attrBool(node, "half_pixel_centers");
    if (!halfPixel)
        return unexpected(halfPixel.error());
    attrs.alignCorners = *align;
    attrs.halfPixelCenters = *halfPixel;
    return attrs;
}

Expected<ResizeState> prepareResize(OpKernelContext& context, const ResizeAttrs& attrs)
{
    if (attrs.halfPixelCenters && attrs.alignCorners)
        return unexpected(invalidArgumentError("If half_pixel_centers is True, align_corners must be False."));
    const Tensor& input = context.input(0);
    if (input.rank() != 4)
        return unexpected(invalidArgumentError("input must be 4-dimensional" + input.shape().toString()));
    const Tensor& size = context.input(1);
    if (size.rank() != 1)
        return unexpected(invalidArgumentError("shape_t must be 1-dimensional" + size.shape().toString()));
    if (size.numElements() != 2)
        return unexpected(invalidArgumentError("shape_t must have two elements" + size.shape().toString()));
    const auto hw = size.values<std::int32_t>();
    ResizeState st;
    st.batch = input.shape().dim(0);
    st.inHeight = input.shape().dim(1);
    st.inWidth = input.shape().dim(2);
    st.channels = input.shape().dim(3);
    st.outHeight = hw[0];
    st.outWidth = hw[1];
    constexpr std::int64_t kMax = std::numeric_limits<std::int32_t>::max();
    if (st.inHeight >= kMax || st.inWidth >= kMax)
        return unexpected(invalidArgumentError("input sizes must be between 0 and max int32"));
    if (st.outHeight <= 0 || st.outWidth <= 0)
        return unexpected(invalidArgumentError("output dimensions must be positive"));
    if (st.channels <= 0)
        return unexpected(invalidArgumentError("image must have at least one channel"));
    if (st.inHeight <= 0 || st.inWidth <= 0)
        return unexpected(invalidArgumentError("input image must be of non-zero size"));
    st.heightScale = resizeScale(st.inHeight, st.outHeight, attrs.alignCorners);
    st.widthScale = resizeScale(st.inWidth, st.outWidth, attrs.alignCorners);
    auto out = context.allocateOutput(0, TensorShape{st.batch, st.outHeight, st.outWidth, st.channels});
    if (!out)
        return unexpected(out.error());
    st.output = *out;
    return st;
}

} // namespace tstudio::image
