// rasterPolyline: aliased wide lines, one run of pixels across per step along the major axis.
#include "graph_viewer/line_raster.h"

#include <algorithm>
#include <cmath>

namespace tstudio::graph_viewer {

namespace {

/// Each of the four 8-bit channels of `x` times a / 255, rounded.
inline std::uint32_t scaleChannels(std::uint32_t x, std::uint32_t a)
{
    std::uint32_t redBlue = (x & 0x00ff00ffu) * a;
    redBlue = ((redBlue + ((redBlue >> 8) & 0x00ff00ffu) + 0x00800080u) >> 8) & 0x00ff00ffu;
    std::uint32_t alphaGreen = ((x >> 8) & 0x00ff00ffu) * a;
    alphaGreen = (alphaGreen + ((alphaGreen >> 8) & 0x00ff00ffu) + 0x00800080u) & 0xff00ff00u;
    return alphaGreen | redBlue;
}

/// Premultiplied source over destination.
inline std::uint32_t over(std::uint32_t destination, std::uint32_t source)
{
    return source + scaleChannels(destination, 255u - (source >> 24));
}

struct Segment {
    double x0, y0, x1, y1;
    bool last; ///< the polyline's last segment keeps its end pixel
};

/// Draws one segment; `phase` is the dash pattern's position (pixels along the polyline) at its start.
void rasterSegment(const RasterTarget& target, const RasterPen& pen, const Segment& s, double phase)
{
    const double dx = s.x1 - s.x0;
    const double dy = s.y1 - s.y0;
    const double length = std::hypot(dx, dy);
    if (!(length > 0) || !std::isfinite(length))
        return;
    const bool xMajor = std::abs(dx) >= std::abs(dy);
    // Along the major axis: from the start's pixel to the end's, the end's excluded unless last.
    const double start = xMajor ? s.x0 : s.y0;
    const double end = xMajor ? s.x1 : s.y1;
    const double delta = end - start;
    const double firstPixel = std::floor(start);
    const double endPixel = std::floor(end);
    const double step = delta > 0 ? 1.0 : -1.0;
    double lastPixel = s.last ? endPixel : endPixel - step;
    if ((lastPixel - firstPixel) * step < 0)
        return;
    // Only the pixels inside the target along the major axis.
    const double limit = xMajor ? target.width : target.height;
    double from = firstPixel;
    double to = lastPixel;
    if (from > to)
        std::swap(from, to);
    from = std::max(from, 0.0);
    to = std::min(to, limit - 1);
    if (from > to)
        return;
    const int width = std::max(1, static_cast<int>(std::lround(pen.width)));
    const double dash = 4.0 * width;
    const double period = 6.0 * width;
    const double crossLimit = xMajor ? target.height : target.width;
    const double slope = (xMajor ? dy : dx) / delta; // cross-axis change per major-axis pixel
    const double crossStart = xMajor ? s.y0 : s.x0;
    for (int major = static_cast<int>(from); major <= static_cast<int>(to); ++major) {
        // The line at this pixel's centre, held to the segment.
        const double along = std::clamp(major + 0.5 - start, std::min(0.0, delta), std::max(0.0, delta));
        if (pen.dashed && std::fmod(phase + std::abs(along / delta) * length, period) >= dash)
            continue;
        const double cross = crossStart + slope * along;
        const double first = std::floor(cross - width / 2.0 + 0.5);
        if (first > crossLimit - 1 || first + width - 1 < 0)
            continue;
        const int lo = static_cast<int>(std::max(first, 0.0));
        const int hi = static_cast<int>(std::min(first + width - 1, crossLimit - 1));
        for (int c = lo; c <= hi; ++c) {
            std::uint32_t& pixel = xMajor ? target.pixels[static_cast<std::ptrdiff_t>(c) * target.stride + major]
                                          : target.pixels[static_cast<std::ptrdiff_t>(major) * target.stride + c];
            pixel = over(pixel, pen.premultiplied);
        }
    }
}

} // namespace

void rasterPolyline(const RasterTarget& target, const RasterPen& pen, const double* xy, std::size_t count)
{
    if (count < 2 || !target.pixels || target.width <= 0 || target.height <= 0)
        return;
    double phase = 0;
    for (std::size_t i = 0; i + 1 < count; ++i) {
        const Segment segment{xy[2 * i], xy[2 * i + 1], xy[2 * i + 2], xy[2 * i + 3], i + 2 == count};
        rasterSegment(target, pen, segment, phase);
        phase += std::hypot(segment.x1 - segment.x0, segment.y1 - segment.y0);
    }
}

} // namespace tstudio::graph_viewer
