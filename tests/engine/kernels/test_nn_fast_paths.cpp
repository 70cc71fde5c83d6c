// Tests for the hand-vectorised CPU loops of the training kernels against direct element-by-element
// references written here: MaxPoolGrad on windows that do not overlap (full channel blocks and a
// tail, ties, NaN, -0 gradients), ReluGrad (NaN and infinite gradients, +-0 and NaN features, a
// length that is not a multiple of the packet size) and channels-last BiasAddGrad (sums against
// double precision). The golden cases of test_nn_kernels cover the same ops on small shapes.
#include "devices/cpu/cpu_device.h"
#include "kernels/kernels.h"
#include "ops/ops.h"

#include "kernel_harness.h"
#include "random_values.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    return KernelHarness::createOrWarn({registerNnOps}, {registerNnCpuKernels});
}

/// Values drawn from a few levels so that windows often hold ties.
std::vector<float> coarseFloats(std::size_t count, std::uint32_t seed)
{
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> level(-3, 3);
    std::vector<float> v(count);
    for (float& x : v)
        x = 0.5f * float(level(gen));
    return v;
}

bool sameBits(float a, float b)
{
    return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

std::string maxPoolGradNode(int k, int s, const char* padding)
{
    const std::string ks = std::to_string(k), ss = std::to_string(s);
    return "op: 'MaxPoolGrad' attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'padding' value { s: '" +
           std::string(padding) + "' } } attr { key: 'ksize' value { list { i: 1 i: " + ks + " i: " + ks +
           " i: 1 } } } attr { key: 'strides' value { list { i: 1 i: " + ss + " i: " + ss + " i: 1 } } }";
}

} // namespace

