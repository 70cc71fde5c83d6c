// Gradients of the TensorArray ops as TensorFlow 1.15's tensor_array_grad.py builds them: each
// forward op's gradient works on the gradient array of its TensorArray for this gradient computation
// (TensorArrayGradV3 with source = the gradient's name up to its "gradients" scope), and the flows
// carry the order: a Read's gradient writes into the gradient array, a Write's gradient reads from
// it; Gather and Scatter, Concat and Split likewise mirror each other. TensorArrayV3, the gradient
// ops, Size and Close are not differentiable.
#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "builder/tensor_array.h"
#include "framework/node_attrs.h"
#include "framework/op_registry.h"

#include <string>
#include <string_view>
#include <vector>

namespace tstudio {
namespace {

/// _GetGradSource: which tf.gradients call `t` belongs to, its name up to the last component
/// starting with "gradients" ("gradients", "gradients_1", "train/gradients").
Expected<std::string> gradSource(const Output& t)
{
    const std::string name = t.name();
    std::vector<std::string_view> tokens;
    for (std::size_t start = 0;;) {
        const std::size_t slash = name.find('/', start);
        tokens.push_back(std::string_view(name).substr(start, slash - start));
        if (slash == std::string::npos)
            break;
        start = slash + 1;
    }
    std::size_t last = tokens.size();
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].starts_with("gradients"))
            last = i;
    }
    if (last == tokens.size())
        return unexpected(invalidArgumentError("Expected op/tensor name to start with gradients (excluding scope), "
                                               "got: " +
                                               name));
    std::string source;
    for (std::size_t i = 0; i <= last; ++i)
        source += (i == 0 ? "" : "/") + std::string(tokens[i]);
    return source;
}

/// TensorArray(dtype, handle, flow).grad(source, flow): the gradient array for the computation
/// `gradient` belongs to, ordered after `flow`.
Expected<TensorArray> gradientArray(GraphBuilder& b, DataType dtype, const Output& handle, const Output& flow,
                                    const Output& gradient)
{
    TSTUDIO_AD_TRY(source, gradSource(gradient));
    return TensorArray::fromHandle(dtype, handle, flow).grad(b, source, flow);
}

/// Read(handle, index, flow_in): the gradient is written at index; its flow is flow_in's gradient.
Status readGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(dtype, attrType(ctx.node(), "dtype"));
    TSTUDIO_AD_TRY(g, gradientArray(b, dtype, ctx.input(0), ctx.input(2), grad));
    TSTUDIO_AD_TRY(written, g.write(b, ctx.input(1), grad));
    return ctx.setInputGradient(2, written.flow());
}

/// Write(handle, index, value, flow_in): value's gradient is read at index once the flow says the
/// gradient array holds it; the flow passes on.
Status writeGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(flow, ctx.grad());
    TSTUDIO_AD_TRY(dtype, attrType(ctx.node(), "T"));
    TSTUDIO_AD_TRY(g, gradientArray(b, dtype, ctx.input(0), flow, flow));
    TSTUDIO_AD_TRY(value, g.read(b, ctx.input(1)));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(2, value));
    return ctx.setInputGradient(3, flow);
}

/// Gather(handle, indices, flow_in): the gradient is scattered to indices.
Status gatherGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(dtype, attrType(ctx.node(), "dtype"));
    TSTUDIO_AD_TRY(g, gradientArray(b, dtype, ctx.input(0), ctx.input(2), grad));
    TSTUDIO_AD_TRY(scattered, g.scatter(b, ctx.input(1), grad));
    return ctx.setInputGradient(2, scattered.flow());
}

/// Scatter(handle, indices, value, flow_in): value's gradient is gathered from indices.
Status scatterGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(flow, ctx.grad());
    TSTUDIO_AD_TRY(dtype, attrType(ctx.node(), "T"));
    TSTUDIO_AD_TRY(g, gradientArray(b, dtype, ctx.input(0), flow, flow));
    TSTUDIO_AD_TRY(value, g.gather(b, ctx.input(1)));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(2, value));
    return ctx.setInputGradient(3, flow);
}

/// Concat(handle, flow_in) -> (value, lengths): the gradient is split by the forward lengths.
Status concatGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad(0));
    TSTUDIO_AD_TRY(dtype, attrType(ctx.node(), "dtype"));
    TSTUDIO_AD_TRY(g, gradientArray(b, dtype, ctx.input(0), ctx.input(1), grad));
    TSTUDIO_AD_TRY(split, g.split(b, grad, ctx.output(1)));
    return ctx.setInputGradient(1, split.flow());
}

/// Split(handle, value, lengths, flow_in): value's gradient is the gradient array concatenated.
Status splitGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(flow, ctx.grad());
    TSTUDIO_AD_TRY(dtype, attrType(ctx.node(), "T"));
    TSTUDIO_AD_TRY(g, gradientArray(b, dtype, ctx.input(0), flow, flow));
    TSTUDIO_AD_TRY(value, g.concat(b));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(1, value));
    return ctx.setInputGradient(3, flow);
}

} // namespace

Status registerTensorArrayGradients(OpRegistry& registry)
{
    static constexpr std::string_view kNotDifferentiable[] = {
        "TensorArrayV3", "TensorArrayGradV3", "TensorArrayGradWithShape", "TensorArraySizeV3", "TensorArrayCloseV3"};
    return registerGradientTables(registry,
                                  {{{"TensorArrayReadV3", readGrad},
                                    {"TensorArrayWriteV3", writeGrad},
                                    {"TensorArrayGatherV3", gatherGrad},
                                    {"TensorArrayScatterV3", scatterGrad},
                                    {"TensorArrayConcatV3", concatGrad},
                                    {"TensorArraySplitV3", splitGrad}}},
                                  kNotDifferentiable);
}

} // namespace tstudio
