// Timeline geometry: zoom and pan arithmetic, ruler ticks, duration and byte texts, row layout and the
// binary searches of the lane walk.
#include "profiler/timeline_geometry.h"

#include <array>
#include <cstdio>

namespace tstudio::profiler::timeline {

TimeWindow zoomedAround(const TimeWindow& window, double factor, double pivotNs, double maxSpanNs)
{
    if (!(factor > 0) || !std::isfinite(factor))
        return window;
    const double span = std::clamp(window.spanNs * factor, kMinSpanNs, std::max(kMinSpanNs, maxSpanNs));
    // The pivot keeps its fraction of the way across the window.
    const double fraction = (pivotNs - window.startNs) / window.spanNs;
    return TimeWindow{pivotNs - fraction * span, span};
}

TimeWindow panned(const TimeWindow& window, double deltaNs)
{
    return TimeWindow{window.startNs + deltaNs, window.spanNs};
}

TimeWindow framing(double startNs, double endNs, double margin)
{
    if (endNs < startNs)
        std::swap(startNs, endNs);
    const double span = std::max(endNs - startNs, kMinSpanNs / (1.0 + 2.0 * margin));
    const double centre = 0.5 * (startNs + endNs);
    const double total = span * (1.0 + 2.0 * margin);
    return TimeWindow{centre - 0.5 * total, total};
}

TimeWindow clampedTo(const TimeWindow& window, double boundsStartNs, double boundsEndNs)
{
    TimeWindow w = window;
    const double half = 0.5 * w.spanNs;
    if (w.endNs() < boundsStartNs + half)
        w.startNs = boundsStartNs + half - w.spanNs;
    if (w.startNs > boundsEndNs - half)
        w.startNs = boundsEndNs - half;
    return w;
}

namespace {

/// `value` with three significant digits at most and no trailing zeros ("1.5", "12.3", "250").
std::string threeDigits(double value)
{
    const double magnitude = std::fabs(value);
    const int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    std::string text = buffer;
    if (text.find('.') != std::string::npos) {
        while (text.back() == '0')
            text.pop_back();
        if (text.back() == '.')
            text.pop_back();
    }
    return text == "-0" ? "0" : text;
}

struct TimeUnit {
    double ns;
    const char* name;
};

// "us" is written with the micro sign, as the Chrome trace viewer does.
constexpr std::array<TimeUnit, 4> kUnits{{{1.0, "ns"}, {1e3, "\xC2\xB5s"}, {1e6, "ms"}, {1e9, "s"}}};

const TimeUnit& unitFor(double magnitudeNs)
{
    for (std::size_t i = kUnits.size(); i-- > 1;)
        if (magnitudeNs >= kUnits[i].ns)
            return kUnits[i];
    return kUnits[0];
}

} // namespace

std::string formatDuration(double ns)
{
    if (!std::isfinite(ns))
        return "?";
    const TimeUnit& unit = unitFor(std::fabs(ns) * 1.0005);
    return threeDigits(ns / unit.ns) + " " + unit.name;
}

std::string formatBytes(std::int64_t bytes)
{
    // Decimal units, as tfprof and the profiler's tables write them, so both say the same number.
    static constexpr const char* kNames[] = {"B", "KB", "MB", "GB", "TB"};
    double value = double(bytes);
    int unit = 0;
    while (std::fabs(value) >= 1000.0 && unit < 4) {
        value /= 1000.0;
        ++unit;
    }
    if (unit == 0)
        return std::to_string(bytes) + " B";
    return threeDigits(value) + " " + kNames[unit];
}

double majorTickInterval(const TimeWindow& window, double widthPx, double minMajorSpacingPx)
{
    // Whole nanoseconds at least: a trace has no finer times.
    const double wanted = std::max(1.0, window.spanNs * std::max(4.0, minMajorSpacingPx) / std::max(1.0, widthPx));
    double power = std::pow(10.0, std::floor(std::log10(wanted)));
    for (;;) {
        for (double step : {1.0, 2.0, 5.0})
            if (step * power >= wanted)
                return step * power;
        power *= 10.0;
    }
}

std::vector<RulerTick> rulerTicks(const TimeWindow& window, double widthPx, double minMajorSpacingPx)
{
    std::vector<RulerTick> ticks;
    if (widthPx <= 0 || !(window.spanNs > 0))
        return ticks;
    const double major = majorTickInterval(window, widthPx, minMajorSpacingPx);
    // 1 and 5 times a power of ten split in five, 2 in four.
    const double leading = major / std::pow(10.0, std::floor(std::log10(major) + 1e-9));
    const int minorPerMajor = std::fabs(leading - 2.0) < 1e-6 ? 4 : 5;
    const double minor = major / minorPerMajor;
    // The interval is 1, 2 or 5 times a power of ten of at least one unit, so labels need no decimals.
    const TimeUnit& unit = unitFor(major * 1.0005);

    const double firstIndex = std::ceil(window.startNs / minor - 1e-9);
    const double lastIndex = std::floor(window.endNs() / minor + 1e-9);
    const double maxTicks = std::max(1.0, widthPx / 4.0);
    if (lastIndex - firstIndex + 1 > maxTicks)
        return ticks;
    for (double k = firstIndex; k <= lastIndex; k += 1.0) {
        RulerTick tick;
        tick.timeNs = k * minor;
        const long long index = std::llround(k);
        tick.major = index % minorPerMajor == 0;
        if (tick.major) {
            char buffer[64];
            double value = tick.timeNs / unit.ns;
            if (std::fabs(value) < 1e-9)
                value = 0;
            std::snprintf(buffer, sizeof buffer, "%.0f %s", value, unit.name);
            tick.label = buffer;
        }
        ticks.push_back(std::move(tick));
    }
    return ticks;
}

std::uint32_t groupCount(const ProfileTrace& trace)
{
    bool orphans = false;
    for (const TraceLane& lane : trace.lanes)
        orphans = orphans || lane.device >= trace.devices.size();
    for (const MemoryCounter& counter : trace.memory)
        orphans = orphans || counter.device >= trace.devices.size();
    return static_cast<std::uint32_t>(trace.devices.size() + (orphans ? 1 : 0));
}

std::uint32_t groupOfDevice(const ProfileTrace& trace, std::uint32_t device)
{
    return device < trace.devices.size() ? device : static_cast<std::uint32_t>(trace.devices.size());
}

std::vector<TimelineRow> layoutRows(const ProfileTrace& trace, const std::vector<char>& collapsed,
                                    const RowMetrics& metrics)
{
    const std::uint32_t groups = groupCount(trace);
    std::vector<std::vector<std::uint32_t>> lanesOf(groups), countersOf(groups);
    for (std::uint32_t i = 0; i < trace.lanes.size(); ++i)
        lanesOf[groupOfDevice(trace, trace.lanes[i].device)].push_back(i);
    for (std::uint32_t i = 0; i < trace.memory.size(); ++i)
        countersOf[groupOfDevice(trace, trace.memory[i].device)].push_back(i);

    std::vector<TimelineRow> rows;
    double y = 0;
    auto add = [&](RowKind kind, std::uint32_t index, std::uint32_t group, double height) {
        rows.push_back(TimelineRow{kind, index, group, y, height});
        y += height;
    };
    for (std::uint32_t g = 0; g < groups; ++g) {
        if (lanesOf[g].empty() && countersOf[g].empty())
            continue;
        add(RowKind::Device, g, g, metrics.deviceHeight);
        if (g < collapsed.size() && collapsed[g])
            continue;
        for (std::uint32_t counter : countersOf[g])
            add(RowKind::Memory, counter, g, metrics.memoryHeight);
        for (std::uint32_t lane : lanesOf[g])
            add(RowKind::Lane, lane, g, metrics.laneHeight);
    }
    return rows;
}

int rowAt(const std::vector<TimelineRow>& rows, double y)
{
    auto it = std::upper_bound(rows.begin(), rows.end(), y, [](double v, const TimelineRow& r) { return v < r.y; });
    if (it == rows.begin())
        return -1;
    --it;
    return y < it->y + it->height ? static_cast<int>(it - rows.begin()) : -1;
}

double rowsHeight(const std::vector<TimelineRow>& rows)
{
    return rows.empty() ? 0.0 : rows.back().y + rows.back().height;
}

namespace detail {

std::uint32_t firstEndingAtOrAfter(const ProfileTrace& trace, std::uint32_t first, std::uint32_t last, double t)
{
    const auto begin = trace.events.begin() + first;
    const auto it = std::partition_point(begin, trace.events.begin() + last,
                                         [t](const TraceEvent& e) { return double(e.startNs + e.durationNs) < t; });
    return first + static_cast<std::uint32_t>(it - begin);
}

std::uint32_t firstStartingAtOrAfter(const ProfileTrace& trace, std::uint32_t first, std::uint32_t last, double t)
{
    if (first >= last)
        return last;
    const auto begin = trace.events.begin() + first;
    const auto it = std::partition_point(begin, trace.events.begin() + last,
                                         [t](const TraceEvent& e) { return double(e.startNs) < t; });
    return first + static_cast<std::uint32_t>(it - begin);
}

} // namespace detail

} // namespace tstudio::profiler::timeline
