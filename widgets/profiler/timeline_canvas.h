// TimelineCanvas: one timeline of a ProfileTrace on screen, with the Chrome trace viewer's navigation (W/S/A/D,
// wheel, drag, modes 1-4), clicks that select an op, box selection and the time-measuring tool.
#pragma once

#include "profiler/timeline_painter.h"

#include <QElapsedTimer>
#include <QWidget>

#include <memory>
#include <set>
#include <vector>

class QScrollBar;
class QTimer;

namespace tstudio::profiler::timeline {

/// What a drag with the left button does (the Chrome trace viewer's tools, keys 1-4).
enum class TimelineMode { Select = 1, Pan = 2, Zoom = 3, Timing = 4 };

/// GUI thread only. The canvas never owns the trace: it shares the index (and so the trace) with the view.
class TimelineCanvas : public QWidget {
    Q_OBJECT
public:
    explicit TimelineCanvas(QWidget* parent = nullptr);
    ~TimelineCanvas() override;

    /// Shows `index` with `nodeFill` colours (one per node); clears selection, measure and box selection.
    void setIndex(std::shared_ptr<const TimelineIndex> index, std::shared_ptr<const std::vector<QRgb>> nodeFill);
    const TimelineIndex* index() const { return m_index.get(); }

    /// Trace time shown as 0 on the ruler (a step's start, or 0).
    void setAnchor(double anchorNs);
    double anchorNs() const { return m_anchorNs; }
    /// Limits the canvas to trace times [startNs, endNs] and, with `step` != kNoIndex, its selections and
    /// totals to that step. clearClip() shows everything again.
    void setClip(double startNs, double endNs, std::uint32_t step);
    void clearClip();
    std::uint32_t stepFilter() const { return m_step; }
    void setTitle(const QString& title);

    TimeWindow window() const { return m_window; }
    /// Sets the visible time range (anchor-relative). Emits windowChanged only when `notify`.
    void setWindow(const TimeWindow& window, bool notify = false);
    /// Width in pixels of the area where time is drawn.
    double timeAreaWidth() const;
    /// Frames everything in the clip range (or the whole trace), as key 0 does.
    void resetView();
    /// Frames trace times [startNs, endNs] with a margin.
    void frameTraceRange(double startNs, double endNs, double margin = 0.05);
    /// Frames the selected event, else the box selection, else the measured range (key F).
    void frameSelection();

    TimelineMode mode() const { return m_mode; }
    void setMode(TimelineMode mode);
    /// When on, the plain wheel zooms and Shift+wheel scrolls (the Chrome trace viewer's preference).
    void setWheelZooms(bool on) { m_wheelZooms = on; }

    std::uint32_t selectedEvent() const { return m_selected; }
    /// Selects an event (kNoIndex clears) and computes its arrows. Emits nothing.
    void setSelectedEvent(std::uint32_t event);
    const std::vector<DependencyLink>& producerLinks() const { return m_producers; }
    const std::vector<DependencyLink>& consumerLinks() const { return m_consumers; }
    /// Expands the event's device, scrolls its lane into view and pans (zooming in when it is too narrow to
    /// see, out when it does not fit) so the event is shown.
    void ensureVisible(std::uint32_t event);

    bool hasBoxSelection() const { return m_hasBox; }
    /// The box selection: anchor-relative times and the lanes it covers.
    double boxStartNs() const { return m_boxStartNs; }
    double boxEndNs() const { return m_boxEndNs; }
    std::vector<std::uint32_t> boxLanes() const;
    void setBoxSelection(double startNs, double endNs, const std::vector<std::uint32_t>& lanes);
    void clearBoxSelection();

    bool hasMeasure() const { return m_hasMeasure; }
    double measureStartNs() const { return std::min(m_measureStartNs, m_measureEndNs); }
    double measureEndNs() const { return std::max(m_measureStartNs, m_measureEndNs); }
    void clearMeasure();

    /// Search hits (per node; null clears) and the current match, drawn highlighted.
    void setSearch(std::shared_ptr<const std::vector<char>> nodeMask, std::uint32_t currentMatch);

