// CPU kernels of ResizeBilinear and ResizeBilinearGrad as TensorFlow 1.15 computes them
// (resize_bilinear_op.cc): per output row and column the two source indices, clamped to the image,
// and the weight of the second; values interpolated in float along x then y; the gradient adds
// each incoming value times the four weights into the four source pixels, in TensorFlow's order,
// accumulating in the output's type. The forward pass interpolates each source row along x once and
// reuses it for the output rows that share it (the same operations, so the same values); rows of
// other types are converted to float first (the conversion TensorFlow applies to each value), so
// every type takes the same vectorised float passes (two pixels and sixteen floats per step with
// AVX where the processor has it, no FMA, so the same values either way). One thread: results do
// not depend on the thread count.
// Repeats on purpose: the registration and compute prologue of the other resize kernels (prepareResize and
// readResizeAttrs are shared); what differs is the sampling.
#include "kernels/image/image_resize.h"

#include "core/cpu_features.h"
#include "kernels/array/array_kernel_util.h"

#include <Eigen/Core>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace tstudio::image {

namespace {

/// The two source indices of one output row or column and the weight of `upper`.
struct Interpolation {
    std::int64_t lower = 0;
    std::int64_t upper = 0;
    float lerp = 0.0f;
};

Interpolation interpolationAt(std::int64_t i, float scale, std::int64_t inSize, bool halfPixelCenters)
{
    const float in = halfPixelCenters ? halfPixelCoordinate(i, scale) : legacyCoordinate(i, scale);
    const float inFloor = std::floor(in);
    Interpolation w;
    w.lower = std::max(static_cast<std::int64_t>(inFloor), std::int64_t{0});
    w.upper = std::min(static_cast<std::int64_t>(std::ceil(in)), inSize - 1);
    w.lerp = in - inFloor;
    return w;
}

std::vector<Interpolation> interpolations(std::int64_t outSize, float scale, std::int64_t inSize, bool halfPixelCenters)
{
    std::vector<Interpolation> ws(static_cast<std::size_t>(outSize));
    for (std::int64_t i = 0; i < outSize; ++i)
        ws[static_cast<std::size_t>(i)] = interpolationAt(i, scale, inSize, halfPixelCenters);
    return ws;
}

/// Four floats: a pixel of 3 or 4 channels per vector operation, and the rows' blend.
using Float4 = float __attribute__((vector_size(16)));

Float4 load4(const float* p)
{
    Float4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

void store4(float* p, Float4 v)
{
    std::memcpy(p, &v, sizeof v);
}

/// The output columns as element offsets (index x channels) of the two source pixels and the
/// weight of the right one, in arrays the x pass streams through.
struct Columns {
    std::vector<std::int64_t> left;
    std::vector<std::int64_t> right;
    std::vector<float> lerp;
    /// The leading columns whose two pixels both lie before the row's last pixel: a four-lane load
    /// of 3 channels there stays inside the row.
    std::size_t beforeLastPixel = 0;
};

Columns columnsOf(const std::vector<Interpolation>& xs, std::int64_t inWidth, std::int64_t channels)
{
    Columns cols;
    cols.left.reserve(xs.size());
    cols.right.reserve(xs.size());
    cols.lerp.reserve(xs.size());
    for (const Interpolation& x : xs) {
        if (x.lower < inWidth - 1 && x.upper < inWidth - 1 && cols.beforeLastPixel == cols.left.size())
            ++cols.beforeLastPixel;
        cols.left.push_back(x.lower * channels);
        cols.right.push_back(x.upper * channels);
        cols.lerp.push_back(x.lerp);
    }
    return cols;
}

/// One source row of float pixels interpolated along x: l + (r - l) * lerp per channel, as
/// TensorFlow computes it. C is the channel count when fixed (1, 3, 4), else 0 and `channels` says.
/// With 3 channels a pixel is one four-lane operation whose fourth lane reads the next pixel's
/// first channel and stores one float past the pixel, which the next pixel overwrites (`dst` has
/// room for one more float); pixels touching the row's last one go a channel at a time.
template <int C> void rowAlongX(const float* source, const Columns& cols, std::int64_t channels, float* dst)
{
    const std::size_t n = cols.left.size();
    const std::int64_t* left = cols.left.data();
    const std::int64_t* right = cols.right.data();
    const float* lerp = cols.lerp.data();
    if constexpr (C == 3 || C == 4) {
        const std::size_t vectorPixels = C == 4 ? n : cols.beforeLastPixel;
        std::size_t i = 0;
        for (; i < vectorPixels; ++i) {
            const Float4 l = load4(source + left[i]);
            const Float4 r = load4(source + right[i]);
            store4(dst + i * C, l + (r - l) * lerp[i]);
        }
        for (; i < n; ++i) {
            for (int k = 0; k < C; ++k) {
                const float l = source[left[i] + k];
                dst[i * C + k] = l + (source[right[i] + k] - l) * lerp[i];
            }
        }
    } else if constexpr (C == 1) {
        for (std::size_t i = 0; i < n; ++i) {
            const float l = source[left[i]];
            dst[i] = l + (source[right[i]] - l) * lerp[i];
        }
    } else {
        for (std::size_t i = 0; i < n; ++i) {
            for (std::int64_t k = 0; k < channels; ++k) {
                const float l = source[left[i] + k];
                *dst++ = l + (source[right[i] + k] - l) * lerp[i];
            }
        }
    }
}

#if defined(__x86_64__)
/// rowAlongX<3> two pixels per AVX operation (pixel i in the low four lanes, i + 1 in the high
/// four), for processors that have AVX: the same operations per channel, so the same values. Each
/// pixel's four lanes are stored as rowAlongX<3> stores them, the next pixel's overwriting the
/// fourth.
__attribute__((target("avx"))) void rowAlongX3Avx(const float* source, const Columns& cols, float* dst)
{
    const std::size_t n = cols.left.size();
    const std::int64_t* left = cols.left.data();
    const std::int64_t* right = cols.right.data();
    const float* lerp = cols.lerp.data();
    const std::size_t vectorPixels = cols.beforeLastPixel;
    std::size_t i = 0;
    for (; i + 2 <= vectorPixels; i += 2) {
        const __m256 l = _mm256_loadu2_m128(source + left[i + 1], source + left[i]);
        const __m256 r = _mm256_loadu2_m128(source + right[i + 1], source + right[i]);
        const __m256 w = _mm256_set_m128(_mm_set1_ps(lerp[i + 1]), _mm_set1_ps(lerp[i]));
        const __m256 o = _mm256_add_ps(l, _mm256_mul_ps(_mm256_sub_ps(r, l), w));
        _mm_storeu_ps(dst + i * 3, _mm256_castps256_ps128(o));
        _mm_storeu_ps(dst + i * 3 + 3, _mm256_extractf128_ps(o, 1));
    }
    for (; i < vectorPixels; ++i) {
        const Float4 l = load4(source + left[i]);
        const Float4 r = load4(source + right[i]);
        store4(dst + i * 3, l + (r - l) * lerp[i]);
    }
    for (; i < n; ++i) {
        for (int k = 0; k < 3; ++k) {
            const float l = source[left[i] + k];
            dst[i * 3 + k] = l + (source[right[i] + k] - l) * lerp[i];
        }
    }
}
#endif

/// out = top + (bottom - top) * lerp over n floats, eight per step (-O2 leaves a plain loop
/// scalar); the same operations per element as the scalar tail, so the same values.
void blendRowsSse(const float* top, const float* bottom, float lerp, std::size_t n, float* out)
{
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const Float4 t0 = load4(top + i);
        const Float4 t1 = load4(top + i + 4);
        const Float4 b0 = load4(bottom + i);
        const Float4 b1 = load4(bottom + i + 4);
        store4(out + i, t0 + (b0 - t0) * lerp);
        store4(out + i + 4, t1 + (b1 - t1) * lerp);
    }
    for (; i < n; ++i)
        out[i] = top[i] + (bottom[i] - top[i]) * lerp;
}

#if defined(__x86_64__)
/// Eight floats: AVX's width (no FMA: a multiply and an add, each rounded, as TensorFlow's).
using Float8 = float __attribute__((vector_size(32)));

/// blendRowsSse sixteen floats per step with AVX, for processors that have it: the same
/// operations per element, so the same values.
__attribute__((target("avx"))) void blendRowsAvx(const float* top, const float* bottom, float lerp, std::size_t n,
                                                 float* out)
{
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        Float8 t0, t1, b0, b1;
        std::memcpy(&t0, top + i, sizeof t0);
        std::memcpy(&t1, top + i + 8, sizeof t1);
        std::memcpy(&b0, bottom + i, sizeof b0);
        std::memcpy(&b1, bottom + i + 8, sizeof b1);
        const Float8 o0 = t0 + (b0 - t0) * lerp;
        const Float8 o1 = t1 + (b1 - t1) * lerp;
        std::memcpy(out + i, &o0, sizeof o0);
        std::memcpy(out + i + 8, &o1, sizeof o1);
    }
    for (; i < n; ++i)
        out[i] = top[i] + (bottom[i] - top[i]) * lerp;
}

