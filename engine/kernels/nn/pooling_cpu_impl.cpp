// The pooling arithmetic: attrs, geometry and the CPU loops of MaxPool, AvgPool, their
// gradients and MaxPoolGradGrad on NHWC buffers, split over the Eigen device's thread pool.
#define EIGEN_USE_THREADS

#include "kernels/nn/pooling.h"
#include "kernels/nn/max_pool_grad_rows.h"
#include "kernels/nn/pool_shape.h"
#include "devices/cpu/cpu_parallel.h"

#include "framework/node_attrs.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace tstudio::nn {

namespace {

using Index = Eigen::Index;
using Device = Eigen::ThreadPoolDevice;

std::string str(std::int64_t v)
{
    return std::to_string(v);
}

/// The start value of a max: -infinity for floating types, the lowest value for integers.
template <typename T> T maxIdentity()
{
    if constexpr (Eigen::NumTraits<T>::IsInteger)
        return Eigen::NumTraits<T>::lowest();
    else
        return -Eigen::NumTraits<T>::infinity();
}

/// The window of output (oh, ow) clipped to the input: [h0, h1) x [w0, w1).
struct Window {
    Index h0, h1, w0, w1;
    Index count() const { return (h1 - h0) * (w1 - w0); }
};

Window window(const PoolGeometry& g, Index oh, Index ow)
{
    const Index hs = oh * g.rows.stride - g.rows.padBefore;
    const Index ws = ow * g.cols.stride - g.cols.padBefore;
    return {std::max<Index>(hs, 0), std::min<Index>(hs + g.rows.filter, g.rows.input), std::max<Index>(ws, 0),
            std::min<Index>(ws + g.cols.filter, g.cols.input)};
}

/// The cost of one output pixel of a loop that reads a whole window over all channels.
template <typename T> Eigen::TensorOpCost windowCost(const PoolGeometry& g)
{
    const Index windowSize = g.rows.filter * g.cols.filter;
    return Eigen::TensorOpCost(double(windowSize * g.depth * sizeof(T)), double(g.depth * sizeof(T)),
                               double(windowSize * g.depth));
}

/// Channels per work item of the gradient loops that scatter within an image.
constexpr Index kChannelBlock = 16;

} // namespace

Expected<PoolParams> poolParams(const tensorflow::NodeDef& node)
{
    PoolParams p;
    auto ksize = attrIntList(node, "ksize");
    if (!ksize)
        return unexpected(ksize.error());
    p.ksize = *ksize;
    auto strides = attrIntList(node, "strides");
    if (!strides)
        return unexpected(strides.error());
    p.strides = *strides;
    auto paddingText = attrString(node, "padding");
    if (!paddingText)
        return unexpected(paddingText.error());
    auto padding = paddingFromString(*paddingText);
    if (!padding)
        return unexpected(padding.error());
    p.padding = *padding;
    auto format = dataFormatAttr(node);
    if (!format)
        return unexpected(format.error());
    p.format = *format;
    if (p.ksize.size() != 4)
        return unexpected(invalidArgumentError("Sliding window ksize field must specify 4 dimensions"));
    if (p.strides.size() != 4)
        return unexpected(invalidArgumentError("Sliding window stride field must specify 4 dimensions"));
    for (std::size_t i = 0; i < 4; ++i) {
        if (p.ksize[i] <= 0)
            return unexpected(
                invalidArgumentError("Sliding window ksize for dimension " + str(Index(i)) + " was zero."));
        if (p.strides[i] <= 0)
            return unexpected(
                invalidArgumentError("Sliding window stride for dimension " + str(Index(i)) + " was zero."));
    }
    const FormatIndex f = formatIndex(p.format);
    if (p.ksize[f.n] != 1 || p.strides[f.n] != 1)
        return unexpected(unimplementedError("Pooling is not yet supported on the batch dimension."));
    return p;
}

TensorShape PoolGeometry::outputShape(DataFormat format) const
{
    return imageShape(format, batch, rows.output, cols.output, outDepth);
}

