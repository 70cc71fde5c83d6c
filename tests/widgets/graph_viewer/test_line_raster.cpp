// Tests for rasterPolyline (the graph viewer's zoomed-out edges drawn straight into pixels): which
// pixels a line sets, widths, corners blended once, the dash pattern, clipping and bad coordinates.
#include "graph_viewer/line_raster.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace tstudio::graph_viewer;

namespace {

/// A transparent canvas of w x h premultiplied pixels.
struct Canvas {
    Canvas(int w, int h) : width(w), height(h), pixels(static_cast<std::size_t>(w * h), 0u) {}
    RasterTarget target() { return RasterTarget{pixels.data(), width, height, width}; }
    std::uint32_t at(int x, int y) const { return pixels[static_cast<std::size_t>(y * width + x)]; }
    int count() const
    {
        int n = 0;
        for (std::uint32_t p : pixels)
            n += p != 0 ? 1 : 0;
        return n;
    }
    int width;
    int height;
    std::vector<std::uint32_t> pixels;
};

void draw(Canvas& canvas, const RasterPen& pen, std::vector<double> xy)
{
    rasterPolyline(canvas.target(), pen, xy.data(), xy.size() / 2);
}

constexpr std::uint32_t kOpaqueRed = 0xffff0000u;
constexpr std::uint32_t kHalfBlack = 0x80000000u; // premultiplied: alpha 128, no colour

} // namespace

class TestLineRaster : public QObject {
    Q_OBJECT

private slots:
    void horizontalAndVerticalLinesSetTheirPixels()
    {
        Canvas canvas(12, 12);
        draw(canvas, {kOpaqueRed, 1.0, false}, {0.5, 2.5, 9.5, 2.5});
        for (int x = 0; x < 12; ++x)
            QCOMPARE(canvas.at(x, 2), x <= 9 ? kOpaqueRed : 0u);
        QCOMPARE(canvas.count(), 10);

        Canvas tall(12, 12);
        draw(tall, {kOpaqueRed, 1.0, false}, {4.5, 11.5, 4.5, 1.5}); // upwards
        for (int y = 0; y < 12; ++y)
            QCOMPARE(tall.at(4, y), y >= 1 ? kOpaqueRed : 0u);
        QCOMPARE(tall.count(), 11);
    }

    void aDiagonalSetsOnePixelPerStep()
    {
        Canvas canvas(10, 10);
        draw(canvas, {kOpaqueRed, 1.0, false}, {0.5, 0.5, 9.5, 9.5});
        for (int i = 0; i < 10; ++i)
            QCOMPARE(canvas.at(i, i), kOpaqueRed);
        QCOMPARE(canvas.count(), 10);
        // Shallow: one pixel per column, rising one row every third column or so.
        Canvas shallow(31, 12);
        draw(shallow, {kOpaqueRed, 1.0, false}, {0.5, 0.5, 30.5, 10.5});
        QCOMPARE(shallow.count(), 31);
        for (int x = 0; x < 31; ++x) {
            const int y = static_cast<int>(std::floor(0.5 + x / 3.0));
            QVERIFY2(shallow.at(x, y) == kOpaqueRed, qPrintable(QStringLiteral("column %1 row %2").arg(x).arg(y)));
        }
    }

    void widthSetsThatManyPixelsAcross()
    {
        Canvas canvas(12, 12);
        draw(canvas, {kOpaqueRed, 3.0, false}, {5.5, 0.5, 5.5, 9.5}); // vertical: columns 4, 5, 6
        for (int y = 0; y <= 9; ++y)
            for (int x = 0; x < 12; ++x)
                QCOMPARE(canvas.at(x, y), (x >= 4 && x <= 6) ? kOpaqueRed : 0u);
        QCOMPARE(canvas.count(), 30);
        Canvas wide(12, 12);
        draw(wide, {kOpaqueRed, 2.4, false}, {0.5, 5.5, 9.5, 5.5}); // 2 rows: 5 and 6 (centre at 5.5 + ...)
        QCOMPARE(wide.count(), 20);
    }

    void aCornerIsBlendedOnce()
    {
        // Semi-transparent: a pixel drawn twice would be darker (alpha 192 instead of 128).
        Canvas canvas(10, 10);
        draw(canvas, {kHalfBlack, 1.0, false}, {0.5, 0.5, 6.5, 0.5, 6.5, 7.5, 1.5, 7.5});
        for (std::uint32_t p : canvas.pixels)
            QVERIFY(p == 0u || p == kHalfBlack);
        QCOMPARE(canvas.count(), 6 + 7 + 6); // each segment without its end pixel, but the last
        // Source over what is there: half black over opaque white is opaque grey.
        Canvas white(4, 1);
        std::fill(white.pixels.begin(), white.pixels.end(), 0xffffffffu);
        draw(white, {kHalfBlack, 1.0, false}, {0.5, 0.5, 3.5, 0.5});
        QCOMPARE(white.at(0, 0), 0xff7f7f7fu);
    }

    void dashesRunFourWidthsOnTwoOff()
    {
        Canvas canvas(30, 3);
        draw(canvas, {kOpaqueRed, 1.0, true}, {0.0, 1.5, 30.0, 1.5});
        QString pattern;
        for (int x = 0; x < 30; ++x)
            pattern += canvas.at(x, 1) ? QLatin1Char('#') : QLatin1Char('.');
        QCOMPARE(pattern, QStringLiteral("####..####..####..####..####.."));
        // The pattern continues across a corner: 3 pixels, then the next segment starts with 1 on.
        Canvas corner(12, 12);
        draw(corner, {kOpaqueRed, 1.0, true}, {0.0, 0.5, 3.0, 0.5, 3.0, 11.0});
        QString down;
        for (int y = 1; y < 11; ++y)
            down += corner.at(3, y) ? QLatin1Char('#') : QLatin1Char('.');
        QCOMPARE(down, QStringLiteral("..####..##"));
    }

    void clipsWhatFallsOutside()
    {
        Canvas canvas(8, 8);
        draw(canvas, {kOpaqueRed, 1.0, false}, {-1e9, 3.5, 1e9, 3.5});
        QCOMPARE(canvas.count(), 8);
        draw(canvas, {kOpaqueRed, 5.0, false}, {-50.0, -50.0, -10.0, 200.0}); // left of the canvas
        QCOMPARE(canvas.count(), 8);
        draw(canvas, {kOpaqueRed, 1.0, false}, {2.5, -1e12, 2.5, 1e12});
        QCOMPARE(canvas.count(), 15);
    }

    void badCoordinatesDrawNothing()
    {
        Canvas canvas(8, 8);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double inf = std::numeric_limits<double>::infinity();
        draw(canvas, {kOpaqueRed, 1.0, false}, {nan, 1.0, 5.0, 1.0});
        draw(canvas, {kOpaqueRed, 1.0, false}, {0.0, inf, 5.0, 1.0});
        draw(canvas, {kOpaqueRed, 1.0, false}, {3.0, 3.0, 3.0, 3.0}); // no length
        draw(canvas, {kOpaqueRed, 1.0, false}, {3.0, 3.0});           // one point
        QCOMPARE(canvas.count(), 0);
    }
};

QTEST_GUILESS_MAIN(TestLineRaster)
#include "test_line_raster.moc"
