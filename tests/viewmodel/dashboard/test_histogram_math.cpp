// Tests for the dashboard's histogram math: percentiles and rebinning against NumPy goldens (tools/golden/tb_histograms.py).
#include "dashboard/histogram_math.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace tstudio;
using namespace tstudio::dashboard;

namespace {

QJsonObject golden()
{
    QFile file(QStringLiteral(TSTUDIO_SOURCE_DIR "/tests/data/golden/tb_histograms.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

events::Histogram histogramOf(const QJsonArray& buckets)
{
    events::Histogram h;
    for (const auto& b : buckets) {
        const QJsonArray a = b.toArray();
        h.buckets.push_back({a[0].toDouble(), a[1].toDouble(), a[2].toDouble()});
    }
    return h;
}

bool close(double actual, double expected)
{
    return std::abs(actual - expected) <= 1e-9 + 1e-9 * std::abs(expected);
}

} // namespace

class TestHistogramMath : public QObject {
    Q_OBJECT

private slots:
    void percentilesMatchNumPy()
    {
        const QJsonObject g = golden();
        if (g.isEmpty())
            QFAIL("tests/data/golden/tb_histograms.json is missing (run tools/golden/tb_histograms.py)");
        const QJsonArray cases = g["percentiles"].toArray();
        QCOMPARE(cases.size(), 12);
        for (const auto& c : cases) {
            const QJsonObject cs = c.toObject();
            const auto values = compressHistogram(histogramOf(cs["buckets"].toArray()));
            const QJsonArray expected = cs["expected"].toArray();
            QCOMPARE(expected.size(), 9);
            for (int i = 0; i < 9; ++i)
                QVERIFY2(close(values[std::size_t(i)], expected[i].toDouble()),
                         qPrintable(QStringLiteral("%1, basis point %2: %3, expected %4")
                                        .arg(cs["name"].toString())
                                        .arg(kNormalHistogramBps[std::size_t(i)])
                                        .arg(values[std::size_t(i)], 0, 'g', 17)
                                        .arg(expected[i].toDouble(), 0, 'g', 17)));
        }
    }

    void percentilesByHand()
    {
        // Two equal buckets: the median sits on the shared edge; 0 and 10000 are the outer edges.
        events::Histogram h;
        h.buckets = {{0, 1, 5}, {1, 2, 5}};
        const auto v = compressHistogram(h);
        QCOMPARE(v[0], 0.0);
        QCOMPARE(v[4], 1.0);
        QCOMPARE(v[8], 2.0);
        QVERIFY(close(v[1], 0.1336));
    }

    void rebinningMatchesNumPy()
    {
        const QJsonObject g = golden();
        QVERIFY(!g.isEmpty());
        const QJsonArray cases = g["rebin"].toArray();
        QCOMPARE(cases.size(), 5);
        for (const auto& c : cases) {
            const QJsonObject cs = c.toObject();
            std::vector<events::Histogram> histograms;
            for (const auto& h : cs["histograms"].toArray())
                histograms.push_back(histogramOf(h.toArray()));
            std::vector<const events::Histogram*> pointers;
            for (const auto& h : histograms)
                pointers.push_back(&h);
            const auto series = rebinSeries(pointers);
            const QJsonArray expected = cs["expected"].toArray();
            QCOMPARE(series.size(), std::size_t(expected.size()));
            for (int s = 0; s < expected.size(); ++s) {
                const QJsonArray bins = expected[s].toArray();
                QCOMPARE(series[std::size_t(s)].size(), std::size_t(bins.size()));
                for (int j = 0; j < bins.size(); ++j) {
                    const QJsonArray b = bins[j].toArray();
                    const HistogramBin& got = series[std::size_t(s)][std::size_t(j)];
                    const QString where = QStringLiteral("%1 step %2 bin %3").arg(cs["name"].toString()).arg(s).arg(j);
                    QVERIFY2(close(got.x, b[0].toDouble()), qPrintable(where + " x"));
                    QVERIFY2(close(got.dx, b[1].toDouble()), qPrintable(where + " dx"));
                    QVERIFY2(std::abs(got.y - b[2].toDouble()) <= 1e-9 * (1 + std::abs(b[2].toDouble())),
                             qPrintable(where + QStringLiteral(" count %1, expected %2").arg(got.y).arg(b[2].toDouble())));
                }
            }
        }
    }

    void rebinningKeepsTheTotalCount()
    {
        events::Histogram h;
        h.buckets = {{-1, 0.3, 4}, {0.3, 0.31, 2}, {0.31, 5, 10}};
        const auto bins = rebinHistogram(h, -1, 5);
        QCOMPARE(bins.size(), std::size_t(kDefaultHistogramBins));
        double total = 0;
        for (const auto& b : bins)
            total += b.y;
        QVERIFY(close(total, 16));
        QCOMPARE(bins.front().x, -1.0);
        QVERIFY(close(bins.back().x + bins.back().dx, 5));
    }

    void badInputGivesNoBinsAndNoCrash()
    {
        events::Histogram h;
        h.buckets = {{0, 1, 1}};
        QVERIFY(rebinHistogram(h, 0, 1, 0).empty());
        QVERIFY(rebinHistogram(h, 1, 0).empty());
        QVERIFY(rebinHistogram(h, 0, std::numeric_limits<double>::infinity()).empty());
        QVERIFY(rebinHistogram(events::Histogram{}, 0, 1).empty());
        events::Histogram nan;
        nan.buckets = {{std::nan(""), 1, 1}, {1, 2, 3}};
        const auto r = histogramRange(nan);
        QVERIFY(r.has_value());
        QCOMPARE(r->min, 1.0);
        QCOMPARE(r->max, 2.0);
        const auto bins = rebinHistogram(nan, 1, 2);
        double total = 0;
        for (const auto& b : bins)
            total += b.y;
        QVERIFY(close(total, 3));
    }
};

QTEST_GUILESS_MAIN(TestHistogramMath)
#include "test_histogram_math.moc"