Expected<PoolGeometry> poolGeometry(const PoolParams& params, const TensorShape& shape)
{
    if (shape.rank() != 4)
        return unexpected(invalidArgumentError("tensor_in must be 4-dimensional"));
    const FormatIndex f = formatIndex(params.format);
    PoolGeometry g;
    g.batch = shape.dim(f.n);
    g.depth = shape.dim(f.c);
    g.depthWindow = params.ksize[f.c];
    const std::int64_t depthStride = params.strides[f.c];
    const std::int64_t rowWindow = params.ksize[f.h];
    const std::int64_t colWindow = params.ksize[f.w];
    if (g.depthWindow != 1 && (rowWindow != 1 || colWindow != 1)) {
        return unexpected(unimplementedError(
            "MaxPooling supports exactly one of pooling across depth or pooling across width/height."));
    }
    if (g.depthWindow == 1) {
        auto rows = windowDim(shape.dim(f.h), rowWindow, 1, params.strides[f.h], params.padding);
        if (!rows)
            return unexpected(rows.error());
        auto cols = windowDim(shape.dim(f.w), colWindow, 1, params.strides[f.w], params.padding);
        if (!cols)
            return unexpected(cols.error());
        g.rows = *rows;
        g.cols = *cols;
        g.outDepth = g.depth;
        return g;
    }
    // Depthwise: no padding and non-overlapping depth windows; the spatial size is kept.
    if (g.depth % g.depthWindow != 0) {
        return unexpected(
            unimplementedError("Depthwise max pooling requires the depth window to evenly divide the input depth"));
    }
    if (depthStride != g.depthWindow)
        return unexpected(
            unimplementedError("Depthwise max pooling requires the depth window to equal the depth stride"));
    g.rows = WindowDim{shape.dim(f.h), 1, 1, 1, shape.dim(f.h), 0, 0};
    g.cols = WindowDim{shape.dim(f.w), 1, 1, 1, shape.dim(f.w), 0, 0};
    g.outDepth = g.depth / g.depthWindow;
    return g;
}

Expected<PoolParams> spatialPoolParams(const tensorflow::NodeDef& node, const std::string& kernelName)
{
    auto params = poolParams(node);
    if (!params)
        return params;
    const int depth = formatIndex(params->format).c;
    if (params->ksize[depth] != 1 || params->strides[depth] != 1)
        return unexpected(unimplementedError(kernelName + " is not yet supported on the depth dimension."));
    return params;
}

Status expectShape(const char* what, const TensorShape& expected, const TensorShape& actual)
{
    if (expected == actual)
        return Status::ok();
    return invalidArgumentError(std::string("Expected ") + what + " shape to be " + expected.toString() + ", but got " +
                                actual.toString());
}

Expected<PoolGeometry> avgPoolGeometry(const PoolParams& params, const TensorShape& shape)
{
    auto g = poolGeometry(params, shape);
    if (g && g->depthWindow != 1)
        return unexpected(unimplementedError("Non-spatial pooling is not yet supported."));
    return g;
}

Expected<AvgPoolGradShapes> avgPoolGradShapes(const PoolParams& params, const Tensor& sizes, const Tensor& grad)
{
    if (sizes.rank() != 1 || sizes.numElements() != 4)
        return unexpected(invalidArgumentError("out_backprop must be 1-dimensional and 4 elements"));
    if (grad.rank() != 4)
        return unexpected(invalidArgumentError("out_backprop must be 4-dimensional"));
    std::vector<std::int64_t> dims;
    for (std::int32_t v : sizes.values<std::int32_t>()) {
        if (v < 0)
            return unexpected(invalidArgumentError("Dimension " + str(v) + " must be >= 0"));
        dims.push_back(v);
    }
    AvgPoolGradShapes shapes{TensorShape(std::move(dims)), {}};
    auto g = avgPoolGeometry(params, shapes.input);
    if (!g)
        return unexpected(g.error());
    shapes.geometry = *g;
    if (Status s = expectShape("grad", g->outputShape(params.format), grad.shape()); !s.isOk())
        return unexpected(s);
    return shapes;
}

