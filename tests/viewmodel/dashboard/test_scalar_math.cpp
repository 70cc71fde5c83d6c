// Tests for the scalar charts' arithmetic: smoothing, y domains, downloads against NumPy/Python
// golden data (tools/golden/tb_smoothing.py), decimation against brute force, label formats.
#include "dashboard/scalar_export.h"
#include "dashboard/decimation.h"
#include "dashboard/scalar_math.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <cstdlib>

using namespace tstudio;
using namespace tstudio::dashboard;

namespace {

double parse(const QJsonValue& v) { return std::strtod(v.toString().toStdString().c_str(), nullptr); }

std::vector<double> parseAll(const QJsonValue& v)
{
    std::vector<double> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(parse(x));
    return out;
}

bool close(double actual, double expected, double rtol)
{
    if (std::isnan(expected))
        return std::isnan(actual);
    if (std::isinf(expected))
        return actual == expected;
    return std::fabs(actual - expected) <= 1e-300 + rtol * std::fabs(expected);
}

QString show(double v) { return QString::fromStdString(pythonFloatRepr(v)); }

} // namespace

class TestScalarMath : public QObject {
    Q_OBJECT
    QJsonObject m_golden;

private slots:
    void initTestCase()
    {
        QFile file(QStringLiteral(TSTUDIO_SOURCE_DIR "/tests/data/golden/tb_scalars.json"));
        if (!file.open(QIODevice::ReadOnly))
            QFAIL("tests/data/golden/tb_scalars.json is missing (run tools/golden/tb_smoothing.py)");
        m_golden = QJsonDocument::fromJson(file.readAll()).object();
        QVERIFY(!m_golden.isEmpty());
    }

    void smoothingMatchesNumPy()
    {
        const QJsonArray cases = m_golden["smoothing"].toArray();
        QCOMPARE(cases.size(), 28);
        for (const QJsonValue& c : cases) {
            const QJsonObject o = c.toObject();
            const std::vector<double> values = parseAll(o["values"]);
            const std::vector<double> expected = parseAll(o["expected"]);
            const double weight = parse(o["weight"]);
            const std::vector<double> actual = smoothTensorBoard(values, weight);
            QCOMPARE(actual.size(), expected.size());
            for (std::size_t i = 0; i < actual.size(); ++i)
                if (!close(actual[i], expected[i], 1e-12))
                    QFAIL(qPrintable(QStringLiteral("%1 weight %2 [%3]: %4, expected %5")
                                         .arg(o["name"].toString(), show(weight))
                                         .arg(i)
                                         .arg(show(actual[i]), show(expected[i]))));
        }
    }

    void smoothingRules()
    {
        // Constant series are returned as they are (no debias rounding), NaN makes a series non-constant.
        const std::vector<double> constant(10, 0.1);
        QCOMPARE(smoothTensorBoard(constant, 0.9), constant);
        const std::vector<double> withNan = {1.0, NAN, 3.0};
        const std::vector<double> s = smoothTensorBoard(withNan, 0.5);
        QCOMPARE(s[0], 1.0);
        QVERIFY(std::isnan(s[1]));
        // n counts finite values only: (0.5*1 + 0.5*3 ... ) = (0.25 + 1.5) / (1 - 0.25)
        QCOMPARE(s[2], (0.5 * 0.5 * 1.0 + 0.5 * 3.0) / 0.75);
        // Weights are clamped to [0, 0.999].
        const std::vector<double> ramp = {1, 2, 3, 4};
        QCOMPARE(smoothTensorBoard(ramp, 5.0), smoothTensorBoard(ramp, kMaxSmoothingWeight));
        QCOMPARE(smoothTensorBoard(ramp, -1.0), ramp);
        QCOMPARE(smoothTensorBoard(ramp, NAN), ramp);
    }

