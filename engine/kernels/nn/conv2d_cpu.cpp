// CPU kernels of Conv2D, Conv2DBackpropInput and Conv2DBackpropFilter: attr and shape checks in
// TensorFlow's words, NCHW handled by transposing to NHWC around the NHWC arithmetic.
#define EIGEN_USE_THREADS

#include "kernels/nn/conv2d.h"
#include "kernels/nn/nn_kernels_internal.h"

#include "framework/node_attrs.h"

#include <unsupported/Eigen/CXX11/Tensor>

namespace tstudio::nn {

namespace {

std::string str(std::int64_t v)
{
    return std::to_string(v);
}

Status checkPaddingList(const Conv2DParams& p)
{
    if (p.padding == Padding::kExplicit) {
        if (p.explicitPaddings.size() != 8) {
            return invalidArgumentError("explicit_paddings attribute must contain 8 values, but got: " +
                                        str(static_cast<std::int64_t>(p.explicitPaddings.size())));
        }
        for (std::int64_t v : p.explicitPaddings) {
            if (v < 0)
                return invalidArgumentError("All elements of explicit_paddings must be nonnegative");
        }
        const FormatIndex i = formatIndex(p.format);
        if (p.explicitPaddings[2 * i.n] != 0 || p.explicitPaddings[2 * i.n + 1] != 0 ||
            p.explicitPaddings[2 * i.c] != 0 || p.explicitPaddings[2 * i.c + 1] != 0)
            return invalidArgumentError("Nonzero explicit padding in the batch or depth dimensions is not supported");
    } else if (!p.explicitPaddings.empty()) {
        return invalidArgumentError(
            "explicit_paddings attribute must be empty if the padding attribute is not EXPLICIT");
    }
    return Status::ok();
}

} // namespace

Expected<Conv2DParams> conv2DParams(const tensorflow::NodeDef& node)
{
    Conv2DParams p;
    auto strides = attrIntList(node, "strides");
    if (!strides)
        return unexpected(strides.error());
    p.strides = *strides;
    auto dilations = attrIntList(node, "dilations");
    if (!dilations)
        return unexpected(dilations.error());
    p.dilations = *dilations;
    auto paddingText = attrString(node, "padding");
    if (!paddingText)
        return unexpected(paddingText.error());
    auto padding = paddingFromString(*paddingText);
    if (!padding)
        return unexpected(padding.error());
    p.padding = *padding;
    if (findAttr(node, "explicit_paddings")) {
        auto paddings = attrIntList(node, "explicit_paddings");
        if (!paddings)
            return unexpected(paddings.error());
        p.explicitPaddings = *paddings;
    }
    auto format = dataFormatAttr(node);
    if (!format)
        return unexpected(format.error());
    p.format = *format;

    if (p.dilations.size() != 4)
        return unexpected(invalidArgumentError("Sliding window dilations field must specify 4 dimensions"));
    if (p.strides.size() != 4)
        return unexpected(invalidArgumentError("Sliding window strides field must specify 4 dimensions"));
    const FormatIndex i = formatIndex(p.format);
    if (p.strides[i.n] != 1 || p.strides[i.c] != 1) {
        return unexpected(invalidArgumentError(
            "Current implementation does not yet support strides in the batch and depth dimensions."));
    }
    if (p.strides[i.h] <= 0 || p.strides[i.w] <= 0)
        return unexpected(invalidArgumentError("Row and column strides should be larger than 0."));
    if (p.dilations[i.n] != 1 || p.dilations[i.c] != 1) {
        return unexpected(invalidArgumentError(
            "Current implementation does not yet support dilations in the batch and depth dimensions."));
    }
    if (p.dilations[i.h] <= 0 || p.dilations[i.w] <= 0)
        return unexpected(invalidArgumentError("Dilated rates should be larger than 0."));
    if (Status s = checkPaddingList(p); !s.isOk())
        return unexpected(s);
    return p;
}

bool Conv2DGeometry::isPointwise() const
{
    return rows.filter == 1 && cols.filter == 1 && rows.stride == 1 && cols.stride == 1 && rows.padBefore == 0 &&
           cols.padBefore == 0 && rows.output == rows.input && cols.output == cols.input;
}

Expected<Conv2DGeometry> conv2DGeometry(const Conv2DParams& params, const TensorShape& input, const TensorShape& filter)
{
    const FormatIndex i = formatIndex(params.format);
    Conv2DGeometry g;
    g.batch = input.dim(i.n);
    g.inDepth = input.dim(i.c);
    g.outDepth = filter.dim(3);
    const std::int64_t patchDepth = filter.dim(2);
    if (patchDepth <= 0)
        return unexpected(invalidArgumentError("filter depth must be stricly positive, got " + str(patchDepth)));
    if (g.inDepth % patchDepth != 0) {
        return unexpected(invalidArgumentError(
            "input depth must be evenly divisible by filter depth: " + str(g.inDepth) + " vs " + str(patchDepth)));
    }
    if (g.inDepth != patchDepth) {
        return unexpected(unimplementedError(
            "The Conv2D op currently does not support grouped convolutions on the CPU. A grouped convolution was "
            "attempted to be run because the input depth of " +
            str(g.inDepth) + " does not match the filter input depth of " + str(patchDepth)));
    }
    const bool explicitPads = params.padding == Padding::kExplicit;
    const auto& pads = params.explicitPaddings;
    auto rows = windowDim(input.dim(i.h), filter.dim(0), params.dilations[i.h], params.strides[i.h], params.padding,
                          explicitPads ? pads[2 * i.h] : 0, explicitPads ? pads[2 * i.h + 1] : 0);
    if (!rows)
        return unexpected(rows.error());
    auto cols = windowDim(input.dim(i.w), filter.dim(1), params.dilations[i.w], params.strides[i.w], params.padding,
                          explicitPads ? pads[2 * i.w] : 0, explicitPads ? pads[2 * i.w + 1] : 0);
    if (!cols)
        return unexpected(cols.error());
    g.rows = *rows;
    g.cols = *cols;
    return g;
}

Expected<Conv2DGeometry> conv2DForwardGeometry(const Conv2DParams& params, const TensorShape& input,
                                               const TensorShape& filter)
{
    if (input.rank() != 4)
        return unexpected(invalidArgumentError("input must be 4-dimensional" + input.toString()));
    if (filter.rank() != 4)
        return unexpected(invalidArgumentError("filter must be 4-dimensional: " + filter.toString()));
    return conv2DGeometry(params, input, filter);
}

Expected<Conv2DGeometry> conv2DBackpropGeometry(const Conv2DParams& params, const std::string& label,
                                                const TensorShape& input, const TensorShape& filter,
                                                const TensorShape& outBackprop)
{
    if (input.rank() != 4)
        return unexpected(invalidArgumentError(label + ": input must be 4-dimensional"));
    if (filter.rank() != 4)
        return unexpected(invalidArgumentError(label + ": filter must be 4-dimensional"));
    if (outBackprop.rank() != 4)
        return unexpected(invalidArgumentError(label + ": out_backprop must be 4-dimensional"));
    const FormatIndex i = formatIndex(params.format);
    if (input.dim(i.n) != outBackprop.dim(i.n))
        return unexpected(invalidArgumentError(label + ": input and out_backprop must have the same batch size"));
    if (input.dim(i.c) != filter.dim(2))
        return unexpected(invalidArgumentError(label + ": input and filter must have the same depth"));
    if (filter.dim(3) != outBackprop.dim(i.c))
        return unexpected(invalidArgumentError(label + ": filter and out_backprop must have the same out_depth"));
    auto g = conv2DGeometry(params, input, filter);
    if (!g)
        return g;
    for (const auto& [dim, spatial] : {std::pair{g->rows, i.h}, std::pair{g->cols, i.w}}) {
        const std::int64_t actual = outBackprop.dim(spatial);
        if (actual != dim.output) {
            return unexpected(invalidArgumentError(
                label + ": Size of out_backprop doesn't match computed: actual = " + str(actual) +
                ", computed = " + str(dim.output) + " spatial_dim: " + str(spatial) + " input: " + str(dim.input) +
                " filter: " + str(dim.filter) + " output: " + str(actual) + " stride: " + str(dim.stride) +
                " dilation: " + str(dim.dilation)));
        }
    }
    return g;
}

Expected<TensorShape> shapeFromSizes(const Tensor& sizes, const std::string& label, const std::string& inputName)
{
    if (sizes.rank() != 1) {
        return unexpected(
            invalidArgumentError(label + ": " + inputName + " input must be 1-dim, not " + str(sizes.rank())));
    }
    std::vector<std::int64_t> dims;
    for (std::int32_t v : sizes.values<std::int32_t>()) {
        if (v < 0)
            return unexpected(invalidArgumentError("Dimension " + str(v) + " must be >= 0"));
        dims.push_back(v);
    }
    return TensorShape(std::move(dims));
}

Expected<Conv2DProblem> conv2DForwardProblem(const Conv2DParams& params, OpKernelContext& ctx)
{
    auto g = conv2DForwardGeometry(params, ctx.input(0).shape(), ctx.input(1).shape());
    if (!g)
        return unexpected(g.error());
    return Conv2DProblem{imageShape(params.format, g->batch, g->rows.output, g->cols.output, g->outDepth), *g};
}

Expected<Conv2DProblem> conv2DBackpropProblem(const Conv2DParams& params, OpKernelContext& ctx, bool filterBackprop)
{
    const std::string label = filterBackprop ? "Conv2DBackpropFilter" : "Conv2DBackpropInput";
    const int sizesInput = filterBackprop ? 1 : 0;
    auto sizes = shapeFromSizes(ctx.input(sizesInput), label, filterBackprop ? "filter_sizes" : "input_sizes");
    if (!sizes)
        return unexpected(sizes.error());
    const TensorShape& input = filterBackprop ? ctx.input(0).shape() : *sizes;
    const TensorShape& filter = filterBackprop ? *sizes : ctx.input(1).shape();
    auto g = conv2DBackpropGeometry(params, label, input, filter, ctx.input(2).shape());
    if (!g)
        return unexpected(g.error());
    return Conv2DProblem{*sizes, *g};
}

namespace {

using ConvTypes = HalfFloatDouble;

class Conv2DOp : public NnKernel {
public:
    explicit Conv2DOp(OpKernelConstruction& c) : NnKernel(c) { read(conv2DParams(c.node()), m_params); }

