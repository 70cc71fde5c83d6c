// tf.layers.conv2d_transpose: the output shape from the input's at run time, Conv2DBackpropInput,
// BiasAdd and the activation, with TensorFlow 1.15's variables and node names.
#include "layers/conv2d_transpose.h"

#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "layers/conv_utils.h"
#include "layers/layer_scope.h"

#include <algorithm>

namespace tstudio::layers {

namespace {

using py::Operator;

/// deconv_output_length on a tensor: "mul" (length * stride) and, for VALID, "add".
Expected<Output> deconvOutputLengthTensor(GraphBuilder& b, const Output& length, std::int64_t kernel,
                                          std::int64_t stride, std::string_view padding)
{
    TSTUDIO_AD_TRY(scaled, py::binary(b, Operator::kMul, length, static_cast<double>(stride)));
    if (padding == "SAME")
        return scaled;
    return py::binary(b, Operator::kAdd, scaled, static_cast<double>(std::max<std::int64_t>(kernel - stride, 0)));
}

/// array_ops.transpose(x, perm) "transpose/perm" and "transpose".
Expected<Output> transpose(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& perm)
{
    TSTUDIO_AD_TRY(scope, b.nameScope("transpose"));
    TSTUDIO_AD_TRY(permT, ops::constantInts(b, perm, TensorShape{4}, tensorflow::DT_INT32, "perm"));
    return py::genOp(b, "Transpose", {x, permT}, {}, scope.name());
}

} // namespace

std::int64_t deconvOutputLength(std::int64_t inputLength, std::int64_t kernel, std::int64_t stride,
                                std::string_view padding)
{
    if (inputLength < 0)
        return -1;
    if (padding == "SAME")
        return inputLength * stride;
    return inputLength * stride + std::max<std::int64_t>(kernel - stride, 0);
}

Expected<Output> conv2dTranspose(GraphBuilder& b, const Output& inputsIn, const Conv2DTransposeOptions& options)
{
    TSTUDIO_AD_TRY(layer, LayerScope::enter(b, "conv2d_transpose", options.name, options.reuse));
    TSTUDIO_AD_TRY(padding, normalizePadding(options.padding));
    TSTUDIO_AD_TRY(format, normalizeDataFormat(options.dataFormat));
    if (options.filters <= 0)
        return unexpected(invalidArgumentError("conv2d_transpose: `filters` must be a positive integer, got " +
                                               std::to_string(options.filters)));
    TSTUDIO_AD_CHECK(checkPositivePair(options.kernelSize, "kernel_size"));
    TSTUDIO_AD_CHECK(checkPositivePair(options.strides, "strides"));
    TSTUDIO_AD_CHECK(checkInputNdim(layer.layerName(), inputsIn, 4));
    const bool nchw = format == "NCHW";
    const int channelAxis = nchw ? 1 : 3;
    const int hAxis = nchw ? 2 : 1;
    const int wAxis = nchw ? 3 : 2;
    const TensorShape& inShape = inputsIn.shape();
    const std::int64_t inputDim = inShape.dim(channelAxis);
    if (inputDim < 0)
        return unexpected(invalidArgumentError("The channel dimension of the inputs should be defined. Found `None`."));
    const DataType dtype = inputsIn.baseDtype();
    const auto [kh, kw] = options.kernelSize;
    const auto [sh, sw] = options.strides;

    TSTUDIO_AD_TRY(kernel, addWeight(b, "kernel", TensorShape{kh, kw, options.filters, inputDim}, dtype,
                                     options.kernelInitializer, options.kernelRegularizer, options.trainable));
    Variable bias;
    if (options.useBias) {
        TSTUDIO_AD_TRY(created, addWeight(b, "bias", TensorShape{options.filters}, dtype, options.biasInitializer,
                                          options.biasRegularizer, options.trainable));
        bias = created;
    }

    // Conv2DTranspose.call: the output shape from the input's dynamic shape.
    TSTUDIO_AD_TRY(inputsShape, py::shape(b, inputsIn));
    TSTUDIO_AD_TRY(batch, elementAt(b, inputsShape, 0));
    TSTUDIO_AD_TRY(height, elementAt(b, inputsShape, hAxis));
    TSTUDIO_AD_TRY(width, elementAt(b, inputsShape, wAxis));
    TSTUDIO_AD_TRY(outHeight, deconvOutputLengthTensor(b, height, kh, sh, padding));
    TSTUDIO_AD_TRY(outWidth, deconvOutputLengthTensor(b, width, kw, sw, padding));
    std::vector<std::pair<Output, std::int64_t>> packed = {{batch, 0}, {outHeight, 0}, {outWidth, 0}};
    packed.insert(packed.begin() + (nchw ? 1 : 3), {Output(), options.filters});
    TSTUDIO_AD_TRY(outputShape, autopack(b, packed, "stack"));

    // backend.conv2d_transpose: channels_first goes through NHWC (TensorFlow without a GPU).
    Output inputs = inputsIn;
    Output sizes = outputShape;
    if (nchw) {
        TSTUDIO_AD_TRY(t, transpose(b, inputsIn, {0, 2, 3, 1}));
        inputs = t;
        std::vector<std::pair<Output, std::int64_t>> permuted;
        for (std::int64_t i : {0, 2, 3, 1}) {
            TSTUDIO_AD_TRY(e, elementAt(b, outputShape, i));
            permuted.emplace_back(e, 0);
        }
        TSTUDIO_AD_TRY(s, autopack(b, permuted, "stack"));
        sizes = s;
    } else {
        // `output_shape[0] is None`: indexing the tensor adds a StridedSlice nothing reads.
        TSTUDIO_AD_TRY(unused, elementAt(b, outputShape, 0));
    }
    AttrMap attrs = {{"strides", attr::ints({1, sh, sw, 1})},
                     {"padding", attr::s(padding)},
                     {"data_format", attr::s("NHWC")},
                     {"dilations", attr::ints({1, 1, 1, 1})}};
    Output result;
    {
        TSTUDIO_AD_TRY(scope, b.nameScope("conv2d_transpose"));
        TSTUDIO_AD_TRY(
            conv, py::genOp(b, "Conv2DBackpropInput", {sizes, kernel.value(), inputs}, std::move(attrs), scope.name()));
        result = conv;
    }
    if (nchw) {
        TSTUDIO_AD_TRY(back, transpose(b, result, {0, 3, 1, 2}));
        result = back;
    }
    // The static output shape (compute_output_shape).
    std::vector<std::int64_t> dims(4, -1);
    dims[0] = inShape.dim(0);
    dims[static_cast<std::size_t>(channelAxis)] = options.filters;
    dims[static_cast<std::size_t>(hAxis)] = deconvOutputLength(inShape.dim(hAxis), kh, sh, padding);
    dims[static_cast<std::size_t>(wAxis)] = deconvOutputLength(inShape.dim(wAxis), kw, sw, padding);
    TSTUDIO_AD_CHECK(b.setShape(result, TensorShape(dims)));
    TSTUDIO_AD_TRY(shaped, b.tensor(result.name()));
    result = shaped;
    if (options.useBias) {
        TSTUDIO_AD_TRY(biased, ops::firstOutput(b.op("BiasAdd", {result, bias.value()},
                                                     {{"data_format", attr::s(format)}}, "BiasAdd")));
        result = biased;
    }
    return applyActivation(b, result, options.activation);
}

} // namespace tstudio::layers
