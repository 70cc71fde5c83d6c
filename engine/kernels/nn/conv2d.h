// Conv2D and its two backprops: the attrs (TensorFlow's InitConv2DParameters checks), the geometry
// of one convolution, and the CPU functors (im2col + the Eigen device's multi-threaded contraction).
#pragma once

#include "kernels/nn/nn_kernel_util.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tstudio::nn {

/// The attrs Conv2D, Conv2DBackpropInput and Conv2DBackpropFilter share.
struct Conv2DParams {
    std::vector<std::int64_t> strides;
    std::vector<std::int64_t> dilations;
    std::vector<std::int64_t> explicitPaddings;
    Padding padding = Padding::kValid;
    DataFormat format = DataFormat::kNhwc;
};

/// Reads and checks the attrs with TensorFlow's messages: "Sliding window strides field must
/// specify 4 dimensions", "Current implementation does not yet support strides in the batch and
/// depth dimensions.", "Row and column strides should be larger than 0.", the same for dilations
/// ("Dilated rates should be larger than 0."), and the explicit_paddings rules of
/// CheckValidPadding.
Expected<Conv2DParams> conv2DParams(const tensorflow::NodeDef& node);

/// One 2-D convolution in NHWC terms: input [batch, rows.input, cols.input, inDepth], filter
/// [rows.filter, cols.filter, inDepth, outDepth], output [batch, rows.output, cols.output, outDepth].
struct Conv2DGeometry {
    std::int64_t batch = 0;
    std::int64_t inDepth = 0;
    std::int64_t outDepth = 0;
    WindowDim rows;
    WindowDim cols;

    std::int64_t inputSize() const { return batch * rows.input * cols.input * inDepth; }
    std::int64_t outputSize() const { return batch * rows.output * cols.output * outDepth; }
    std::int64_t filterSize() const { return rows.filter * cols.filter * inDepth * outDepth; }
    /// Columns of the im2col matrix: one filter patch.
    std::int64_t patchSize() const { return rows.filter * cols.filter * inDepth; }
    /// Output pixels of one image: rows of the im2col matrix per image.
    std::int64_t outputPixels() const { return rows.output * cols.output; }
    /// True when the convolution is a plain matrix product (1x1 filter, stride 1, no padding).
    bool isPointwise() const;
};

/// The geometry for an input and a filter shape (both 4-D, the input in params.format), with
/// `label` naming the op in size errors. Checks the depths (TensorFlow's CPU kernels do not run
/// grouped convolutions) and computes the windowed sizes.
Expected<Conv2DGeometry> conv2DGeometry(const Conv2DParams& params, const TensorShape& input,
                                        const TensorShape& filter);

/// Conv2D's checks of its input and filter shapes ("input must be 4-dimensional[2,3]", "filter
/// must be 4-dimensional: [3,3]") followed by conv2DGeometry; the CPU and GPU kernels share it.
Expected<Conv2DGeometry> conv2DForwardGeometry(const Conv2DParams& params, const TensorShape& input,
                                               const TensorShape& filter);

/// The checks of TensorFlow's ConvBackpropComputeDimensionsV2 on the input, filter and
/// out_backprop shapes of a backprop op (`label` names it: "Conv2DBackpropInput: input and filter
/// must have the same depth"), then the geometry; the CPU and GPU kernels share it.
Expected<Conv2DGeometry> conv2DBackpropGeometry(const Conv2DParams& params, const std::string& label,
                                                const TensorShape& input, const TensorShape& filter,
                                                const TensorShape& outBackprop);

/// The CPU convolutions on NHWC buffers of T (half is computed in float). `scratch` allocates the
/// im2col buffer. Errors come only from allocation.
template <typename T> struct Conv2DCpu {
    /// output = conv(input, filter).
    static Status forward(OpKernelContext& ctx, const Conv2DGeometry& g, const T* input, const T* filter, T* output);
    /// inputBackprop = d(output)/d(input) applied to outBackprop.
    static Status backpropInput(OpKernelContext& ctx, const Conv2DGeometry& g, const T* filter, const T* outBackprop,
                                T* inputBackprop);
    /// filterBackprop = d(output)/d(filter) applied to outBackprop.
    static Status backpropFilter(OpKernelContext& ctx, const Conv2DGeometry& g, const T* input, const T* outBackprop,
                                 T* filterBackprop);
};

/// The 4 ints of a sizes input (input_sizes, filter_sizes) as a shape; TensorFlow 1.15's
/// "Conv2DBackpropInput: input_sizes input must be 1-dim, not 2" and negative-dimension errors.
Expected<TensorShape> shapeFromSizes(const Tensor& sizes, const std::string& label, const std::string& inputName);

/// What the checks of one of the three ops give: its output's shape (for a backprop op, the shape
/// its sizes input names) and the convolution's geometry.
struct Conv2DProblem {
    TensorShape outputShape;
    Conv2DGeometry geometry;
};

/// Conv2D's checks on ctx's inputs (input, filter; conv2DForwardGeometry) and its output shape in
/// params.format. The CPU and GPU kernels share it.
Expected<Conv2DProblem> conv2DForwardProblem(const Conv2DParams& params, OpKernelContext& ctx);

/// The checks of Conv2DBackpropInput (inputs input_sizes, filter, out_backprop) or, with
/// `filterBackprop`, Conv2DBackpropFilter (input, filter_sizes, out_backprop) on ctx's inputs:
/// shapeFromSizes on the sizes input (host memory on every device), then conv2DBackpropGeometry
/// labelled with the op's name. The CPU and GPU kernels share it.
Expected<Conv2DProblem> conv2DBackpropProblem(const Conv2DParams& params, OpKernelContext& ctx, bool filterBackprop);

} // namespace tstudio::nn
