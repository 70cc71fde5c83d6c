// TimelineCanvas: the view state of one timeline (time window, scroll, selections) and the mouse and keyboard
// navigation of the Chrome trace viewer; drawing is TimelinePainter's.
#include "profiler/timeline_canvas.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStyle>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace tstudio::profiler::timeline {

namespace {

constexpr double kDragThresholdPx = 4.0;
constexpr double kClickSlackPx = 3.0;
constexpr double kKeyZoomStep = 0.8;        ///< one press of W (S divides by it)
constexpr double kKeyPanStep = 0.1;         ///< one press of A or D, in view widths
constexpr double kHeldZoomPerSecond = 0.25; ///< holding W for a second
constexpr double kHeldPanPerSecond = 0.8;   ///< holding A or D for a second, in view widths
constexpr double kWheelZoomPerNotch = 0.8;
constexpr double kWheelScrollPerNotch = 60.0;

bool isNavigationKey(int key)
{
    return key == Qt::Key_W || key == Qt::Key_S || key == Qt::Key_A || key == Qt::Key_D || key == Qt::Key_Left ||
           key == Qt::Key_Right;
}

} // namespace

TimelineCanvas::TimelineCanvas(QWidget* parent)
    : QWidget(parent), m_keyTimer(new QTimer(this)), m_scrollBar(new QScrollBar(Qt::Vertical, this))
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_keyTimer->setInterval(16);
    connect(m_keyTimer, &QTimer::timeout, this, &TimelineCanvas::tickHeldKeys);
    m_scrollBar->hide();
    connect(m_scrollBar, &QScrollBar::valueChanged, this, [this](int value) { setScrollY(value); });
}

TimelineCanvas::~TimelineCanvas() = default;

void TimelineCanvas::setIndex(std::shared_ptr<const TimelineIndex> index,
                              std::shared_ptr<const std::vector<QRgb>> nodeFill)
{
    m_index = std::move(index);
    m_nodeFill = std::move(nodeFill);
    m_collapsed.clear();
    m_selected = kNoIndex;
    m_producers.clear();
    m_consumers.clear();
    m_hasBox = false;
    m_hasMeasure = false;
    m_searchMask.reset();
    m_currentMatch = kNoIndex;
    m_scrollY = 0;
    relayout();
    resetView();
}

void TimelineCanvas::setAnchor(double anchorNs)
{
    m_anchorNs = anchorNs;
    update();
}

void TimelineCanvas::setClip(double startNs, double endNs, std::uint32_t step)
{
    m_clipStartNs = std::min(startNs, endNs);
    m_clipEndNs = std::max(startNs, endNs);
    m_step = step;
    update();
}

void TimelineCanvas::clearClip()
{
    m_clipStartNs = -1e300;
    m_clipEndNs = 1e300;
    m_step = kNoIndex;
    update();
}

void TimelineCanvas::setTitle(const QString& title)
{
    m_title = title;
    update();
}

void TimelineCanvas::setWindow(const TimeWindow& window, bool notify)
{
    if (!(window.spanNs > 0) || !std::isfinite(window.startNs))
        return;
    const bool changed = !(window == m_window);
    m_window = window;
    update();
    if (changed && notify)
        emit windowChanged(m_window.startNs, m_window.spanNs);
}

CanvasMetrics TimelineCanvas::metrics() const
{
    // The scroll bar's room is kept whether it shows or not, so canvases of different heights (a step and
    // the step it is compared with) give time the same width and stay aligned.
    CanvasMetrics m;
    m.rightMargin = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    return m;
}

double TimelineCanvas::timeAreaWidth() const
{
    const CanvasMetrics m = metrics();
    return std::max(1.0, width() - m.labelWidth - m.rightMargin);
}

double TimelineCanvas::contentHeight() const
{
    return std::max(1.0, height() - metrics().rulerHeight);
}

