// Tests for the Scalars tab and its charts: series contents, smoothing, filter, hidden runs, zoom,
// downloads, tooltip, and an offscreen capture that must show the curves.
#include "dashboard/scalar_chart.h"
#include "dashboard/scalar_export.h"
#include "dashboard/scalar_math.h"
#include "dashboard/scalar_window.h"
#include "dashboard/scalars_view.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QPointer>
#include <QToolButton>
#include <QSignalSpy>

#include <cmath>

using namespace tstudio;
using namespace tstudio::dashboard;

namespace {

ScalarChart::Samples makeSamples(int n, double scale, double offset, int stepStride = 10)
{
    auto v = std::make_shared<std::vector<events::ScalarSample>>();
    for (int i = 0; i < n; ++i) {
        events::ScalarSample s;
        s.step = static_cast<std::int64_t>(i) * stepStride;
        s.wallTime = 1.7e9 + i * 2.5;
        s.value = offset + scale * std::exp(-i / 40.0) + 0.05 * std::sin(i * 1.7);
        v->push_back(s);
    }
    return v;
}

std::vector<double> valuesOf(const ScalarChart::Samples& s)
{
    std::vector<double> out;
    for (const auto& x : *s)
        out.push_back(x.value);
    return out;
}

QVector<RunStyle> twoRuns(bool evalVisible = true)
{
    return {RunStyle{QStringLiteral("train"), QColor(0xff7043), true}, RunStyle{QStringLiteral("eval"), QColor(0x0077bb), evalVisible}};
}

/// Pixels within `tolerance` of `colour` in the image.
int countColour(const QImage& image, QColor colour, int tolerance = 40)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green()) + std::abs(c.blue() - colour.blue()) < tolerance)
                ++n;
        }
    return n;
}

} // namespace

class TestScalarsView : public QObject {
    Q_OBJECT
    ScalarChart::Samples m_train = makeSamples(200, 2.0, 0.1);
    ScalarChart::Samples m_eval = makeSamples(50, 1.5, 0.3, 40);

    void fill(ScalarsView& view)
    {
        view.setRuns(twoRuns());
        for (const QString& tag : {QStringLiteral("loss"), QStringLiteral("metrics/accuracy"), QStringLiteral("metrics/auc")}) {
            view.setScalars(QStringLiteral("train"), tag, m_train);
            view.setScalars(QStringLiteral("eval"), tag, m_eval);
        }
    }

private slots:
    void seriesHoldDecimatedSmoothedData()
    {
        ScalarsView view;
        view.resize(1400, 900);
        view.show();
        fill(view);
        QCOMPARE(view.tags(), (QStringList{"loss", "metrics/accuracy", "metrics/auc"}));
        QCOMPARE(view.sections(), (QStringList{"loss", "metrics"}));
        ScalarChart* chart = view.chart(QStringLiteral("loss"));
        QVERIFY(chart);
        chart->refresh();
        QCOMPARE(chart->smoothing(), 0.6);
        const std::vector<double> smooth = smoothTensorBoard(valuesOf(m_train), 0.6);
        const QList<QPointF> pts = chart->smoothedPoints(QStringLiteral("train"));
        QVERIFY(!pts.isEmpty());
        QCOMPARE(pts.first(), QPointF(0, smooth.front()));
        QCOMPARE(pts.last(), QPointF(1990, smooth.back()));
        for (const QPointF& p : pts)
            QCOMPARE(p.y(), smooth[static_cast<std::size_t>(p.x() / 10)]);
        const QList<QPointF> raw = chart->rawPoints(QStringLiteral("train"));
        QCOMPARE(raw.first(), QPointF(0, m_train->front().value));
        QCOMPARE(raw.last(), QPointF(1990, m_train->back().value));
        // A chart in an expanded section is about a third of 1400 px wide.
        QVERIFY2(chart->width() > 350 && chart->width() < 500, qPrintable(QString::number(chart->width())));

        view.setSmoothing(0.9);
        chart->refresh();
        const std::vector<double> smooth9 = smoothTensorBoard(valuesOf(m_train), 0.9);
        for (const QPointF& p : chart->smoothedPoints(QStringLiteral("train")))
            QCOMPARE(p.y(), smooth9[static_cast<std::size_t>(p.x() / 10)]);
        // Smoothing 0: only the raw curve, in full colour.
        view.setSmoothing(0);
        chart->refresh();
        const QList<QPointF> plain = chart->smoothedPoints(QStringLiteral("train"));
        QCOMPARE(plain.first().y(), m_train->front().value);
        QCOMPARE(plain.last().y(), m_train->back().value);
    }

