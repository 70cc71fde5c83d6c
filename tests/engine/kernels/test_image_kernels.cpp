// Tests for the resize kernels (ResizeBilinear, ResizeNearestNeighbor and their *Grad ops): NumPy
// golden cases (tools/golden/image.py); each gradient kernel is the adjoint of its forward kernel
// (<resize(x), g> == <x, grad(g)>) in all three coordinate modes; align_corners reproduces a
// linear ramp exactly; the vectorised bilinear passes match a pixel-by-pixel reference on odd
// shapes, channel counts and input types.
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include "kernel_harness.h"

#include <QTest>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    return KernelHarness::createOrWarn({registerImageOps}, {registerImageCpuKernels});
}

std::string resizeNode(const char* op, bool align, bool halfPixel)
{
    return std::string("op: '") + op + "' attr { key: 'T' value { type: DT_FLOAT } } " +
           "attr { key: 'align_corners' value { b: " + (align ? "true" : "false") + " } } " +
           "attr { key: 'half_pixel_centers' value { b: " + (halfPixel ? "true" : "false") + " } }";
}

std::vector<float> randomFloats(std::size_t n, std::uint32_t seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v)
        x = dist(gen);
    return v;
}

double dot(const Tensor& a, const Tensor& b)
{
    double sum = 0.0;
    const auto x = a.values<float>();
    const auto y = b.values<float>();
    for (std::size_t i = 0; i < x.size(); ++i)
        sum += static_cast<double>(x[i]) * static_cast<double>(y[i]);
    return sum;
}

/// ResizeBilinear as TensorFlow 1.15's resize_bilinear_op.cc states it, one output pixel at a time
/// from its four source pixels (no shared rows, no vector lanes): top = tl + (tr - tl) * xl,
/// bottom = bl + (br - bl) * xl, out = top + (bottom - top) * yl, in float.
template <typename T>
std::vector<float> referenceBilinear(const std::vector<T>& in, std::int64_t batch, std::int64_t height,
                                     std::int64_t width, std::int64_t channels, std::int64_t outHeight,
                                     std::int64_t outWidth, bool align, bool halfPixel)
{
    const auto scaleOf = [&](std::int64_t inSize, std::int64_t outSize) {
        return (align && outSize > 1) ? static_cast<float>(inSize - 1) / static_cast<float>(outSize - 1)
                                      : static_cast<float>(inSize) / static_cast<float>(outSize);
    };
    struct Source {
        std::int64_t lower, upper;
        float lerp;
    };
    const auto sourceOf = [&](std::int64_t i, float scale, std::int64_t inSize) {
        const float at = halfPixel ? (static_cast<float>(i) + 0.5f) * scale - 0.5f : static_cast<float>(i) * scale;
        const float floor = std::floor(at);
        return Source{std::max<std::int64_t>(static_cast<std::int64_t>(floor), 0),
                      std::min<std::int64_t>(static_cast<std::int64_t>(std::ceil(at)), inSize - 1), at - floor};
    };
    const float heightScale = scaleOf(height, outHeight);
    const float widthScale = scaleOf(width, outWidth);
    const auto value = [&](std::int64_t b, std::int64_t y, std::int64_t x, std::int64_t k) {
        return static_cast<float>(in[static_cast<std::size_t>(((b * height + y) * width + x) * channels + k)]);
    };
    std::vector<float> out;
    for (std::int64_t b = 0; b < batch; ++b) {
        for (std::int64_t oy = 0; oy < outHeight; ++oy) {
            const Source y = sourceOf(oy, heightScale, height);
            for (std::int64_t ox = 0; ox < outWidth; ++ox) {
                const Source x = sourceOf(ox, widthScale, width);
                for (std::int64_t k = 0; k < channels; ++k) {
                    const float tl = value(b, y.lower, x.lower, k);
                    const float tr = value(b, y.lower, x.upper, k);
                    const float bl = value(b, y.upper, x.lower, k);
                    const float br = value(b, y.upper, x.upper, k);
                    const float top = tl + (tr - tl) * x.lerp;
                    const float bottom = bl + (br - bl) * x.lerp;
                    out.push_back(top + (bottom - top) * y.lerp);
                }
            }
        }
    }
    return out;
}

/// Whether two floats are within a few units in the last place (bit-equal on x86-64, where nothing
/// fuses a multiply-add; a target that contracts a * b + c may differ by an ulp or two).
bool nearlyEqual(float a, float b)
{
    if (a == b)
        return true;
    const float ulp = std::nextafter(std::max(std::abs(a), std::abs(b)), INFINITY) - std::max(std::abs(a), std::abs(b));
    return std::abs(a - b) <= 4 * ulp;
}

} // namespace