std::pair<double, double> TimelineCanvas::bounds() const
{
    if (m_clipStartNs > -1e299)
        return {m_clipStartNs - m_anchorNs, m_clipEndNs - m_anchorNs};
    const double end = m_index ? double(m_index->trace().endNs()) : 0.0;
    return {-m_anchorNs, std::max(end, 1000.0) - m_anchorNs};
}

double TimelineCanvas::maxSpan() const
{
    const auto [start, end] = bounds();
    return std::max((end - start) * 1.5, kMinSpanNs * 20);
}

void TimelineCanvas::applyWindow(const TimeWindow& window)
{
    const auto [start, end] = bounds();
    TimeWindow w = window;
    w.spanNs = std::min(std::max(w.spanNs, kMinSpanNs), std::max(maxSpan(), m_window.spanNs));
    setWindow(clampedTo(w, start, end), true);
}

void TimelineCanvas::resetView()
{
    const auto [start, end] = bounds();
    setWindow(framing(start, end, 0.02), true);
}

void TimelineCanvas::frameTraceRange(double startNs, double endNs, double margin)
{
    setWindow(framing(startNs - m_anchorNs, endNs - m_anchorNs, margin), true);
}

void TimelineCanvas::frameSelection()
{
    if (m_index && m_selected < m_index->trace().events.size()) {
        const TraceEvent& e = m_index->trace().events[m_selected];
        frameTraceRange(double(e.startNs), double(e.startNs + e.durationNs), 0.1);
    } else if (m_hasBox) {
        setWindow(framing(m_boxStartNs, m_boxEndNs, 0.05), true);
    } else if (m_hasMeasure) {
        setWindow(framing(measureStartNs(), measureEndNs(), 0.05), true);
    }
}

void TimelineCanvas::setMode(TimelineMode mode)
{
    m_mode = mode;
    switch (mode) {
    case TimelineMode::Select: setCursor(Qt::ArrowCursor); break;
    case TimelineMode::Pan: setCursor(Qt::OpenHandCursor); break;
    case TimelineMode::Zoom: setCursor(Qt::SizeVerCursor); break;
    case TimelineMode::Timing: setCursor(Qt::IBeamCursor); break;
    }
}

void TimelineCanvas::setSelectedEvent(std::uint32_t event)
{
    if (!m_index || event >= m_index->trace().events.size())
        event = kNoIndex;
    m_selected = event;
    m_producers = event == kNoIndex ? std::vector<DependencyLink>{} : m_index->producers(event);
    m_consumers = event == kNoIndex ? std::vector<DependencyLink>{} : m_index->consumers(event);
    update();
}

void TimelineCanvas::ensureVisible(std::uint32_t event)
{
    if (!m_index || event >= m_index->trace().events.size())
        return;
    const TraceEvent& e = m_index->trace().events[event];
    if (e.lane < m_index->trace().lanes.size()) {
        const std::uint32_t group = groupOfDevice(m_index->trace(), m_index->trace().lanes[e.lane].device);
        if (isGroupCollapsed(group))
            setGroupCollapsed(group, false);
        for (const TimelineRow& row : m_rows)
            if (row.kind == RowKind::Lane && row.index == e.lane) {
                if (row.y < m_scrollY || row.y + row.height > m_scrollY + contentHeight())
                    setScrollY(row.y + row.height / 2 - contentHeight() / 2);
                break;
            }
    }
    const double start = double(e.startNs) - m_anchorNs;
    const double end = double(e.startNs + e.durationNs) - m_anchorNs;
    const double duration = end - start;
    TimeWindow w = m_window;
    if (duration > 0.9 * w.spanNs) {
        w = framing(start, end, 0.05);
    } else if (duration * timeAreaWidth() / w.spanNs < 4.0) {
        // Too thin to see: zoom in so it takes a fifth of the view.
        w.spanNs = std::max(duration * 5.0, kMinSpanNs);
        w.startNs = (start + end) / 2 - w.spanNs / 2;
    } else if (start < w.startNs || end > w.endNs()) {
        w.startNs = (start + end) / 2 - w.spanNs / 2;
    }
    setWindow(w, true);
}