Expected<PoolGeometry> maxPoolGradGeometry(const PoolParams& params, const Tensor& input, const Tensor& output,
                                           const Tensor& third, const char* thirdName)
{
    if (input.rank() != 4)
        return unexpected(invalidArgumentError("tensor_in must be 4-dimensional"));
    if (output.rank() != 4)
        return unexpected(invalidArgumentError("tensor_out must be 4-dimensional"));
    if (third.rank() != 4)
        return unexpected(invalidArgumentError(std::string(thirdName) + " must be 4-dimensional"));
    auto g = poolGeometry(params, input.shape());
    if (!g)
        return g;
    if (Status s = expectShape("orig_output", g->outputShape(params.format), output.shape()); !s.isOk())
        return unexpected(s);
    return g;
}

namespace {

/// Channels per step of maxInto with a fixed trip count, which GCC vectorises at -O2.
constexpr Index kMaxBlock = 16;

/// out[c] = max(out[c], in[c]) for c < width, keeping out[c] when in[c] is NaN (a select).
template <typename T, typename Width> void maxInto(T* __restrict out, const T* __restrict in, Width width)
{
    for (Index c = 0; c < width; ++c)
        out[c] = in[c] > out[c] ? in[c] : out[c];
}

} // namespace

template <typename T> void PoolCpu<T>::maxPool(const Device& d, const PoolGeometry& g, const T* input, T* output)
{
    const Index pixels = g.outputPixels();
    const Index depth = g.depth;
    const Index inRows = g.rows.input;
    const Index inCols = g.cols.input;
    if (g.depthWindow > 1) {
        const Index groups = g.outDepth;
        const Eigen::TensorOpCost cost(double(depth * sizeof(T)), double(groups * sizeof(T)), double(depth));
        cpuParallelFor(d, g.batch * inRows * inCols, cost, [&](Index begin, Index end) {
            for (Index p = begin; p < end; ++p) {
                for (Index j = 0; j < groups; ++j) {
                    T best = maxIdentity<T>();
                    for (Index k = 0; k < g.depthWindow; ++k) {
                        const T v = input[p * depth + j * g.depthWindow + k];
                        if (v > best)
                            best = v;
                    }
                    output[p * groups + j] = best;
                }
            }
        });
        return;
    }
    const Eigen::TensorOpCost cost = windowCost<T>(g);
    cpuParallelFor(d, g.batch * pixels, cost, [&](Index begin, Index end) {
        for (Index p = begin; p < end; ++p) {
            const Index b = p / pixels;
            const Window w = window(g, (p % pixels) / g.cols.output, (p % pixels) % g.cols.output);
            T* out = output + p * depth;
            std::fill(out, out + depth, maxIdentity<T>());
            for (Index h = w.h0; h < w.h1; ++h) {
                for (Index x = w.w0; x < w.w1; ++x) {
                    const T* in = input + ((b * inRows + h) * inCols + x) * depth;
                    Index c = 0;
                    for (; c + kMaxBlock <= depth; c += kMaxBlock)
                        maxInto(out + c, in + c, std::integral_constant<Index, kMaxBlock>());
                    maxInto(out + c, in + c, depth - c);
                }
            }
        }
    });
}

template <typename T> void PoolCpu<T>::avgPool(const Device& d, const PoolGeometry& g, const T* input, T* output)
{
    using Acc = AccumulatorT<T>;
    const Index pixels = g.outputPixels();
    const Index depth = g.depth;
    const Index inRows = g.rows.input;
    const Index inCols = g.cols.input;
    const Eigen::TensorOpCost cost = windowCost<T>(g);
    cpuParallelFor(d, g.batch * pixels, cost, [&](Index begin, Index end) {
        std::vector<Acc> sum(static_cast<std::size_t>(depth));
        for (Index p = begin; p < end; ++p) {
            const Index b = p / pixels;
            const Window w = window(g, (p % pixels) / g.cols.output, (p % pixels) % g.cols.output);
            std::fill(sum.begin(), sum.end(), Acc(0));
            for (Index h = w.h0; h < w.h1; ++h) {
                for (Index x = w.w0; x < w.w1; ++x) {
                    const T* in = input + ((b * inRows + h) * inCols + x) * depth;
                    for (Index c = 0; c < depth; ++c)
                        sum[static_cast<std::size_t>(c)] += static_cast<Acc>(in[c]);
                }
            }
            const Acc count = static_cast<Acc>(w.count());
            T* out = output + p * depth;
            for (Index c = 0; c < depth; ++c)
                out[c] = static_cast<T>(sum[static_cast<std::size_t>(c)] / count);
        }
    });
}

