#include "dashboard/stroke_coverage.h"

#include <algorithm>
#include <cmath>

namespace tstudio::dashboard {

void StrokeCoverage::reset(const QRect& box)
{
    m_box = box.isValid() ? box : QRect();
    m_transmission.assign(static_cast<std::size_t>(m_box.width()) * static_cast<std::size_t>(m_box.height()), 1.0f);
}

double StrokeCoverage::coverage(int x, int y) const
{
    if (!m_box.contains(x, y))
        return 0;
    const std::size_t at = static_cast<std::size_t>(y - m_box.top()) * static_cast<std::size_t>(m_box.width()) +
                           static_cast<std::size_t>(x - m_box.left());
    return 1.0 - static_cast<double>(m_transmission[at]);
}

std::span<const float> StrokeCoverage::transmission(int y) const
{
    const auto width = static_cast<std::size_t>(m_box.width());
    return std::span<const float>(m_transmission).subspan(static_cast<std::size_t>(y - m_box.top()) * width, width);
}

namespace {

/// floor and ceil to int without a library call (x86-64's baseline has no rounding instruction), for
/// values well inside int's range.
int floorInt(double v)
{
    const int i = static_cast<int>(v);
    return i - (v < i);
}
int ceilInt(double v)
{
    const int i = static_cast<int>(v);
    return i + (v > i);
}

/// How much of the pixel [p, p + 1) the interval [centre - reach, centre + reach] covers (reach >= 0.5).
double overlap(int p, double centre, double reach)
{
    return std::clamp(0.5 + reach - std::fabs(p + 0.5 - centre), 0.0, 1.0);
}

} // namespace

void StrokeCoverage::addStrokes(std::span<const QLineF> strokes, double width, double opacity)
{
    if (m_box.isEmpty())
        return;
    const double half = std::max(width, 1.0) / 2;
    opacity = std::clamp(opacity, 0.0, 1.0);
    const auto boxWidth = static_cast<std::size_t>(m_box.width());
    auto rowAt = [&](int y) {
        return m_transmission.data() + static_cast<std::size_t>(y - m_box.top()) * boxWidth - m_box.left();
    };
    for (const QLineF& s : strokes) {
        const double x0 = s.x1(), y0 = s.y1(), x1 = s.x2(), y1 = s.y2();
        if (!std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1) || !std::isfinite(y1))
            continue;
        if (x0 == x1) {
            // Vertical (most of a dense curve's strokes): a rectangle, its coverage the product of
            // a factor per column and one per row, 1 in the rows between its ends.
            const double top = std::min(y0, y1) - half, bottom = std::max(y0, y1) + half;
            const int firstX = std::max(m_box.left(), floorInt(x0 - half));
            const int lastX = std::min(m_box.right(), ceilInt(x0 + half) - 1);
            const int firstY = std::max(m_box.top(), floorInt(top));
            const int lastY = std::min(m_box.bottom(), ceilInt(bottom) - 1);
            if (firstX > lastX || firstY > lastY)
                continue;
            constexpr int kMaxColumns = 64;
            const int columns = std::min(lastX - firstX + 1, kMaxColumns);
            float across[kMaxColumns], inside[kMaxColumns];
            for (int k = 0; k < columns; ++k) {
                across[k] = static_cast<float>(opacity * overlap(firstX + k, x0, half));
                inside[k] = 1.0f - across[k];
            }
            const double centre = (top + bottom) / 2, reach = (bottom - top) / 2;
            for (int y = firstY; y <= lastY; ++y) {
                float* const out = rowAt(y) + firstX;
                const double along = overlap(y, centre, reach);
                if (along == 1.0) {
                    for (int k = 0; k < columns; ++k)
                        out[k] *= inside[k];
                } else {
                    const auto a = static_cast<float>(along);
                    for (int k = 0; k < columns; ++k)
                        out[k] *= 1.0f - across[k] * a;
                }
            }
            continue;
        }
        const double dx = x1 - x0, dy = y1 - y0, length = std::hypot(dx, dy);
        // The unit vector along the stroke and the stroke's centre.
        const double ux = dx / length, uy = dy / length;
        const double cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
        const double alongReach = length / 2 + half; // square caps reach half the width past the ends
        // The pixels that can be touched: the rectangle's corners' box, a pixel wider.
        const double ex = std::fabs(ux) * alongReach + std::fabs(uy) * half + 1;
        const double ey = std::fabs(uy) * alongReach + std::fabs(ux) * half + 1;
        const int top = std::max(m_box.top(), floorInt(cy - ey));
        const int bottom = std::min(m_box.bottom(), ceilInt(cy + ey));
        const int boxLeft = std::max(m_box.left(), floorInt(cx - ex));
        const int boxRight = std::min(m_box.right(), ceilInt(cx + ex));
        for (int y = top; y <= bottom; ++y) {
            const double py = y + 0.5 - cy;
            int left = boxLeft, right = boxRight;
            // Where the stroke is not nearly horizontal, a row meets it only near the centre line.
            // A pixel is touched when its centre lies within half + 0.5 of the centre line across
            // the stroke, (half + 0.5) / |uy| along the row from where the line crosses it.
            if (std::fabs(uy) > 0.05) {
                const double at = cx + py * ux / uy - 0.5, reach = (half + 0.5) / std::fabs(uy);
                left = std::max(left, floorInt(at - reach));
                right = std::min(right, ceilInt(at + reach));
            }
            float* const out = rowAt(y);
            for (int x = left; x <= right; ++x) {
                const double px = x + 0.5 - cx;
                const double along = std::fabs(px * ux + py * uy), across = std::fabs(px * uy - py * ux);
                const double a =
                    std::clamp(0.5 + alongReach - along, 0.0, 1.0) * std::clamp(0.5 + half - across, 0.0, 1.0);
                out[x] *= static_cast<float>(1.0 - opacity * a);
            }
        }
    }
}

} // namespace tstudio::dashboard
