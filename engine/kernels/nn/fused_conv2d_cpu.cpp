// _FusedConv2D's CPU kernel (see fused_conv2d.h): the convolution of Conv2DCpu (oneDNN or im2col),
// then the epilogue in place, row by row of channels.
#define EIGEN_USE_THREADS

#include "kernels/nn/fused_conv2d.h"

#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "kernels/nn/activation_functors.h"
#include "kernels/nn/bias_add_functor.h"
#include "kernels/nn/conv2d.h"
#include "kernels/nn/conv2d_dnnl.h"
#include "kernels/nn/nn_kernels_internal.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

namespace tstudio::nn {

Expected<FusedConvEpilogue> fusedConvEpilogue(const tensorflow::NodeDef& node)
{
    std::vector<std::string> ops;
    if (node.attr().count("fused_ops")) {
        auto list = attrStringList(node, "fused_ops");
        if (!list)
            return unexpected(list.error());
        ops = std::move(*list);
    }
    auto numArgs = attrInt(node, "num_args");
    if (!numArgs)
        return unexpected(numArgs.error());
    FusedConvEpilogue epilogue;
    if (node.attr().count("epsilon")) {
        auto epsilon = attrFloat(node, "epsilon");
        if (!epsilon)
            return unexpected(epsilon.error());
        epilogue.epsilon = *epsilon;
    }
    if (ops.empty())
        return unexpected(invalidArgumentError("Fused Conv2D must have at least one fused op."));
    bool known = ops.size() <= 2 && (ops[0] == "BiasAdd" || ops[0] == "FusedBatchNorm");
    if (known && ops.size() == 2) {
        if (ops[1] == "Relu")
            epilogue.activation = FusedConvEpilogue::Activation::kRelu;
        else if (ops[1] == "Relu6")
            epilogue.activation = FusedConvEpilogue::Activation::kRelu6;
        else if (ops[1] == "Elu")
            epilogue.activation = FusedConvEpilogue::Activation::kElu;
        else
            known = false;
    }
    if (!known) {
        std::string list;
        for (const std::string& op : ops)
            list += (list.empty() ? "" : ",") + op;
        return unexpected(unimplementedError("Fusion is not implemented: [" + list + "]"));
    }
    if (ops[0] == "BiasAdd") {
        if (*numArgs != 1)
            return unexpected(invalidArgumentError("Fused Conv2D must have one extra argument: bias."));
    } else {
        epilogue.shift = FusedConvEpilogue::Shift::kBatchNorm;
        if (*numArgs != 4)
            return unexpected(invalidArgumentError(
                "Fused Conv2D with batch norm must have four extra arguments: scale, offset, mean, variance."));
    }
    return epilogue;
}

namespace {

const tensorflow::OpDef& fusedConvOpDef()
{
    static const tensorflow::OpDef def = [] {
        tensorflow::OpDef d;
        d.set_name(kFusedConv2DOp);
        return d;
    }();
    return def;
}

class FusedConv2DOp : public NnKernel {
public:
    explicit FusedConv2DOp(OpKernelConstruction& c) : NnKernel(c)
    {
        read(conv2DParams(c.node()), m_params);
        read(fusedConvEpilogue(c.node()), m_epilogue);
        if (m_params.format != DataFormat::kNhwc)
            require(unimplementedError("Fused conv implementation only supports NHWC tensor format for now."));
    }

