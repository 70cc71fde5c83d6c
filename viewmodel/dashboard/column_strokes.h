// columnStrokes: a dense polyline (at least a point per pixel column) as the few strokes that draw it
// with a wide pen, so a chart's full-colour curve of thousands of points costs a stroke or two per
// pixel column instead of a stroke per segment.
#pragma once

#include <QLineF>

#include <span>
#include <vector>

namespace tstudio::dashboard {

/// The columns the points are grouped by: column k spans [origin + k width, origin + (k + 1) width)
/// in pixels (width at most one). A chart's decimation (decimation.h) keeps a few points per column
/// of its plot area's grid; grouping by the same grid keeps each column's points together.
struct ColumnGrid {
    double origin = 0;
    double width = 1;
};

/// The strokes that draw the polyline through `xs`, `ys` (pixel coordinates, x ascending) with a
/// pen `penWidth` pixels wide (at least one). Where the polyline turns within a column of `grid`,
/// its points there become one vertical stroke from their lowest to their highest y, at the
/// middle of their first and last x: it zigzags over less than a pixel of x between those extremes,
/// so the stroke covers what its segments would, to a fraction of a pixel. A column the polyline
/// only passes through (its points rising or falling, not both) becomes the stroke from its first
/// point to its last, and consecutive columns are joined by a stroke from the last point of one to
/// the first point of the next: a curve of one or two points a column gets the strokes of its
/// segments. Where two adjacent columns' vertical strokes are at most a pen's width apart they also
/// cover the join between them at the heights both reach: only the join's parts above and below are
/// kept. A lone point gets a zero-length stroke, which a square or round cap draws as a dot.
/// Non-finite points break the line: the points on either side are not joined.
void columnStrokes(std::span<const double> xs, std::span<const double> ys, double penWidth,
                   std::vector<QLineF>& strokes, ColumnGrid grid = {});

} // namespace tstudio::dashboard