/// Whether this processor (and OS) runs AVX code; checked once.
bool hasAvx()
{
    static const bool has = cpuHasLevel(CpuLevel::kAvx);
    return has;
}
#endif

void blendRows(const float* top, const float* bottom, float lerp, std::size_t n, float* out)
{
#if defined(__x86_64__)
    if (hasAvx())
        return blendRowsAvx(top, bottom, lerp, n, out);
#endif
    blendRowsSse(top, bottom, lerp, n, out);
}

/// n source values as floats (static_cast, exact for the 8- and 16-bit types), so that every
/// input type takes the float x pass: the same conversion the interpolation did per value.
template <typename T> void toFloats(const T* in, std::size_t n, float* out)
{
    std::size_t i = 0;
#if defined(__SSE2__)
    if constexpr (std::is_same_v<T, std::uint8_t>) {
        // The common image type: zero-extended by unpacking, 16 bytes to four float vectors (twice
        // as fast as the portable chain below).
        const __m128i zero = _mm_setzero_si128();
        for (; i + 16 <= n; i += 16) {
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
            const __m128i low = _mm_unpacklo_epi8(bytes, zero);
            const __m128i high = _mm_unpackhi_epi8(bytes, zero);
            _mm_storeu_ps(out + i, _mm_cvtepi32_ps(_mm_unpacklo_epi16(low, zero)));
            _mm_storeu_ps(out + i + 4, _mm_cvtepi32_ps(_mm_unpackhi_epi16(low, zero)));
            _mm_storeu_ps(out + i + 8, _mm_cvtepi32_ps(_mm_unpacklo_epi16(high, zero)));
            _mm_storeu_ps(out + i + 12, _mm_cvtepi32_ps(_mm_unpackhi_epi16(high, zero)));
        }
    }
#endif
    if constexpr (std::is_integral_v<T> && sizeof(T) <= 2) {
        // Bytes go through int16 lanes: GCC 12 converts bytes straight to float one at a time.
        typedef T Vector16 __attribute__((vector_size(16 * sizeof(T))));
        typedef std::int16_t Int16x16 __attribute__((vector_size(32)));
        typedef float Float16 __attribute__((vector_size(64)));
        for (; i + 16 <= n; i += 16) {
            Vector16 a;
            std::memcpy(&a, in + i, sizeof a);
            Float16 f;
            if constexpr (sizeof(T) == 1)
                f = __builtin_convertvector(__builtin_convertvector(a, Int16x16), Float16);
            else
                f = __builtin_convertvector(a, Float16);
            std::memcpy(out + i, &f, sizeof f);
        }
    }
    for (; i < n; ++i)
        out[i] = static_cast<float>(in[i]);
}

