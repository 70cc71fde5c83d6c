// DenseLineItem against QPainter: a dense curve drawn as column strokes into a coverage image must
// look like the same decimated polyline drawn segment by segment with an antialiased pen, as Qt
// Charts draws it; and the strokes and their coverage on their own (column_strokes.h,
// stroke_coverage.h).
#include "dashboard/column_strokes.h"
#include "dashboard/decimation.h"
#include "dashboard/dense_line_item.h"
#include "dashboard/stroke_coverage.h"

#include <QImage>
#include <QPainter>
#include <QRandomGenerator>
#include <QTest>

#include <cmath>
#include <functional>

using namespace tstudio::dashboard;

namespace {

constexpr int kWidth = 600, kHeight = 400;

/// How two drawings of one curve differ, from their alpha channels.
struct Difference {
    double meanAbs = 0;   ///< mean |alpha difference| over the pixels either covers
    double farOff = 0;    ///< share of those pixels whose alphas differ by more than half
    double inkRatio = 0;  ///< total alpha of the item's drawing over the reference's
};

Difference compare(const QImage& reference, const QImage& drawn)
{
    double sum = 0, refInk = 0, ink = 0;
    int pixels = 0, far = 0;
    for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
            const double a = qAlpha(reference.pixel(x, y)) / 255.0, b = qAlpha(drawn.pixel(x, y)) / 255.0;
            refInk += a;
            ink += b;
            if (a < 0.02 && b < 0.02)
                continue;
            ++pixels;
            sum += std::fabs(a - b);
            far += std::fabs(a - b) > 0.5;
        }
    return {pixels ? sum / pixels : 0, pixels ? static_cast<double>(far) / pixels : 0, refInk > 0 ? ink / refInk : 0};
}

QImage blank()
{
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    return image;
}

/// The decimated curve `f` over [0, n) in pixels: x from 20 to kWidth - 20, y as f gives it.
std::vector<QPointF> decimated(int n, const std::function<double(int)>& f)
{
    std::vector<double> xs(static_cast<std::size_t>(n)), ys(xs.size());
    for (int i = 0; i < n; ++i) {
        xs[static_cast<std::size_t>(i)] = 20 + (kWidth - 40) * static_cast<double>(i) / n;
        ys[static_cast<std::size_t>(i)] = f(i);
    }
    std::vector<std::uint32_t> idx;
    decimateForDrawing(xs, ys, 0, kWidth, kWidth, idx);
    std::vector<QPointF> points;
    for (std::uint32_t i : idx)
        points.emplace_back(xs[i], ys[i]);
    return points;
}

QPen pen(double width, QColor colour = QColor(0xff7043))
{
    QPen p(colour);
    p.setWidthF(width);
    p.setCapStyle(Qt::SquareCap);
    p.setJoinStyle(Qt::RoundJoin);
    return p;
}

/// What Qt Charts draws: each segment on its own, antialiased.
QImage bySegments(const std::vector<QPointF>& points, const QPen& p)
{
    QImage image = blank();
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(p);
    for (std::size_t i = 1; i < points.size(); ++i)
        painter.drawLine(points[i - 1], points[i]);
    return image;
}

/// The item, its view mapping pixels to themselves (data y up, pixel y down).
QImage byItem(const std::vector<QPointF>& points, const QPen& p)
{
    DenseLineItem item;
    std::vector<QPointF> data;
    for (const QPointF& q : points)
        data.emplace_back(q.x(), kHeight - q.y());
    item.setPoints(std::move(data));
    item.setView(QRectF(0, 0, kWidth, kHeight), {0, kWidth}, {0, kHeight});
    item.setPen(p);
    QImage image = blank();
    QPainter painter(&image);
    item.paint(&painter, nullptr, nullptr);
    return image;
}

} // namespace

class TestDenseLineItem : public QObject {
    Q_OBJECT

private slots:
    void looksLikeTheSegmentsDrawnOneByOne_data()
    {
        QTest::addColumn<int>("points");
        QTest::addColumn<double>("width");
        QTest::addColumn<int>("shape");
        QTest::newRow("noisy, 50,000 points") << 50000 << 2.0 << 0;
        QTest::newRow("noisy, pen 1.5") << 50000 << 1.5 << 0;
        QTest::newRow("noisy, highlighted pen 3.5") << 50000 << 3.5 << 0;
        QTest::newRow("smooth wave, 3,000 points") << 3000 << 2.0 << 1;
        QTest::newRow("steep fall, 2,000 points") << 2000 << 2.0 << 2;
        QTest::newRow("one point a column") << 560 << 2.0 << 1;
    }

