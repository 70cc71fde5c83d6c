// The CPU convolution arithmetic: im2col / col2im on the device's thread pool and matrix products
// by the tiled CPU GEMM (linalg::cpuGemm). Half is computed in float. Float convolutions go to
// oneDNN first when the build has it (conv2d_dnnl.h); im2col runs what oneDNN does not take.
#define EIGEN_USE_THREADS

#include "kernels/nn/conv2d.h"
#include "devices/cpu/cpu_parallel.h"
#include "kernels/nn/conv2d_dnnl.h"

#include "kernels/linalg/gemm_cpu.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <vector>

namespace tstudio::nn {

namespace {

using Index = Eigen::Index;
using Device = Eigen::ThreadPoolDevice;

/// At most this many elements in one im2col buffer (a chunk of whole images; at least one): 8 MB
/// of floats, small enough for the C library to reuse the memory between steps (larger blocks
/// are mapped and unmapped on every allocation, and each step then pays their page faults).
constexpr Index kColumnBudget = Index(1) << 21;


/// c[m, n] = op(a) * op(b), or c += op(a) * op(b) when `accumulate`: a is [m, k], or [k, m] when
/// TransA; b is [k, n], or [n, k] when TransB. The product runs on linalg::cpuGemm (the tiled GEMM
/// MatMul uses, built for the CPU's instruction set and split over the device's threads); an
/// accumulating product goes through a temporary [m, n] (only the filter backprop accumulates,
/// over chunks of images, and its [m, n] is the small filter).
template <bool TransA, bool TransB, typename CT>
void gemm(const Device& d, const CT* a, const CT* b, CT* c, Index m, Index n, Index k, bool accumulate = false)
{
    if (m == 0 || n == 0)
        return;
    if (k == 0) {
        if (!accumulate)
            std::fill(c, c + m * n, CT(0));
        return;
    }
    linalg::GemmArgs<CT> args;
    args.a = a;
    args.b = b;
    args.m = m;
    args.n = n;
    args.k = k;
    args.lda = TransA ? m : k;
    args.ldb = TransB ? k : n;
    args.ldc = n;
    args.transposeA = TransA;
    args.transposeB = TransB;
    if (!accumulate) {
        args.c = c;
        linalg::cpuGemm(&d, args);
        return;
    }
    std::vector<CT> product(static_cast<std::size_t>(m * n));
    args.c = product.data();
    linalg::cpuGemm(&d, args);
    for (std::size_t i = 0; i < product.size(); ++i)
        c[i] += product[i];
}

/// col[r, (kh * KW + kw) * C + c] for the output pixels r of `images` images starting at `input`:
/// the input value under filter tap (kh, kw), or 0 in the padding.
template <typename CT> void im2col(const Device& d, const Conv2DGeometry& g, const CT* input, Index images, CT* col)
{
    const Index pixels = g.outputPixels();
    const Index patch = g.patchSize();
    const Index depth = g.inDepth;
    const Index rowsIn = g.rows.input;
    const Index colsIn = g.cols.input;
    const Eigen::TensorOpCost cost(double(patch * sizeof(CT)), double(patch * sizeof(CT)), double(patch));
    cpuParallelFor(d, images * pixels, cost, [&](Index begin, Index end) {
        for (Index r = begin; r < end; ++r) {
            const Index image = r / pixels;
            const Index oh = (r % pixels) / g.cols.output;
            const Index ow = (r % pixels) % g.cols.output;
            const CT* source = input + image * rowsIn * colsIn * depth;
            CT* dst = col + r * patch;
            for (Index kh = 0; kh < g.rows.filter; ++kh) {
                const Index ih = oh * g.rows.stride - g.rows.padBefore + kh * g.rows.dilation;
                for (Index kw = 0; kw < g.cols.filter; ++kw, dst += depth) {
                    const Index iw = ow * g.cols.stride - g.cols.padBefore + kw * g.cols.dilation;
                    if (ih < 0 || ih >= rowsIn || iw < 0 || iw >= colsIn)
                        std::fill(dst, dst + depth, CT(0));
                    else
                        std::copy_n(source + (ih * colsIn + iw) * depth, depth, dst);
                }
            }
        }
    });
}

/// inputBackprop[image, ih, iw, c] += the column entries of every (output pixel, tap) that read
/// input pixel (ih, iw): the transpose of im2col, gathered per input pixel so threads never
/// write the same element.
template <typename CT>
void col2im(const Device& d, const Conv2DGeometry& g, const CT* col, Index images, CT* inputBackprop)
{
    const Index pixels = g.outputPixels();
    const Index patch = g.patchSize();
    const Index depth = g.inDepth;
    const Index inPixels = g.rows.input * g.cols.input;
    const Index taps = g.rows.filter * g.cols.filter;
    const Eigen::TensorOpCost cost(double(taps * depth * sizeof(CT)), double(depth * sizeof(CT)), double(taps * depth));
    cpuParallelFor(d, images * inPixels, cost, [&](Index begin, Index end) {
        for (Index p = begin; p < end; ++p) {
            const Index image = p / inPixels;
            const Index ih = (p % inPixels) / g.cols.input;
            const Index iw = (p % inPixels) % g.cols.input;
            CT* dst = inputBackprop + p * depth;
            for (Index kh = 0; kh < g.rows.filter; ++kh) {
                const Index th = ih + g.rows.padBefore - kh * g.rows.dilation;
                if (th < 0)
                    break; // larger taps only go further up
                if (th % g.rows.stride != 0 || th / g.rows.stride >= g.rows.output)
                    continue;
                const Index oh = th / g.rows.stride;
                for (Index kw = 0; kw < g.cols.filter; ++kw) {
                    const Index tw = iw + g.cols.padBefore - kw * g.cols.dilation;
                    if (tw < 0)
                        break;
                    if (tw % g.cols.stride != 0 || tw / g.cols.stride >= g.cols.output)
                        continue;
                    const Index ow = tw / g.cols.stride;
                    const CT* src =
                        col + (image * pixels + oh * g.cols.output + ow) * patch + (kh * g.cols.filter + kw) * depth;
                    for (Index c = 0; c < depth; ++c)
                        dst[c] += src[c];
                }
            }
        }
    });
}

/// Images per im2col chunk.
Index chunkImages(const Conv2DGeometry& g)
{
    const Index perImage = std::max<Index>(1, g.outputPixels() * g.patchSize());
    return std::clamp<Index>(kColumnBudget / perImage, 1, std::max<Index>(1, g.batch));
}

/// The arithmetic for CT = float or double on NHWC buffers of CT.
template <typename CT> struct ConvMath {
    static Status forward(OpKernelContext& ctx, const Conv2DGeometry& g, const CT* input, const CT* filter, CT* output)
    {
        const Device& d = cpuDevice(ctx);
        if (g.outputSize() == 0)
            return Status::ok();
        if (g.isPointwise()) {
            gemm<false, false>(d, input, filter, output, g.batch * g.outputPixels(), g.outDepth, g.inDepth);
            return Status::ok();
        }
        const Index chunk = chunkImages(g);
        auto col = allocateTemp(ctx, kDataTypeOf<CT>, TensorShape{chunk * g.outputPixels(), g.patchSize()});
        if (!col)
            return col.error();
        for (Index b0 = 0; b0 < g.batch; b0 += chunk) {
            const Index images = std::min(chunk, g.batch - b0);
            im2col(d, g, input + b0 * g.rows.input * g.cols.input * g.inDepth, images, col->template data<CT>());
            gemm<false, false>(d, col->template data<CT>(), filter, output + b0 * g.outputPixels() * g.outDepth,
                                      images * g.outputPixels(), g.outDepth, g.patchSize());
        }
        return Status::ok();
    }

    static Status backpropInput(OpKernelContext& ctx, const Conv2DGeometry& g, const CT* filter, const CT* outBackprop,
                                CT* inputBackprop)
    {
        const Device& d = cpuDevice(ctx);
        if (g.inputSize() == 0 || g.outputSize() == 0)
            return Status::ok(); // the input backprop stays zero
        if (g.isPointwise()) {
            gemm<false, true>(d, outBackprop, filter, inputBackprop, g.batch * g.outputPixels(), g.inDepth,
                                     g.outDepth);
            return Status::ok();
        }
        const Index chunk = chunkImages(g);
        auto col = allocateTemp(ctx, kDataTypeOf<CT>, TensorShape{chunk * g.outputPixels(), g.patchSize()});
        if (!col)
            return col.error();
        for (Index b0 = 0; b0 < g.batch; b0 += chunk) {
            const Index images = std::min(chunk, g.batch - b0);
            gemm<false, true>(d, outBackprop + b0 * g.outputPixels() * g.outDepth, filter,
                                     col->template data<CT>(), images * g.outputPixels(), g.patchSize(), g.outDepth);
            col2im(d, g, col->template data<CT>(), images,
                   inputBackprop + b0 * g.rows.input * g.cols.input * g.inDepth);
        }
        return Status::ok();
    }

    static Status backpropFilter(OpKernelContext& ctx, const Conv2DGeometry& g, const CT* input, const CT* outBackprop,
                                 CT* filterBackprop)
    {
        const Device& d = cpuDevice(ctx);
        if (g.filterSize() == 0 || g.outputSize() == 0)
            return Status::ok(); // the filter backprop stays zero
        if (g.isPointwise()) {
            gemm<true, false>(d, input, outBackprop, filterBackprop, g.inDepth, g.outDepth, g.batch * g.outputPixels());
            return Status::ok();
        }
        const Index chunk = chunkImages(g);
        auto col = allocateTemp(ctx, kDataTypeOf<CT>, TensorShape{chunk * g.outputPixels(), g.patchSize()});
        if (!col)
            return col.error();
        for (Index b0 = 0; b0 < g.batch; b0 += chunk) {
            const Index images = std::min(chunk, g.batch - b0);
            im2col(d, g, input + b0 * g.rows.input * g.cols.input * g.inDepth, images, col->template data<CT>());
            gemm<true, false>(d, col->template data<CT>(), outBackprop + b0 * g.outputPixels() * g.outDepth,
                              filterBackprop, g.patchSize(), g.outDepth, images * g.outputPixels(), b0 > 0);
        }
        return Status::ok();
    }
};

/// ConvMath, with float convolutions going to oneDNN first (conv2d_dnnl.h) when it takes them.
template <typename CT> struct ConvRoute {
    static Status forward(OpKernelContext& ctx, const Conv2DGeometry& g, const CT* input, const CT* filter, CT* output)
    {
        if constexpr (std::is_same_v<CT, float>) {
            if (auto s = dnnlConvForward(cpuDevice(ctx), g, input, filter, output))
                return *s;
        }
        return ConvMath<CT>::forward(ctx, g, input, filter, output);
    }

    static Status backpropInput(OpKernelContext& ctx, const Conv2DGeometry& g, const CT* filter,
                                const CT* outBackprop, CT* inputBackprop)
    {
        if constexpr (std::is_same_v<CT, float>) {
            if (auto s = dnnlConvBackpropInput(cpuDevice(ctx), g, filter, outBackprop, inputBackprop))
                return *s;
        }
        return ConvMath<CT>::backpropInput(ctx, g, filter, outBackprop, inputBackprop);
    }

    static Status backpropFilter(OpKernelContext& ctx, const Conv2DGeometry& g, const CT* input,
                                 const CT* outBackprop, CT* filterBackprop)
    {
        if constexpr (std::is_same_v<CT, float>) {
            if (auto s = dnnlConvBackpropFilter(cpuDevice(ctx), g, input, outBackprop, filterBackprop))
                return *s;
        }
        return ConvMath<CT>::backpropFilter(ctx, g, input, outBackprop, filterBackprop);
    }
};

/// A float copy of `count` halves (or the converse), converted on the device.
template <typename To, typename From> void convert(const Device& d, const From* from, To* to, Index count)
{
    if (count > 0)
        FlatTensor<To>(to, count).device(d) = ConstFlatTensor<From>(from, count).template cast<To>();
}

/// Runs `run(floatA, floatB, floatOut)` on float copies of two half buffers and converts the
/// result back: TensorFlow's half convolutions, computed at float precision.
template <typename Run>
Status viaFloat(OpKernelContext& ctx, const Eigen::half* a, Index aCount, const Eigen::half* b, Index bCount,
                Eigen::half* out, Index outCount, Run run)
{
    const Device& d = cpuDevice(ctx);
    auto fa = allocateTemp(ctx, tensorflow::DT_FLOAT, TensorShape{aCount});
    auto fb = allocateTemp(ctx, tensorflow::DT_FLOAT, TensorShape{bCount});
    auto fo = allocateTemp(ctx, tensorflow::DT_FLOAT, TensorShape{outCount});
    if (!fa || !fb || !fo)
        return !fa ? fa.error() : !fb ? fb.error() : fo.error();
    convert(d, a, fa->data<float>(), aCount);
    convert(d, b, fb->data<float>(), bCount);
    if (Status s = run(fa->data<float>(), fb->data<float>(), fo->data<float>()); !s.isOk())
        return s;
    convert(d, fo->data<float>(), out, outCount);
    return Status::ok();
}

} // namespace

template <typename T>
Status Conv2DCpu<T>::forward(OpKernelContext& ctx, const Conv2DGeometry& g, const T* input, const T* filter, T* output)
{
    if constexpr (std::is_same_v<T, Eigen::half>) {
        return viaFloat(
            ctx, input, g.inputSize(), filter, g.filterSize(), output, g.outputSize(),
            [&](const float* in, const float* f, float* out) { return ConvRoute<float>::forward(ctx, g, in, f, out); });
    } else {
        return ConvRoute<T>::forward(ctx, g, input, filter, output);
    }
}

template <typename T>
Status Conv2DCpu<T>::backpropInput(OpKernelContext& ctx, const Conv2DGeometry& g, const T* filter, const T* outBackprop,
                                   T* inputBackprop)
{
    if constexpr (std::is_same_v<T, Eigen::half>) {
        return viaFloat(ctx, filter, g.filterSize(), outBackprop, g.outputSize(), inputBackprop, g.inputSize(),
                        [&](const float* f, const float* dy, float* dx) {
                            return ConvRoute<float>::backpropInput(ctx, g, f, dy, dx);
                        });
    } else {
        return ConvRoute<T>::backpropInput(ctx, g, filter, outBackprop, inputBackprop);
    }
}

template <typename T>
Status Conv2DCpu<T>::backpropFilter(OpKernelContext& ctx, const Conv2DGeometry& g, const T* input, const T* outBackprop,
                                    T* filterBackprop)
{
    if constexpr (std::is_same_v<T, Eigen::half>) {
        return viaFloat(ctx, input, g.inputSize(), outBackprop, g.outputSize(), filterBackprop, g.filterSize(),
                        [&](const float* in, const float* dy, float* dw) {
                            return ConvRoute<float>::backpropFilter(ctx, g, in, dy, dw);
                        });
    } else {
        return ConvRoute<T>::backpropFilter(ctx, g, input, outBackprop, filterBackprop);
    }
}

template struct Conv2DCpu<Eigen::half>;
template struct Conv2DCpu<float>;
template struct Conv2DCpu<double>;

} // namespace tstudio::nn