class TestNnFastPaths : public QObject {
    Q_OBJECT
private slots:
    /// Windows of k x k with stride s >= k (disjoint; s > k leaves input elements in no window),
    /// 40 channels (two full blocks of 16 and a tail of 8): every gradient lands on the first
    /// maximum of its window in row-major order, NaN never wins, a window of NaN and -inf routes
    /// to its first -inf, a -0 gradient lands as +0, and every other element is +0.
    void maxPoolGradDisjointWindows_data()
    {
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("s");
        QTest::addColumn<QString>("padding");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::newRow("2x2 s2 SAME odd") << 2 << 2 << "SAME" << 9 << 11;
        QTest::newRow("2x2 s2 VALID odd") << 2 << 2 << "VALID" << 9 << 11;
        QTest::newRow("2x2 s3 SAME") << 2 << 3 << "SAME" << 9 << 11;
        QTest::newRow("3x3 s3 SAME") << 3 << 3 << "SAME" << 9 << 11;
        // Windows that tile the input: the result is not zeroed first, every element is written.
        QTest::newRow("2x2 s2 VALID even (tiles)") << 2 << 2 << "VALID" << 10 << 12;
        QTest::newRow("3x3 s3 SAME (tiles)") << 3 << 3 << "SAME" << 8 << 7;
    }
    void maxPoolGradDisjointWindows()
    {
        QFETCH(int, k);
        QFETCH(int, s);
        QFETCH(QString, padding);
        QFETCH(int, rows);
        QFETCH(int, cols);
        auto h = makeHarness();
        QVERIFY(h);
        Allocator& a = h->allocator();
        const int batch = 2, depth = 40;
        std::vector<float> x = coarseFloats(std::size_t(batch * rows * cols * depth), 21);
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const float inf = std::numeric_limits<float>::infinity();
        // NaN in front of a window's maximum (channel 3, a full block) and a window of NaN and -inf
        // (channel 35, the tail), both at the first pixel.
        x[std::size_t(3)] = nan;
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
                x[std::size_t((r * cols + c) * depth + 35)] = (r + c) % 2 == 0 ? nan : -inf;
        const TensorShape xs{batch, rows, cols, depth};
        const Tensor xt = tensor(a, xs, x);
        auto pooled = h->run("op: 'MaxPool' attr { key: 'T' value { type: DT_FLOAT } } attr { key: 'padding' value { "
                             "s: '" + padding.toStdString() + "' } } attr { key: 'ksize' value { list { i: 1 i: " +
                                 std::to_string(k) + " i: " + std::to_string(k) +
                                 " i: 1 } } } attr { key: 'strides' value { list { i: 1 i: " + std::to_string(s) +
                                 " i: " + std::to_string(s) + " i: 1 } } }",
                             {xt});
        if (!pooled)
            QFAIL(pooled.error().toString().c_str());
        const TensorShape ys = (*pooled)[0].shape();
        const int outRows = int(ys.dim(1)), outCols = int(ys.dim(2));
        std::vector<float> dy = randomFloats(std::size_t(batch * outRows * outCols * depth), 22);
        dy[std::size_t(5)] = -0.0f;
        // A buffer of the result's size full of NaN, freed just before: an element the kernel
        // forgot would likely show it.
        {
            auto poison = h->run("op: 'BiasAdd' attr { key: 'T' value { type: DT_FLOAT } }",
                                 {tensor(a, xs, std::vector<float>(x.size(), 1.0f)),
                                  tensor(a, TensorShape{depth}, std::vector<float>(std::size_t(depth), nan))});
            QVERIFY(poison);
        }
        auto result = h->run(maxPoolGradNode(k, s, qPrintable(padding)), {xt, (*pooled)[0], tensor(a, ys, dy)});
        if (!result)
            QFAIL(result.error().toString().c_str());
        const float* got = (*result)[0].data<float>();

        // Reference: zeros, then each window's gradient added at its first maximum.
        const int padRows = padding == "SAME" ? std::max((outRows - 1) * s + k - rows, 0) / 2 : 0;
        const int padCols = padding == "SAME" ? std::max((outCols - 1) * s + k - cols, 0) / 2 : 0;
        std::vector<float> expected(x.size(), 0.0f);
        for (int b = 0; b < batch; ++b)
            for (int oh = 0; oh < outRows; ++oh)
                for (int ow = 0; ow < outCols; ++ow)
                    for (int c = 0; c < depth; ++c) {
                        int at = -1;
                        float best = -inf;
                        for (int i = 0; i < k; ++i)
                            for (int j = 0; j < k; ++j) {
                                const int r = oh * s - padRows + i, q = ow * s - padCols + j;
                                if (r < 0 || r >= rows || q < 0 || q >= cols)
                                    continue;
                                const int idx = ((b * rows + r) * cols + q) * depth + c;
                                if (x[std::size_t(idx)] > best || (at < 0 && x[std::size_t(idx)] == best)) {
                                    best = x[std::size_t(idx)];
                                    at = idx;
                                }
                            }
                        if (at >= 0)
                            expected[std::size_t(at)] += dy[std::size_t(((b * outRows + oh) * outCols + ow) * depth + c)];
                    }
        int mismatches = 0;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            if (!sameBits(got[i], expected[i]) && mismatches++ < 5)
                qWarning("element %zu: got %g, expected %g", i, double(got[i]), double(expected[i]));
        }
        QCOMPARE(mismatches, 0);
    }

    /// out = g * (x > 0 ? 1 : 0) bit for bit, including NaN * 0 and inf * 0 (NaN), -g * 0 (-0) and
    /// NaN features (0 factor), over a length that leaves a tail after the packets.
    void reluGradMatchesProduct()
    {
        auto h = makeHarness();
        QVERIFY(h);
        Allocator& a = h->allocator();
        const float nan = std::numeric_limits<float>::quiet_NaN();
        const float inf = std::numeric_limits<float>::infinity();
        const std::size_t n = 1003;
        std::vector<float> g = randomFloats(n, 31);
        std::vector<float> x = randomFloats(n, 32);
        x[0] = 0.0f;
        x[1] = -0.0f;
        x[2] = nan;
        x[3] = inf;
        x[4] = -inf;
        g[5] = nan;
        x[5] = -1.0f;
        g[6] = inf;
        x[6] = -1.0f;
        g[7] = -inf;
        x[7] = 1.0f;
        x[n - 1] = 2.0f;
        g[n - 1] = nan;
        auto result = h->run("op: 'ReluGrad' attr { key: 'T' value { type: DT_FLOAT } }",
                             {tensor(a, TensorShape{std::int64_t(n)}, g), tensor(a, TensorShape{std::int64_t(n)}, x)});
        if (!result)
            QFAIL(result.error().toString().c_str());
        const float* got = (*result)[0].data<float>();
        for (std::size_t i = 0; i < n; ++i) {
            const float expected = g[i] * (x[i] > 0.0f ? 1.0f : 0.0f);
            QVERIFY2(sameBits(got[i], expected),
                     qPrintable(QString("element %1: got %2, expected %3").arg(i).arg(got[i]).arg(expected)));
        }
        QVERIFY(std::isnan(got[5]) && std::isnan(got[6]) && std::isnan(got[n - 1]));
    }

    /// Channels-last BiasAddGrad against a double-precision sum: 37 channels (two full blocks and
    /// a tail) over 3 x 50 rows (summed by bands of channels) and 5 x 1,000 rows (summed down the
    /// rows in blocks of 1,024, the last one partial); a softmax's 10,007 channels over 20 x 20 rows
    /// (bands of 1,024 channels and a shorter one) and 1,000 over 7 rows (8 bands of 128).
    void biasAddGradChannelsLast_data()
    {
        QTest::addColumn<int>("d0");
        QTest::addColumn<int>("d1");
        QTest::addColumn<int>("channels");
        QTest::newRow("150 rows") << 3 << 50 << 37;
        QTest::newRow("5000 rows") << 5 << 1000 << 37;
        QTest::newRow("400 rows, 10007 channels") << 20 << 20 << 10007;
        QTest::newRow("7 rows, 1000 channels") << 1 << 7 << 1000;
    }
    void biasAddGradChannelsLast()
    {
        QFETCH(int, d0);
        QFETCH(int, d1);
        QFETCH(int, channels);
        auto h = makeHarness();
        QVERIFY(h);
        Allocator& a = h->allocator();
        const std::vector<float> v = randomFloats(std::size_t(d0 * d1 * channels), 41);
        auto result = h->run("op: 'BiasAddGrad' attr { key: 'T' value { type: DT_FLOAT } }",
                             {tensor(a, TensorShape{d0, d1, channels}, v)});
        if (!result)
            QFAIL(result.error().toString().c_str());
        QCOMPARE((*result)[0].shape(), (TensorShape{channels}));
        const float* got = (*result)[0].data<float>();
        const int rows = d0 * d1;
        for (int c = 0; c < channels; ++c) {
            double sum = 0.0;
            double magnitude = 0.0;
            for (int r = 0; r < rows; ++r) {
                sum += double(v[std::size_t(r * channels + c)]);
                magnitude += std::fabs(double(v[std::size_t(r * channels + c)]));
            }
            if (rows < 2048) {
                // Few rows: each channel summed down the rows in order, bit for bit.
                float inOrder = 0.0f;
                for (int r = 0; r < rows; ++r)
                    inOrder += v[std::size_t(r * channels + c)];
                QVERIFY2(sameBits(got[c], inOrder),
                         qPrintable(QString("channel %1: got %2, in order %3").arg(c).arg(got[c]).arg(inOrder)));
                QVERIFY2(std::fabs(double(got[c]) - sum) <= 1e-5 * (1.0 + std::fabs(sum)),
                         qPrintable(QString("channel %1: got %2, expected %3").arg(c).arg(got[c]).arg(sum)));
                continue;
            }
            // Many rows: float sums of blocks of 1,024 rows, then the blocks in order, bit for bit,
            // and within the float rounding bound of that order of the exact sum.
            float blocks = 0.0f;
            for (int r0 = 0; r0 < rows; r0 += 1024) {
                float block = 0.0f;
                for (int r = r0; r < std::min(rows, r0 + 1024); ++r)
                    block += v[std::size_t(r * channels + c)];
                blocks = r0 == 0 ? block : blocks + block;
            }
            QVERIFY2(sameBits(got[c], blocks),
                     qPrintable(QString("channel %1: got %2, blocks of 1024 rows give %3").arg(c).arg(got[c]).arg(blocks)));
            const double bound = (1024 + rows / 1024 + 1) * std::ldexp(1.0, -24) * magnitude;
            QVERIFY(std::fabs(double(got[c]) - sum) <= bound);
        }
    }
};

QTEST_GUILESS_MAIN(TestNnFastPaths)
#include "test_nn_fast_paths.moc"