    void domainsMatchNumPy()
    {
        const QJsonArray cases = m_golden["domains"].toArray();
        QCOMPARE(cases.size(), 22);
        for (const QJsonValue& c : cases) {
            const QJsonObject o = c.toObject();
            const std::vector<double> values = parseAll(o["values"]);
            const bool ignore = o["ignore_outliers"].toBool();
            const std::vector<double> lin = parseAll(o["linear"]);
            const std::vector<double> log = parseAll(o["log"]);
            const auto [lo, hi] = yDomain(values, ignore);
            const auto [llo, lhi] = yDomainLog(values, ignore);
            const QString what = o["name"].toString() + (ignore ? " (ignore outliers)" : "");
            QVERIFY2(close(lo, lin[0], 1e-12) && close(hi, lin[1], 1e-12),
                     qPrintable(what + QStringLiteral(": [%1, %2], expected [%3, %4]").arg(show(lo), show(hi), show(lin[0]), show(lin[1]))));
            QVERIFY2(close(llo, log[0], 1e-12) && close(lhi, log[1], 1e-12),
                     qPrintable(what + QStringLiteral(" log: [%1, %2], expected [%3, %4]").arg(show(llo), show(lhi), show(log[0]), show(log[1]))));
            QVERIFY2(lo < hi && llo < lhi, qPrintable(what + QStringLiteral(": empty domain")));
        }
    }