namespace {

/// Channels per pass of maxPoolGradDisjoint. Its loops over a full block have this fixed trip
/// count, which lets GCC vectorise them at -O2 (its "very cheap" model at -O2 only vectorises
/// loops whose iteration count is a known multiple of the vector width).
constexpr Index kDisjointBlock = 16;

/// One block of `width` channels (at most kDisjointBlock) of one window of maxPoolGradDisjoint:
/// finds the first maximum in row-major window order (NaN never wins, exactly as in the general
/// loop of maxPoolGrad) and stores 0 + gradient there and 0 at the window's other elements.
template <typename T, typename Width>
void routeWindowBlock(const Window& w, Index inCols, Index depth, const T* __restrict image,
                      const T* __restrict gradient, T* __restrict backprop, Width width)
{
    T best[kDisjointBlock];
    std::int32_t at[kDisjointBlock];
    for (Index c = 0; c < width; ++c) {
        best[c] = maxIdentity<T>();
        at[c] = -1;
    }
    std::int32_t k = 0;
    for (Index h = w.h0; h < w.h1; ++h) {
        for (Index x = w.w0; x < w.w1; ++x, ++k) {
            const T* values = image + (h * inCols + x) * depth;
            for (Index c = 0; c < width; ++c) {
                const bool take = (values[c] > best[c]) | ((at[c] < 0) & (values[c] == best[c]));
                best[c] = take ? values[c] : best[c];
                at[c] = take ? k : at[c];
            }
        }
    }
    // 0 + g: what the general loop's zeroed buffer plus the gradient gives (-0 lands as +0).
    T routed[kDisjointBlock];
    for (Index c = 0; c < width; ++c)
        routed[c] = static_cast<T>(T(0) + gradient[c]);
    k = 0;
    for (Index h = w.h0; h < w.h1; ++h) {
        for (Index x = w.w0; x < w.w1; ++x, ++k) {
            T* out = backprop + (h * inCols + x) * depth;
            for (Index c = 0; c < width; ++c)
                out[c] = at[c] == k ? routed[c] : T(0);
        }
    }
}

/// MaxPoolGrad where no two windows share an input element (stride >= filter in rows and cols,
/// as in the common 2x2 stride-2 pooling): each output pixel routes its gradients into its own
/// window for all channels, with plain stores instead of a scatter. inputBackprop is zeroed;
/// elements outside every window keep their zeros.
template <typename T>
void maxPoolGradDisjoint(const Device& d, const PoolGeometry& g, const T* input, const T* grad, T* inputBackprop)
{
    const Index pixels = g.outputPixels();
    const Index depth = g.depth;
    const Index inRows = g.rows.input;
    const Index inCols = g.cols.input;
    const Index windowSize = g.rows.filter * g.cols.filter;
    const Eigen::TensorOpCost cost(double(windowSize * depth * sizeof(T)), double((windowSize + 1) * depth * sizeof(T)),
                                   double(2 * windowSize * depth));
    if constexpr (std::is_same_v<T, float>) {
        // Floats: the same loop built for this CPU's widest vectors (max_pool_grad_rows.h).
        DisjointMaxPoolGrad job;
        job.input = input;
        job.grad = grad;
        job.inputBackprop = inputBackprop;
        job.shape = poolShapeOf(g, DataFormat::kNhwc);
        const auto range = maxPoolGradRowKernels().disjointRange;
        cpuParallelFor(d, g.batch * pixels, cost, [&](Index begin, Index end) { range(job, begin, end); });
    } else {
        const Index fullBlocks = depth / kDisjointBlock;
        const Index tail = depth % kDisjointBlock;
        cpuParallelFor(d, g.batch * pixels, cost, [&](Index begin, Index end) {
            for (Index p = begin; p < end; ++p) {
                const Index b = p / pixels;
                const Window w = window(g, (p % pixels) / g.cols.output, (p % pixels) % g.cols.output);
                const T* image = input + b * inRows * inCols * depth;
                T* backprop = inputBackprop + b * inRows * inCols * depth;
                const T* gradient = grad + p * depth;
                for (Index blk = 0; blk < fullBlocks; ++blk) {
                    const Index c0 = blk * kDisjointBlock;
                    routeWindowBlock(w, inCols, depth, image + c0, gradient + c0, backprop + c0,
                                     std::integral_constant<Index, kDisjointBlock>());
                }
                if (tail > 0) {
                    const Index c0 = fullBlocks * kDisjointBlock;
                    routeWindowBlock(w, inCols, depth, image + c0, gradient + c0, backprop + c0, tail);
                }
            }
        });
    }
}

} // namespace