/// The input's dimensions (NHWC).
struct ImageSize {
    std::int64_t batch = 0;
    std::int64_t height = 0;
    std::int64_t width = 0;
    std::int64_t channels = 0;
};

/// ResizeBilinear of `in` (`size`) into `out`: ys.size() rows of cols.left.size() pixels per image.
template <typename T>
void resizeBilinear(const T* in, const ImageSize& size, const std::vector<Interpolation>& ys, const Columns& cols,
                    float* out)
{
    const std::int64_t c = size.channels;
    const std::size_t rowLength = cols.left.size() * static_cast<std::size_t>(c);
    const std::size_t sourceLength = static_cast<std::size_t>(size.width * c);
    // Source rows interpolated along x (top = tl + (tr - tl) * xl), kept for the output rows that
    // share them: two slots, as consecutive output rows need rows lower and upper. Padded by a
    // pixel: the four-lane path may store one float past a row's end.
    std::vector<float> slots[2] = {std::vector<float>(rowLength + 4), std::vector<float>(rowLength + 4)};
    // Other types: the source row converted to float first, then the float x pass.
    std::vector<float> converted(std::is_same_v<T, float> ? 0 : sourceLength);
    std::int64_t slotRows[2] = {-1, -1};
    std::int64_t batch = 0;
    const auto fillRow = [&](std::int64_t row, float* dst) {
        const T* source = in + (batch * size.height + row) * size.width * c;
        const float* floats = nullptr;
        if constexpr (std::is_same_v<T, float>) {
            floats = source;
        } else {
            toFloats(source, sourceLength, converted.data());
            floats = converted.data();
        }
        switch (c) {
        case 1: rowAlongX<1>(floats, cols, c, dst); break;
        case 3:
#if defined(__x86_64__)
            if (hasAvx()) {
                rowAlongX3Avx(floats, cols, dst);
                break;
            }
#endif
            rowAlongX<3>(floats, cols, c, dst);
            break;
        case 4: rowAlongX<4>(floats, cols, c, dst); break;
        default: rowAlongX<0>(floats, cols, c, dst); break;
        }
    };
    // The slot holding `row`, filled into the slot that does not hold `keep` when missing.
    const auto rowOf = [&](std::int64_t row, std::int64_t keep) -> const float* {
        for (int s = 0; s < 2; ++s)
            if (slotRows[s] == row)
                return slots[s].data();
        const int victim = slotRows[0] == keep ? 1 : 0;
        fillRow(row, slots[victim].data());
        slotRows[victim] = row;
        return slots[victim].data();
    };
    float* o = out;
    for (batch = 0; batch < size.batch; ++batch) {
        slotRows[0] = slotRows[1] = -1;
        for (const Interpolation& y : ys) {
            const float* top = rowOf(y.lower, y.upper);
            const float* bottom = rowOf(y.upper, y.lower);
            blendRows(top, bottom, y.lerp, rowLength, o);
            o += rowLength;
        }
    }
}

