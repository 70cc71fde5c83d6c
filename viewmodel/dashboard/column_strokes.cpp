#include "dashboard/column_strokes.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace tstudio::dashboard {

namespace {

/// The points of one pixel column: its index, first and last point, lowest and highest y, and
/// whether its points rise, fall, or both (a turn).
struct Column {
    double column = 0, firstX = 0, firstY = 0, lastX = 0, lastY = 0, low = 0, high = 0;
    bool joined = false; ///< the polyline comes from the column before (no break between them)
    bool rises = false, falls = false;

    /// Drawn as a vertical stroke: the polyline turns within the column.
    bool turns() const { return rises && falls; }
    bool spans(double y) const { return y >= low && y <= high; }
};

} // namespace

void columnStrokes(std::span<const double> xs, std::span<const double> ys, double penWidth,
                   std::vector<QLineF>& strokes, ColumnGrid grid)
{
    strokes.clear();
    if (!(grid.width > 0))
        grid.width = 1;
    const std::size_t n = std::min(xs.size(), ys.size());
    thread_local std::vector<Column> columns;
    columns.clear();
    bool broken = true;
    for (std::size_t i = 0; i < n; ++i) {
        const double x = xs[i], y = ys[i];
        if (!std::isfinite(x) || !std::isfinite(y)) {
            broken = true;
            continue;
        }
        const double column = std::floor((x - grid.origin) / grid.width);
        if (!broken && column == columns.back().column) {
            Column& c = columns.back();
            c.rises = c.rises || y > c.lastY;
            c.falls = c.falls || y < c.lastY;
            c.lastX = x;
            c.lastY = y;
            c.low = std::min(c.low, y);
            c.high = std::max(c.high, y);
            continue;
        }
        columns.push_back(Column{column, x, y, x, y, y, y, !broken, false, false});
        broken = false;
    }
    for (std::size_t k = 0; k < columns.size(); ++k) {
        const Column& c = columns[k];
        const Column* next = k + 1 < columns.size() && columns[k + 1].joined ? &columns[k + 1] : nullptr;
        const double x = (c.firstX + c.lastX) / 2;
        if (c.turns())
            strokes.emplace_back(x, c.low, x, c.high);
        else if (c.firstX != c.lastX || c.firstY != c.lastY || (!c.joined && !next))
            strokes.emplace_back(c.firstX, c.firstY, c.lastX, c.lastY); // straight through, or a lone dot
        if (!next)
            continue;
        // Between two adjacent columns whose vertical strokes are at most a pen's width apart, the
        // strokes cover the join wherever it runs within both their heights: only its parts above
        // and below that are drawn.
        const double xa = c.lastX, ya = c.lastY, xb = next->firstX, yb = next->firstY;
        const double shared0 = std::max(c.low, next->low), shared1 = std::min(c.high, next->high);
        const bool bars = next->column == c.column + 1 && c.turns() && next->turns() &&
                          (next->firstX + next->lastX) / 2 - x <= penWidth && shared0 < shared1;
        if (!bars) {
            strokes.emplace_back(xa, ya, xb, yb);
            continue;
        }
        // The point of the join at height y (ya != yb wherever this is asked).
        auto at = [&](double y) { return QPointF(xa + (xb - xa) * ((y - ya) / (yb - ya)), y); };
        const QPointF lowEnd = ya <= yb ? QPointF(xa, ya) : QPointF(xb, yb);
        const QPointF highEnd = ya <= yb ? QPointF(xb, yb) : QPointF(xa, ya);
        if (lowEnd.y() < shared0)
            strokes.emplace_back(lowEnd, highEnd.y() <= shared0 ? highEnd : at(shared0));
        if (highEnd.y() > shared1)
            strokes.emplace_back(lowEnd.y() >= shared1 ? lowEnd : at(shared1), highEnd);
    }
}

} // namespace tstudio::dashboard