std::vector<std::uint32_t> TimelineCanvas::boxLanes() const
{
    std::vector<std::uint32_t> lanes;
    for (std::uint32_t i = 0; i < m_boxLanes.size(); ++i)
        if (m_boxLanes[i])
            lanes.push_back(i);
    return lanes;
}

void TimelineCanvas::setBoxSelection(double startNs, double endNs, const std::vector<std::uint32_t>& lanes)
{
    m_boxLanes.assign(m_index ? m_index->trace().lanes.size() : 0, 0);
    for (std::uint32_t lane : lanes)
        if (lane < m_boxLanes.size())
            m_boxLanes[lane] = 1;
    m_hasBox = true;
    m_boxStartNs = std::min(startNs, endNs);
    m_boxEndNs = std::max(startNs, endNs);
    update();
}

void TimelineCanvas::clearBoxSelection()
{
    m_hasBox = false;
    m_boxLanes.clear();
    update();
}

void TimelineCanvas::clearMeasure()
{
    m_hasMeasure = false;
    update();
}

void TimelineCanvas::setSearch(std::shared_ptr<const std::vector<char>> nodeMask, std::uint32_t currentMatch)
{
    m_searchMask = std::move(nodeMask);
    m_currentMatch = currentMatch;
    update();
}

void TimelineCanvas::setGroupCollapsed(std::uint32_t group, bool collapsed)
{
    if (group >= m_collapsed.size())
        m_collapsed.resize(group + 1, 0);
    m_collapsed[group] = collapsed ? 1 : 0;
    relayout();
}

bool TimelineCanvas::isGroupCollapsed(std::uint32_t group) const
{
    return group < m_collapsed.size() && m_collapsed[group];
}

void TimelineCanvas::setScrollY(double y)
{
    const double limit = std::max(0.0, rowsHeight(m_rows) - contentHeight());
    const double clamped = std::clamp(y, 0.0, limit);
    if (clamped == m_scrollY)
        return;
    m_scrollY = clamped;
    if (m_scrollBar->value() != int(m_scrollY)) {
        const QSignalBlocker block(m_scrollBar);
        m_scrollBar->setValue(int(m_scrollY));
    }
    update();
}

void TimelineCanvas::relayout()
{
    m_rows = m_index ? layoutRows(m_index->trace(), m_collapsed) : std::vector<TimelineRow>{};
    updateScrollBar();
    setScrollY(m_scrollY);
    update();
}

void TimelineCanvas::updateScrollBar()
{
    const double total = rowsHeight(m_rows);
    const double visible = std::max(1.0, height() - CanvasMetrics{}.rulerHeight);
    const bool needed = total > visible;
    const int extent = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    m_scrollBar->setGeometry(width() - extent, int(CanvasMetrics{}.rulerHeight), extent,
                             std::max(0, height() - int(CanvasMetrics{}.rulerHeight)));
    m_scrollBar->setRange(0, needed ? int(std::ceil(total - visible)) : 0);
    m_scrollBar->setPageStep(int(visible));
    m_scrollBar->setSingleStep(20);
    m_scrollBar->setVisible(needed);
}

double TimelineCanvas::timeAtX(double x) const
{
    return m_window.timeAt(x - metrics().labelWidth, timeAreaWidth());
}

double TimelineCanvas::xOfTraceTime(double traceNs) const
{
    return metrics().labelWidth + m_window.xOf(traceNs - m_anchorNs, timeAreaWidth());
}

double TimelineCanvas::pivotTime() const
{
    if (m_mouseOverTime)
        return timeAtX(m_mousePos.x());
    return m_window.startNs + m_window.spanNs / 2;
}

std::uint32_t TimelineCanvas::groupAt(QPointF pos) const
{
    const int r = rowAt(m_rows, pos.y() - metrics().rulerHeight + m_scrollY);
    return r >= 0 ? m_rows[std::size_t(r)].group : kNoIndex;
}

