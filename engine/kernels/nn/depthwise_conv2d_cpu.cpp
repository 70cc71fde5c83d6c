// CPU kernels of DepthwiseConv2dNative, DepthwiseConv2dNativeBackpropInput and
// DepthwiseConv2dNativeBackpropFilter: TensorFlow 1.15's attr and shape checks in its words, and the
// per-pixel arithmetic of depthwise_conv2d.h spread over the device's thread pool.
#define EIGEN_USE_THREADS

#include "kernels/nn/depthwise_conv2d.h"
#include "devices/cpu/cpu_parallel.h"

#include "framework/node_attrs.h"
#include "kernels/nn/nn_kernel_util.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <limits>
#include <string>
#include <vector>

namespace tstudio::nn {

// --- CPU functors -----------------------------------------------------------------------------------

namespace {

using Index = Eigen::Index;

/// A rough cost per unit of work (one output row, one input row, one tap of one image) for the
/// pool's block sizes; it only decides the split, never a value.
Eigen::TensorOpCost unitCost(std::int64_t loads, std::int64_t stores, std::int64_t flops, std::size_t bytes)
{
    return Eigen::TensorOpCost(double(loads) * double(bytes), double(stores) * double(bytes), double(flops));
}

} // namespace

template <typename T>
void DepthwiseConv2DFunctor<Eigen::ThreadPoolDevice, T>::operator()(const Eigen::ThreadPoolDevice& d,
                                                                    const DepthwiseArgs& a, const T* input,
                                                                    const T* filter, T* output) const
{
    const std::int64_t rowWork = a.outCols * a.filterSize();
    cpuParallelFor(d, Index(a.batch * a.outRows), unitCost(2 * rowWork, a.outCols * a.outDepth(), 2 * rowWork, sizeof(T)),
                  [&](Index begin, Index end) {
                      for (Index r = begin; r < end; ++r) {
                          const std::int64_t b = r / a.outRows;
                          const std::int64_t oh = r % a.outRows;
                          const T* image = input + b * a.inputImageSize();
                          T* row = output + (b * a.outRows + oh) * a.outCols * a.outDepth();
                          for (std::int64_t ow = 0; ow < a.outCols; ++ow)
                              depthwiseForwardPixel(a, image, filter, oh, ow, row + ow * a.outDepth());
                      }
                  });
}

template <typename T>
void DepthwiseConv2DBackpropInputFunctor<Eigen::ThreadPoolDevice, T>::operator()(const Eigen::ThreadPoolDevice& d,
                                                                                 const DepthwiseArgs& a,
                                                                                 const T* outBackprop, const T* filter,
                                                                                 T* inBackprop) const
{
    const std::int64_t rowWork = a.inCols * a.filterSize();
    cpuParallelFor(d, Index(a.batch * a.inRows), unitCost(2 * rowWork, a.inCols * a.inDepth, 2 * rowWork, sizeof(T)),
                  [&](Index begin, Index end) {
                      std::vector<T> scratch(static_cast<std::size_t>(a.outDepth()));
                      for (Index r = begin; r < end; ++r) {
                          const std::int64_t b = r / a.inRows;
                          const std::int64_t ih = r % a.inRows;
                          const T* dy = outBackprop + b * a.outputImageSize();
                          T* row = inBackprop + (b * a.inRows + ih) * a.inCols * a.inDepth;
                          for (std::int64_t iw = 0; iw < a.inCols; ++iw)
                              depthwiseBackpropInputPixel(a, dy, filter, ih, iw, scratch.data(), row + iw * a.inDepth);
                      }
                  });
}

template <typename T>
void DepthwiseConv2DBackpropFilterFunctor<Eigen::ThreadPoolDevice, T>::operator()(const Eigen::ThreadPoolDevice& d,
                                                                                  const DepthwiseArgs& a,
                                                                                  const T* input, const T* outBackprop,
                                                                                  T* partials, T* filterBackprop) const
{
    const std::int64_t taps = a.taps();
    const std::int64_t depth = a.outDepth();
    const std::int64_t tapWork = a.outRows * a.outCols * depth;
    // Per image and tap: partials[b][tap][0 .. outDepth).
    cpuParallelFor(d, 
        Index(a.batch * taps), unitCost(2 * tapWork, depth, 2 * tapWork, sizeof(T)), [&](Index begin, Index end) {
            for (Index u = begin; u < end; ++u) {
                const std::int64_t b = u / taps;
                const std::int64_t tap = u % taps;
                depthwiseBackpropFilterTap(a, input + b * a.inputImageSize(), outBackprop + b * a.outputImageSize(),
                                           tap / a.filterCols, tap % a.filterCols, partials + u * depth);
            }
        });
    // TensorFlow adds the images' partials to a zeroed filter gradient, image after image.
    const std::int64_t size = a.filterSize();
    cpuParallelFor(d, Index(size), unitCost(a.batch, 1, a.batch, sizeof(T)), [&](Index begin, Index end) {
        for (Index i = begin; i < end; ++i) {
            T sum = T(0);
            for (std::int64_t b = 0; b < a.batch; ++b)
                sum = sum + partials[b * size + i];
            filterBackprop[i] = sum;
        }
    });
}

template struct DepthwiseConv2DFunctor<Eigen::ThreadPoolDevice, Eigen::half>;
template struct DepthwiseConv2DFunctor<Eigen::ThreadPoolDevice, float>;
template struct DepthwiseConv2DFunctor<Eigen::ThreadPoolDevice, double>;
template struct DepthwiseConv2DBackpropInputFunctor<Eigen::ThreadPoolDevice, Eigen::half>;
template struct DepthwiseConv2DBackpropInputFunctor<Eigen::ThreadPoolDevice, float>;
template struct DepthwiseConv2DBackpropInputFunctor<Eigen::ThreadPoolDevice, double>;
template struct DepthwiseConv2DBackpropFilterFunctor<Eigen::ThreadPoolDevice, Eigen::half>;
template struct DepthwiseConv2DBackpropFilterFunctor<Eigen::ThreadPoolDevice, float>;
template struct DepthwiseConv2DBackpropFilterFunctor<Eigen::ThreadPoolDevice, double>;

// --- Kernels ----------------------------------------------------------------------------------------

namespace {

using DepthwiseTypes = HalfFloatDouble; // TensorFlow 1.15 registers half, float and double on CPU.

std::string str(std::int64_t v)
{
    return std::to_string(v);
}

/// The attrs the three ops share, checked as TensorFlow's constructors check them. TensorFlow 1.15's
/// depthwise kernels never read `dilations` (the attr exists, the kernels and the shape function
/// convolve undilated), so neither does this.
struct DepthwiseParams {
    std::int64_t stride = 1;
    Padding padding = Padding::kValid;
    DataFormat format = DataFormat::kNhwc;
};

/// `backprop` selects the backprop kernels' order of checks (strides count before data_format).
Expected<DepthwiseParams> depthwiseParams(const tensorflow::NodeDef& node, bool backprop)
{
    DepthwiseParams p;
    auto strides = attrIntList(node, "strides");
    if (!strides)
        return unexpected(strides.error());
    const auto countError = [] {
        return unexpected(invalidArgumentError("Sliding window strides field must specify 4 dimensions"));
    };
    if (backprop && strides->size() != 4)
        return countError();
    auto format = dataFormatAttr(node);
    if (!format)
        return unexpected(format.error());
    p.format = *format;
    if (strides->size() != 4)
        return countError();
    const FormatIndex i = formatIndex(p.format);
    const auto at = [&](int index) { return (*strides)[static_cast<std::size_t>(index)]; };
    p.stride = at(i.h);
    if (at(i.h) != at(i.w)) {
        return unexpected(invalidArgumentError(
            "Current implementation only supports equal length strides in the row and column dimensions."));
    }
    if (at(i.n) != 1 || at(i.c) != 1) {
        return unexpected(invalidArgumentError(
            "Current implementation does not yet support strides in the batch and depth dimensions."));
    }
    auto paddingText = attrString(node, "padding");
    if (!paddingText)
        return unexpected(paddingText.error());
    auto padding = paddingFromString(*paddingText);
    if (!padding)
        return unexpected(padding.error());
    p.padding = *padding;
    return p;
}

/// TensorFlow's FastBoundsCheck against int32: sizes the kernels keep in 32 bits.
bool fitsInt32(std::int64_t v)
{
    return v >= 0 && v < std::numeric_limits<std::int32_t>::max();
}

/// Rows and columns of the output with TensorFlow's (undilated) GetWindowedOutputSize.
Status windowRowsCols(const DepthwiseParams& p, DepthwiseArgs& a)
{
    auto rows = windowDim(a.inRows, a.filterRows, 1, p.stride, p.padding);
    if (!rows)
        return rows.error();
    auto cols = windowDim(a.inCols, a.filterCols, 1, p.stride, p.padding);
    if (!cols)
        return cols.error();
    a.strideRows = a.strideCols = p.stride;
    a.outRows = rows->output;
    a.outCols = cols->output;
    a.padTop = rows->padBefore;
    a.padLeft = cols->padBefore;
    return Status::ok();
}

class DepthwiseConv2dNativeOp : public NnKernel {
public:
    explicit DepthwiseConv2dNativeOp(OpKernelConstruction& c) : NnKernel(c)
    {
        read(depthwiseParams(c.node(), false), m_params);
    }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& input = ctx.input(0);
        const Tensor& filter = ctx.input(1);
        if (input.rank() != 4)
            return invalidArgumentError("input must be 4-dimensional" + input.shape().toString());
        if (filter.rank() != 4)
            return invalidArgumentError("filter must be 4-dimensional: " + filter.shape().toString());
        const FormatIndex i = formatIndex(m_params.format);
        const TensorShape& s = input.shape();
        DepthwiseArgs a;
        a.inDepth = s.dim(i.c);
        if (a.inDepth != filter.shape().dim(2)) {
            return invalidArgumentError("input and filter must have the same depth: " + str(a.inDepth) + " vs " +
                                        str(filter.shape().dim(2)));
        }
        a.multiplier = filter.shape().dim(3);
        a.inRows = s.dim(i.h);
        if (!fitsInt32(a.inRows))
            return invalidArgumentError("Input rows too large");
        a.inCols = s.dim(i.w);
        if (!fitsInt32(a.inCols))
            return invalidArgumentError("Input cols too large");
        a.filterRows = filter.shape().dim(0);
        a.filterCols = filter.shape().dim(1);
        a.batch = s.dim(i.n);
        if (Status st = windowRowsCols(m_params, a); !st.isOk())
            return st;
        const TensorShape outShape = imageShape(m_params.format, a.batch, a.outRows, a.outCols, a.outDepth());
        // NCHW is computed in NHWC between two transposes (TensorFlow's CPU kernel refuses NCHW).
        return computeInNhwc(ctx, m_params.format, {&input}, outShape, NhwcOutput::kOverwritten,
                             [&](const auto& in, Tensor& out) {
                                 if (out.numElements() == 0)
                                     return Status::ok();
                                 return dispatchDataType<DepthwiseTypes>(input.dtype(), [&](auto tag) {
                                     using T = typename decltype(tag)::type;
                                     DepthwiseConv2DFunctor<Eigen::ThreadPoolDevice, T>()(
                                         cpuDevice(ctx), a, in[0]->template data<T>(), filter.data<T>(), out.data<T>());
                                 });
                             });
    }

private:
    DepthwiseParams m_params;
};

/// The 1-D int32 `sizes` input (input_sizes or filter_sizes) as dims; TensorFlow's "Conv2D..." label
/// for the rank error and "Dimension 1 of input_sizes must be >= 0".
Expected<std::vector<std::int64_t>> sizesInput(const Tensor& sizes, const std::string& rankLabel,
                                               const std::string& name)
{
    if (sizes.rank() != 1) {
        return unexpected(
            invalidArgumentError(rankLabel + ": " + name + " input must be 1-dim, not " + str(sizes.rank())));
    }
    std::vector<std::int64_t> dims;
    for (std::int32_t v : sizes.values<std::int32_t>()) {
        if (v < 0) {
            return unexpected(invalidArgumentError("Dimension " + str(static_cast<std::int64_t>(dims.size())) + " of " +
                                                   name + " must be >= 0"));
        }
        dims.push_back(v);
    }
    return dims;
}

/// The dimension `index` of 4 dims `d` in `format` ('H', 'W', 'C' as FormatIndex members).
std::int64_t dimAt(const std::vector<std::int64_t>& d, int index)
{
    return d[static_cast<std::size_t>(index)];
}

/// TensorFlow's EXTRACT_AND_VERIFY_DIMENSIONS of the two backprop kernels: ranks, batch, depths,
/// and out_backprop's size against the computed output.
Expected<DepthwiseArgs> backpropArgs(const DepthwiseParams& p, const std::string& label,
                                     const std::vector<std::int64_t>& input, const std::vector<std::int64_t>& filter,
                                     const TensorShape& outBackprop)
{
    if (input.size() != 4)
        return unexpected(invalidArgumentError(label + ": input must be 4-dimensional"));
    if (filter.size() != 4)
        return unexpected(invalidArgumentError(label + ": filter must be 4-dimensional"));
    if (outBackprop.rank() != 4)
        return unexpected(invalidArgumentError(label + ": out_backprop must be 4-dimensional"));
    const FormatIndex i = formatIndex(p.format);
    DepthwiseArgs a;
    a.batch = input[0];
    if (a.batch != outBackprop.dim(0))
        return unexpected(invalidArgumentError(label + ": input and out_backprop must have the same batch size"));
    a.inRows = dimAt(input, i.h);
    if (!fitsInt32(a.inRows))
        return unexpected(invalidArgumentError("Input rows too large"));
    a.inCols = dimAt(input, i.w);
    if (!fitsInt32(a.inCols))
        return unexpected(invalidArgumentError("Input cols too large"));
    a.filterRows = filter[0];
    a.filterCols = filter[1];
    const std::int64_t outputRows = outBackprop.dim(i.h);
    if (!fitsInt32(outputRows))
        return unexpected(invalidArgumentError("Output rows too large"));
    const std::int64_t outputCols = outBackprop.dim(i.w);
    if (!fitsInt32(outputCols))
        return unexpected(invalidArgumentError("Output cols too large"));
    a.inDepth = dimAt(input, i.c);
    if (a.inDepth != filter[2])
        return unexpected(invalidArgumentError(label + ": input and filter must have the same in_depth"));
    a.multiplier = filter[3];
    const std::int64_t outDepth = outBackprop.dim(i.c);
    if (!fitsInt32(outDepth))
        return unexpected(invalidArgumentError("Output depth too large"));
    if (a.multiplier * a.inDepth != outDepth)
        return unexpected(invalidArgumentError(label + ": depth_multiplier * in_depth not equal to out_depth"));
    if (Status st = windowRowsCols(p, a); !st.isOk())
        return unexpected(st);
    if (outputRows != a.outRows) {
        return unexpected(invalidArgumentError(label + ": Number of rows of out_backprop doesn't match computed: " +
                                               "actual = " + str(outputRows) + ", computed = " + str(a.outRows)));
    }
    if (outputCols != a.outCols) {
        return unexpected(invalidArgumentError(label + ": Number of cols of out_backprop doesn't match computed: " +
                                               "actual = " + str(outputCols) + ", computed = " + str(a.outCols)));
    }
    return a;
}

class DepthwiseConv2dNativeBackpropInputOp : public NnKernel {
public:
    explicit DepthwiseConv2dNativeBackpropInputOp(OpKernelConstruction& c) : NnKernel(c)
    {
        read(depthwiseParams(c.node(), true), m_params);
    }

