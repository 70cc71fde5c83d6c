// The per-element arithmetic of the GPU pooling kernels (pooling_cuda.cu): each output or input
// gradient element computed on its own, in the CPU kernels' order of operations, as host-and-device
// functions so the CPU tests can run them against the CPU kernels. C++17, no engine headers.
#pragma once

#include "kernels/host_device.h"

#include <cstdint>
#include <limits>

namespace tstudio::gpu {

/// One pooling in NHWC terms: input [batch, inRows, inCols, depth], output [batch, outRows,
/// outCols, outDepth], both laid out NCHW in memory when `nchw`. Window (oh, ow) covers input rows
/// [oh * strideRows - padTop, + windowRows) and the like for columns, clipped to the input. With
/// depthWindow > 1 (max pooling only) output channel j is the max of input channels
/// [j * depthWindow, (j + 1) * depthWindow) at the same position (the windows are then 1 x 1).
struct PoolShape {
    std::int64_t batch = 0;
    std::int64_t depth = 0;
    std::int64_t inRows = 0;
    std::int64_t inCols = 0;
    std::int64_t outRows = 0;
    std::int64_t outCols = 0;
    std::int64_t outDepth = 0;
    std::int64_t windowRows = 1;
    std::int64_t windowCols = 1;
    std::int64_t strideRows = 1;
    std::int64_t strideCols = 1;
    std::int64_t padTop = 0;
    std::int64_t padLeft = 0;
    std::int64_t depthWindow = 1;
    bool nchw = false;

