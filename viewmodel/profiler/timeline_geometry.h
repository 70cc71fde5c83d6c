// Timeline geometry: the Qt-free arithmetic of the profiler timeline (visible time window, ruler ticks, row
// layout, and the per-lane walk that draws sub-pixel events as merged pixel columns).
#pragma once

#include "profiler/profile_trace.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace tstudio::profiler::timeline {

/// The closest zoom: this many nanoseconds across the whole time area.
inline constexpr double kMinSpanNs = 50.0;

/// The visible time range of a canvas, in nanoseconds relative to the canvas's anchor (the trace origin, or
/// a step's start when a step is shown). `spanNs` is always > 0.
struct TimeWindow {
    double startNs = 0;
    double spanNs = 1e6;

    double endNs() const { return startNs + spanNs; }
    /// Pixels from the left edge of a time area `width` pixels wide.
    double xOf(double timeNs, double width) const { return (timeNs - startNs) * width / spanNs; }
    double timeAt(double x, double width) const { return startNs + x * spanNs / width; }
    bool operator==(const TimeWindow&) const = default;
};

/// Scales the span by `factor` (< 1 zooms in) keeping `pivotNs` at the same place on screen; the span stays
/// within [kMinSpanNs, maxSpanNs].
TimeWindow zoomedAround(const TimeWindow& window, double factor, double pivotNs, double maxSpanNs);
/// Moves the window by `deltaNs` (positive: later times come into view).
TimeWindow panned(const TimeWindow& window, double deltaNs);
/// A window showing [startNs, endNs] with `margin` (a fraction of the span) on both sides; an empty or
/// instant range gets a span of at least kMinSpanNs.
TimeWindow framing(double startNs, double endNs, double margin = 0.05);
/// Keeps at least half of the window over [boundsStart, boundsEnd] so the trace cannot be lost off screen.
TimeWindow clampedTo(const TimeWindow& window, double boundsStartNs, double boundsEndNs);

/// "850 ns", "12.3 us" (with the micro sign), "1.25 ms", "2.5 s": three significant digits at most.
std::string formatDuration(double ns);
/// "512 B", "1.54 KB", "12.3 MB", "1.02 GB" (powers of 1000, as the tables).
std::string formatBytes(std::int64_t bytes);

struct RulerTick {
    double timeNs = 0;
    bool major = false;
    std::string label; ///< major ticks only
};

/// Ticks for a time area `widthPx` wide: major ticks every 1, 2 or 5 times a power of ten nanoseconds, at
/// least `minMajorSpacingPx` apart, labelled in the unit that suits the interval ("250 us", "1.5 ms"), with
/// minor ticks between them. Never more than widthPx / 4 ticks.
std::vector<RulerTick> rulerTicks(const TimeWindow& window, double widthPx, double minMajorSpacingPx = 90.0);
/// The major tick interval rulerTicks uses.
double majorTickInterval(const TimeWindow& window, double widthPx, double minMajorSpacingPx = 90.0);

enum class RowKind { Device, Memory, Lane };

/// One horizontal band of the canvas below the ruler.
struct TimelineRow {
    RowKind kind = RowKind::Lane;
    std::uint32_t index = kNoIndex; ///< a group (Device), memory counter (Memory) or lane (Lane)
    std::uint32_t group = kNoIndex; ///< the device group the row belongs to
    double y = 0;                   ///< top, in content coordinates (0 = just below the ruler)
    double height = 0;
};

struct RowMetrics {
    double deviceHeight = 22;
    double memoryHeight = 40;
    double laneHeight = 20;
};

/// Devices as the canvas groups them: the trace's devices in order, then one group "(no device)" holding the
/// lanes and counters whose device is kNoIndex (absent when there are none). Index = device index, and
/// trace.devices.size() for the extra group.
std::uint32_t groupCount(const ProfileTrace& trace);
std::uint32_t groupOfDevice(const ProfileTrace& trace, std::uint32_t device);

/// Rows for every group that has lanes or counters: the group's header, its memory counters, then its lanes
/// (unless `collapsed[group]`; missing entries count as expanded). Rows are contiguous from y = 0.
std::vector<TimelineRow> layoutRows(const ProfileTrace& trace, const std::vector<char>& collapsed,
                                    const RowMetrics& metrics = {});