    Status compute(OpKernelContext& ctx) override
    {
        auto sizes = sizesInput(ctx.input(0), "Conv2DBackpropInput", "input_sizes");
        if (!sizes)
            return sizes.error();
        const Tensor& filter = ctx.input(1);
        const Tensor& outBackprop = ctx.input(2);
        std::vector<std::int64_t> filterDims;
        for (int d = 0; d < filter.rank(); ++d)
            filterDims.push_back(filter.shape().dim(d));
        auto a = backpropArgs(m_params, "DepthwiseConv2DBackpropInput", *sizes, filterDims, outBackprop.shape());
        if (!a)
            return a.error();
        const TensorShape inputShape(*sizes);
        return computeInNhwc(
            ctx, m_params.format, {&outBackprop}, inputShape, NhwcOutput::kZeroed, [&](const auto& in, Tensor& out) {
                if (out.numElements() == 0)
                    return Status::ok();
                return dispatchDataType<DepthwiseTypes>(filter.dtype(), [&](auto tag) {
                    using T = typename decltype(tag)::type;
                    DepthwiseConv2DBackpropInputFunctor<Eigen::ThreadPoolDevice, T>()(
                        cpuDevice(ctx), *a, in[0]->template data<T>(), filter.data<T>(), out.data<T>());
                });
            });
    }

private:
    DepthwiseParams m_params;
};

class DepthwiseConv2dNativeBackpropFilterOp : public NnKernel {
public:
    explicit DepthwiseConv2dNativeBackpropFilterOp(OpKernelConstruction& c) : NnKernel(c)
    {
        read(depthwiseParams(c.node(), true), m_params);
    }