    void movingAverageAndEnvelope()
    {
        ScalarsView view;
        view.resize(1400, 900);
        view.show();
        fill(view);
        ScalarChart* chart = view.chart(QStringLiteral("loss"));
        QVERIFY(chart);
        const QString train = QStringLiteral("train");
        const std::vector<double> values = valuesOf(m_train);

        view.setSmoothingKind(SmoothingKind::MovingAverage);
        view.setSmoothingWindow(25);
        QCOMPARE(chart->smoothingKind(), SmoothingKind::MovingAverage);
        QCOMPARE(chart->smoothingWindow(), 25);
        chart->refresh();
        std::vector<double> average;
        smoothMovingAverage(values, 25, average);
        QList<QPointF> pts = chart->smoothedPoints(train);
        QCOMPARE(pts.size(), m_train->size()); // 200 points: fewer than the pixel columns, none dropped
        for (const QPointF& p : pts)
            QCOMPARE(p.y(), average[static_cast<std::size_t>(p.x() / 10)]);
        // By hand at step 240 (sample 24): the mean of the first 25 values.
        double sum = 0;
        for (int i = 0; i < 25; ++i)
            sum += values[static_cast<std::size_t>(i)];
        QVERIFY(std::abs(pts[24].y() - sum / 25) < 1e-12);
        QVERIFY(chart->smoothingOn());
        QVERIFY(!chart->rawPoints(train).isEmpty()); // the faded raw curve under it

        // A window of one sample smooths nothing: the raw values in full colour.
        view.setSmoothingWindow(1);
        QVERIFY(!chart->smoothingOn());
        chart->refresh();
        pts = chart->smoothedPoints(train);
        QCOMPARE(pts.first().y(), values.front());
        QCOMPARE(pts.last().y(), values.back());

        // The envelope: each window's least and greatest raw value, drawn under the curves.
        QVERIFY(chart->envelopeUpper(train).isEmpty());
        view.setSmoothingWindow(8);
        view.setEnvelope(true);
        QVERIFY(chart->envelopeShown());
        chart->refresh();
        std::vector<double> lo, hi;
        rollingMinMax(values, 8, lo, hi);
        const QList<QPointF> upper = chart->envelopeUpper(train), lower = chart->envelopeLower(train);
        QCOMPARE(upper.size(), m_train->size());
        QCOMPARE(lower.size(), m_train->size());
        for (int i = 0; i < upper.size(); ++i) {
            QCOMPARE(upper[i].y(), hi[static_cast<std::size_t>(i)]);
            QCOMPARE(lower[i].y(), lo[static_cast<std::size_t>(i)]);
            QVERIFY(lower[i].y() <= values[static_cast<std::size_t>(i)]);
            QVERIFY(upper[i].y() >= values[static_cast<std::size_t>(i)]);
        }
        // The y axis takes the band in: its range holds the greatest upper bound.
        QVERIFY(chart->yRange().second >= *std::max_element(hi.begin(), hi.end()));
        // Back to TensorBoard's smoothing: the envelope stays (its window too), the curve is the EMA.
        view.setSmoothingKind(SmoothingKind::Exponential);
        chart->refresh();
        const std::vector<double> ema = smoothTensorBoard(values, 0.6);
        for (const QPointF& p : chart->smoothedPoints(train))
            QCOMPARE(p.y(), ema[static_cast<std::size_t>(p.x() / 10)]);
        QCOMPARE(chart->envelopeUpper(train).size(), m_train->size());
        view.setEnvelope(false);
        chart->refresh();
        QVERIFY(chart->envelopeUpper(train).isEmpty());

        // A chart created later (a section expanded afterwards) takes the view's settings.
        view.setSmoothingKind(SmoothingKind::MovingAverage);
        view.setSmoothingWindow(5);
        view.setEnvelope(true);
        view.setScalars(train, QStringLiteral("zeta/late"), m_train);
        view.setSectionExpanded(QStringLiteral("zeta"), true);
        ScalarChart* late = view.chart(QStringLiteral("zeta/late"));
        QVERIFY(late);
        QCOMPARE(late->smoothingKind(), SmoothingKind::MovingAverage);
        QCOMPARE(late->smoothingWindow(), 5);
        QVERIFY(late->envelopeShown());
    }

