// Tests for the dashboard's windowed smoothing: the trailing moving average and the min/max
// envelope against brute force over each window, non-finite values, window clamping, long series.
#include "dashboard/scalar_window.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace tstudio::dashboard;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// The mean of the finite values of each trailing window, summed afresh (long double) each time.
std::vector<double> bruteAverage(const std::vector<double>& v, std::size_t w)
{
    std::vector<double> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!std::isfinite(v[i])) {
            out[i] = v[i];
            continue;
        }
        long double sum = 0;
        std::size_t count = 0;
        for (std::size_t j = i + 1 > w ? i + 1 - w : 0; j <= i; ++j)
            if (std::isfinite(v[j]))
                sum += v[j], ++count;
        out[i] = static_cast<double>(sum / count);
    }
    return out;
}

void bruteMinMax(const std::vector<double>& v, std::size_t w, std::vector<double>& lo, std::vector<double>& hi)
{
    lo.assign(v.size(), kNaN);
    hi.assign(v.size(), kNaN);
    for (std::size_t i = 0; i < v.size(); ++i)
        for (std::size_t j = i + 1 > w ? i + 1 - w : 0; j <= i; ++j)
            if (std::isfinite(v[j])) {
                lo[i] = std::isnan(lo[i]) ? v[j] : std::min(lo[i], v[j]);
                hi[i] = std::isnan(hi[i]) ? v[j] : std::max(hi[i], v[j]);
            }
}

bool same(double a, double b, double tolerance = 0)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b))
        return a == b;
    return std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b));
}

} // namespace

class TestScalarWindow : public QObject {
    Q_OBJECT
private slots:
    void movingAverageByHand()
    {
        const std::vector<double> v{1, 2, 3, 4, 10};
        std::vector<double> out;
        ValueStats stats;
        smoothMovingAverage(v, 3, out, &stats);
        const std::vector<double> expected{1, 1.5, 2, 3, 17.0 / 3};
        QCOMPARE(out.size(), expected.size());
        for (std::size_t i = 0; i < v.size(); ++i)
            QVERIFY2(same(out[i], expected[i], 1e-15), qPrintable(QString::number(i)));
        QCOMPARE(stats.finite, std::size_t{5});
        QCOMPARE(stats.min, 1.0);
        QVERIFY(same(stats.max, 17.0 / 3, 1e-15));
    }

    void nonFiniteValuesPassThroughAndStayOutOfTheMean()
    {
        const std::vector<double> v{1, kNaN, 3, kInf, 5, -kInf, 7};
        std::vector<double> out;
        smoothMovingAverage(v, 3, out);
        QCOMPARE(out[0], 1.0);
        QVERIFY(std::isnan(out[1]));
        QCOMPARE(out[2], 2.0);           // 1 and 3
        QCOMPARE(out[3], kInf);           // copied through
        QCOMPARE(out[4], 4.0);           // 3 and 5
        QCOMPARE(out[5], -kInf);
        QCOMPARE(out[6], 6.0);           // 5 and 7
        std::vector<double> lo, hi;
        rollingMinMax(std::vector<double>{kNaN, kNaN, 2, kNaN, kNaN, kNaN}, 2, lo, hi);
        QVERIFY(std::isnan(lo[0]) && std::isnan(hi[1]));
        QCOMPARE(lo[2], 2.0);
        QCOMPARE(hi[3], 2.0);
        QVERIFY(std::isnan(lo[4]) && std::isnan(hi[4])); // the window holds no finite value
    }

    void windowIsClamped()
    {
        const std::vector<double> v{4, 8, 6};
        std::vector<double> out;
        smoothMovingAverage(v, 0, out); // 0 acts as 1: a copy
        QCOMPARE(out, v);
        smoothMovingAverage(v, 1, out);
        QCOMPARE(out, v);
        smoothMovingAverage(v, 1000000000, out); // longer than the series: a running mean
        QCOMPARE(out, (std::vector<double>{4, 6, 6}));
        std::vector<double> lo, hi;
        rollingMinMax(v, 0, lo, hi);
        QCOMPARE(lo, v);
        QCOMPARE(hi, v);
        smoothMovingAverage({}, 5, out);
        QVERIFY(out.empty());
    }

    void randomSeriesMatchBruteForce_data()
    {
        QTest::addColumn<int>("length");
        QTest::addColumn<int>("window");
        QTest::addColumn<int>("nanEvery");
        QTest::newRow("short window") << 500 << 3 << 0;
        QTest::newRow("window 10 with NaN") << 800 << 10 << 7;
        QTest::newRow("window 64, long runs of NaN") << 1000 << 64 << 2;
        QTest::newRow("window longer than series") << 50 << 200 << 11;
    }
    void randomSeriesMatchBruteForce()
    {
        QFETCH(int, length);
        QFETCH(int, window);
        QFETCH(int, nanEvery);
        QRandomGenerator rng(static_cast<quint32>(length * 31 + window));
        std::vector<double> v(static_cast<std::size_t>(length));
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = nanEvery > 0 && rng.bounded(nanEvery) == 0 ? kNaN : (rng.generateDouble() - 0.5) * 1e3;
        std::vector<double> out, lo, hi, blo, bhi;
        ValueStats avgStats, envStats;
        smoothMovingAverage(v, static_cast<std::size_t>(window), out, &avgStats);
        const std::vector<double> expected = bruteAverage(v, static_cast<std::size_t>(window));
        for (std::size_t i = 0; i < v.size(); ++i)
            QVERIFY2(same(out[i], expected[i], 1e-12),
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(i).arg(out[i]).arg(expected[i])));
        QCOMPARE(avgStats.total, v.size());
        rollingMinMax(v, static_cast<std::size_t>(window), lo, hi, &envStats);
        bruteMinMax(v, static_cast<std::size_t>(window), blo, bhi);
        double least = kInf, greatest = -kInf;
        for (std::size_t i = 0; i < v.size(); ++i) {
            QVERIFY2(same(lo[i], blo[i]) && same(hi[i], bhi[i]), qPrintable(QString::number(i)));
            if (!std::isnan(lo[i]))
                least = std::min(least, lo[i]), greatest = std::max(greatest, hi[i]);
        }
        QCOMPARE(envStats.min, least);
        QCOMPARE(envStats.max, greatest);
    }

    void longSeriesDoesNotDrift()
    {
        // A large offset with small wiggles: an uncompensated running sum over a million samples
        // loses the wiggles; the last windows must still match a fresh sum.
        const std::size_t n = 1000000, w = 100;
        std::vector<double> v(n);
        for (std::size_t i = 0; i < n; ++i)
            v[i] = 1e9 + std::sin(static_cast<double>(i) * 0.001) * 1e-3 + (i % 2 ? 1e8 : -1e8);
        std::vector<double> out;
        smoothMovingAverage(v, w, out);
        const std::vector<double> tail(v.end() - 3 * w, v.end());
        const std::vector<double> fresh = bruteAverage(tail, w);
        for (std::size_t k = 2 * w; k < 3 * w; ++k)
            QVERIFY2(same(out[n - 3 * w + k], fresh[k], 1e-15), qPrintable(QStringLiteral("%1 vs %2")
                                                                               .arg(out[n - 3 * w + k], 0, 'g', 17)
                                                                               .arg(fresh[k], 0, 'g', 17)));
    }
};

QTEST_APPLESS_MAIN(TestScalarWindow)
#include "test_scalar_window.moc"