    Status compute(OpKernelContext& ctx) override
    {
        auto problem = conv2DForwardProblem(m_params, ctx);
        if (!problem)
            return problem.error();
        const Conv2DGeometry& g = problem->geometry;
        const char* names[] = {"bias", "scale", "offset", "mean", "variance"};
        const bool batchNorm = m_epilogue.shift == FusedConvEpilogue::Shift::kBatchNorm;
        for (int i = 2; i < ctx.numInputs(); ++i) {
            const TensorShape& shape = ctx.input(i).shape();
            if (shape.rank() != 1 || shape.dim(0) != g.outDepth)
                return invalidArgumentError(std::string("_FusedConv2D '") + node().name() + "': " +
                                            names[batchNorm ? i - 1 : 0] + " must be 1-D with " +
                                            std::to_string(g.outDepth) + " values (one per output channel), got " +
                                            shape.toString());
        }
        auto out = ctx.allocateOutput(0, problem->outputShape);
        if (!out)
            return out.error();
        if (ctx.input(0).dtype() == tensorflow::DT_DOUBLE)
            return run<double>(ctx, g, **out);
        return run<float>(ctx, g, **out);
    }

private:
    template <typename T> Status run(OpKernelContext& ctx, const Conv2DGeometry& g, Tensor& out)
    {
        const T* input = ctx.input(0).data<T>();
        const T* filter = ctx.input(1).data<T>();
        T* output = out.data<T>();
        const Eigen::ThreadPoolDevice& d = cpuDevice(ctx);
        using Activation = FusedConvEpilogue::Activation;
        Activation pending = m_epilogue.activation;
        bool shifted = false;
        if constexpr (std::is_same_v<T, float>) {
            if (m_epilogue.shift == FusedConvEpilogue::Shift::kBiasAdd && out.numElements() > 0) {
                const bool relu = pending == Activation::kRelu;
                if (auto s = dnnlConvForwardFused(d, g, input, filter, ctx.input(2).data<float>(),
                                                  relu ? DnnlConvEpilogue::kBiasRelu : DnnlConvEpilogue::kBias,
                                                  output)) {
                    if (!s->isOk())
                        return *s;
                    shifted = true;
                    if (relu)
                        pending = Activation::kNone;
                }
            }
        }
        if (!shifted) {
            if (Status s = Conv2DCpu<T>::forward(ctx, g, input, filter, output); !s.isOk())
                return s;
            shift<T>(ctx, d, g, output);
        }
        const auto n = static_cast<Eigen::Index>(out.numElements());
        ConstFlatTensor<T> x(output, n);
        FlatTensor<T> y(output, n);
        switch (pending) {
        case Activation::kNone:
            break;
        case Activation::kRelu:
            ReluFunctor<Eigen::ThreadPoolDevice, T>()(d, x, y);
            break;
        case Activation::kRelu6:
            Relu6Functor<Eigen::ThreadPoolDevice, T>()(d, x, y);
            break;
        case Activation::kElu:
            EluFunctor<Eigen::ThreadPoolDevice, T>()(d, x, y);
            break;
        }
        return Status::ok();
    }

    /// The bias, or the batch norm's (x - mean) * scale / sqrt(variance + epsilon) + offset (the
    /// factor computed once per channel, as TensorFlow's fused kernel does), in place.
    template <typename T>
    void shift(OpKernelContext& ctx, const Eigen::ThreadPoolDevice& d, const Conv2DGeometry& g, T* output)
    {
        const Eigen::Index rows = g.batch * g.outputPixels();
        const Eigen::Index channels = g.outDepth;
        if (m_epilogue.shift == FusedConvEpilogue::Shift::kBiasAdd) {
            BiasAddFunctor<Eigen::ThreadPoolDevice, T>::channelsLast(d, output, rows, channels,
                                                                     ctx.input(2).data<T>(), output);
            return;
        }
        using Row = Eigen::Array<T, Eigen::Dynamic, 1>;
        const T* scale = ctx.input(2).data<T>();
        const T* variance = ctx.input(5).data<T>();
        Row factor(channels);
        for (Eigen::Index c = 0; c < channels; ++c)
            factor[c] = scale[c] / std::sqrt(variance[c] + static_cast<T>(m_epilogue.epsilon));
        const Eigen::Map<const Row> offset(ctx.input(3).data<T>(), channels);
        const Eigen::Map<const Row> mean(ctx.input(4).data<T>(), channels);
        const Eigen::TensorOpCost cost(double(channels * sizeof(T)), double(channels * sizeof(T)),
                                       double(3 * channels));
        cpuParallelFor(d, rows, cost, [&](Eigen::Index begin, Eigen::Index end) {
            for (Eigen::Index r = begin; r < end; ++r) {
                Eigen::Map<Row> row(output + r * channels, channels);
                row = (row - mean) * factor + offset;
            }
        });
    }

    Conv2DParams m_params;
    FusedConvEpilogue m_epilogue;
};

} // namespace

Expected<std::unique_ptr<OpKernel>> makeFusedConv2DKernel(const tensorflow::NodeDef& def, Device& device)
{
    auto t = attrType(def, "T");
    if (!t)
        return unexpected(t.error());
    if (*t != tensorflow::DT_FLOAT && *t != tensorflow::DT_DOUBLE)
        return unexpected(invalidArgumentError("_FusedConv2D '" + def.name() + "' runs on float or double, not " +
                                               dataTypeString(*t)));
    auto numArgs = attrInt(def, "num_args");
    if (!numArgs)
        return unexpected(numArgs.error());
    std::vector<DataType> inputs(static_cast<std::size_t>(2 + std::max<std::int64_t>(*numArgs, 0)), *t);
    OpKernelConstruction construction(def, fusedConvOpDef(), device, std::move(inputs), {*t});
    auto kernel = std::make_unique<FusedConv2DOp>(construction);
    if (!kernel->constructionStatus().isOk())
        return unexpected(kernel->constructionStatus());
    return std::unique_ptr<OpKernel>(std::move(kernel));
}

Status registerFusedConvKernels(KernelRegistry& registry)
{
    return KernelAdder(registry)
        .add<FusedConv2DOp>(kFusedConv2DOp, {tensorflow::DT_FLOAT, tensorflow::DT_DOUBLE})
        .status();
}

} // namespace tstudio::nn