    void pinnedAndEnlargedCharts()
    {
        ScalarsView view;
        view.resize(1400, 900);
        view.show();
        fill(view);
        ScalarChart* auc = view.chart(QStringLiteral("metrics/auc"));
        QVERIFY(auc);
        QVERIFY(!auc->isPinned());
        // The chart's Pin button: a copy in the Pinned section, which comes first.
        QSignalSpy pinned(auc, &ScalarChart::pinToggled);
        const auto buttons = auc->findChildren<QToolButton*>();
        QToolButton* pin = nullptr;
        for (QToolButton* b : buttons)
            if (b->text() == QStringLiteral("Pin"))
                pin = b;
        QVERIFY(pin);
        pin->click();
        QCOMPARE(pinned.count(), 1);
        QTRY_COMPARE(view.pinnedTags(), QStringList{"metrics/auc"});
        QCOMPARE(view.sections().first().at(0), QChar(1)); // the Pinned section's key
        QVERIFY(view.isSectionShown(view.sections().first()));
        ScalarChart* copy = view.pinnedChart(QStringLiteral("metrics/auc"));
        QVERIFY(copy);
        QVERIFY(copy != auc);
        QVERIFY(copy->isPinned() && auc->isPinned());
        QCOMPARE(copy->seriesRuns(), auc->seriesRuns());
        // Live data reaches the copy too.
        view.setScalars(QStringLiteral("train"), QStringLiteral("metrics/auc"), makeSamples(20, 1.0, 0.0));
        QCOMPARE(copy->samples(QStringLiteral("train"))->size(), std::size_t(20));
        // Settings reach it: it is a chart of the view.
        view.setSmoothingKind(SmoothingKind::MovingAverage);
        QCOMPARE(copy->smoothingKind(), SmoothingKind::MovingAverage);
        view.setPinned(QStringLiteral("loss"), true);
        QCOMPARE(view.pinnedTags(), (QStringList{"metrics/auc", "loss"}));
        view.setPinned(QStringLiteral("no/such/tag"), true); // no data: not pinned
        QCOMPARE(view.pinnedTags().size(), 2);

        // Enlarged: a row of its own across the section, taller than the others.
        ScalarChart* accuracy = view.chart(QStringLiteral("metrics/accuracy"));
        QVERIFY(accuracy);
        const int usual = accuracy->height();
        view.setEnlarged(QStringLiteral("metrics/auc"), true);
        QVERIFY(auc->isEnlarged() && copy->isEnlarged());
        QVERIFY2(auc->height() > usual, qPrintable(QStringLiteral("%1 vs %2").arg(auc->height()).arg(usual)));
        QTRY_VERIFY(auc->width() > 2 * accuracy->width());
        view.setEnlarged(QStringLiteral("metrics/auc"), false);
        QCOMPARE(auc->height(), accuracy->height()); // the cards' height (a scroll bar may have changed it)

        // Unpinned from the copy's own button: the copy goes (deleted after its signal).
        QToolButton* unpin = nullptr;
        for (QToolButton* b : copy->findChildren<QToolButton*>())
            if (b->text() == QStringLiteral("Unpin"))
                unpin = b;
        QVERIFY(unpin);
        QPointer<ScalarChart> gone(copy);
        unpin->click();
        QTRY_VERIFY(gone.isNull());
        QCOMPARE(view.pinnedTags(), QStringList{"loss"});
        QVERIFY(!auc->isPinned());
        // A pinned tag whose data goes is unpinned.
        view.removeRun(QStringLiteral("train"));
        view.removeRun(QStringLiteral("eval"));
        QVERIFY(view.pinnedTags().isEmpty());
        QVERIFY(view.tags().isEmpty());
    }

    void envelopeIsDecimatedAndSkipsGaps()
    {
        ScalarChart chart;
        chart.resize(600, 400);
        chart.show();
        chart.setRuns({RunStyle{QStringLiteral("train"), QColor(0xff7043), true}});
        // 50,000 samples with a stretch of NaN in the middle: two stretches, each decimated.
        auto v = std::make_shared<std::vector<events::ScalarSample>>();
        for (int i = 0; i < 50000; ++i) {
            events::ScalarSample s;
            s.step = i;
            s.wallTime = 1.7e9 + i;
            s.value = i >= 20000 && i < 20100 ? std::nan("") : std::sin(i * 0.01) + 0.1 * std::sin(i * 1.3);
            v->push_back(s);
        }
        chart.setSmoothingKind(SmoothingKind::MovingAverage);
        chart.setSmoothingWindow(50);
        chart.setEnvelope(true);
        chart.setSeries(QStringLiteral("train"), v);
        chart.refresh();
        const QList<QPointF> upper = chart.envelopeUpper(QStringLiteral("train"));
        QVERIFY2(upper.size() < 5000, qPrintable(QString::number(upper.size())));
        QVERIFY(upper.size() > 100);
        // No point of the band lies in the gap: windows wholly inside it have no finite value.
        for (const QPointF& p : upper)
            QVERIFY2(!(p.x() >= 20049 && p.x() < 20100), qPrintable(QString::number(p.x())));
        // Each drawn upper point is the window's maximum there.
        std::vector<double> raw, lo, hi;
        for (const auto& s : *v)
            raw.push_back(s.value);
        rollingMinMax(raw, 50, lo, hi);
        for (const QPointF& p : upper)
            QCOMPARE(p.y(), hi[static_cast<std::size_t>(p.x())]);
    }

