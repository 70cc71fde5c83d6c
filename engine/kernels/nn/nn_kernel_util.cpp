// Shared pieces of the NN CPU kernels: kernel defs, layouts, window geometry, error texts.
#define EIGEN_USE_THREADS

#include "kernels/nn/nn_kernel_util.h"

#include "framework/node_attrs.h"

#include <unsupported/Eigen/CXX11/Tensor>

namespace tstudio::nn {

KernelDef cpuKernelDef(std::string op, std::vector<DataType> types, std::string attr)
{
    KernelDef def;
    def.op = std::move(op);
    def.deviceType = "CPU";
    def.typeConstraints.emplace_back(std::move(attr), std::move(types));
    return def;
}

const Eigen::ThreadPoolDevice& cpuDevice(const OpKernelContext& context)
{
    // Kernels registered for "CPU" only run on CPU devices, which always have an Eigen device.
    return *context.device().eigenCpuDevice();
}

Status sameShapeError(const OpKernel& kernel, const TensorShape& a, const TensorShape& b)
{
    return invalidArgumentError("Inputs to operation " + kernel.name() + " of type " + kernel.op() +
                                " must have the same size and shape.  Input 0: " + a.toString() +
                                " != input 1: " + b.toString());
}

Expected<Tensor> allocateTemp(OpKernelContext& context, DataType dtype, const TensorShape& shape)
{
    return Tensor::allocate(context.allocator(), dtype, shape);
}

Expected<DataFormat> dataFormatAttr(const tensorflow::NodeDef& node)
{
    if (!findAttr(node, "data_format"))
        return DataFormat::kNhwc;
    auto text = attrString(node, "data_format");
    if (!text)
        return unexpected(text.error());
    if (*text == "NHWC")
        return DataFormat::kNhwc;
    if (*text == "NCHW")
        return DataFormat::kNchw;
    return unexpected(invalidArgumentError("Invalid data format"));
}

TensorShape imageShape(DataFormat format, std::int64_t n, std::int64_t h, std::int64_t w, std::int64_t c)
{
    return format == DataFormat::kNhwc ? TensorShape{n, h, w, c} : TensorShape{n, c, h, w};
}

namespace {

template <typename T>
void shuffleImage(const Eigen::ThreadPoolDevice& device, const Tensor& input, Tensor& output, bool toNchw)
{
    const std::array<int, 4> perm = toNchw ? std::array<int, 4>{0, 3, 1, 2} : std::array<int, 4>{0, 2, 3, 1};
    output.shaped<T, 4>().device(device) = input.shaped<T, 4>().shuffle(perm);
}

} // namespace

Expected<Tensor> transposeImage(OpKernelContext& context, const Tensor& input, bool toNchw)
{
    const TensorShape& s = input.shape();
    const TensorShape shape = toNchw ? TensorShape{s.dim(0), s.dim(3), s.dim(1), s.dim(2)}
                                     : TensorShape{s.dim(0), s.dim(2), s.dim(3), s.dim(1)};
    auto output = allocateTemp(context, input.dtype(), shape);
    if (!output)
        return output;
    if (input.numElements() == 0)
        return output;
    const auto& device = cpuDevice(context);
    Status status = dispatchDataType<PodTypes>(input.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        shuffleImage<T>(device, input, *output, toNchw);
    });
    if (!status.isOk())
        return unexpected(status);
    return output;
}

Expected<WindowDim> windowDim(std::int64_t input, std::int64_t filter, std::int64_t dilation, std::int64_t stride,
                              Padding padding, std::int64_t explicitBefore, std::int64_t explicitAfter)
{
    WindowDim dim;
    dim.input = input;
    dim.filter = filter;
    dim.dilation = dilation;
    dim.stride = stride;
    if (padding == Padding::kSame) {
        auto output = windowedOutputSize(input, filter, dilation, stride, padding);
        if (!output)
            return unexpected(output.error());
        dim.output = *output;
    } else {
        // TensorFlow's kernels (GetWindowedOutputSizeVerboseV2) divide (padded - k_eff + stride) by
        // the stride with C++ truncation and fail only on a negative result, so in = 1, k_eff = 3,
        // stride = 3 is an empty output; the shape function (windowedOutputSize) rejects that
        // case, and words the error differently.
        if (stride <= 0 || dilation < 1) {
            auto invalid = windowedOutputSize(input, filter, dilation, stride, padding);
            return unexpected(invalid ? invalidArgumentError("invalid window") : invalid.error());
        }
        const std::int64_t padded = padding == Padding::kExplicit ? input + explicitBefore + explicitAfter : input;
        dim.output = (padded - dim.effectiveFilter() + stride) / stride;
        if (dim.output < 0) {
            return unexpected(invalidArgumentError(
                "Computed output size would be negative: " + std::to_string(dim.output) + " [input_size: " +
                std::to_string(input) + ", effective_filter_size: " + std::to_string(dim.effectiveFilter()) +
                ", stride: " + std::to_string(stride) + "]"));
        }
    }
    switch (padding) {
    case Padding::kValid: break;
    case Padding::kExplicit:
        dim.padBefore = explicitBefore;
        dim.padAfter = explicitAfter;
        break;
    case Padding::kSame: {
        const std::int64_t total = std::max<std::int64_t>(0, (dim.output - 1) * stride + dim.effectiveFilter() - input);
        dim.padBefore = total / 2;
        dim.padAfter = total - dim.padBefore;
        break;
    }
    }
    return dim;
}

std::array<std::int64_t, 3> biasDims(const TensorShape& shape, DataFormat format)
{
    const int channelDim = format == DataFormat::kNchw ? 1 : shape.rank() - 1;
    std::array<std::int64_t, 3> dims{1, shape.dim(channelDim), 1};
    for (int i = 0; i < shape.rank(); ++i) {
        if (i < channelDim)
            dims[0] *= shape.dim(i);
        else if (i > channelDim)
            dims[2] *= shape.dim(i);
    }
    return dims;
}

Expected<std::array<std::int64_t, 3>> checkBiasAddInputs(const Tensor& value, const Tensor& bias, DataFormat format)
{
    if (value.rank() < 2)
        return unexpected(invalidArgumentError("Input tensor must be at least 2D: " + value.shape().toString()));
    if (bias.rank() != 1)
        return unexpected(invalidArgumentError("Biases must be 1D: " + bias.shape().toString()));
    const auto dims = biasDims(value.shape(), format);
    if (bias.shape().dim(0) != dims[1]) {
        return unexpected(invalidArgumentError(
            "Must provide as many biases as the last dimension of the input tensor: " + bias.shape().toString() +
            " vs. " + value.shape().toString()));
    }
    return dims;
}

Expected<std::array<std::int64_t, 3>> checkBiasAddGradInput(const Tensor& outBackprop, DataFormat format)
{
    if (outBackprop.rank() < 2)
        return unexpected(invalidArgumentError("Input tensor must be at least 2D: " + outBackprop.shape().toString()));
    return biasDims(outBackprop.shape(), format);
}

std::string listText(const std::vector<std::int64_t>& values)
{
    std::string text = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        text += (i ? "," : "") + std::to_string(values[i]);
    return text + "]";
}

} // namespace tstudio::nn