    Status compute(OpKernelContext& ctx) override
    {
        auto problem = conv2DForwardProblem(m_params, ctx);
        if (!problem)
            return problem.error();
        const Tensor& input = ctx.input(0);
        const Tensor& filter = ctx.input(1);
        const Conv2DGeometry& g = problem->geometry;
        return computeInNhwc(ctx, m_params.format, {&input}, problem->outputShape, NhwcOutput::kOverwritten,
                             [&](const auto& in, Tensor& out) {
                                 return dispatchDataType<ConvTypes>(input.dtype(), [&](auto tag) {
                                     using T = typename decltype(tag)::type;
                                     return Conv2DCpu<T>::forward(ctx, g, in[0]->template data<T>(), filter.data<T>(),
                                                                  out.data<T>());
                                 });
                             });
    }

private:
    Conv2DParams m_params;
};

class Conv2DBackpropInputOp : public NnKernel {
public:
    explicit Conv2DBackpropInputOp(OpKernelConstruction& c) : NnKernel(c) { read(conv2DParams(c.node()), m_params); }

    Status compute(OpKernelContext& ctx) override
    {
        auto problem = conv2DBackpropProblem(m_params, ctx, false);
        if (!problem)
            return problem.error();
        const Tensor& filter = ctx.input(1);
        const Tensor& outBackprop = ctx.input(2);
        const Conv2DGeometry& g = problem->geometry;
        return computeInNhwc(ctx, m_params.format, {&outBackprop}, problem->outputShape, NhwcOutput::kZeroed,
                             [&](const auto& in, Tensor& out) {
                                 return dispatchDataType<ConvTypes>(filter.dtype(), [&](auto tag) {
                                     using T = typename decltype(tag)::type;
                                     return Conv2DCpu<T>::backpropInput(ctx, g, filter.data<T>(),
                                                                        in[0]->template data<T>(), out.data<T>());
                                 });
                             });
    }

private:
    Conv2DParams m_params;
};

class Conv2DBackpropFilterOp : public NnKernel {
public:
    explicit Conv2DBackpropFilterOp(OpKernelConstruction& c) : NnKernel(c) { read(conv2DParams(c.node()), m_params); }