std::uint32_t TimelineCanvas::eventAt(QPointF pos) const
{
    if (!m_index || pos.x() < metrics().labelWidth || pos.y() < metrics().rulerHeight)
        return kNoIndex;
    const int r = rowAt(m_rows, pos.y() - metrics().rulerHeight + m_scrollY);
    if (r < 0)
        return kNoIndex;
    const TimelineRow& row = m_rows[std::size_t(r)];
    const ProfileTrace& trace = m_index->trace();
    std::vector<std::uint32_t> lanes;
    if (row.kind == RowKind::Lane)
        lanes.push_back(row.index);
    else if (row.kind == RowKind::Device && isGroupCollapsed(row.index))
        for (std::uint32_t lane = 0; lane < trace.lanes.size(); ++lane)
            if (groupOfDevice(trace, trace.lanes[lane].device) == row.index)
                lanes.push_back(lane);
    const double t = m_anchorNs + timeAtX(pos.x());
    const double slack = kClickSlackPx * m_window.spanNs / timeAreaWidth();
    if (t < m_clipStartNs - slack || t > m_clipEndNs + slack)
        return kNoIndex;
    std::uint32_t best = kNoIndex;
    double bestDistance = slack;
    for (std::uint32_t laneIndex : lanes) {
        const TraceLane& lane = trace.lanes[laneIndex];
        const std::uint32_t first = std::min<std::uint32_t>(lane.firstEvent, std::uint32_t(trace.events.size()));
        const std::uint32_t last =
            std::uint32_t(std::min<std::uint64_t>(std::uint64_t(first) + lane.eventCount, trace.events.size()));
        for (std::uint32_t i = detail::firstEndingAtOrAfter(trace, first, last, t - slack);
             i < last && double(trace.events[i].startNs) <= t + slack; ++i) {
            const TraceEvent& e = trace.events[i];
            if (m_step != kNoIndex && e.step != m_step)
                continue;
            const double s = double(e.startNs);
            const double end = double(e.startNs + e.durationNs);
            const double distance = t < s ? s - t : t > end ? t - end : 0.0;
            if (distance < bestDistance || (distance == 0.0 && best == kNoIndex)) {
                best = i;
                bestDistance = distance;
            }
        }
    }
    return best;
}

QRectF TimelineCanvas::eventRect(std::uint32_t event) const
{
    if (!m_index || event >= m_index->trace().events.size())
        return {};
    const TraceEvent& e = m_index->trace().events[event];
    const TimelineFrame f = frame();
    const double cy = TimelinePainter::laneCentreY(f, e.lane);
    if (std::isnan(cy))
        return {};
    const double x0 = xOfTraceTime(double(e.startNs));
    const double x1 = xOfTraceTime(double(e.startNs + e.durationNs));
    return QRectF(x0, cy - f.metrics.eventHeight / 2, std::max(x1 - x0, 1.0), f.metrics.eventHeight);
}

std::vector<std::uint32_t> TimelineCanvas::lanesBetween(double y0, double y1) const
{
    std::vector<std::uint32_t> lanes;
    if (!m_index)
        return lanes;
    const double top = std::min(y0, y1) - metrics().rulerHeight + m_scrollY;
    const double bottom = std::max(y0, y1) - metrics().rulerHeight + m_scrollY;
    const ProfileTrace& trace = m_index->trace();
    for (const TimelineRow& row : m_rows) {
        if (row.y + row.height <= top || row.y >= bottom)
            continue;
        if (row.kind == RowKind::Lane)
            lanes.push_back(row.index);
        else if (row.kind == RowKind::Device && isGroupCollapsed(row.index))
            for (std::uint32_t lane = 0; lane < trace.lanes.size(); ++lane)
                if (groupOfDevice(trace, trace.lanes[lane].device) == row.index)
                    lanes.push_back(lane);
    }
    return lanes;
}