    Status compute(OpKernelContext& ctx) override
    {
        const Tensor& input = ctx.input(0);
        auto sizes = sizesInput(ctx.input(1), "Conv2DBackpropFilter", "filter_sizes");
        if (!sizes)
            return sizes.error();
        const Tensor& outBackprop = ctx.input(2);
        std::vector<std::int64_t> inputDims;
        for (int d = 0; d < input.rank(); ++d)
            inputDims.push_back(input.shape().dim(d));
        auto a = backpropArgs(m_params, "DepthwiseConv2DBackpropFilter", inputDims, *sizes, outBackprop.shape());
        if (!a)
            return a.error();
        auto out = ctx.allocateOutput(0, TensorShape(*sizes));
        if (!out)
            return out.error();
        // TensorFlow leaves the gradient unwritten when out_backprop is empty; here it is zero.
        if (outBackprop.numElements() == 0 || (*out)->numElements() == 0) {
            return (*out)->setZero();
        }
        std::vector<Tensor> nhwc; // input and out_backprop, transposed for NCHW
        if (m_params.format == DataFormat::kNchw) {
            for (const Tensor* t : {&input, &outBackprop}) {
                auto moved = transposeImage(ctx, *t, false);
                if (!moved)
                    return moved.error();
                nhwc.push_back(std::move(*moved));
            }
        }
        const Tensor& x = nhwc.empty() ? input : nhwc[0];
        const Tensor& dy = nhwc.empty() ? outBackprop : nhwc[1];
        auto partials = allocateTemp(ctx, input.dtype(), TensorShape{a->batch, a->filterSize()});
        if (!partials)
            return partials.error();
        return dispatchDataType<DepthwiseTypes>(input.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            DepthwiseConv2DBackpropFilterFunctor<Eigen::ThreadPoolDevice, T>()(
                cpuDevice(ctx), *a, x.data<T>(), dy.data<T>(), partials->template data<T>(), (*out)->data<T>());
        });
    }

private:
    DepthwiseParams m_params;
};

} // namespace

Status registerDepthwiseConvKernels(KernelRegistry& registry)
{
    const auto types = dataTypes(DepthwiseTypes{});
    KernelAdder r(registry);
    r.add<DepthwiseConv2dNativeOp>("DepthwiseConv2dNative", types)
        .add<DepthwiseConv2dNativeBackpropInputOp>("DepthwiseConv2dNativeBackpropInput", types)
        .add<DepthwiseConv2dNativeBackpropFilterOp>("DepthwiseConv2dNativeBackpropFilter", types);
    return r.status();
}

} // namespace tstudio::nn
