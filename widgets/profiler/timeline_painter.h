// TimelinePainter: draws one frame of the profiler timeline (ruler, device groups, memory tracks, lanes of op
// boxes, selections, dependency arrows) from a TimelineFrame description, into any QPainter.
#pragma once

#include "profiler/timeline_geometry.h"
#include "profiler/timeline_index.h"

#include <QPalette>
#include <QRgb>
#include <QString>

#include <cstdint>
#include <vector>

class QFontMetricsF;
class QPainter;
class QSize;

namespace tstudio::profiler::timeline {

/// Fixed parts of the canvas layout, shared by drawing and hit testing.
struct CanvasMetrics {
    double rulerHeight = 26;
    double labelWidth = 190;
    double rightMargin = 0;  ///< room kept free on the right (the vertical scroll bar)
    double eventHeight = 18; ///< height of the outline around a selected or matched event
};

/// Everything one frame shows. Pointers are borrowed for the duration of the paint call.
struct TimelineFrame {
    const TimelineIndex* index = nullptr;
    const std::vector<QRgb>* nodeFill = nullptr; ///< per node
    const std::vector<TimelineRow>* rows = nullptr;
    const std::vector<char>* collapsed = nullptr; ///< per group
    CanvasMetrics metrics;
    QPalette palette;

    TimeWindow window;
    double anchorNs = 0;         ///< trace time shown as 0 on the ruler
    double clipStartNs = -1e300; ///< trace times outside [clipStart, clipEnd] stay empty
    double clipEndNs = 1e300;
    double scrollY = 0;
    QString title; ///< drawn in the ruler's corner

    std::uint32_t selectedEvent = kNoIndex;
    const std::vector<DependencyLink>* producers = nullptr;
    const std::vector<DependencyLink>* consumers = nullptr;

    bool hasBox = false; ///< a box selection: anchor-relative times, lanes flagged
    double boxStartNs = 0;
    double boxEndNs = 0;
    const std::vector<char>* boxLanes = nullptr;
    bool boxDragging = false; ///< the rectangle being dragged, in widget pixels
    double dragX0 = 0, dragY0 = 0, dragX1 = 0, dragY1 = 0;

    bool hasMeasure = false; ///< anchor-relative times
    double measureStartNs = 0;
    double measureEndNs = 0;

    const std::vector<char>* searchMask = nullptr; ///< per node; null when no search is active
    std::uint32_t currentMatch = kNoIndex;
};

/// Work done by one frame, to show it never scales with the number of events.
struct FrameCounters {
    std::int64_t pieces = 0;   ///< boxes and merged columns handed out by the lane walks
    std::int64_t searches = 0; ///< binary searches
    std::int64_t fills = 0;    ///< rectangles filled for events
    std::int64_t texts = 0;    ///< texts drawn (labels and ruler included)
    std::int64_t drawCalls() const { return fills + texts; }
};

class TimelinePainter {
public:
    /// Draws the frame into `painter` over a canvas of `size`; returns the work done.
    static FrameCounters paint(QPainter& painter, const QSize& size, const TimelineFrame& frame);

    /// The text drawn in `e`'s box, `width` pixels wide in `metrics`: "Op  node", or for an event inside a
    /// loop "Op  node (iteration k)", "Op (iteration k)" or "Op #k", whichever fits first, else the op
    /// (elided); empty when fewer than 4 characters would remain.
    static QString eventLabel(const ProfileTrace& trace, const TraceEvent& e, const QFontMetricsF& metrics,
                              double width);
    /// The short title of a device: what follows "/device:" in its name ("GPU:0/stream:7"), or the name.
    static QString shortDeviceName(const std::string& name);
    /// Row centre in widget pixels for a lane (its group's header when collapsed), or NaN when not laid out.
    static double laneCentreY(const TimelineFrame& frame, std::uint32_t lane);
};

} // namespace tstudio::profiler::timeline