    void looksLikeTheSegmentsDrawnOneByOne()
    {
        QFETCH(int, points);
        QFETCH(double, width);
        QFETCH(int, shape);
        QRandomGenerator rng(7);
        double walk = 0;
        const std::function<double(int)> f = [&](int i) -> double {
            if (shape == 1)
                return 200 + 120 * std::sin(i * 12.0 / points);
            if (shape == 2)
                return 380 - 360 * std::exp(-i * 8.0 / points);
            walk += rng.generateDouble() - 0.5;
            return 200 + walk * 0.3 + 60 * (rng.generateDouble() - 0.5);
        };
        const std::vector<QPointF> curve = decimated(points, f);
        const Difference d = compare(bySegments(curve, pen(width)), byItem(curve, pen(width)));
        qInfo("%zu points drawn: mean |alpha difference| %.3f, %.2f%% of pixels off by more than half, ink %.3f",
              curve.size(), d.meanAbs, 100 * d.farOff, d.inkRatio);
        QVERIFY2(d.meanAbs < 0.08, "the item's curve differs from the segments' drawing");
        QVERIFY2(d.farOff < 0.02, "too many pixels differ by more than half");
        QVERIFY(d.inkRatio > 0.93 && d.inkRatio < 1.07);
    }

    void columnsFollowTheChartsGrid()
    {
        // A plot area at a fractional left edge, its width not whole, as a chart's is: the item
        // groups the points by the columns the chart decimated them in (ceil(width) columns over
        // the area), so a noisy curve's columns each become one vertical stroke, not two halves
        // joined by slanted ones.
        const QRectF area(36.84, 10, 540.3, 380);
        const int columns = static_cast<int>(std::ceil(area.width()));
        const int n = 50000;
        std::vector<double> xs(n), ys(n);
        QRandomGenerator rng(5);
        for (int i = 0; i < n; ++i) {
            xs[static_cast<std::size_t>(i)] = i * 1000.0 / n;
            ys[static_cast<std::size_t>(i)] = rng.generateDouble();
        }
        std::vector<std::uint32_t> idx;
        decimateForDrawing(xs, ys, 0, 1000, columns, idx);
        std::vector<QPointF> data;
        for (std::uint32_t i : idx)
            data.emplace_back(xs[i], ys[i]);
        DenseLineItem item;
        item.setPoints(std::move(data));
        item.setView(area, {0, 1000}, {-0.5, 1.5});
        item.setPen(pen(2));
        QImage image = blank();
        QPainter painter(&image);
        item.paint(&painter, nullptr, nullptr);
        int vertical = 0, slanted = 0;
        for (const QLineF& s : item.strokes())
            (s.x1() == s.x2() ? vertical : slanted) += 1;
        qInfo("%d columns: %d vertical strokes, %d slanted", columns, vertical, slanted);
        QVERIFY(vertical >= columns - 1);
        QVERIFY(slanted < columns / 5);
    }

    void shiftedCurveIsCaught()
    {
        // The comparison notices a curve one pixel off: it is not too lax to fail.
        std::vector<QPointF> curve = decimated(3000, [](int i) { return 200 + 120 * std::sin(i * 12.0 / 3000); });
        std::vector<QPointF> shifted = curve;
        for (QPointF& p : shifted)
            p.ry() += 1.5;
        const Difference d = compare(bySegments(curve, pen(2)), byItem(shifted, pen(2)));
        QVERIFY(d.meanAbs >= 0.08 || d.farOff >= 0.02);
    }