using ResizeBilinearTypes = TypeList<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::int64_t,
                                     Eigen::bfloat16, Eigen::half, float, double>;
using ResizeBilinearGradTypes = TypeList<float, Eigen::bfloat16, Eigen::half, double>;

class ResizeBilinearOp : public array::ArrayKernel {
public:
    explicit ResizeBilinearOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        read(readResizeAttrs(node()), m_attrs);
    }

    Status compute(OpKernelContext& context) override
    {
        auto state = prepareResize(context, m_attrs);
        if (!state)
            return state.error();
        const ResizeState& st = *state;
        if (st.output->numElements() == 0)
            return Status::ok();
        const std::vector<Interpolation> ys =
            interpolations(st.outHeight, st.heightScale, st.inHeight, m_attrs.halfPixelCenters);
        const std::vector<Interpolation> xs =
            interpolations(st.outWidth, st.widthScale, st.inWidth, m_attrs.halfPixelCenters);
        const Tensor& input = context.input(0);
        const Columns cols = columnsOf(xs, st.inWidth, st.channels);
        const ImageSize size{st.batch, st.inHeight, st.inWidth, st.channels};
        float* out = st.output->values<float>().data();
        return dispatchDataType<ResizeBilinearTypes>(input.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            resizeBilinear(input.values<T>().data(), size, ys, cols, out);
        });
    }