    void niceAndTicks()
    {
        QCOMPARE(niceLinearDomain(0.8, 2.2), std::make_pair(0.8, 2.2));
        QCOMPARE(niceLinearDomain(-1.1, 1.1), std::make_pair(-1.2, 1.2));
        QCOMPARE(niceLinearDomain(3, 97), std::make_pair(0.0, 100.0));
        const std::vector<double> ticks = linearTicks(0, 1, 5);
        QCOMPARE(ticks, (std::vector<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0}));
        QCOMPARE(linearTicks(0, 10000, 5), (std::vector<double>{0, 2000, 4000, 6000, 8000, 10000}));
        QVERIFY(linearTicks(NAN, 1, 5).empty());
        const std::vector<double> t = timeTicks(0, 3600, 5);
        QCOMPARE(t, (std::vector<double>{0, 900, 1800, 2700, 3600}));
    }

    void downloadsMatchPython()
    {
        const QJsonObject d = m_golden["downloads"].toObject();
        std::vector<events::ScalarSample> samples;
        for (const QJsonValue& row : d["samples"].toArray()) {
            const QJsonArray r = row.toArray();
            events::ScalarSample s;
            s.wallTime = parse(r[0]);
            s.step = static_cast<std::int64_t>(r[1].toDouble());
            s.value = parse(r[2]);
            s.float32 = r[3].toBool();
            samples.push_back(s);
        }
        QCOMPARE(samples.size(), std::size_t(13));
        QCOMPARE(QByteArray::fromStdString(scalarsCsv(samples)), d["csv"].toString().toUtf8());
        QCOMPARE(QByteArray::fromStdString(scalarsJson(samples)), d["json"].toString().toUtf8());
        QCOMPARE(QByteArray::fromStdString(scalarsCsv({})), d["empty_csv"].toString().toUtf8());
        QCOMPARE(QByteArray::fromStdString(scalarsJson({})), d["empty_json"].toString().toUtf8());
    }

    /// Every run and tag in one file: CSV fields quoted as Python's csv module quotes them (a comma,
    /// a quote doubled, a line end), JSON that parses back to the same runs, tags and values.
    void allRunsDownloads()
    {
        std::vector<events::ScalarSample> a(2), b(1);
        a[0] = {0, 1.5, 0.25, true};
        a[1] = {1, 2.5, 0.125, true};
        b[0] = {7, 3.0, -1.0, true};
        const std::vector<RunTagScalars> series = {
            {"train", "loss", a}, {"eval \"x\",1", "a\nb", b}, {"train", "acc", b}};
        QCOMPARE(allScalarsCsv(series), std::string("run,tag,wall_time,step,value\r\n"
                                                    "train,loss,1.5,0,0.25\r\n"
                                                    "train,loss,2.5,1,0.125\r\n"
                                                    "\"eval \"\"x\"\",1\",\"a\nb\",3.0,7,-1.0\r\n"
                                                    "train,acc,3.0,7,-1.0\r\n"));
        QCOMPARE(allScalarsCsv({}), std::string("run,tag,wall_time,step,value\r\n"));
        const std::string json = allScalarsJson(series);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject runs = doc.object();
        QCOMPARE(runs.keys(), (QStringList{QStringLiteral("eval \"x\",1"), QStringLiteral("train")}));
        QCOMPARE(runs["train"].toObject()["loss"].toArray().size(), 2);
        QCOMPARE(runs["train"].toObject()["loss"].toArray()[1].toArray()[2].toDouble(), 0.125);
        QCOMPARE(runs["train"].toObject()["acc"].toArray()[0].toArray()[1].toInt(), 7);
        QCOMPARE(runs["eval \"x\",1"].toObject()["a\nb"].toArray()[0].toArray()[2].toDouble(), -1.0);
        QVERIFY(json.rfind("{\"train\": {\"loss\": [[1.5, 0, 0.25], [2.5, 1, 0.125]], \"acc\": ", 0) == 0);
        QVERIFY(json.find("\"a\\nb\": [[3.0, 7, -1.0]]") != std::string::npos); // json.dumps's \n
        QCOMPARE(allScalarsJson({}), std::string("{}"));
    }

    void pythonRepr()
    {
        QCOMPARE(pythonFloatRepr(1.0), std::string("1.0"));
        QCOMPARE(pythonFloatRepr(0.0001), std::string("0.0001"));
        QCOMPARE(pythonFloatRepr(0.00001), std::string("1e-05"));
        QCOMPARE(pythonFloatRepr(1e16), std::string("1e+16"));
        QCOMPARE(pythonFloatRepr(9999999999999998.0), std::string("9999999999999998.0"));
        QCOMPARE(pythonFloatRepr(1.5e300), std::string("1.5e+300"));
        QCOMPARE(pythonFloatRepr(-2.5e-7), std::string("-2.5e-07"));
        QCOMPARE(pythonFloatRepr(123.456), std::string("123.456"));
    }

    void decimationKeepsColumnExtremes_data()
    {
        QTest::addColumn<bool>("avx2");
        QTest::newRow("AVX2 where the processor has it") << true;
        QTest::newRow("SSE2") << false;
    }

    void decimationKeepsColumnExtremes()
    {
        QFETCH(bool, avx2);
        allowAvx2Scan(avx2);
        const auto restore = qScopeGuard([] { allowAvx2Scan(true); });
        QRandomGenerator rng(11);
        for (int trial = 0; trial < 60; ++trial) {
            // Every third trial: evenly spaced steps and long columns (the length guess and the
            // vector reduction); the others: uneven steps, repeated x, short columns.
            const bool even = trial % 3 == 0;
            const int n = 1 + static_cast<int>(rng.bounded(even ? 60000 : 5000));
            std::vector<double> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
            double cx = 0;
            for (int i = 0; i < n; ++i) {
                cx += even ? 1.0 : rng.bounded(3) == 0 ? 0.0 : rng.generateDouble();
                x[static_cast<std::size_t>(i)] = cx;
                // Few distinct values in some trials, so a column's extreme occurs more than once.
                y[static_cast<std::size_t>(i)] = trial % 5 == 1 ? static_cast<double>(rng.bounded(4))
                                                                 : rng.generateDouble() * 100 - 50;
                if (rng.bounded(50) == 0)
                    y[static_cast<std::size_t>(i)] = NAN;
                if (rng.bounded(2000) == 0)
                    y[static_cast<std::size_t>(i)] = rng.bounded(2) ? INFINITY : -INFINITY;
            }
            const double xMin = cx * rng.generateDouble() * 0.3, xMax = cx * (0.7 + 0.3 * rng.generateDouble());
            const int columns = 1 + static_cast<int>(rng.bounded(400));
            std::vector<std::uint32_t> idx;
            decimateForDrawing(x, y, xMin, xMax, columns, idx);
            QVERIFY(std::is_sorted(idx.begin(), idx.end()));
            QVERIFY(std::adjacent_find(idx.begin(), idx.end()) == idx.end());
            // Brute force: per column min/max/first/last among finite points in [xMin, xMax].
            std::vector<double> lo(static_cast<std::size_t>(columns), INFINITY), hi(static_cast<std::size_t>(columns), -INFINITY);
            std::vector<double> dlo = lo, dhi = hi;
            std::vector<int> bruteFirst(static_cast<std::size_t>(columns), -1), bruteLast(static_cast<std::size_t>(columns), -1);
            auto col = [&](double xv) {
                return std::clamp(static_cast<int>((xv - xMin) * (columns / (xMax - xMin))), 0, columns - 1);
            };
            int inRange = 0;
            for (int i = 0; i < n; ++i) {
                const auto u = static_cast<std::size_t>(i);
                if (x[u] < xMin || x[u] > xMax || !std::isfinite(y[u]))
                    continue;
                ++inRange;
                const auto c = static_cast<std::size_t>(col(x[u]));
                lo[c] = std::min(lo[c], y[u]);
                hi[c] = std::max(hi[c], y[u]);
                if (bruteFirst[c] < 0)
                    bruteFirst[c] = i;
                bruteLast[c] = i;
            }
            int kept = 0;
            std::vector<int> seenFirst(static_cast<std::size_t>(columns), -1), seenLast(static_cast<std::size_t>(columns), -1);
            for (std::uint32_t i : idx) {
                QVERIFY(std::isfinite(y[i]));
                if (x[i] < xMin || x[i] > xMax)
                    continue;
                ++kept;
                const auto c = static_cast<std::size_t>(col(x[i]));
                dlo[c] = std::min(dlo[c], y[i]);
                dhi[c] = std::max(dhi[c], y[i]);
                if (seenFirst[c] < 0)
                    seenFirst[c] = static_cast<int>(i);
                seenLast[c] = static_cast<int>(i);
            }
            QCOMPARE(dlo, lo);
            QCOMPARE(dhi, hi);
            // Each extreme is kept at the first point holding it.
            std::vector<bool> firstLow(static_cast<std::size_t>(columns)), firstHigh = firstLow;
            for (int i = 0; i < n; ++i) {
                const auto u = static_cast<std::size_t>(i);
                if (x[u] < xMin || x[u] > xMax || !std::isfinite(y[u]))
                    continue;
                const auto c = static_cast<std::size_t>(col(x[u]));
                for (auto [extreme, done] : {std::pair{lo[c], &firstLow}, std::pair{hi[c], &firstHigh}})
                    if (y[u] == extreme && !(*done)[c]) {
                        (*done)[c] = true;
                        QVERIFY(std::binary_search(idx.begin(), idx.end(), static_cast<std::uint32_t>(i)));
                    }
            }
            QCOMPARE(seenFirst, bruteFirst);
            QCOMPARE(seenLast, bruteLast);
            QVERIFY(kept <= 4 * columns);
            QVERIFY(kept <= inRange);
            // The neighbours outside the range are kept so lines reach the plot edges.
            for (int i = n - 1; i >= 0; --i)
                if (x[static_cast<std::size_t>(i)] < xMin && std::isfinite(y[static_cast<std::size_t>(i)])) {
                    QCOMPARE(int(idx.front()), i);
                    break;
                }
        }
    }

    void largeDomainsMatchSorting_data()
    {
        QTest::addColumn<bool>("avx2");
        QTest::newRow("AVX2 where the processor has it") << true;
        QTest::newRow("SSE2") << false;
    }

    void largeDomainsMatchSorting()
    {
        QFETCH(bool, avx2);
        allowAvx2Scan(avx2);
        const auto restore = qScopeGuard([] { allowAvx2Scan(true); });
        // Big inputs take the sampling path of the quantile selection; it must give exactly what
        // sorting everything gives (d3.quantile of the finite values, extent of the values inside).
        auto referenceExtent = [](const std::vector<double>& all, bool ignore) {
            std::vector<double> v;
            for (double x : all)
                if (std::isfinite(x))
                    v.push_back(x);
            std::sort(v.begin(), v.end());
            double a = v.front(), b = v.back();
            if (ignore) {
                auto quantile = [&](double p) {
                    const double pos = static_cast<double>(v.size() - 1) * p;
                    const auto i = static_cast<std::size_t>(std::floor(pos));
                    const double lo = v[i], hi = i + 1 < v.size() ? v[i + 1] : lo;
                    return lo + (hi - lo) * (pos - static_cast<double>(i));
                };
                const double qa = quantile(0.05), qb = quantile(0.95);
                a = INFINITY, b = -INFINITY;
                for (double x : v)
                    if (x >= qa && x <= qb)
                        a = std::min(a, x), b = std::max(b, x);
                if (a > b)
                    a = qa, b = qb;
            }
            return std::make_pair(a, b);
        };
        auto reference = [&](const std::vector<double>& all, bool ignore) {
            const auto [a, b] = referenceExtent(all, ignore);
            const double span = b - a;
            const double padding = span == 0 ? std::fabs(a) * 1.1 + 1.1 : span * 0.2;
            const double lower = (a >= 0 && a < span) ? -0.1 * b : a - padding;
            return niceLinearDomain(lower, b + padding, 10);
        };
        {
            // Two values: no value lies between the quantiles 0.05 and 0.95, which become the extent.
            const std::vector<double> two = {0, 1};
            const std::span<const double> p[] = {two};
            QCOMPARE(valueExtent(p, true), std::optional(std::make_pair(0.05, 0.95)));
            const std::vector<double> none = {NAN, INFINITY};
            const std::span<const double> q[] = {none};
            QVERIFY(!valueExtent(q, true).has_value());
        }
        QRandomGenerator rng(5);
        for (int trial = 0; trial < 24; ++trial) {
            const std::size_t n = 40000 + rng.bounded(200000);
            std::vector<double> v(n);
            double walk = 0;
            for (std::size_t i = 0; i < n; ++i) {
                walk += rng.generateDouble() - 0.5;
                switch (trial % 6) {
                case 0: v[i] = rng.generateDouble(); break;                                 // uniform noise
                case 1: v[i] = walk; break;                                                  // random walk
                case 2: v[i] = std::floor(rng.generateDouble() * 4); break;                  // heavy ties
                case 3: v[i] = i % 10 == 0 ? 1e6 * rng.generateDouble() : rng.generateDouble(); break; // 10% outliers
                case 4: v[i] = rng.bounded(20) == 0 ? 1.0 : 0.0; break;                     // almost constant
                default: v[i] = std::exp(-static_cast<double>(i) / 1e4) + 0.01 * walk; break; // decaying loss
                }
            }
            if (trial % 7 == 3)
                v[n / 2] = NAN; // non-finite values take the copying path
            const std::span<const double> whole[] = {v};
            QCOMPARE(valueExtent(whole, true), std::optional(referenceExtent(v, true)));
            QCOMPARE(valueExtent(whole, false), std::optional(referenceExtent(v, false)));
            const auto want = reference(v, true);
            QCOMPARE(yDomain(v, true), want);
            QCOMPARE(yDomain(v, false), reference(v, false));
            // The same values split into three parts (several runs).
            const std::span<const double> all(v);
            const std::span<const double> parts[] = {all.first(n / 3), all.subspan(n / 3, n / 5), all.subspan(n / 3 + n / 5)};
            QCOMPARE(yDomain(parts, true), want);
            QCOMPARE(valueExtent(parts, true), std::optional(referenceExtent(v, true)));
        }
    }

    void domainIsFast()
    {
        // Not a timing assertion: prints the time of the outlier-ignoring domain of a million values.
        const std::size_t n = 1'000'000;
        std::vector<double> v(n);
        QRandomGenerator rng(3);
        double walk = 0;
        for (std::size_t i = 0; i < n; ++i) {
            walk += rng.generateDouble() - 0.5;
            v[i] = std::exp(-static_cast<double>(i) / 2.5e5) + 0.05 * walk / 31.6 + 0.1 * rng.generateDouble();
        }
        std::vector<double> times;
        std::pair<double, double> d;
        for (int i = 0; i < 11; ++i) {
            QElapsedTimer timer;
            timer.start();
            d = yDomain(v, true);
            times.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
        std::sort(times.begin(), times.end());
        qInfo("outlier-ignoring y domain of 1,000,000 values: %.2f ms (median of 11)", times[5]);
        QVERIFY(d.first < d.second);
    }

    /// The pixels of a one-pixel polyline, column by column.
    void polylineSpansCoverTheLine()
    {
        std::vector<ColumnSpan> spans;
        auto check = [&](std::vector<double> xs, std::vector<double> ys, int first, int last,
                         std::vector<std::array<int, 3>> expected) {
            polylineColumnSpans(xs, ys, first, last, spans);
            std::vector<std::array<int, 3>> got;
            for (const ColumnSpan& s : spans)
                got.push_back({s.column, s.top, s.bottom});
            QCOMPARE(got, expected);
        };
        // A horizontal line: one row in each column it crosses.
        check({0.5, 3.5}, {10.5, 10.5}, 0, 9, {{0, 10, 10}, {1, 10, 10}, {2, 10, 10}, {3, 10, 10}});
        // A vertical segment: the rows whose centres it covers.
        check({3.5, 3.5}, {2.0, 8.0}, 0, 9, {{3, 2, 7}});
        // A steep one through two columns: each gets the rows of its part.
        check({0.0, 2.0}, {0.0, 10.0}, 0, 1, {{0, 0, 4}, {1, 5, 9}});
        // Clipped to the columns asked for; a segment from far left enters at the right height.
        check({-10.0, 2.0}, {0.2, 1.4}, 0, 1, {{0, 1, 1}, {1, 1, 1}});
        // Non-finite points are skipped: the line goes on from the last finite one.
        check({0.5, 1.5, 2.5}, {1.5, std::nan(""), 1.5}, 0, 2, {{0, 1, 1}, {1, 1, 1}, {2, 1, 1}});
        // Columns the line does not reach are left out.
        check({2.5, 3.5}, {4.5, 4.5}, 0, 9, {{2, 4, 4}, {3, 4, 4}});
        // Dense data: each column spans its lowest to highest point, whatever their order.
        check({0.1, 0.2, 0.3, 0.9, 1.1, 1.9}, {5.5, 1.5, 8.5, 3.5, 3.5, 3.5}, 0, 1, {{0, 1, 8}, {1, 3, 3}});
        // Nothing to draw.
        check({}, {}, 0, 9, {});
        check({1.0}, {1.0}, 5, 4, {});
    }

    void decimationIsFast()
    {
        // Not a timing assertion (timings belong in benchmarks): checks the output stays bounded
        // for a million points and prints the time.
        const std::size_t n = 1'000'000;
        std::vector<double> x(n), y(n);
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = static_cast<double>(i);
            y[i] = std::sin(static_cast<double>(i) * 0.001) + static_cast<double>(i % 7) * 0.1;
        }
        std::vector<std::uint32_t> idx;
        QElapsedTimer timer;
        timer.start();
        decimateForDrawing(x, y, 0, static_cast<double>(n - 1), 800, idx);
        qInfo("decimating 1,000,000 points to 800 columns: %.2f ms, %zu points", timer.nsecsElapsed() / 1e6, idx.size());
        QVERIFY(idx.size() <= 4 * 800);
        QCOMPARE(idx.front(), 0u);
        QCOMPARE(idx.back(), std::uint32_t(n - 1));
    }

    void tickLabelsAreDistinct()
    {
        // A flat loss near 0.98: d3's ticks over the padded domain, labelled with 3 digits, would repeat.
        for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{
                 {0.9795, 0.9805}, {0.97999, 0.98001}, {0.98, 0.98 + 1e-9}, {-1e-7, 1e-7}, {1e5, 1e5 + 0.01}, {0.0, 1.0}}) {
            const std::vector<double> ticks = linearTicks(lo, hi, 8);
            QVERIFY2(ticks.size() >= 2, qPrintable(QString::number(lo, 'g', 17)));
            const std::vector<std::string> labels = tickLabels(ticks);
            QCOMPARE(labels.size(), ticks.size());
            for (std::size_t i = 1; i < labels.size(); ++i)
                QVERIFY2(labels[i] != labels[i - 1],
                         qPrintable(QString::fromStdString(labels[i]) + " repeats over " + QString::number(lo, 'g', 17)));
        }
        // The fewest digits that tell them apart, and TensorBoard's 3 where those do.
        QCOMPARE(tickLabels(std::vector<double>{0.9796, 0.9798, 0.98, 0.9802}),
                 (std::vector<std::string>{"0.9796", "0.9798", "0.98", "0.9802"}));
        QCOMPARE(tickLabels(std::vector<double>{0, 0.5, 1}), (std::vector<std::string>{"0", "0.5", "1"}));
        QCOMPARE(tickLabels(std::vector<double>{98000, 98500}), (std::vector<std::string>{"9.8e+4", "9.85e+4"}));
        QCOMPARE(tickLabels(std::vector<double>{}), std::vector<std::string>{});
        QCOMPARE(tickLabels(std::vector<double>{0.98}), std::vector<std::string>{"0.98"});
    }

    void tagOrderPutsLossFirstAndRatesLast()
    {
        QCOMPARE(scalarTagRank("loss"), 0);
        QCOMPARE(scalarTagRank("total_loss"), 0);
        QCOMPARE(scalarTagRank("losses/cross_entropy"), 0);
        QCOMPARE(scalarTagRank("train/Loss"), 0);
        QCOMPARE(scalarTagRank("epoch_loss"), 0);
        QCOMPARE(scalarTagRank("global_step/sec"), 2);
        QCOMPARE(scalarTagRank("examples/sec"), 2);
        QCOMPARE(scalarTagRank("steps_per_sec"), 2);
        QCOMPARE(scalarTagRank("batches_per_second"), 2);
        QCOMPARE(scalarTagRank("accuracy"), 1);
        QCOMPARE(scalarTagRank("lossy_compression_ratio"), 1); // "lossy" is not a loss
        QCOMPARE(scalarTagRank("learning_rate"), 1);
        std::vector<std::string> tags{"global_step/sec", "accuracy", "loss", "learning_rate", "eval/loss"};
        std::sort(tags.begin(), tags.end(), [](const std::string& a, const std::string& b) { return scalarTagLess(a, b); });
        QCOMPARE(tags, (std::vector<std::string>{"eval/loss", "loss", "accuracy", "learning_rate", "global_step/sec"}));
    }

    void labels()
    {
        QCOMPARE(formatStep(0), std::string("0"));
        QCOMPARE(formatStep(500), std::string("500"));
        QCOMPARE(formatStep(1000), std::string("1k"));
        QCOMPARE(formatStep(2500), std::string("2.5k"));
        QCOMPARE(formatStep(12345), std::string("12.35k"));
        QCOMPARE(formatStep(1234567), std::string("1.235M"));
        QCOMPARE(formatValue(0.5, 3), std::string("0.5"));
        QCOMPARE(formatValue(123.456, 3), std::string("123"));
        QCOMPARE(formatValue(2000, 3), std::string("2e+3"));
        QCOMPARE(formatValue(12345, 3), std::string("1.235e+4"));
        QCOMPARE(formatValue(0.001234, 4), std::string("1.234e-3"));
        QCOMPARE(formatValue(-0.25, 4), std::string("-0.25"));
        QCOMPARE(formatValue(1e-17, 3), std::string("1e-17"));
        QCOMPARE(formatValue(0, 3), std::string("0"));
        QCOMPARE(formatValue(NAN, 3), std::string("NaN"));
        QCOMPARE(formatRelative(0), std::string("0s"));
        QCOMPARE(formatRelative(60), std::string("1m 0s"));
        QCOMPARE(formatRelative(3725.5), std::string("1h 2m 5s"));
        QCOMPARE(formatRelative(90061), std::string("1d 1h 1m 1s"));
    }
};

QTEST_GUILESS_MAIN(TestScalarMath)
#include "test_scalar_math.moc"