class TestImageKernels : public QObject {
    Q_OBJECT

private slots:
    void goldenCases()
    {
        auto h = makeHarness();
        const QString failures = goldenFailures(h.get(), "image.json", CaseCount::exactly(75));
        QVERIFY2(failures.isEmpty(), qPrintable(failures));
    }

    /// The gradient kernels are the transposes of the forward maps, for up- and downsampling.
    void gradientKernelsAreAdjoints()
    {
        auto h = makeHarness();
        QVERIFY(h);
        Allocator& a = h->allocator();
        const struct {
            bool align;
            bool halfPixel;
        } modes[] = {{false, false}, {true, false}, {false, true}};
        const std::vector<std::array<std::int64_t, 4>> shapes = {{2, 5, 7, 3}, {1, 9, 4, 2}};
        const std::vector<std::array<std::int32_t, 2>> sizes = {{11, 3}, {4, 13}, {1, 1}};
        std::uint32_t seed = 1;
        for (const auto& mode : modes) {
            for (const auto& s : shapes) {
                for (const auto& size : sizes) {
                    const TensorShape inShape{s[0], s[1], s[2], s[3]};
                    const TensorShape outShape{s[0], size[0], size[1], s[3]};
                    const Tensor x =
                        tensor(a, inShape, randomFloats(static_cast<std::size_t>(*inShape.numElements()), seed++));
                    const Tensor g =
                        tensor(a, outShape, randomFloats(static_cast<std::size_t>(*outShape.numElements()), seed++));
                    const Tensor sizeT = tensor<std::int32_t>(a, TensorShape{2}, {size[0], size[1]});
                    const Tensor inSize = tensor<std::int32_t>(
                        a, TensorShape{2}, {static_cast<std::int32_t>(s[1]), static_cast<std::int32_t>(s[2])});
                    for (const char* op : {"Bilinear", "NearestNeighbor"}) {
                        const bool bilinear = std::string(op) == "Bilinear";
                        const std::string forward = std::string("Resize") + op;
                        auto y = h->run(resizeNode(forward.c_str(), mode.align, mode.halfPixel), {x, sizeT});
                        QVERIFY2(y, y ? "" : y.error().toString().c_str());
                        auto gx = h->run(resizeNode((forward + "Grad").c_str(), mode.align, mode.halfPixel),
                                         {g, bilinear ? x : inSize});
                        QVERIFY2(gx, gx ? "" : gx.error().toString().c_str());
                        QCOMPARE((*gx)[0].shape(), inShape);
                        const double lhs = dot((*y)[0], g);
                        const double rhs = dot(x, (*gx)[0]);
                        QVERIFY2(std::abs(lhs - rhs) <= 1e-4 * (1.0 + std::abs(lhs)),
                                 qPrintable(QString("%1 align %2 half %3: %4 vs %5")
                                                .arg(op)
                                                .arg(mode.align)
                                                .arg(mode.halfPixel)
                                                .arg(lhs)
                                                .arg(rhs)));
                    }
                }
            }
        }
    }

