// Aliased polylines rasterised straight into a premultiplied ARGB32 pixel buffer (no Qt): the graph
// viewer's zoomed-out edges, hundreds of lines each a thousand pixels long.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tstudio::graph_viewer {

/// A block of premultiplied 0xAARRGGBB pixels (QImage::Format_ARGB32_Premultiplied's layout), rows
/// `stride` pixels apart. Not owned.
struct RasterTarget {
    std::uint32_t* pixels = nullptr;
    int width = 0;
    int height = 0;
    int stride = 0;
};

/// How a polyline is drawn: its colour (premultiplied), its width in pixels (rounded to whole pixels,
/// at least one) and Qt::DashLine's pattern (dashes of 4 widths, gaps of 2) when `dashed`.
struct RasterPen {
    std::uint32_t premultiplied = 0xff000000u;
    double width = 1.0;
    bool dashed = false;
};

/// Draws the polyline through `count` points (`xy` holds x0, y0, x1, y1, ... in pixels, pixel
/// centres at half-integers as in Qt) with `pen`, blending source-over. Each pixel of the line is
/// blended once: along its major axis (x for lines wider than tall) a line sets one run of `width`
/// pixels across, centred on the line, per pixel step, and a corner's shared pixel belongs to the
/// segment that starts there. Flat caps. The dash pattern runs on across the corners. Whatever
/// falls outside the target is clipped; a polyline of one point or none draws nothing.
///
/// Why not QPainter: on Qt's raster engine an aliased semi-transparent line costs a span (a
/// blending call) per pixel row it crosses, about 0.1 ms for a line across a 1280 x 800 view, so an
/// expanded 100,000-node graph zoomed out (hundreds of such edges) took 15 to 25 ms a frame for its
/// edges alone (`tensorstudio --bench-layout`).
void rasterPolyline(const RasterTarget& target, const RasterPen& pen, const double* xy, std::size_t count);

} // namespace tstudio::graph_viewer