    Status compute(OpKernelContext& ctx) override
    {
        auto problem = conv2DBackpropProblem(m_params, ctx, true);
        if (!problem)
            return problem.error();
        const Tensor& input = ctx.input(0);
        const Tensor& outBackprop = ctx.input(2);
        const Conv2DGeometry& g = problem->geometry;
        // Every element is written, except with an empty input or out_backprop: a sum over nothing.
        auto out = input.numElements() == 0 || outBackprop.numElements() == 0
                       ? ctx.allocateZeroedOutput(0, problem->outputShape)
                       : ctx.allocateOutput(0, problem->outputShape);
        if (!out)
            return out.error();
        Tensor* filterBackprop = *out;
        std::vector<Tensor> nhwc; // input and out_backprop, transposed for NCHW
        if (m_params.format == DataFormat::kNchw) {
            for (const Tensor* t : {&input, &outBackprop}) {
                auto moved = transposeImage(ctx, *t, false);
                if (!moved)
                    return moved.error();
                nhwc.push_back(std::move(*moved));
            }
        }
        const Tensor& in = nhwc.empty() ? input : nhwc[0];
        const Tensor& dy = nhwc.empty() ? outBackprop : nhwc[1];
        return dispatchDataType<ConvTypes>(input.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            return Conv2DCpu<T>::backpropFilter(ctx, g, in.data<T>(), dy.data<T>(), filterBackprop->data<T>());
        });
    }

private:
    Conv2DParams m_params;
};

} // namespace

Status registerConvKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers half, float and double for all three on CPU.
    const auto types = dataTypes(ConvTypes{});
    KernelAdder r(registry);
    r.add<Conv2DOp>("Conv2D", types)
        .add<Conv2DBackpropInputOp>("Conv2DBackpropInput", types)
        .add<Conv2DBackpropFilterOp>("Conv2DBackpropFilter", types);
    return r.status();
}

} // namespace tstudio::nn
