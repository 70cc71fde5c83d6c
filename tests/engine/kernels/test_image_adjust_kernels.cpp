// Tests for ResizeBicubic, ResizeArea, AdjustContrastv2, AdjustHue, AdjustSaturation, RGBToHSV and
// HSVToRGB: NumPy golden cases (tools/golden/image_adjust.py), then properties an implementation
// could get wrong independently of them: identities (hue 0, saturation 1, contrast 1), the HSV
// round trip, constant images staying constant under bicubic and area resizing, area resizing by
// an integer factor being the block mean, ResizeBilinear's multi-channel float path agreeing with
// single-channel resizes, and results not depending on the thread count.
#include "kernels/kernels.h"
#include "ops/ops.h"
#include "registries/register_all_ops.h"

#include "kernel_harness.h"
#include "shape_fn_testing.h"

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
    return KernelHarness::createOrWarn({registerImageOps, registerImageAdjustOps}, {registerImageCpuKernels});
}

std::vector<float> uniform(std::size_t n, float lo, float hi, std::uint32_t seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (float& x : v)
        x = dist(gen);
    return v;
}

std::vector<float> floats(const Tensor& t)
{
    const auto v = t.values<float>();
    return {v.begin(), v.end()};
}

float maxAbsDifference(const std::vector<float>& a, const std::vector<float>& b)
{
    float worst = a.size() == b.size() ? 0.0f : INFINITY;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        worst = std::max(worst, std::fabs(a[i] - b[i]));
    return worst;
}

/// Runs `node` on an RGB image and a scalar, returning the first output as floats (empty on error).
std::vector<float> runScalarOp(KernelHarness& h, const std::string& node, const Tensor& image, float value)
{
    auto out = h.run(node, {image, tensor<float>(h.allocator(), TensorShape::scalar(), {value})});
    if (!out) {
        qWarning("%s", out.error().toString().c_str());
        return {};
    }
    return floats(out->at(0));
}

} // namespace

class TestImageAdjustKernels : public QObject {
    Q_OBJECT

private slots:
    void goldenCases()
    {
        auto h = makeHarness();
        const QString failures = goldenFailures(h.get(), "image_adjust.json", CaseCount::exactly(74));
        QVERIFY2(failures.isEmpty(), qPrintable(failures));
    }

    /// The shape functions, one case per line.
    void shapeFunctions()
    {
        OpRegistry ops;
        QVERIFY(registerImageOps(ops).isOk() && registerImageAdjustOps(ops).isOk());
        for (const char* op : {"ResizeBicubic", "ResizeArea"}) {
            INFER_OK(ops, op, "T=float", "[2,3,4,5];[2]={7,9}", "[2,7,9,5]");
            INFER_OK(ops, op, "T=uint8", "[?,3,4,?];[2]", "[?,?,?,?]");
            INFER_ERROR(ops, "Shape must be rank 4 but is rank 3", op, "T=float", "[3,4,5];[2]");
        }
        INFER_OK(ops, "AdjustContrastv2", "", "[2,5,6,3];[]", "[2,5,6,3]");
        INFER_ERROR(ops, "Shape must be rank 0 but is rank 1", "AdjustContrastv2", "", "[5,6,3];[1]");
        INFER_ERROR(ops, "Shape must be at least rank 3 but is rank 2", "AdjustHue", "", "[6,3];[]");
        INFER_OK(ops, "AdjustSaturation", "T=half", "[?,?,3];[]", "[?,?,3]");
        INFER_OK(ops, "RGBToHSV", "", "[4,?]", "[4,3]");
        INFER_OK(ops, "HSVToRGB", "T=double", "[3]", "[3]");
        INFER_ERROR(ops, "Dimension must be 3 but is 4", "RGBToHSV", "", "[2,4]");
        INFER_ERROR(ops, "Shape must be at least rank 1 but is rank 0", "HSVToRGB", "", "[]");
    }