    /// ResizeBilinear's vectorised passes (four-lane pixels, eight-float row blends, rows converted
    /// to float first) against referenceBilinear: widths 1, 3, 17 and 223 scaled up and down, 1 to 5
    /// channels, float, uint8, int16, double and half inputs, all three coordinate modes.
    void bilinearMatchesPixelByPixelReference()
    {
        auto h = makeHarness();
        QVERIFY(h);
        Allocator& a = h->allocator();
        const struct {
            bool align;
            bool halfPixel;
        } modes[] = {{false, false}, {true, false}, {false, true}};
        struct Shape {
            std::int64_t height, width, outHeight, outWidth;
        };
        const std::vector<Shape> shapes = {{1, 1, 3, 5},     {3, 3, 2, 1},    {5, 17, 9, 31},   {7, 17, 3, 5},
                                           {2, 223, 3, 224}, {4, 223, 2, 28}, {3, 192, 5, 223}, {6, 3, 6, 17}};
        std::mt19937 gen(7);
        int cases = 0;
        for (const auto& mode : modes) {
            for (const Shape& s : shapes) {
                for (std::int64_t channels = 1; channels <= 5; ++channels) {
                    const std::int64_t batch = 2;
                    const TensorShape inShape{batch, s.height, s.width, channels};
                    const auto n = static_cast<std::size_t>(*inShape.numElements());
                    const Tensor size = tensor<std::int32_t>(
                        a, TensorShape{2},
                        {static_cast<std::int32_t>(s.outHeight), static_cast<std::int32_t>(s.outWidth)});
                    const auto check = [&](const char* typeName, const Tensor& in, const std::vector<float>& want) {
                        std::string node = resizeNode("ResizeBilinear", mode.align, mode.halfPixel);
                        node.replace(node.find("DT_FLOAT"), 8, typeName);
                        auto out = h->run(node, {in, size});
                        QVERIFY2(out, out ? "" : out.error().toString().c_str());
                        const Tensor& got = (*out)[0];
                        QCOMPARE(got.shape(), (TensorShape{batch, s.outHeight, s.outWidth, channels}));
                        const auto v = got.values<float>();
                        QCOMPARE(v.size(), want.size());
                        for (std::size_t i = 0; i < v.size(); ++i)
                            QVERIFY2(nearlyEqual(v[i], want[i]),
                                     qPrintable(QString("%1 %2x%3x%4 -> %5x%6 align %7 half %8: element %9 %10 vs %11")
                                                    .arg(typeName)
                                                    .arg(s.height)
                                                    .arg(s.width)
                                                    .arg(channels)
                                                    .arg(s.outHeight)
                                                    .arg(s.outWidth)
                                                    .arg(mode.align)
                                                    .arg(mode.halfPixel)
                                                    .arg(i)
                                                    .arg(v[i])
                                                    .arg(want[i])));
                        ++cases;
                    };
                    std::vector<float> floats(n);
                    std::vector<std::uint8_t> bytes(n);
                    std::vector<std::int16_t> shorts(n);
                    std::vector<double> doubles(n);
                    std::vector<Eigen::half> halves(n);
                    for (std::size_t i = 0; i < n; ++i) {
                        floats[i] = static_cast<float>(static_cast<int>(gen() % 20001) - 10000) / 37.0f;
                        bytes[i] = static_cast<std::uint8_t>(gen());
                        shorts[i] = static_cast<std::int16_t>(gen());
                        doubles[i] = static_cast<double>(gen() % 100000) / 7.0;
                        halves[i] = Eigen::half(static_cast<float>(gen() % 2000) / 8.0f);
                    }
                    const auto want = [&](const auto& values) {
                        return referenceBilinear(values, batch, s.height, s.width, channels, s.outHeight, s.outWidth,
                                                 mode.align, mode.halfPixel);
                    };
                    check("DT_FLOAT", tensor(a, inShape, floats), want(floats));
                    check("DT_UINT8", tensor(a, inShape, bytes), want(bytes));
                    check("DT_INT16", tensor(a, inShape, shorts), want(shorts));
                    check("DT_DOUBLE", tensor(a, inShape, doubles), want(doubles));
                    check("DT_HALF", tensor(a, inShape, halves), want(halves));
                }
            }
        }
        QCOMPARE(cases, 3 * 8 * 5 * 5);
    }

    /// With align_corners, a bilinear resize of v(y, x) = 3y - 2x + 1 samples the same plane at
    /// y * (h - 1) / (oh - 1).
    void alignCornersKeepsLinearRamps()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const std::int64_t height = 4, width = 6, outHeight = 7, outWidth = 11;
        std::vector<float> ramp;
        for (std::int64_t y = 0; y < height; ++y)
            for (std::int64_t x = 0; x < width; ++x)
                ramp.push_back(static_cast<float>(3 * y - 2 * x + 1));
        const Tensor in = tensor(h->allocator(), TensorShape{1, height, width, 1}, ramp);
        const Tensor size = tensor<std::int32_t>(h->allocator(), TensorShape{2}, {outHeight, outWidth});
        auto out = h->run(resizeNode("ResizeBilinear", true, false), {in, size});
        QVERIFY(out);
        const auto v = (*out)[0].values<float>();
        for (std::int64_t y = 0; y < outHeight; ++y) {
            for (std::int64_t x = 0; x < outWidth; ++x) {
                const double sy = static_cast<double>(y) * (height - 1) / (outHeight - 1);
                const double sx = static_cast<double>(x) * (width - 1) / (outWidth - 1);
                QVERIFY(std::abs(v[static_cast<std::size_t>(y * outWidth + x)] - (3 * sy - 2 * sx + 1)) < 1e-5);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestImageKernels)
#include "test_image_kernels.moc"