private:
    ResizeAttrs m_attrs;
};

class ResizeBilinearGradOp : public array::ArrayKernel {
public:
    explicit ResizeBilinearGradOp(OpKernelConstruction& construction) : ArrayKernel(construction)
    {
        read(readResizeAttrs(node()), m_attrs);
    }

    Status compute(OpKernelContext& context) override
    {
        if (m_attrs.halfPixelCenters && m_attrs.alignCorners)
            return invalidArgumentError("If half_pixel_centers is True, align_corners must be False.");
        const Tensor& grads = context.input(0);
        const Tensor& original = context.input(1);
        if (grads.rank() != 4)
            return invalidArgumentError("input_grad must be 4-dimensional" + grads.shape().toString());
        if (original.rank() != 4)
            return invalidArgumentError("original_image must be 4-dimensional" + original.shape().toString());
        const std::int64_t batch = grads.shape().dim(0);
        const std::int64_t resizedHeight = grads.shape().dim(1);
        const std::int64_t resizedWidth = grads.shape().dim(2);
        const std::int64_t channels = grads.shape().dim(3);
        const std::int64_t height = original.shape().dim(1);
        const std::int64_t width = original.shape().dim(2);
        constexpr std::int64_t kMax = std::numeric_limits<std::int32_t>::max();
        if (height >= kMax || width >= kMax)
            return invalidArgumentError("original sizes must be between 0 and max int32");
        auto out = context.allocateOutput(0, TensorShape{batch, height, width, channels});
        if (!out)
            return out.error();
        Tensor& output = **out;
        const float heightScale = resizeScale(height, resizedHeight, m_attrs.alignCorners);
        const float widthScale = resizeScale(width, resizedWidth, m_attrs.alignCorners);
        const std::vector<Interpolation> ys =
            interpolations(resizedHeight, heightScale, height, m_attrs.halfPixelCenters);
        const std::vector<Interpolation> xs = interpolations(resizedWidth, widthScale, width, m_attrs.halfPixelCenters);
        std::span<const float> g = grads.values<float>();
        return dispatchDataType<ResizeBilinearGradTypes>(output.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            std::span<T> o = output.values<T>();
            std::fill(o.begin(), o.end(), T(0));
            const auto add = [&](std::int64_t b, std::int64_t y, std::int64_t x, std::int64_t k, float v) {
                T& cell = o[static_cast<std::size_t>(((b * height + y) * width + x) * channels + k)];
                cell = static_cast<T>(cell + static_cast<T>(v));
            };
            std::size_t i = 0;
            for (std::int64_t b = 0; b < batch; ++b) {
                for (const Interpolation& y : ys) {
                    const float inverseY = 1.0f - y.lerp;
                    for (const Interpolation& x : xs) {
                        const float inverseX = 1.0f - x.lerp;
                        for (std::int64_t k = 0; k < channels; ++k) {
                            const float v = g[i++];
                            add(b, y.lower, x.lower, k, v * inverseY * inverseX);
                            add(b, y.lower, x.upper, k, v * inverseY * x.lerp);
                            add(b, y.upper, x.lower, k, v * y.lerp * inverseX);
                            add(b, y.upper, x.upper, k, v * y.lerp * x.lerp);
                        }
                    }
                }
            }
        });
    }

private:
    ResizeAttrs m_attrs;
};

} // namespace

Status registerResizeBilinearCpuKernels(KernelRegistry& registry)
{
    using namespace tensorflow;
    KernelDef forward = array::cpuDef("ResizeBilinear", {{"T",
                                                          {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32, DT_INT64,
                                                           DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE}}});
    forward.hostMemoryArgs = {"size"};
    array::KernelAdder adder(registry);
    adder.add<ResizeBilinearOp>(std::move(forward));
    adder.add<ResizeBilinearGradOp>(
        array::cpuDef("ResizeBilinearGrad", {{"T", {DT_FLOAT, DT_BFLOAT16, DT_HALF, DT_DOUBLE}}}));
    return adder.status();
}

} // namespace tstudio::image
