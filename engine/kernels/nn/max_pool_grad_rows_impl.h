// The body of the per-instruction-set MaxPoolGrad units; included only by max_pool_grad_rows_<isa>.cpp,
// each of which defines its TSTUDIO_ISA_UNIT_<ISA> and TSTUDIO_ISA_UNIT_EIGEN first.
#include "kernels/nn/max_pool_grad_rows.h"

#include "kernels/isa/isa_unit_begin.h"

#ifdef TSTUDIO_ISA_UNIT_UNAVAILABLE
namespace tstudio::nn {
const MaxPoolGradRowKernels& TSTUDIO_ISA_UNIT_FUNCTION(maxPoolGradRowKernels)()
{
    return maxPoolGradRowKernelsBaseline();
}
} // namespace tstudio::nn
#else

namespace tstudio::nn {

namespace {

/// Channels per pass. The loops over a full block have this fixed trip count, which GCC
/// vectorises at -O2 (its "very cheap" model vectorises only loops whose iteration count is a
/// known multiple of the vector width): one AVX-512 register, two AVX2 ones, four SSE2 ones.
constexpr std::int64_t kBlock = 16;

/// One block of `width` channels (at most kBlock) of the window [h0, h1) x [w0, w1). The same
/// loop as pooling_cpu_impl.cpp's routeWindowBlock (which serves the other dtypes), repeated on
/// purpose: a unit built for another instruction set shares no inline code with the engine.
template <typename Width>
void routeBlock(std::int64_t h0, std::int64_t h1, std::int64_t w0, std::int64_t w1, std::int64_t inCols,
                std::int64_t depth, const float* __restrict image, const float* __restrict gradient,
                float* __restrict backprop, Width width)
{
    float best[kBlock];
    std::int32_t at[kBlock];
    for (std::int64_t c = 0; c < width; ++c) {
        best[c] = -__builtin_inff();
        at[c] = -1;
    }
    std::int32_t k = 0;
    for (std::int64_t h = h0; h < h1; ++h) {
        for (std::int64_t x = w0; x < w1; ++x, ++k) {
            const float* values = image + (h * inCols + x) * depth;
            for (std::int64_t c = 0; c < width; ++c) {
                const bool take = (values[c] > best[c]) | ((at[c] < 0) & (values[c] == best[c]));
                best[c] = take ? values[c] : best[c];
                at[c] = take ? k : at[c];
            }
        }
    }
    // 0 + g: what a zeroed buffer plus the gradient gives (-0 lands as +0).
    float routed[kBlock];
    for (std::int64_t c = 0; c < width; ++c)
        routed[c] = 0.0f + gradient[c];
    k = 0;
    for (std::int64_t h = h0; h < h1; ++h) {
        for (std::int64_t x = w0; x < w1; ++x, ++k) {
            float* out = backprop + (h * inCols + x) * depth;
            for (std::int64_t c = 0; c < width; ++c)
                out[c] = at[c] == k ? routed[c] : 0.0f;
        }
    }
}

void disjointRange(const DisjointMaxPoolGrad& job, std::int64_t first, std::int64_t end)
{
    const gpu::PoolShape& g = job.shape;
    const std::int64_t pixels = g.outRows * g.outCols;
    const std::int64_t depth = g.depth;
    const std::int64_t imageSize = g.inRows * g.inCols * depth;
    const std::int64_t fullBlocks = depth / kBlock;
    const std::int64_t tail = depth % kBlock;
    for (std::int64_t p = first; p < end; ++p) {
        const std::int64_t b = p / pixels;
        const std::int64_t oh = (p % pixels) / g.outCols;
        const std::int64_t ow = (p % pixels) % g.outCols;
        const std::int64_t hs = oh * g.strideRows - g.padTop;
        const std::int64_t ws = ow * g.strideCols - g.padLeft;
        // Plain comparisons rather than std::max / std::min: no template of the standard library is
        // instantiated under this unit's instruction set (see isa_unit_begin.h).
        const std::int64_t h0 = hs > 0 ? hs : 0;
        const std::int64_t h1 = hs + g.windowRows < g.inRows ? hs + g.windowRows : g.inRows;
        const std::int64_t w0 = ws > 0 ? ws : 0;
        const std::int64_t w1 = ws + g.windowCols < g.inCols ? ws + g.windowCols : g.inCols;
        const float* image = job.input + b * imageSize;
        float* backprop = job.inputBackprop + b * imageSize;
        const float* gradient = job.grad + p * depth;
        for (std::int64_t blk = 0; blk < fullBlocks; ++blk) {
            const std::int64_t c0 = blk * kBlock;
            routeBlock(h0, h1, w0, w1, g.inCols, depth, image + c0, gradient + c0, backprop + c0,
                       std::integral_constant<std::int64_t, kBlock>());
        }
        if (tail > 0) {
            const std::int64_t c0 = fullBlocks * kBlock;
            routeBlock(h0, h1, w0, w1, g.inCols, depth, image + c0, gradient + c0, backprop + c0, tail);
        }
    }
}

} // namespace

const MaxPoolGradRowKernels& TSTUDIO_ISA_UNIT_FUNCTION(maxPoolGradRowKernels)()
{
    static const MaxPoolGradRowKernels kernels{TSTUDIO_ISA_UNIT_NAME, &disjointRange};
    return kernels;
}

} // namespace tstudio::nn
#endif // TSTUDIO_ISA_UNIT_UNAVAILABLE
#include "kernels/isa/isa_unit_end.h"