TimelineFrame TimelineCanvas::frame() const
{
    TimelineFrame f;
    f.index = m_index.get();
    f.nodeFill = m_nodeFill.get();
    f.rows = &m_rows;
    f.collapsed = &m_collapsed;
    f.metrics = metrics();
    f.palette = palette();
    f.window = m_window;
    f.anchorNs = m_anchorNs;
    f.clipStartNs = m_clipStartNs;
    f.clipEndNs = m_clipEndNs;
    f.scrollY = m_scrollY;
    f.title = m_title;
    f.selectedEvent = m_selected;
    f.producers = &m_producers;
    f.consumers = &m_consumers;
    f.hasBox = m_hasBox;
    f.boxStartNs = m_boxStartNs;
    f.boxEndNs = m_boxEndNs;
    f.boxLanes = &m_boxLanes;
    f.boxDragging = m_drag == Drag::Box;
    f.dragX0 = m_pressPos.x();
    f.dragY0 = m_pressPos.y();
    f.dragX1 = m_lastPos.x();
    f.dragY1 = m_lastPos.y();
    f.hasMeasure = m_hasMeasure;
    f.measureStartNs = m_measureStartNs;
    f.measureEndNs = m_measureEndNs;
    f.searchMask = m_searchMask.get();
    f.currentMatch = m_currentMatch;
    return f;
}

FrameCounters TimelineCanvas::render(QPainter& painter, const QSize& size) const
{
    painter.setFont(font());
    m_lastCounters = TimelinePainter::paint(painter, size, frame());
    return m_lastCounters;
}

void TimelineCanvas::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    render(painter, size());
}

void TimelineCanvas::resizeEvent(QResizeEvent*)
{
    updateScrollBar();
    setScrollY(m_scrollY);
}

void TimelineCanvas::mousePressEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    m_pressPos = m_lastPos = pos;
    m_pressWindow = m_window;
    m_pressScrollY = m_scrollY;
    m_pressButton = event->button();
    m_measuring = false;
    const CanvasMetrics m = metrics();
    if (event->button() == Qt::MiddleButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::AltModifier))) {
        m_drag = Drag::Pan;
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    if (pos.x() < m.labelWidth) {
        m_drag = Drag::None;
        const int r = rowAt(m_rows, pos.y() - m.rulerHeight + m_scrollY);
        if (pos.y() >= m.rulerHeight && r >= 0 && m_rows[std::size_t(r)].kind == RowKind::Device)
            setGroupCollapsed(m_rows[std::size_t(r)].index, !isGroupCollapsed(m_rows[std::size_t(r)].index));
        return;
    }
    if (pos.y() < m.rulerHeight) {
        m_drag = Drag::RulerMeasure;
        return;
    }
    switch (m_mode) {
    case TimelineMode::Select: m_drag = Drag::Pending; break;
    case TimelineMode::Pan: m_drag = Drag::Pan; break;
    case TimelineMode::Zoom: m_drag = Drag::Zoom; break;
    case TimelineMode::Timing: m_drag = Drag::Measure; break;
    }
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    m_mousePos = pos;
    m_mouseOverTime = pos.x() >= metrics().labelWidth && pos.x() < metrics().labelWidth + timeAreaWidth();
    if (m_drag == Drag::None)
        return;
    const QPointF moved = pos - m_pressPos;
    const bool beyond = std::fabs(moved.x()) + std::fabs(moved.y()) > kDragThresholdPx;
    m_lastPos = pos;
    switch (m_drag) {
    case Drag::Pending:
        if (beyond)
            m_drag = Drag::Box;
        update();
        break;
    case Drag::Box: update(); break;
    case Drag::Pan:
        applyWindow(panned(m_pressWindow, -moved.x() * m_pressWindow.spanNs / timeAreaWidth()));
        setScrollY(m_pressScrollY - moved.y());
        break;
    case Drag::Zoom: {
        // Dragging up zooms in around where the drag began, as the Chrome trace viewer's zoom tool.
        const double pivot = m_pressWindow.timeAt(m_pressPos.x() - metrics().labelWidth, timeAreaWidth());
        applyWindow(zoomedAround(m_pressWindow, std::exp(moved.y() / 100.0), pivot, maxSpan()));
        break;
    }
    case Drag::Measure:
    case Drag::RulerMeasure:
        // Only a real drag measures: a click keeps the last measurement.
        m_measuring = m_measuring || beyond;
        if (m_measuring) {
            m_hasMeasure = true;
            m_measureStartNs = timeAtX(m_pressPos.x());
            m_measureEndNs = timeAtX(pos.x());
            update();
        }
        break;
    case Drag::None: break;
    }
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    const Drag drag = m_drag;
    m_drag = Drag::None;
    if (event->button() != m_pressButton)
        return;
    const QPointF moved = pos - m_pressPos;
    const bool click = std::fabs(moved.x()) + std::fabs(moved.y()) <= kDragThresholdPx;
    // A press and a release far apart are a drag even when no move was reported in between.
    const Drag effective = drag == Drag::Pending && !click ? Drag::Box : drag;
    switch (effective) {
    case Drag::Box: {
        const double t0 = timeAtX(std::min(m_pressPos.x(), pos.x()));
        const double t1 = timeAtX(std::max(m_pressPos.x(), pos.x()));
        const std::vector<std::uint32_t> lanes = lanesBetween(m_pressPos.y(), pos.y());
        if (lanes.empty())
            clearBoxSelection();
        else
            setBoxSelection(t0, t1, lanes);
        emit boxSelectionChanged();
        break;
    }
    case Drag::RulerMeasure:
    case Drag::Measure:
        if (click && drag == Drag::RulerMeasure) {
            m_hasMeasure = false;
            update();
            emit measureChanged();
            break;
        }
        if (!click) {
            m_hasMeasure = true;
            m_measureStartNs = timeAtX(m_pressPos.x());
            m_measureEndNs = timeAtX(pos.x());
            update();
            emit measureChanged();
            break;
        }
        [[fallthrough]];
    case Drag::Pending:
    case Drag::Pan:
    case Drag::Zoom:
        if (click && event->button() == Qt::LeftButton) {
            const std::uint32_t hit = eventAt(pos);
            if (drag == Drag::Pending && m_hasBox) {
                clearBoxSelection();
                emit boxSelectionChanged();
            }
            setSelectedEvent(hit);
            emit eventClicked(hit);
        }
        break;
    case Drag::None: break;
    }
    update();
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* event)
{
    const std::uint32_t hit = eventAt(event->position());
    if (hit == kNoIndex)
        return;
    setSelectedEvent(hit);
    frameSelection();
    emit eventDoubleClicked(hit);
}

