// MaxPool, AvgPool and their gradients: attrs, window geometry and the CPU loops (NHWC buffers,
// work split over the Eigen device's thread pool).
#pragma once

#include "kernels/nn/nn_kernel_util.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tstudio::nn {

/// The attrs of the pooling ops.
struct PoolParams {
    std::vector<std::int64_t> ksize;
    std::vector<std::int64_t> strides;
    Padding padding = Padding::kValid;
    DataFormat format = DataFormat::kNhwc;
};

/// Reads and checks ksize, strides, padding and data_format: "Sliding window ksize field must
/// specify 4 dimensions", "Sliding window stride field must specify 4 dimensions", "Sliding
/// window ksize for dimension 1 was zero.", "Pooling is not yet supported on the batch dimension.".
Expected<PoolParams> poolParams(const tensorflow::NodeDef& node);

/// One pooling in NHWC terms: input [batch, rows.input, cols.input, depth], output [batch,
/// rows.output, cols.output, outDepth]. Depthwise max pooling (depthWindow > 1) keeps the spatial
/// size and pools groups of depthWindow channels.
struct PoolGeometry {
    std::int64_t batch = 0;
    std::int64_t depth = 0;
    std::int64_t depthWindow = 1;
    std::int64_t outDepth = 0;
    WindowDim rows;
    WindowDim cols;

    std::int64_t outputPixels() const { return rows.output * cols.output; }
    /// The output shape in `format`.
    TensorShape outputShape(DataFormat format) const;
};

/// The geometry of pooling a 4-D input of `shape` (in params.format); TensorFlow's
/// PoolParameters checks: "tensor_in must be 4-dimensional", "MaxPooling supports exactly one of
/// pooling across depth or pooling across width/height.", and for depth pooling "Depthwise max
/// pooling requires the depth window to evenly divide the input depth" / "... to equal the depth
/// stride".
Expected<PoolGeometry> poolGeometry(const PoolParams& params, const TensorShape& shape);

/// poolGeometry for AvgPool, which pools rows and columns only: "Non-spatial pooling is not yet
/// supported." for a depth window.
Expected<PoolGeometry> avgPoolGeometry(const PoolParams& params, const TensorShape& shape);

/// AvgPoolGrad's orig_input shape and geometry.
struct AvgPoolGradShapes {
    TensorShape input;
    PoolGeometry geometry;
};

/// AvgPoolGrad's checks of orig_input_shape (int32, host memory) and grad, in TensorFlow's words:
/// "out_backprop must be 1-dimensional and 4 elements", "out_backprop must be 4-dimensional",
/// "Dimension -1 must be >= 0", avgPoolGeometry, then grad shaped as AvgPool's output. The CPU and
/// GPU kernels share it.
Expected<AvgPoolGradShapes> avgPoolGradShapes(const PoolParams& params, const Tensor& sizes, const Tensor& grad);

/// poolParams for the max pooling gradients, which pool rows and columns only: "<kernelName> is
/// not yet supported on the depth dimension." (kernelName "MaxPoolingGrad", "MaxPoolingGradGrad").
Expected<PoolParams> spatialPoolParams(const tensorflow::NodeDef& node, const std::string& kernelName);

/// "Expected grad shape to be [1,2,2,3], but got [1,3,3,3]" (TensorFlow's later check; 1.15 reads
/// out of bounds instead).
Status expectShape(const char* what, const TensorShape& expected, const TensorShape& actual);

/// The checks MaxPoolGrad and MaxPoolGradGrad share on (orig_input, orig_output, `third`): all
/// three 4-D ("tensor_in must be 4-dimensional", "tensor_out ...", "<thirdName> ..."), the geometry
/// of orig_input, and orig_output shaped as MaxPool's output. The shape of `third` is the caller's.
Expected<PoolGeometry> maxPoolGradGeometry(const PoolParams& params, const Tensor& input, const Tensor& output,
                                           const Tensor& third, const char* thirdName);

/// Base of the MaxPoolGrad and MaxPoolGradGrad kernels: spatialPoolParams when constructed, and
/// maxPoolGradGeometry of inputs 0, 1 and 2.
class MaxPoolGradKernelBase : public NnKernel {
protected:
    MaxPoolGradKernelBase(OpKernelConstruction& c, const std::string& kernelName) : NnKernel(c)
    {
        read(spatialPoolParams(c.node(), kernelName), m_params);
    }
    Expected<PoolGeometry> geometry(OpKernelContext& ctx, const char* thirdName) const
    {
        return maxPoolGradGeometry(m_params, ctx.input(0), ctx.input(1), ctx.input(2), thirdName);
    }

    PoolParams m_params;
};

/// Whether PoolCpu::maxPoolGrad writes every element of inputBackprop itself, so that it need not
/// be zeroed first: windows that do not overlap and, together, cover every row and column of the
/// input (2 x 2 pooling with stride 2 of an even-sized image, for one).
bool maxPoolGradWritesEverything(const PoolGeometry& g);

/// The CPU loops over NHWC buffers of T.
template <typename T> struct PoolCpu {
    /// output = max over each window (padding never wins); NaN inputs are skipped.
    static void maxPool(const Eigen::ThreadPoolDevice& d, const PoolGeometry& g, const T* input, T* output);
    /// output = mean over the non-padded elements of each window (accumulated in float for half).
    static void avgPool(const Eigen::ThreadPoolDevice& d, const PoolGeometry& g, const T* input, T* output);
    /// inputBackprop (zeroed, unless maxPoolGradWritesEverything(g)) += each output gradient at the
    /// first maximum of its window.
    static void maxPoolGrad(const Eigen::ThreadPoolDevice& d, const PoolGeometry& g, const T* input, const T* grad,
                            T* inputBackprop);
    /// inputBackprop = each output gradient spread evenly over the non-padded elements of its window.
    static void avgPoolGrad(const Eigen::ThreadPoolDevice& d, const PoolGeometry& g, const T* grad, T* inputBackprop);
    /// result (shaped as output) = grad (shaped as input) at the first element of each window, in
    /// row-major window order, that equals the window's `output` value; 0 when none does (a NaN
    /// maximum, or an output that is not the window's maximum). With output = MaxPool(input) this
    /// is the element maxPoolGrad routes the gradient to; TensorFlow's CPU kernel compares the same way.
    static void maxPoolGradGrad(const Eigen::ThreadPoolDevice& d, const PoolGeometry& g, const T* input,
                                const T* output, const T* grad, T* result);
};

} // namespace tstudio::nn