    void setGroupCollapsed(std::uint32_t group, bool collapsed);
    bool isGroupCollapsed(std::uint32_t group) const;
    const std::vector<TimelineRow>& rows() const { return m_rows; }
    double scrollY() const { return m_scrollY; }
    void setScrollY(double y);

    /// The event drawn at a widget position (a few pixels of slack for thin events), or kNoIndex.
    std::uint32_t eventAt(QPointF pos) const;
    /// Widget rectangle of an event's box (may lie outside the widget); empty when its lane is not laid out.
    QRectF eventRect(std::uint32_t event) const;
    /// Widget x of a trace time.
    double xOfTraceTime(double traceNs) const;

    /// Draws the current view into `painter` as if the canvas were `size`; returns the frame's work.
    FrameCounters render(QPainter& painter, const QSize& size) const;
    /// The work of the last paintEvent or render.
    const FrameCounters& lastFrameCounters() const { return m_lastCounters; }

    QSize sizeHint() const override { return {900, 400}; }

signals:
    /// The user changed the visible time range (anchor-relative).
    void windowChanged(double startNs, double spanNs);
    /// The user clicked an event (kNoIndex: empty space).
    void eventClicked(std::uint32_t event);
    /// The user double-clicked an event.
    void eventDoubleClicked(std::uint32_t event);
    void boxSelectionChanged();
    void measureChanged();
    /// Keys 1-4.
    void modeRequested(tstudio::profiler::timeline::TimelineMode mode);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    enum class Drag { None, Pending, Box, Pan, Zoom, Measure, RulerMeasure };

    TimelineFrame frame() const;
    CanvasMetrics metrics() const;
    void relayout();
    void updateScrollBar();
    double contentHeight() const;
    std::pair<double, double> bounds() const; ///< anchor-relative range the view is kept on
    double maxSpan() const;
    void applyWindow(const TimeWindow& window); ///< clamps, sets, repaints and notifies
    double pivotTime() const;                   ///< under the mouse when it is over the time area, else centre
    double timeAtX(double x) const;             ///< anchor-relative
    void keyStep(int key, double seconds, bool immediate);
    void tickHeldKeys();
    std::vector<std::uint32_t> lanesBetween(double y0, double y1) const;
    std::uint32_t groupAt(QPointF pos) const;

    std::shared_ptr<const TimelineIndex> m_index;
    std::shared_ptr<const std::vector<QRgb>> m_nodeFill;
    std::vector<TimelineRow> m_rows;
    std::vector<char> m_collapsed;
    double m_anchorNs = 0;
    double m_clipStartNs = -1e300;
    double m_clipEndNs = 1e300;
    std::uint32_t m_step = kNoIndex;
    QString m_title;
    TimeWindow m_window;
    double m_scrollY = 0;
    TimelineMode m_mode = TimelineMode::Select;
    bool m_wheelZooms = false;

    std::uint32_t m_selected = kNoIndex;
    std::vector<DependencyLink> m_producers;
    std::vector<DependencyLink> m_consumers;
    bool m_hasBox = false;
    double m_boxStartNs = 0;
    double m_boxEndNs = 0;
    std::vector<char> m_boxLanes;
    bool m_hasMeasure = false;
    double m_measureStartNs = 0;
    double m_measureEndNs = 0;
    std::shared_ptr<const std::vector<char>> m_searchMask;
    std::uint32_t m_currentMatch = kNoIndex;

    Drag m_drag = Drag::None;
    QPointF m_pressPos;
    QPointF m_lastPos;
    TimeWindow m_pressWindow;
    double m_pressScrollY = 0;
    Qt::MouseButton m_pressButton = Qt::NoButton;
    bool m_measuring = false; ///< the current drag has moved far enough to measure
    bool m_mouseOverTime = false;
    QPointF m_mousePos;

    std::set<int> m_heldKeys;
    QTimer* m_keyTimer = nullptr;
    QElapsedTimer m_keyClock;
    QScrollBar* m_scrollBar = nullptr;
    mutable FrameCounters m_lastCounters;
};

} // namespace tstudio::profiler::timeline