    void manyPointsAreDecimated()
    {
        ScalarChart chart;
        chart.resize(600, 400);
        chart.show();
        chart.setRuns(twoRuns());
        const ScalarChart::Samples big = makeSamples(200000, 1.0, 0.0, 1);
        chart.setSeries(QStringLiteral("train"), big);
        chart.refresh();
        const QList<QPointF> pts = chart.smoothedPoints(QStringLiteral("train"));
        QVERIFY2(pts.size() <= 4 * 600 + 2, qPrintable(QString::number(pts.size())));
        QVERIFY(pts.size() > 100);
        QCOMPARE(pts.first().x(), 0.0);
        QCOMPARE(pts.last().x(), 199999.0);
        // Zoom keeps its range when data grows (live training).
        QVERIFY(chart.lastRedrawTimes().domain > 0); // new data: the y domain was computed
        const auto dataY = chart.yRange();
        chart.zoomTo(QRectF(QPointF(1000, 0.2), QPointF(5000, 0.9)));
        chart.refresh();
        QCOMPARE(chart.xRange(), std::make_pair(1000.0, 5000.0));
        // Zooming, resizing and recolouring reuse the cached domain of the data.
        QCOMPARE(chart.lastRedrawTimes().domain, 0.0);
        chart.resize(640, 420);
        chart.refresh();
        QCOMPARE(chart.lastRedrawTimes().domain, 0.0);
        QVector<RunStyle> recoloured = twoRuns();
        recoloured[0].colour = QColor(0x22aa22);
        chart.setRuns(recoloured);
        chart.refresh();
        QCOMPARE(chart.lastRedrawTimes().domain, 0.0);
        chart.resetZoom();
        chart.refresh();
        QCOMPARE(chart.yRange(), dataY);
        chart.zoomTo(QRectF(QPointF(1000, 0.2), QPointF(5000, 0.9)));
        chart.refresh();
        chart.setSeries(QStringLiteral("train"), makeSamples(250000, 1.0, 0.0, 1));
        chart.refresh();
        QCOMPARE(chart.xRange(), std::make_pair(1000.0, 5000.0));
        const QList<QPointF> zoomed = chart.smoothedPoints(QStringLiteral("train"));
        QVERIFY(zoomed.first().x() <= 1000 && zoomed.last().x() >= 5000);
        chart.resetZoom();
        chart.refresh();
        QCOMPARE(chart.xRange(), std::make_pair(0.0, 249999.0));
    }

    void smoothingRedrawsOnlyTheSmoothedCurve()
    {
        ScalarChart chart;
        chart.resize(600, 400);
        chart.show();
        chart.setRuns(twoRuns());
        // 400 points in about 540 pixel columns: both curves are Qt Charts series.
        chart.setSeries(QStringLiteral("train"), makeSamples(400, 1.0, 0.0, 1));
        chart.setSmoothing(0.6);
        chart.refresh();
        // The chart's two series of the run: the faded raw curve and the smoothed one.
        const QList<QAbstractSeries*> all = chart.findChild<QChartView*>()->chart()->series();
        QCOMPARE(all.size(), 2);
        auto series = [&](int k) { return static_cast<QLineSeries*>(all[k]); };
        int replaced[2] = {0, 0};
        for (int k = 0; k < 2; ++k)
            connect(series(k), &QXYSeries::pointsReplaced, this, [&replaced, k] { ++replaced[k]; });
        const QList<QPointF> raw = chart.rawPoints(QStringLiteral("train"));
        const QList<QPointF> smoothed = chart.smoothedPoints(QStringLiteral("train"));
        QCOMPARE(series(0)->points(), raw);
        QCOMPARE(series(1)->points(), smoothed);
        // A new weight: only the smoothed curve is decimated and replaced again; the raw one stays as drawn.
        chart.setSmoothing(0.9);
        chart.refresh();
        QCOMPARE(replaced[1], 1);
        QCOMPARE(replaced[0], 0);
        QCOMPARE(chart.rawPoints(QStringLiteral("train")), raw);
        QVERIFY(chart.smoothedPoints(QStringLiteral("train")) != smoothed);
        // Nothing changed: nothing replaced.
        chart.setSmoothing(0.9);
        chart.refresh();
        QCOMPARE(replaced[1], 1);
        // A zoom changes what both curves show; new samples too.
        chart.zoomTo(QRectF(QPointF(100, 0.2), QPointF(300, 0.9)));
        chart.refresh();
        QCOMPARE(replaced[1], 2);
        QCOMPARE(replaced[0], 1);
        chart.setSeries(QStringLiteral("train"), makeSamples(450, 1.0, 0.0, 1));
        chart.refresh();
        QCOMPARE(replaced[1], 3);
        QCOMPARE(replaced[0], 2);
        chart.resetZoom();
        chart.refresh();
        QCOMPARE(chart.rawPoints(QStringLiteral("train")).last().x(), 449.0);
        // The log axis redraws both.
        chart.setLogY(true);
        chart.refresh();
        QVERIFY(replaced[1] >= 5);
        QVERIFY(replaced[0] >= 4);
    }