    TSTUDIO_HOST_DEVICE std::int64_t inputElements() const { return batch * inRows * inCols * depth; }
    TSTUDIO_HOST_DEVICE std::int64_t outputElements() const { return batch * outRows * outCols * outDepth; }
};

/// Position (image b, row h, column w, channel c).
struct PoolCoords {
    std::int64_t b, h, w, c;
};

/// [begin, end): rows or columns of an input window, or the outputs covering an input position.
struct PoolSpan {
    std::int64_t begin, end;
};

TSTUDIO_HOST_DEVICE inline std::int64_t poolIndex(bool nchw, std::int64_t rows, std::int64_t cols,
                                                  std::int64_t channels, const PoolCoords& p)
{
    return nchw ? ((p.b * channels + p.c) * rows + p.h) * cols + p.w
                : ((p.b * rows + p.h) * cols + p.w) * channels + p.c;
}

TSTUDIO_HOST_DEVICE inline PoolCoords poolCoords(bool nchw, std::int64_t rows, std::int64_t cols, std::int64_t channels,
                                                 std::int64_t i)
{
    PoolCoords p{};
    if (nchw) {
        p.w = i % cols;
        i /= cols;
        p.h = i % rows;
        i /= rows;
        p.c = i % channels;
        p.b = i / channels;
    } else {
        p.c = i % channels;
        i /= channels;
        p.w = i % cols;
        i /= cols;
        p.h = i % rows;
        p.b = i / rows;
    }
    return p;
}

TSTUDIO_HOST_DEVICE inline std::int64_t inputIndex(const PoolShape& s, const PoolCoords& p)
{
    return poolIndex(s.nchw, s.inRows, s.inCols, s.depth, p);
}

TSTUDIO_HOST_DEVICE inline std::int64_t outputIndex(const PoolShape& s, const PoolCoords& p)
{
    return poolIndex(s.nchw, s.outRows, s.outCols, s.outDepth, p);
}

/// The input rows (or columns) of window `o`, clipped to [0, size).
TSTUDIO_HOST_DEVICE inline PoolSpan windowSpan(std::int64_t o, std::int64_t stride, std::int64_t pad,
                                               std::int64_t window, std::int64_t size)
{
    const std::int64_t start = o * stride - pad;
    const std::int64_t end = start + window;
    return {start > 0 ? start : 0, end < size ? end : size};
}

/// The outputs whose window covers input row (or column) i: o * stride - pad <= i < o * stride -
/// pad + window, o in [0, outSize). Empty when begin >= end.
TSTUDIO_HOST_DEVICE inline PoolSpan coveringSpan(std::int64_t i, std::int64_t stride, std::int64_t pad,
                                                 std::int64_t window, std::int64_t outSize)
{
    const std::int64_t t = i + pad;
    const std::int64_t first = t < window ? 0 : (t - window) / stride + 1;
    const std::int64_t last = t / stride < outSize - 1 ? t / stride : outSize - 1;
    return {first, last + 1};
}

/// MaxPool's output element i: the largest value of its window compared in Acc; NaN never wins
/// and an all-NaN (or empty) window gives -infinity, as the CPU kernel.
template <typename T, typename Acc> TSTUDIO_HOST_DEVICE T maxPoolAt(const PoolShape& s, const T* in, std::int64_t i)
{
    const PoolCoords o = poolCoords(s.nchw, s.outRows, s.outCols, s.outDepth, i);
    Acc best = -std::numeric_limits<Acc>::infinity();
    if (s.depthWindow > 1) {
        for (std::int64_t k = 0; k < s.depthWindow; ++k) {
            const Acc v = static_cast<Acc>(in[inputIndex(s, {o.b, o.h, o.w, o.c * s.depthWindow + k})]);
            if (v > best)
                best = v;
        }
        return static_cast<T>(best);
    }
    const PoolSpan rows = windowSpan(o.h, s.strideRows, s.padTop, s.windowRows, s.inRows);
    const PoolSpan cols = windowSpan(o.w, s.strideCols, s.padLeft, s.windowCols, s.inCols);
    for (std::int64_t h = rows.begin; h < rows.end; ++h) {
        for (std::int64_t w = cols.begin; w < cols.end; ++w) {
            const Acc v = static_cast<Acc>(in[inputIndex(s, {o.b, h, w, o.c})]);
            if (v > best)
                best = v;
        }
    }
    return static_cast<T>(best);
}

/// AvgPool's output element i: the sum of its clipped window in Acc, in row-major order, divided
/// by the number of input elements in it (padding is not counted).
template <typename T, typename Acc> TSTUDIO_HOST_DEVICE T avgPoolAt(const PoolShape& s, const T* in, std::int64_t i)
{
    const PoolCoords o = poolCoords(s.nchw, s.outRows, s.outCols, s.outDepth, i);
    const PoolSpan rows = windowSpan(o.h, s.strideRows, s.padTop, s.windowRows, s.inRows);
    const PoolSpan cols = windowSpan(o.w, s.strideCols, s.padLeft, s.windowCols, s.inCols);
    Acc sum = Acc(0);
    for (std::int64_t h = rows.begin; h < rows.end; ++h) {
        for (std::int64_t w = cols.begin; w < cols.end; ++w)
            sum += static_cast<Acc>(in[inputIndex(s, {o.b, h, w, o.c})]);
    }
    const Acc count = static_cast<Acc>((rows.end - rows.begin) * (cols.end - cols.begin));
    return static_cast<T>(sum / count);
}

/// Where MaxPoolGrad routes output element i's gradient: h * inCols + w of the first maximum of the
/// window in row-major order (the first non-NaN element, replaced only by a strictly greater one),
/// or -1 when every element is NaN. As the CPU kernel's choice.
template <typename T, typename Acc>
TSTUDIO_HOST_DEVICE std::int64_t maxPoolArgmaxAt(const PoolShape& s, const T* in, std::int64_t i)
{
    const PoolCoords o = poolCoords(s.nchw, s.outRows, s.outCols, s.outDepth, i);
    const PoolSpan rows = windowSpan(o.h, s.strideRows, s.padTop, s.windowRows, s.inRows);
    const PoolSpan cols = windowSpan(o.w, s.strideCols, s.padLeft, s.windowCols, s.inCols);
    Acc best = -std::numeric_limits<Acc>::infinity();
    std::int64_t at = -1;
    for (std::int64_t h = rows.begin; h < rows.end; ++h) {
        for (std::int64_t w = cols.begin; w < cols.end; ++w) {
            const Acc v = static_cast<Acc>(in[inputIndex(s, {o.b, h, w, o.c})]);
            if (v > best || (at < 0 && v == best)) {
                best = v;
                at = h * s.inCols + w;
            }
        }
    }
    return at;
}

/// MaxPoolGrad's input gradient element j: 0 plus the gradients of the outputs whose argmax is j's
/// position, added in T in ascending output order (the CPU kernel's order of additions).
template <typename T, typename Acc>
TSTUDIO_HOST_DEVICE T maxPoolGradAt(const PoolShape& s, const std::int64_t* argmax, const T* grad, std::int64_t j)
{
    const PoolCoords p = poolCoords(s.nchw, s.inRows, s.inCols, s.depth, j);
    const PoolSpan rows = coveringSpan(p.h, s.strideRows, s.padTop, s.windowRows, s.outRows);
    const PoolSpan cols = coveringSpan(p.w, s.strideCols, s.padLeft, s.windowCols, s.outCols);
    const std::int64_t me = p.h * s.inCols + p.w;
    T sum = static_cast<T>(Acc(0));
    for (std::int64_t oh = rows.begin; oh < rows.end; ++oh) {
        for (std::int64_t ow = cols.begin; ow < cols.end; ++ow) {
            const std::int64_t k = outputIndex(s, {p.b, oh, ow, p.c});
            if (argmax[k] == me)
                sum = static_cast<T>(static_cast<Acc>(sum) + static_cast<Acc>(grad[k]));
        }
    }
    return sum;
}

/// AvgPoolGrad's input gradient element j: the sum in Acc, in ascending output order, of each
/// covering output's gradient divided by that window's element count.
template <typename T, typename Acc>
TSTUDIO_HOST_DEVICE T avgPoolGradAt(const PoolShape& s, const T* grad, std::int64_t j)
{
    const PoolCoords p = poolCoords(s.nchw, s.inRows, s.inCols, s.depth, j);
    const PoolSpan rows = coveringSpan(p.h, s.strideRows, s.padTop, s.windowRows, s.outRows);
    const PoolSpan cols = coveringSpan(p.w, s.strideCols, s.padLeft, s.windowCols, s.outCols);
    Acc sum = Acc(0);
    for (std::int64_t oh = rows.begin; oh < rows.end; ++oh) {
        const PoolSpan r = windowSpan(oh, s.strideRows, s.padTop, s.windowRows, s.inRows);
        for (std::int64_t ow = cols.begin; ow < cols.end; ++ow) {
            const PoolSpan c = windowSpan(ow, s.strideCols, s.padLeft, s.windowCols, s.inCols);
            const Acc count = static_cast<Acc>((r.end - r.begin) * (c.end - c.begin));
            sum += static_cast<Acc>(grad[outputIndex(s, {p.b, oh, ow, p.c})]) / count;
        }
    }
    return static_cast<T>(sum);
}

} // namespace tstudio::gpu
