// The gradients of the image resize ops as TensorFlow 1.15's image_grad.py builds them:
// ResizeBilinear -> ResizeBilinearGrad(grad, image), ResizeNearestNeighbor ->
// ResizeNearestNeighborGrad(grad, image height and width), the attrs passed on, nothing for `size`.
// TensorFlow 1.15 has no gradient for the two *Grad ops; here they are differentiated as the linear
// maps they are (each one's adjoint is its forward op sized like its `grads` input), so second
// derivatives through a resize work. SparseToDense is not differentiable (sparse_grad.py).
// tf.contrib.resampler: Resampler -> ResamplerGrad(data, warp, grad), whose two outputs are the
// gradients of data and warp; ResamplerGrad is not differentiable.
#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "framework/node_attrs.h"

namespace tstudio {

namespace {

AttrMap resizeAttrs(const GradientContext& ctx)
{
    AttrMap attrs;
    for (const char* name : {"align_corners", "half_pixel_centers"}) {
        if (auto value = attrBool(ctx.node(), name))
            attrs[name] = attr::b(*value);
    }
    return attrs;
}

/// x[1:3] of a 1-D tensor (Tensor.__getitem__): "strided_slice/stack", "strided_slice/stack_1",
/// "strided_slice/stack_2" and the StridedSlice "strided_slice".
Expected<Output> heightAndWidth(GraphBuilder& b, const Output& shape)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("strided_slice"));
    TSTUDIO_AD_TRY(begin, py::intVector(b, {1}, "stack"));
    TSTUDIO_AD_TRY(end, py::intVector(b, {3}, "stack_1"));
    TSTUDIO_AD_TRY(strides, py::intVector(b, {1}, "stack_2"));
    return py::genOp(b, "StridedSlice", {shape, begin, end, strides}, {}, scope.name());
}

/// The height and width of a 4-D tensor: the constant "<op>/size" made inside the op's scope when
/// they are known (a TensorShape converted by the op wrapper), else shape(x)[1:3].
Expected<Output> resizeWithSizeOf(GraphBuilder& b, std::string_view type, const Output& x, const Output& grad,
                                  const AttrMap& attrs)
{
    const TensorShape& s = x.shape();
    if (!s.isUnknownRank() && s.rank() == 4 && s.dim(1) >= 0 && s.dim(2) >= 0) {
        TSTUDIO_AD_TRY(scope, b.nameScope(type));
        TSTUDIO_AD_TRY(size, py::intVector(b, {s.dim(1), s.dim(2)}, "size"));
        return py::genOp(b, type, {grad, size}, attrs, scope.name());
    }
    TSTUDIO_AD_TRY(shape, py::shape(b, x));
    TSTUDIO_AD_TRY(size, heightAndWidth(b, shape));
    return py::genOp(b, type, {grad, size}, attrs);
}

Status resizeBilinearGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, py::genOp(ctx.builder(), "ResizeBilinearGrad", {grad, ctx.input(0)}, resizeAttrs(ctx)));
    return ctx.setInputGradient(0, g);
}

Status resizeNearestNeighborGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g,
                   resizeWithSizeOf(ctx.builder(), "ResizeNearestNeighborGrad", ctx.input(0), grad, resizeAttrs(ctx)));
    return ctx.setInputGradient(0, g);
}

/// ResizeBilinearGrad(grads, original_image) = A^T grads, A the interpolation from the original
/// size to the grads' size: its gradient for `grads` is A h, ResizeBilinear(h) to the grads' size
/// (float, as `grads` is); original_image only gives a shape.
Status resizeBilinearGradGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, resizeWithSizeOf(b, "ResizeBilinear", ctx.input(0), grad, resizeAttrs(ctx)));
    return ctx.setInputGradient(0, g);
}

/// ResizeNearestNeighborGrad sums into the source pixels; its adjoint copies them back:
/// ResizeNearestNeighbor(h) to the grads' size.
Status resizeNearestNeighborGradGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(g, resizeWithSizeOf(ctx.builder(), "ResizeNearestNeighbor", ctx.input(0), grad, resizeAttrs(ctx)));
    return ctx.setInputGradient(0, g);
}

Status resamplerGrad(GradientContext& ctx)
{
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(op, ctx.builder().op("ResamplerGrad", {ctx.input(0), ctx.input(1), grad}));
    if (Status s = ctx.setInputGradient(0, op.output(0)); !s.isOk())
        return s;
    return ctx.setInputGradient(1, op.output(1));
}

constexpr std::string_view kNotDifferentiable[] = {"SparseToDense", "ResamplerGrad"};

} // namespace

Status registerImageGradients(OpRegistry& registry)
{
    const GradientTable table = {
        {"ResizeBilinear", resizeBilinearGrad},
        {"ResizeNearestNeighbor", resizeNearestNeighborGrad},
        {"ResizeBilinearGrad", resizeBilinearGradGrad},
        {"ResizeNearestNeighborGrad", resizeNearestNeighborGradGrad},
        {"Resampler", resamplerGrad},
    };
    return registerGradientTables(registry, {table}, kNotDifferentiable);
}

} // namespace tstudio
