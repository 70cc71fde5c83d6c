// Tests for the resize kernels (ResizeBilinear, ResizeNearestNeighbor and their *Grad ops): NumPy
// golden cases (tools/golden/image.py); each gradient kernel is the adjoint of its forward kernel
// (<resize(x), g> == <x, grad(g)>) in all three coordinate modes; align_corners reproduces a
// linear ramp exactly.
#include "kernels/kernels.h"
#include "ops/register_all_ops.h"

#include "kernel_harness.h"

#include <QTest>

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