void TimelineCanvas::wheelEvent(QWheelEvent* event)
{
    const QPointF pos = event->position();
    m_mousePos = pos;
    m_mouseOverTime = pos.x() >= metrics().labelWidth && pos.x() < metrics().labelWidth + timeAreaWidth();
    const Qt::KeyboardModifiers mods = event->modifiers();
    double dy = event->angleDelta().y();
    double dx = event->angleDelta().x();
    if ((mods & Qt::ShiftModifier) && dy == 0) // some platforms turn Shift+wheel into a horizontal wheel
        std::swap(dx, dy);
    const bool zoom = (mods & (Qt::ControlModifier | Qt::AltModifier)) || (m_wheelZooms && !(mods & Qt::ShiftModifier));
    if (zoom && dy != 0) {
        applyWindow(zoomedAround(m_window, std::pow(kWheelZoomPerNotch, dy / 120.0), pivotTime(), maxSpan()));
    } else if (dy != 0) {
        setScrollY(m_scrollY - dy / 120.0 * kWheelScrollPerNotch);
    }
    if (dx != 0 && !zoom)
        applyWindow(panned(m_window, -dx / 120.0 * kKeyPanStep * m_window.spanNs));
    event->accept();
}

void TimelineCanvas::keyStep(int key, double seconds, bool immediate)
{
    const double zoomIn = immediate ? kKeyZoomStep : std::pow(kHeldZoomPerSecond, seconds);
    const double pan = (immediate ? kKeyPanStep : kHeldPanPerSecond * seconds) * m_window.spanNs;
    switch (key) {
    case Qt::Key_W: applyWindow(zoomedAround(m_window, zoomIn, pivotTime(), maxSpan())); break;
    case Qt::Key_S: applyWindow(zoomedAround(m_window, 1.0 / zoomIn, pivotTime(), maxSpan())); break;
    case Qt::Key_A:
    case Qt::Key_Left: applyWindow(panned(m_window, -pan)); break;
    case Qt::Key_D:
    case Qt::Key_Right: applyWindow(panned(m_window, pan)); break;
    default: break;
    }
}