    void denseCurvesAreDrawnByTheirItems()
    {
        ScalarChart chart;
        chart.resize(600, 400);
        chart.show();
        chart.setRuns(twoRuns());
        chart.setSeries(QStringLiteral("train"), makeSamples(20000, 1.0, 0.0, 1));
        chart.setSmoothing(0.6);
        chart.refresh();
        const QList<QAbstractSeries*> all = chart.findChild<QChartView*>()->chart()->series();
        QCOMPARE(all.size(), 2);
        auto series = [&](int k) { return static_cast<QLineSeries*>(all[k]); };
        // 20,000 points in 600 pixels: both curves are dense, drawn by their RawCurveItem and
        // DenseLineItem; their Qt Charts series stay empty.
        const QList<QPointF> raw = chart.rawPoints(QStringLiteral("train"));
        const QList<QPointF> smoothed = chart.smoothedPoints(QStringLiteral("train"));
        QVERIFY(raw.size() > 600);
        QVERIFY(smoothed.size() > 600);
        QCOMPARE(series(0)->count(), 0);
        QCOMPARE(series(1)->count(), 0);
        QVERIFY(!chart.markersShown(QStringLiteral("train")));
        // An SVG export gets the full-colour curve as lines, not as a picture.
        QTemporaryDir dir;
        QVERIFY(chart.saveSvg(dir.filePath("dense.svg")).isOk());
        QFile svg(dir.filePath("dense.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray svgText = svg.readAll();
        QCOMPARE(svgText.count("<image"), 1); // the faded raw curve's
        QVERIFY(svgText.count("<polyline") > 600);
        // A new weight changes the smoothed curve only.
        chart.setSmoothing(0.9);
        chart.refresh();
        QCOMPARE(chart.rawPoints(QStringLiteral("train")), raw);
        QVERIFY(chart.smoothedPoints(QStringLiteral("train")) != smoothed);
        QCOMPARE(series(1)->count(), 0);
        // Zoomed in to a few points per pixel column no more: both go back to their series.
        chart.zoomTo(QRectF(QPointF(100, -1), QPointF(200, 2)));
        chart.refresh();
        QCOMPARE(series(0)->count(), chart.rawPoints(QStringLiteral("train")).size());
        QCOMPARE(series(1)->count(), chart.smoothedPoints(QStringLiteral("train")).size());
        QVERIFY(series(1)->count() > 0 && series(1)->count() < 200);
        // Without smoothing the full-colour curve is the raw one: dense again when zoomed out.
        chart.resetZoom();
        chart.setSmoothing(0);
        chart.refresh();
        QCOMPARE(chart.rawPoints(QStringLiteral("train")), chart.smoothedPoints(QStringLiteral("train")));
        QVERIFY(chart.rawPoints(QStringLiteral("train")).size() > 600);
        // The series were rebuilt: one a run now, and empty.
        const QList<QAbstractSeries*> now = chart.findChild<QChartView*>()->chart()->series();
        QCOMPARE(now.size(), 1);
        QCOMPARE(static_cast<QLineSeries*>(now[0])->count(), 0);
    }

    /// The dense faded raw curve is drawn once per pixel (one translucent colour over the white
    /// plot, no pixel blended twice as overlapping line segments would), under the smoothed curve.
    void denseRawCurveBlendsEachPixelOnce()
    {
        ScalarChart chart;
        chart.resize(600, 400);
        chart.show();
        const QColor colour(0xff7043);
        chart.setRuns({RunStyle{QStringLiteral("train"), colour, true}});
        auto v = std::make_shared<std::vector<events::ScalarSample>>();
        QRandomGenerator rng(7);
        for (int i = 0; i < 200000; ++i)
            v->push_back({static_cast<std::int64_t>(i), 1.7e9 + i, 0.5 + 0.4 * rng.generateDouble()});
        chart.setSeries(QStringLiteral("train"), v);
        chart.setSmoothing(0.999);
        chart.refresh();
        QImage image(chart.size(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        chart.render(&painter);
        painter.end();
        // The colour of the raw curve over white, as the raster engine blends it.
        QImage swatch(1, 1, QImage::Format_ARGB32_Premultiplied);
        swatch.fill(Qt::white);
        QPainter p(&swatch);
        QColor faded = colour;
        faded.setAlpha(64);
        p.fillRect(QRect(0, 0, 1, 1), faded);
        p.end();
        const QRgb once = swatch.pixel(0, 0);
        QRgb twice = once;
        {
            QImage again = swatch;
            QPainter q(&again);
            q.fillRect(QRect(0, 0, 1, 1), faded);
            q.end();
            twice = again.pixel(0, 0);
        }
        int onceCount = 0, twiceCount = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                onceCount += image.pixel(x, y) == once;
                twiceCount += image.pixel(x, y) == twice;
            }
        // Uniform noise between 0.5 and 0.9: the band is a solid block of the plot's width.
        QVERIFY2(onceCount > 20000, qPrintable(QString::number(onceCount)));
        QVERIFY2(twiceCount < onceCount / 100, qPrintable(QStringLiteral("%1 %2").arg(onceCount).arg(twiceCount)));
    }

    void filterHidesSections()
    {
        ScalarsView view;
        view.resize(1400, 900);
        view.show();
        fill(view);
        view.setTagFilter(QStringLiteral("^METRICS/acc"));
        QVERIFY(view.tagFilterValid());
        QVERIFY(!view.isSectionShown(QStringLiteral("loss")));
        QVERIFY(view.isSectionShown(QStringLiteral("metrics")));
        QVERIFY(view.chart(QStringLiteral("metrics/accuracy"))->isVisible());
        QVERIFY(!view.chart(QStringLiteral("metrics/auc")) || !view.chart(QStringLiteral("metrics/auc"))->isVisible());
        view.setTagFilter(QStringLiteral("(unclosed"));
        QVERIFY(!view.tagFilterValid());
        QVERIFY(view.isSectionShown(QStringLiteral("loss")));
        view.setTagFilter(QString());
        QVERIFY(view.chart(QStringLiteral("metrics/auc"))->isVisible());
        // Collapsing a section hides its charts; a collapsed section creates none.
        view.setSectionExpanded(QStringLiteral("metrics"), false);
        QVERIFY(!view.chart(QStringLiteral("metrics/auc"))->isVisible());
    }

    void hiddenRunIsNotDrawn()
    {
        ScalarsView view;
        view.resize(1400, 900);
        view.show();
        fill(view);
        ScalarChart* chart = view.chart(QStringLiteral("loss"));
        chart->refresh();
        QVERIFY(!chart->smoothedPoints(QStringLiteral("eval")).isEmpty());
        view.setRuns(twoRuns(false));
        chart->refresh();
        QVERIFY(chart->smoothedPoints(QStringLiteral("eval")).isEmpty());
        QVERIFY(!chart->smoothedPoints(QStringLiteral("train")).isEmpty());
        view.removeRun(QStringLiteral("train"));
        chart->refresh();
        QVERIFY(chart->smoothedPoints(QStringLiteral("train")).isEmpty());
        view.removeRun(QStringLiteral("eval"));
        QVERIFY(view.tags().isEmpty());
        QVERIFY(view.sections().isEmpty());
    }

    void downloads()
    {
        ScalarsView view;
        view.resize(1400, 900);
        view.show();
        fill(view);
        ScalarChart* chart = view.chart(QStringLiteral("loss"));
        QCOMPARE(chart->csv(QStringLiteral("eval")), QString::fromStdString(scalarsCsv(*m_eval)));
        QCOMPARE(chart->json(QStringLiteral("train")), QString::fromStdString(scalarsJson(*m_train)));
        QTemporaryDir dir;
        QVERIFY(chart->saveCsv(QStringLiteral("eval"), dir.filePath("eval.csv")).isOk());
        QFile f(dir.filePath("eval.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray::fromStdString(scalarsCsv(*m_eval)));
        QVERIFY(chart->savePng(dir.filePath("loss.png")).isOk());
        QImage png(dir.filePath("loss.png"));
        QVERIFY(!png.isNull());
        QVERIFY(chart->saveSvg(dir.filePath("loss.svg")).isOk());
        QFile svg(dir.filePath("loss.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));
        const Status bad = chart->saveCsv(QStringLiteral("eval"), dir.filePath("missing/dir/eval.csv"));
        QVERIFY(!bad.isOk());
        QVERIFY2(QString::fromStdString(bad.message()).contains("missing/dir"), bad.message().c_str());
        QCOMPARE(chart->saveCsv(QStringLiteral("nope"), dir.filePath("x.csv")).code(), StatusCode::kNotFound);
    }

    void tooltipListsVisibleRuns()
    {
        ScalarChart chart;
        chart.resize(600, 400);
        chart.show();
        chart.setTag(QStringLiteral("loss"));
        chart.setRuns(twoRuns());
        chart.setSeries(QStringLiteral("train"), m_train);
        chart.setSeries(QStringLiteral("eval"), m_eval);
        chart.refresh();
        // The middle of the plot is about step 995: train's nearest step is 990 or 1000.
        auto* view = chart.findChild<QWidget*>(QString(), Qt::FindDirectChildrenOnly);
        Q_UNUSED(view);
        QString nearest;
        const QString html = chart.tooltipHtml(QPoint(chart.width() / 2, chart.height() / 2), &nearest);
        QVERIFY(html.contains(QStringLiteral("train")));
        QVERIFY(html.contains(QStringLiteral("eval")));
        static const QRegularExpression trainStep(QStringLiteral("train</td>(?:<td[^>]*>[^<]*</td>){2}<td align=right>(970|980|990|1k)</td>"));
        QVERIFY2(trainStep.match(html).hasMatch(), qPrintable(html));
        QVERIFY(!nearest.isEmpty());
        QVERIFY(chart.tooltipHtml(QPoint(-50, -50)).isEmpty());
    }

    void captureShowsCurves()
    {
        ScalarsView view;
        view.resize(1400, 800);
        view.show();
        fill(view);
        QVERIFY(QTest::qWaitForWindowExposed(&view) || true);
        QCoreApplication::processEvents();
        for (const QString& t : view.tags())
            if (ScalarChart* c = view.chart(t))
                c->refresh();
        const QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
        image.save(QStringLiteral("/tmp/scalars_view.png"));
        QVERIFY2(countColour(image, QColor(0xff7043)) > 300, "the train run's orange curves are not in the capture");
        QVERIFY2(countColour(image, QColor(0x0077bb)) > 300, "the eval run's blue curves are not in the capture");

        // Log scale on relative time: the curves must still be drawn (positive values only).
        view.setLogY(true);
        view.setXAxis(XAxis::Relative);
        for (const QString& t : view.tags())
            if (ScalarChart* c = view.chart(t))
                c->refresh();
        const QImage logImage = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
        logImage.save(QStringLiteral("/tmp/scalars_view_log_relative.png"));
        QVERIFY(countColour(logImage, QColor(0xff7043)) > 300);

        ScalarsView empty;
        empty.resize(800, 400);
        empty.show();
        const QImage blank = empty.grab().toImage();
        blank.save(QStringLiteral("/tmp/scalars_view_empty.png"));
        QVERIFY(countColour(blank, QColor(0xff7043)) == 0);
    }

    void lossFirstRatesLastAndCardsUseTheWidth()
    {
        // Tags a TF 1 training run writes: each without '/' is its own section.
        ScalarsView view;
        view.resize(1030, 800); // the Scalars tab of a 1280 x 800 window, beside the runs list
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setRuns(twoRuns());
        for (const QString& tag : {QStringLiteral("accuracy"), QStringLiteral("global_step/sec"), QStringLiteral("loss"),
                                   QStringLiteral("metrics/auc"), QStringLiteral("metrics/loss")})
            view.setScalars(QStringLiteral("train"), tag, m_train);
        QCOMPARE(view.sections(), (QStringList{"loss", "metrics", "accuracy", "global_step"}));
        // Inside a section too: the loss before the rest.
        for (const QString& s : view.sections())
            view.setSectionExpanded(s, true);
        QCoreApplication::processEvents();
        auto place = [&](const QString& tag) {
            ScalarChart* chart = view.chart(tag);
            return chart ? QRect(chart->mapTo(&view, QPoint(0, 0)), chart->size()) : QRect();
        };
        const QRect loss = place(QStringLiteral("loss"));
        const QRect metricsLoss = place(QStringLiteral("metrics/loss"));
        const QRect auc = place(QStringLiteral("metrics/auc"));
        const QRect accuracy = place(QStringLiteral("accuracy"));
        const QRect rate = place(QStringLiteral("global_step/sec"));
        for (const QRect& r : {loss, metricsLoss, auc, accuracy, rate})
            QVERIFY(r.isValid());
        // Two columns at this width, cards wider than before (440) and not squeezed.
        QVERIFY2(loss.width() > 440 && loss.width() < 520, qPrintable(QString::number(loss.width())));
        QVERIFY2(loss.height() >= 280, qPrintable(QString::number(loss.height())));
        // The loss is the first card, top left; the one-chart "loss" section shares its row with nothing wider.
        QVERIFY(loss.top() <= metricsLoss.top() && loss.top() <= accuracy.top() && loss.top() <= rate.top());
        QVERIFY(loss.left() < 40);
        QCOMPARE(metricsLoss.top(), auc.top());
        QVERIFY(metricsLoss.left() < auc.left());
        // global_step/sec comes last in reading order.
        for (const QRect& r : {loss, metricsLoss, auc, accuracy})
            QVERIFY2(rate.top() > r.top() || (rate.top() == r.top() && rate.left() > r.left()),
                     qPrintable(QStringLiteral("rate at (%1, %2), a card at (%3, %4)")
                                    .arg(rate.left()).arg(rate.top()).arg(r.left()).arg(r.top())));
        // One-chart sections share a row rather than each taking a full-width one.
        QCOMPARE(accuracy.top(), rate.top());

        // A wider window (1920 x 1080) gets three columns of larger cards.
        view.resize(1670, 1000);
        QCoreApplication::processEvents();
        const QRect wideAuc = place(QStringLiteral("metrics/auc"));
        const QRect wideLoss = place(QStringLiteral("metrics/loss"));
        QCOMPARE(wideAuc.top(), wideLoss.top());
        QVERIFY2(wideAuc.width() > 440, qPrintable(QString::number(wideAuc.width())));
        int onFirstRow = 0;
        for (const QString& tag : view.tags())
            onFirstRow += place(tag).top() == place(QStringLiteral("loss")).top() ? 1 : 0;
        QCOMPARE(onFirstRow, 3);
    }

    void onePointSeriesShowsAMarker()
    {
        ScalarChart chart;
        chart.resize(500, 340);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setRuns(twoRuns());
        auto one = std::make_shared<std::vector<events::ScalarSample>>();
        one->push_back({0, 1.7e9, 0.98});
        chart.setSeries(QStringLiteral("train"), one);
        chart.refresh();
        QCOMPARE(chart.smoothedPoints(QStringLiteral("train")).size(), 1);
        QVERIFY(chart.markersShown(QStringLiteral("train")));
        const QImage image = chart.grab().toImage().convertToFormat(QImage::Format_RGB32);
        image.save(QStringLiteral("/tmp/scalar_chart_one_point.png"));
        const int marker = countColour(image, QColor(0xff7043));
        QVERIFY2(marker >= 20, qPrintable(QStringLiteral("%1 marker pixels").arg(marker)));

        // Many points: a line, no markers.
        chart.setSeries(QStringLiteral("train"), m_train);
        chart.refresh();
        QVERIFY(!chart.markersShown(QStringLiteral("train")));
    }

    void flatSeriesHasDistinctAxisLabels()
    {
        ScalarChart chart;
        chart.resize(500, 340);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.setRuns(twoRuns());
        chart.setSmoothing(0);
        // A loss that has settled: 0.98 give or take a few parts in a hundred thousand.
        auto flat = std::make_shared<std::vector<events::ScalarSample>>();
        for (int i = 0; i < 50; ++i)
            flat->push_back({i, 1.7e9 + i, 0.98 + 2e-5 * std::sin(i)});
        chart.setSeries(QStringLiteral("train"), flat);
        chart.refresh();
        const QStringList labels = chart.yAxisLabels();
        QVERIFY2(labels.size() >= 3, qPrintable(labels.join(", ")));
        for (const QString& label : labels)
            QVERIFY2(!label.contains(QChar(0x200b)), qPrintable(labels.join(", "))); // never made unique by padding
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), labels.size());
        for (int i = 1; i < labels.size(); ++i)
            QVERIFY2(labels[i].toDouble() > labels[i - 1].toDouble(), qPrintable(labels.join(", ")));
    }

    void redrawBenchmarkRuns()
    {
        // Not a timing test (the figures come from `tensorstudio --bench-chart`): the benchmark's
        // redraw goes through every stage and draws points, for TSTUDIO_BENCH_CHART points or 2,000.
        int points = qEnvironmentVariableIntValue("TSTUDIO_BENCH_CHART");
        if (points <= 0)
            points = 2000;
        const ChartBenchResult r = benchRedraw(points);
        qInfo("benchRedrawMs(%d): %.2f ms median (smooth %.2f, domain %.2f, decimate %.2f, replace %.2f, render %.2f; %zu points drawn)",
              points, r.total, r.smooth, r.domain, r.decimate, r.replace, r.render, r.drawnPoints);
        QVERIFY(r.total > 0);
        QVERIFY(r.domain > 0); // the benchmark must not be served from the domain cache
        QVERIFY(r.drawnPoints > 0);
        QVERIFY(r.viewSize.width() > 700 && r.viewSize.height() > 400); // the chart's view, under its toolbar
    }
};

QTEST_MAIN(TestScalarsView)
#include "test_scalars_view.moc"