    void adjustmentsWithNeutralValuesKeepTheImage()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const std::vector<float> pixels = uniform(6 * 5 * 3, 0.0f, 1.0f, 7);
        const Tensor image = tensor<float>(h->allocator(), TensorShape{6, 5, 3}, pixels);
        // Hue rotation by 0 and by a full turn rebuilds each pixel from its own min, max and ratio.
        QVERIFY(maxAbsDifference(runScalarOp(*h, "op: 'AdjustHue'", image, 0.0f), pixels) < 1e-6f);
        QVERIFY(maxAbsDifference(runScalarOp(*h, "op: 'AdjustHue'", image, 1.0f), pixels) < 1e-5f);
        QVERIFY(maxAbsDifference(runScalarOp(*h, "op: 'AdjustSaturation'", image, 1.0f), pixels) < 1e-5f);
        QVERIFY(maxAbsDifference(runScalarOp(*h, "op: 'AdjustContrastv2'", image, 1.0f), pixels) < 1e-6f);
        // Saturation 0 leaves grey: every pixel's components equal its maximum.
        const std::vector<float> grey = runScalarOp(*h, "op: 'AdjustSaturation'", image, 0.0f);
        QCOMPARE(grey.size(), pixels.size());
        for (std::size_t i = 0; i < grey.size(); i += 3) {
            const float v = std::max({pixels[i], pixels[i + 1], pixels[i + 2]});
            for (int k = 0; k < 3; ++k)
                QVERIFY(std::fabs(grey[i + static_cast<std::size_t>(k)] - v) < 1e-6f);
        }
        // Contrast 0 gives every pixel its channel's mean.
        const std::vector<float> flat = runScalarOp(*h, "op: 'AdjustContrastv2'", image, 0.0f);
        for (int c = 0; c < 3; ++c) {
            double mean = 0.0;
            for (std::size_t i = static_cast<std::size_t>(c); i < pixels.size(); i += 3)
                mean += pixels[i];
            mean /= 30.0;
            for (std::size_t i = static_cast<std::size_t>(c); i < flat.size(); i += 3)
                QVERIFY(std::fabs(flat[i] - mean) < 1e-6);
        }
    }

    void hsvRoundTrip()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const std::vector<float> rgb = uniform(40 * 3, 0.0f, 1.0f, 11);
        auto hsv = h->run("op: 'RGBToHSV'", {tensor<float>(h->allocator(), TensorShape{40, 3}, rgb)});
        QVERIFY2(hsv.has_value(), hsv ? "" : hsv.error().toString().c_str());
        const std::vector<float> values = floats(hsv->at(0));
        for (std::size_t i = 0; i < values.size(); ++i)
            QVERIFY(values[i] >= 0.0f && values[i] <= 1.0f);
        auto back = h->run("op: 'HSVToRGB'", {hsv->at(0)});
        QVERIFY(back.has_value());
        QVERIFY2(maxAbsDifference(floats(back->at(0)), rgb) < 2e-6f, "RGB -> HSV -> RGB changed the colours");
        // Pure red is hue 0, full saturation and value.
        auto red = h->run("op: 'RGBToHSV'", {tensor<float>(h->allocator(), TensorShape{3}, {1.0f, 0.0f, 0.0f})});
        QVERIFY(red.has_value());
        QCOMPARE(floats(red->at(0)), (std::vector<float>{0.0f, 1.0f, 1.0f}));
    }

    void resizingAConstantImageKeepsItConstant()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor image = tensor<float>(h->allocator(), TensorShape{1, 5, 7, 2}, std::vector<float>(70, 3.25f));
        for (const char* node : {"op: 'ResizeBicubic' attr { key: 'T' value { type: DT_FLOAT } }",
                                 "op: 'ResizeBicubic' attr { key: 'T' value { type: DT_FLOAT } } "
                                 "attr { key: 'half_pixel_centers' value { b: true } }",
                                 "op: 'ResizeArea' attr { key: 'T' value { type: DT_FLOAT } }"}) {
            for (const std::vector<std::int32_t>& size : {std::vector<std::int32_t>{9, 4}, {2, 13}, {1, 1}}) {
                auto out = h->run(node, {image, tensor<std::int32_t>(h->allocator(), TensorShape{2}, size)});
                QVERIFY2(out.has_value(), out ? "" : out.error().toString().c_str());
                for (float v : floats(out->at(0)))
                    QVERIFY2(std::fabs(v - 3.25f) < 1e-5f, node);
            }
        }
    }

    void areaByAnIntegerFactorIsTheBlockMean()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const std::vector<float> pixels = uniform(8 * 6, -2.0f, 2.0f, 3);
        auto out = h->run("op: 'ResizeArea' attr { key: 'T' value { type: DT_FLOAT } }",
                          {tensor<float>(h->allocator(), TensorShape{1, 8, 6, 1}, pixels),
                           tensor<std::int32_t>(h->allocator(), TensorShape{2}, {4, 2})});
        QVERIFY(out.has_value());
        const std::vector<float> got = floats(out->at(0));
        QCOMPARE(got.size(), std::size_t{8});
        for (int y = 0; y < 4; ++y) {
            for (int x = 0; x < 2; ++x) {
                double sum = 0.0;
                for (int dy = 0; dy < 2; ++dy)
                    for (int dx = 0; dx < 3; ++dx)
                        sum += pixels[static_cast<std::size_t>((2 * y + dy) * 6 + 3 * x + dx)];
                QVERIFY(std::fabs(got[static_cast<std::size_t>(y * 2 + x)] - sum / 6.0) < 1e-5);
            }
        }
    }

    /// ResizeBilinear computes float pixels of 3 and 4 channels four lanes at a time: each channel must
    /// come out exactly as when it is resized alone (one channel, one value at a time).
    void bilinearChannelsMatchSingleChannelResizes()
    {
        auto h = makeHarness();
        QVERIFY(h);
        for (std::int64_t channels : {3, 4}) {
            for (const std::vector<std::int32_t>& size : {std::vector<std::int32_t>{9, 13}, {3, 2}, {7, 1}}) {
                const std::int64_t height = 5;
                const std::int64_t width = 6;
                const std::vector<float> pixels =
                    uniform(static_cast<std::size_t>(2 * height * width * channels), -3, 3, 17);
                const std::string node = "op: 'ResizeBilinear' attr { key: 'T' value { type: DT_FLOAT } }";
                const Tensor sizeT = tensor<std::int32_t>(h->allocator(), TensorShape{2}, size);
                auto all = h->run(
                    node, {tensor<float>(h->allocator(), TensorShape{2, height, width, channels}, pixels), sizeT});
                QVERIFY(all.has_value());
                const std::vector<float> together = floats(all->at(0));
                for (std::int64_t k = 0; k < channels; ++k) {
                    std::vector<float> plane;
                    for (std::size_t i = static_cast<std::size_t>(k); i < pixels.size();
                         i += static_cast<std::size_t>(channels))
                        plane.push_back(pixels[i]);
                    auto one =
                        h->run(node, {tensor<float>(h->allocator(), TensorShape{2, height, width, 1}, plane), sizeT});
                    QVERIFY(one.has_value());
                    const std::vector<float> alone = floats(one->at(0));
                    for (std::size_t i = 0; i < alone.size(); ++i)
                        QCOMPARE(together[i * static_cast<std::size_t>(channels) + static_cast<std::size_t>(k)],
                                 alone[i]);
                }
            }
        }
    }

    void resultsDoNotDependOnTheThreadCount()
    {
        auto h = makeHarness();
        QVERIFY(h);
        CpuDevice one(1, 1);
        const Tensor image = tensor<float>(h->allocator(), TensorShape{2, 9, 11, 3}, uniform(2 * 9 * 11 * 3, 0, 1, 5));
        const Tensor size = tensor<std::int32_t>(h->allocator(), TensorShape{2}, {5, 17});
        const Tensor scalar = tensor<float>(h->allocator(), TensorShape::scalar(), {0.3f});
        const struct {
            const char* node;
            bool resize;
        } ops[] = {{"op: 'ResizeBicubic' attr { key: 'T' value { type: DT_FLOAT } }", true},
                   {"op: 'ResizeArea' attr { key: 'T' value { type: DT_FLOAT } }", true},
                   {"op: 'AdjustContrastv2'", false},
                   {"op: 'AdjustHue'", false},
                   {"op: 'AdjustSaturation'", false}};
        for (const auto& op : ops) {
            const std::vector<Tensor> inputs = {image, op.resize ? size : scalar};
            auto a = h->run(op.node, inputs);
            auto b = h->runOn(one, op.node, inputs);
            QVERIFY(a.has_value() && b.has_value());
            QVERIFY2(floats(a->at(0)) == floats(b->at(0)), op.node);
        }
    }
};

QTEST_GUILESS_MAIN(TestImageAdjustKernels)
#include "test_image_adjust_kernels.moc"