namespace {

bool usesDisjointWindows(const PoolGeometry& g)
{
    return g.rows.stride >= g.rows.filter && g.cols.stride >= g.cols.filter && g.depthWindow == 1 &&
           g.rows.filter * g.cols.filter < (std::int64_t(1) << 30);
}

/// Whether the windows along one dimension, one after another, cover [0, input) without a gap.
bool windowsTile(const WindowDim& dim)
{
    Index covered = 0;
    for (Index o = 0; o < dim.output; ++o) {
        const Index start = std::max<Index>(o * dim.stride - dim.padBefore, 0);
        if (start > covered)
            return false;
        covered = std::max(covered, std::min<Index>(o * dim.stride - dim.padBefore + dim.filter, dim.input));
    }
    return covered >= dim.input;
}

} // namespace

bool maxPoolGradWritesEverything(const PoolGeometry& g)
{
    return usesDisjointWindows(g) && windowsTile(g.rows) && windowsTile(g.cols);
}

template <typename T>
void PoolCpu<T>::maxPoolGrad(const Device& d, const PoolGeometry& g, const T* input, const T* grad, T* inputBackprop)
{
    if (usesDisjointWindows(g)) {
        maxPoolGradDisjoint(d, g, input, grad, inputBackprop);
        return;
    }
    // Windows overlap, so a work item owns whole images for a block of channels and scatters into them.
    const Index pixels = g.outputPixels();
    const Index depth = g.depth;
    const Index inRows = g.rows.input;
    const Index inCols = g.cols.input;
    const Index blocks = (depth + kChannelBlock - 1) / kChannelBlock;
    const Index windowSize = g.rows.filter * g.cols.filter;
    const Eigen::TensorOpCost cost(double(pixels * windowSize * kChannelBlock * sizeof(T)),
                                   double(pixels * kChannelBlock * sizeof(T)),
                                   double(pixels * windowSize * kChannelBlock));
    cpuParallelFor(d, g.batch * blocks, cost, [&](Index begin, Index end) {
        for (Index item = begin; item < end; ++item) {
            const Index b = item / blocks;
            const Index c0 = (item % blocks) * kChannelBlock;
            const Index c1 = std::min(depth, c0 + kChannelBlock);
            const T* image = input + b * inRows * inCols * depth;
            T* backprop = inputBackprop + b * inRows * inCols * depth;
            const Index width = c1 - c0;
            T best[kChannelBlock];
            Index at[kChannelBlock];
            for (Index p = 0; p < pixels; ++p) {
                const Window w = window(g, p / g.cols.output, p % g.cols.output);
                const T* gradient = grad + (b * pixels + p) * depth;
                // The first maximum in row-major window order takes the gradient, as in
                // TensorFlow's SpatialMaxPoolWithArgMaxHelper; NaN never does. The window is
                // walked once for the whole block of channels, which lie next to each other.
                std::fill(best, best + width, maxIdentity<T>());
                std::fill(at, at + width, Index(-1));
                for (Index h = w.h0; h < w.h1; ++h) {
                    for (Index x = w.w0; x < w.w1; ++x) {
                        const Index pixel = (h * inCols + x) * depth + c0;
                        const T* values = image + pixel;
                        // Branch-free (selects): on real activations the comparison is a coin toss
                        // that a branch predictor loses half the time.
                        for (Index c = 0; c < width; ++c) {
                            const bool take = (values[c] > best[c]) | ((at[c] < 0) & (values[c] == best[c]));
                            best[c] = take ? values[c] : best[c];
                            at[c] = take ? pixel + c : at[c];
                        }
                    }
                }
                for (Index c = 0; c < width; ++c) {
                    if (at[c] >= 0)
                        backprop[at[c]] += gradient[c0 + c];
                }
            }
        }
    });
}