    void columnStrokesOfSmallCurves()
    {
        std::vector<QLineF> strokes;
        auto strokesOf = [&](std::vector<double> xs, std::vector<double> ys, double width = 2) {
            columnStrokes(xs, ys, width, strokes);
            return strokes;
        };
        // Three points in one column: one vertical stroke at the middle of their x, nothing else.
        QCOMPARE(strokesOf({3.2, 3.5, 3.8}, {10, 4, 7}), (std::vector<QLineF>{QLineF(3.5, 4, 3.5, 10)}));
        // One point per column: the joins only.
        QCOMPARE(strokesOf({1.5, 2.5, 3.5}, {5, 6, 8}),
                 (std::vector<QLineF>{QLineF(1.5, 5, 2.5, 6), QLineF(2.5, 6, 3.5, 8)}));
        // A lone point: a dot. A break (NaN) between two points: two dots, no join.
        QCOMPARE(strokesOf({4.5}, {9}), (std::vector<QLineF>{QLineF(4.5, 9, 4.5, 9)}));
        QCOMPARE(strokesOf({1.5, 2.5, 3.5}, {5, NAN, 8}),
                 (std::vector<QLineF>{QLineF(1.5, 5, 1.5, 5), QLineF(3.5, 8, 3.5, 8)}));
        // Adjacent columns spanning 0..10 and 2..12: the join from 9 to 3 lies within both, so it
        // is left to their vertical strokes.
        QCOMPARE(strokesOf({0.2, 0.4, 0.6, 1.2, 1.4, 1.6}, {0, 10, 9, 3, 2, 12}),
                 (std::vector<QLineF>{QLineF(0.4, 0, 0.4, 10), QLineF(1.4, 2, 1.4, 12)}));
        // The join from 1 to 11 leaves the shared heights 2..10 at both ends: those parts are kept.
        QCOMPARE(strokesOf({0.2, 0.4, 0.6, 1.2, 1.4, 1.6}, {0, 10, 1, 11, 2, 12}),
                 (std::vector<QLineF>{QLineF(0.4, 0, 0.4, 10), QLineF(0.6, 1, 0.66, 2), QLineF(1.14, 10, 1.2, 11),
                                      QLineF(1.4, 2, 1.4, 12)}));
        // Vertical strokes further apart than the pen is wide do not cover the join.
        QCOMPARE(strokesOf({0.0, 0.05, 0.1, 1.85, 1.9, 1.95}, {0, 10, 5, 3, 8, 6}, 1.0),
                 (std::vector<QLineF>{QLineF(0.05, 0, 0.05, 10), QLineF(0.1, 5, 1.85, 3), QLineF(1.9, 3, 1.9, 8)}));
        // A column the line only passes through keeps its segment: a smooth curve is drawn as it is.
        QCOMPARE(strokesOf({0.2, 0.7, 1.3}, {1, 4, 6}),
                 (std::vector<QLineF>{QLineF(0.2, 1, 0.7, 4), QLineF(0.7, 4, 1.3, 6)}));
    }

    void coverageOfStrokes()
    {
        StrokeCoverage c;
        c.reset(QRect(0, 0, 20, 20));
        // A vertical stroke two pixels wide centred on x = 10.5 from y = 5 to 15, square caps: x in
        // [9.5, 11.5], y in [4, 16].
        const std::vector<QLineF> bar{QLineF(10.5, 5, 10.5, 15)};
        c.addStrokes(bar, 2);
        QCOMPARE(c.coverage(10, 10), 1.0);
        QVERIFY(std::fabs(c.coverage(9, 10) - 0.5) < 1e-6);
        QVERIFY(std::fabs(c.coverage(11, 10) - 0.5) < 1e-6);
        QCOMPARE(c.coverage(8, 10), 0.0);
        QCOMPARE(c.coverage(10, 4), 1.0);
        QCOMPARE(c.coverage(10, 3), 0.0);
        QCOMPARE(c.coverage(10, 16), 0.0);
        // Translucent strokes over one another compound as source-over does: 1 - (1 - 0.4)^2.
        c.reset(QRect(0, 0, 20, 20));
        c.addStrokes(bar, 2, 0.4);
        c.addStrokes(bar, 2, 0.4);
        QVERIFY(std::fabs(c.coverage(10, 10) - 0.64) < 1e-6);
        // A dot: a square of the pen's width.
        c.reset(QRect(0, 0, 20, 20));
        const std::vector<QLineF> dot{QLineF(5, 5, 5, 5)};
        c.addStrokes(dot, 2);
        QCOMPARE(c.coverage(4, 4), 1.0);
        QCOMPARE(c.coverage(5, 5), 1.0);
        QCOMPARE(c.coverage(3, 5), 0.0);
        QCOMPARE(c.coverage(6, 5), 0.0);
        // A horizontal stroke: exact too. A slanted one: full on its centre line, none far from it.
        c.reset(QRect(0, 0, 20, 20));
        const std::vector<QLineF> lines{QLineF(2, 3, 12, 3), QLineF(2, 10, 12, 18)};
        c.addStrokes(lines, 2);
        QCOMPARE(c.coverage(7, 2), 1.0);
        QCOMPARE(c.coverage(7, 4), 0.0);
        QCOMPARE(c.coverage(7, 14), 1.0); // the centre line passes 0.08 from this pixel's centre
        QVERIFY(std::fabs(c.coverage(7, 13) - 0.8) < 0.01); // 0.7 across: 1.5 - 0.7 of it
        QCOMPARE(c.coverage(7, 17), 0.0);
        // Clipped to the box; non-finite strokes are skipped.
        c.reset(QRect(5, 5, 4, 4));
        const std::vector<QLineF> outside{QLineF(0, 0, 30, 30), QLineF(NAN, 1, 2, 3)};
        c.addStrokes(outside, 2);
        QCOMPARE(c.coverage(6, 6), 1.0);
        QCOMPARE(c.coverage(0, 0), 0.0);
    }
};

QTEST_MAIN(TestDenseLineItem)
#include "test_dense_line_item.moc"