/// The row containing content y, or -1.
int rowAt(const std::vector<TimelineRow>& rows, double y);
/// Total height of the rows.
double rowsHeight(const std::vector<TimelineRow>& rows);

/// Something the lane walk hands out for drawing: one event wide enough to draw alone (merged == false,
/// eventCount == 1), or a run of consecutive narrow events starting in one pixel column, drawn as one box.
struct LanePiece {
    std::uint32_t firstEvent = 0; ///< index into ProfileTrace::events
    std::uint32_t eventCount = 0;
    double x0 = 0; ///< pixels in the time area
    double x1 = 0;
    bool merged = false;
};

struct WalkCounters {
    std::int64_t pieces = 0;
    std::int64_t searches = 0; ///< binary searches made
};

/// Events at least this many pixels wide are drawn alone.
inline constexpr double kMinSoloPixels = 1.0;

namespace detail {
/// First event in [first, last) whose end is >= t.
std::uint32_t firstEndingAtOrAfter(const ProfileTrace& trace, std::uint32_t first, std::uint32_t last, double t);
/// First event in [first, last) whose start is >= t.
std::uint32_t firstStartingAtOrAfter(const ProfileTrace& trace, std::uint32_t first, std::uint32_t last, double t);
} // namespace detail

/// Calls `visit(const LanePiece&)` for what of `lane` is visible in `window` (anchor-relative, a time area
/// `widthPx` wide), restricted to trace times [clipStartNs, clipEndNs]. Relies on the lane invariant (sorted,
/// non-overlapping events): it finds the first visible event by binary search and, where many events share a
/// pixel column, hands out the column once and jumps past it by binary search, so the cost is
/// O((visible pixels + visible wide events) x log n), never O(events).
template <class Visit>
void walkLane(const ProfileTrace& trace, std::uint32_t laneIndex, double anchorNs, const TimeWindow& window,
              double widthPx, double clipStartNs, double clipEndNs, Visit&& visit, WalkCounters* counters = nullptr)
{
    if (laneIndex >= trace.lanes.size() || widthPx <= 0)
        return;
    const TraceLane& lane = trace.lanes[laneIndex];
    const std::uint32_t first =
        std::min<std::uint32_t>(lane.firstEvent, static_cast<std::uint32_t>(trace.events.size()));
    const std::uint32_t last = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(std::uint64_t(first) + lane.eventCount, trace.events.size()));
    const double t0 = std::max(anchorNs + window.startNs, clipStartNs);
    const double t1 = std::min(anchorNs + window.endNs(), clipEndNs);
    if (first >= last || t1 < t0)
        return;
    const double pxPerNs = widthPx / window.spanNs;
    const double origin = anchorNs + window.startNs;
    auto xOf = [&](double t) { return (t - origin) * pxPerNs; };
    auto timeOfX = [&](double x) { return origin + x / pxPerNs; };

    std::uint32_t i = detail::firstEndingAtOrAfter(trace, first, last, t0);
    if (counters)
        ++counters->searches;
    while (i < last) {
        const TraceEvent& e = trace.events[i];
        if (double(e.startNs) > t1)
            break;
        const double xs = xOf(double(e.startNs));
        const double xe = xOf(double(e.startNs + e.durationNs));
        if (xe - xs >= kMinSoloPixels) {
            visit(LanePiece{i, 1, xs, xe, false});
            if (counters)
                ++counters->pieces;
            ++i;
            continue;
        }
        // A narrow event: every event starting in the same pixel column joins it. Only the last of them can
        // reach past the column (they do not overlap), so if that one is wide it is left to be drawn alone.
        const double column = std::floor(xs);
        std::uint32_t j = detail::firstStartingAtOrAfter(trace, i + 1, last, timeOfX(column + 1.0));
        if (counters)
            ++counters->searches;
        const TraceEvent& tail = trace.events[j - 1];
        const double tailStart = xOf(double(tail.startNs));
        const double tailEnd = xOf(double(tail.startNs + tail.durationNs));
        if (j - 1 > i && tailEnd - tailStart >= kMinSoloPixels)
            --j;
        const TraceEvent& lastIn = trace.events[j - 1];
        const double end = std::max(column + 1.0, xOf(double(lastIn.startNs + lastIn.durationNs)));
        visit(LanePiece{i, j - i, column, end, true});
        if (counters)
            ++counters->pieces;
        i = j;
    }
}

} // namespace tstudio::profiler::timeline