void TimelineCanvas::tickHeldKeys()
{
    const double seconds = std::min(0.1, m_keyClock.restart() / 1000.0);
    for (int key : m_heldKeys)
        keyStep(key, seconds, false);
}

void TimelineCanvas::keyPressEvent(QKeyEvent* event)
{
    const int key = event->key();
    if (isNavigationKey(key) && !(event->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
        if (!event->isAutoRepeat()) {
            // One press moves at once; holding the key keeps moving smoothly until it is released.
            keyStep(key, 0, true);
            m_heldKeys.insert(key);
            if (!m_keyTimer->isActive()) {
                m_keyClock.start();
                m_keyTimer->start();
            }
        }
        event->accept();
        return;
    }
    switch (key) {
    case Qt::Key_1:
        emit modeRequested(TimelineMode::Select);
        setMode(TimelineMode::Select);
        break;
    case Qt::Key_2:
        emit modeRequested(TimelineMode::Pan);
        setMode(TimelineMode::Pan);
        break;
    case Qt::Key_3:
        emit modeRequested(TimelineMode::Zoom);
        setMode(TimelineMode::Zoom);
        break;
    case Qt::Key_4:
        emit modeRequested(TimelineMode::Timing);
        setMode(TimelineMode::Timing);
        break;
    case Qt::Key_F: frameSelection(); break;
    case Qt::Key_0: resetView(); break;
    case Qt::Key_Escape:
        if (m_hasBox) {
            clearBoxSelection();
            emit boxSelectionChanged();
        }
        if (m_hasMeasure) {
            clearMeasure();
            emit measureChanged();
        }
        break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void TimelineCanvas::keyReleaseEvent(QKeyEvent* event)
{
    if (isNavigationKey(event->key()) && !event->isAutoRepeat()) {
        m_heldKeys.erase(event->key());
        if (m_heldKeys.empty())
            m_keyTimer->stop();
        event->accept();
        return;
    }
    QWidget::keyReleaseEvent(event);
}

void TimelineCanvas::leaveEvent(QEvent* event)
{
    m_mouseOverTime = false;
    QWidget::leaveEvent(event);
}

void TimelineCanvas::focusOutEvent(QFocusEvent* event)
{
    m_heldKeys.clear();
    m_keyTimer->stop();
    QWidget::focusOutEvent(event);
}

void TimelineCanvas::changeEvent(QEvent* event)
{
    // Device, memory and tooltip texts are translated as they are drawn.
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        update();
    QWidget::changeEvent(event);
}

bool TimelineCanvas::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_index) {
        auto* help = static_cast<QHelpEvent*>(event);
        const std::uint32_t hit = eventAt(help->pos());
        if (hit == kNoIndex) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const ProfileTrace& trace = m_index->trace();
        const TraceEvent& e = trace.events[hit];
        const TraceNode* node = e.node < trace.nodes.size() ? &trace.nodes[e.node] : nullptr;
        QString text = tr("<b>%1</b><br>%2<br>%3")
                           .arg(node ? QString::fromStdString(node->op).toHtmlEscaped() : QString(),
                                node ? QString::fromStdString(node->name).toHtmlEscaped() : QString(),
                                QString::fromStdString(formatDuration(double(e.durationNs))));
        if (e.frame < trace.frames.size())
            text += QStringLiteral("<br>") + tr("iteration %1 of %2")
                                                 .arg(e.iteration)
                                                 .arg(QString::fromStdString(trace.frames[e.frame]).toHtmlEscaped());
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace tstudio::profiler::timeline