template <typename T>
void PoolCpu<T>::avgPoolGrad(const Device& d, const PoolGeometry& g, const T* grad, T* inputBackprop)
{
    // Gathered per input pixel: the sum of grad / count over the windows that contain it.
    using Acc = AccumulatorT<T>;
    const Index depth = g.depth;
    const Index inPixels = g.rows.input * g.cols.input;
    const Index outCols = g.cols.output;
    const Eigen::TensorOpCost cost = windowCost<T>(g);
    // The output rows (or cols) whose window covers input row i: o with o*s - pad <= i < o*s - pad + k.
    auto range = [](const WindowDim& dim, Index i) {
        const Index t = i + dim.padBefore;
        const Index first = t < dim.filter ? 0 : (t - dim.filter) / dim.stride + 1;
        const Index last = std::min<Index>(t / dim.stride, dim.output - 1);
        return std::pair<Index, Index>{first, last};
    };
    cpuParallelFor(d, g.batch * inPixels, cost, [&](Index begin, Index end) {
        std::vector<Acc> sum(static_cast<std::size_t>(depth));
        for (Index p = begin; p < end; ++p) {
            const Index b = p / inPixels;
            const auto [oh0, oh1] = range(g.rows, (p % inPixels) / g.cols.input);
            const auto [ow0, ow1] = range(g.cols, (p % inPixels) % g.cols.input);
            std::fill(sum.begin(), sum.end(), Acc(0));
            for (Index oh = oh0; oh <= oh1; ++oh) {
                for (Index ow = ow0; ow <= ow1; ++ow) {
                    const Acc count = static_cast<Acc>(window(g, oh, ow).count());
                    const T* gradient = grad + ((b * g.rows.output + oh) * outCols + ow) * depth;
                    for (Index c = 0; c < depth; ++c)
                        sum[static_cast<std::size_t>(c)] += static_cast<Acc>(gradient[c]) / count;
                }
            }
            T* out = inputBackprop + p * depth;
            for (Index c = 0; c < depth; ++c)
                out[c] = static_cast<T>(sum[static_cast<std::size_t>(c)]);
        }
    });
}

template <typename T>
void PoolCpu<T>::maxPoolGradGrad(const Device& d, const PoolGeometry& g, const T* input, const T* output, const T* grad,
                                 T* result)
{
    const Index pixels = g.outputPixels();
    const Index depth = g.depth;
    const Index inRows = g.rows.input;
    const Index inCols = g.cols.input;
    cpuParallelFor(d, g.batch * pixels, windowCost<T>(g), [&](Index begin, Index end) {
        for (Index p = begin; p < end; ++p) {
            const Index b = p / pixels;
            const Window w = window(g, (p % pixels) / g.cols.output, (p % pixels) % g.cols.output);
            const T* maxima = output + p * depth;
            T* out = result + p * depth;
            for (Index c = 0; c < depth; ++c) {
                T value = T(0);
                bool found = false;
                for (Index h = w.h0; h < w.h1 && !found; ++h) {
                    for (Index x = w.w0; x < w.w1 && !found; ++x) {
                        const Index index = ((b * inRows + h) * inCols + x) * depth + c;
                        if (input[index] == maxima[c]) {
                            value = grad[index];
                            found = true;
                        }
                    }
                }
                out[c] = value;
            }
        }
    });
}

template struct PoolCpu<float>;
template struct PoolCpu<double>;
template struct PoolCpu<Eigen::half>;
template struct PoolCpu<Eigen::bfloat16>;
template struct PoolCpu<std::int32_t>;
template struct PoolCpu<std::int64_t>;
template struct PoolCpu<std::int16_t>;
template struct PoolCpu<std::int8_t>;
template struct PoolCpu<std::uint8_t>;
template struct PoolCpu<std::uint16_t>;

} // namespace tstudio::nn
