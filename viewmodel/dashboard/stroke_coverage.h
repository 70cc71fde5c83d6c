// StrokeCoverage: antialiased wide strokes (square caps) of one colour accumulated into a coverage
// buffer, for a chart's dense full-colour curve (DenseLineItem): its strokes cover a few thousand
// pixels each, and QPainter rasterizes each on its own with per-call costs that made the curve most
// of a million-point chart's redraw.
#pragma once

#include <QLineF>
#include <QRect>

#include <span>
#include <vector>

namespace tstudio::dashboard {

class StrokeCoverage {
public:
    /// An empty buffer for `box` (pixel rows and columns; pixel (x, y) spans [x, x + 1) x [y, y + 1)).
    void reset(const QRect& box);
    const QRect& box() const { return m_box; }

    /// Adds the strokes of a pen `width` pixels wide (at least one) with square caps and a colour of
    /// `opacity` (its alpha, in [0, 1]), each drawn over what is there as QPainter's source-over would
    /// draw it: a pixel that strokes cover with coverages a1, a2, ... ends up covered
    /// 1 - (1 - opacity a1)(1 - opacity a2)..., whatever their order. The coverage of a stroke is
    /// the product of the pixel's overlap across and along it (the two distances from its centre,
    /// each widened by half a pixel): exact for horizontal and vertical strokes, the usual
    /// distance approximation for slanted ones. A zero-length stroke covers a square of the width.
    void addStrokes(std::span<const QLineF> strokes, double width, double opacity = 1);

    /// The coverage of a pixel (0 outside the box), in [0, 1]: the alpha the strokes give it.
    double coverage(int x, int y) const;
    /// A row of the box as 1 - coverage, box().width() values from its left.
    std::span<const float> transmission(int y) const;

private:
    QRect m_box;
    std::vector<float> m_transmission; ///< 1 - coverage, row by row
};

} // namespace tstudio::dashboard
