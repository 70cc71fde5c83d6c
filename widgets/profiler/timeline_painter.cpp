// TimelinePainter: the drawing of one timeline frame. Only visible rows are drawn and each lane is walked with
// walkLane, so a frame costs O(visible pixels x log n) whatever the number of events.
#include "profiler/timeline_painter.h"

#include "common/op_style.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>
#include <QSize>
#include <QStringList>

#include <cmath>
#include <limits>

namespace tstudio::profiler::timeline {

namespace {

constexpr double kMinTextBoxPx = 18.0;

QColor faded(QRgb fill, const QColor& background)
{
    const QColor c(fill);
    return QColor((c.red() + 3 * background.red()) / 4, (c.green() + 3 * background.green()) / 4,
                  (c.blue() + 3 * background.blue()) / 4);
}

QString fromUtf8(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

/// Draws one lane's events into the band [top, top + height) of the time area starting at `left`.
class LaneDrawer {
public:
    LaneDrawer(QPainter& painter, const TimelineFrame& frame, double left, double width, FrameCounters& counters)
        : m_painter(painter), m_frame(frame), m_trace(frame.index->trace()), m_left(left), m_width(width),
          m_counters(counters), m_background(frame.palette.color(QPalette::Base)), m_metrics(painter.font())
    {
    }

    void draw(std::uint32_t lane, double top, double height, bool labels)
    {
        m_top = top;
        m_height = height;
        m_labels = labels;
        WalkCounters walk;
        walkLane(
            m_trace, lane, m_frame.anchorNs, m_frame.window, m_width, m_frame.clipStartNs, m_frame.clipEndNs,
            [this](const LanePiece& piece) { visit(piece); }, &walk);
        flush();
        m_counters.pieces += walk.pieces;
        m_counters.searches += walk.searches;
    }

private:
    QColor fillOf(const TraceEvent& e) const
    {
        const QRgb rgb = m_frame.nodeFill && e.node < m_frame.nodeFill->size() ? (*m_frame.nodeFill)[e.node]
                                                                               : qRgb(0xb0, 0xb0, 0xb0);
        if (m_frame.searchMask && !(e.node < m_frame.searchMask->size() && (*m_frame.searchMask)[e.node]))
            return faded(rgb, m_background);
        return QColor(rgb);
    }

    void visit(const LanePiece& piece)
    {
        const TraceEvent& e = m_trace.events[piece.firstEvent];
        QColor fill = fillOf(e);
        // Odd loop iterations a shade darker, so a body's repeated boxes read as iterations 0, 1, 2, ...
        if (e.inLoop() && e.iteration % 2 == 1)
            fill = fill.darker(125);
        const int x0 = static_cast<int>(std::floor(m_left + std::max(piece.x0, -4.0)));
        const int x1 = static_cast<int>(std::floor(m_left + std::min(piece.x1, m_width + 4.0)));
        if (piece.merged) {
            // Neighbouring columns of one colour become one rectangle.
            if (m_pending && fill == m_pendingFill && x0 <= m_pendingX1) {
                m_pendingX1 = std::max(m_pendingX1, std::max(x1, x0 + 1));
                return;
            }
            flush();
            m_pending = true;
            m_pendingFill = fill;
            m_pendingX0 = x0;
            m_pendingX1 = std::max(x1, x0 + 1);
            return;
        }
        flush();
        const int w = std::max(1, x1 - x0);
        // A one-pixel gap keeps neighbouring boxes of one colour apart.
        const int drawn = w > 3 ? w - 1 : w;
        const QRect box(x0, static_cast<int>(m_top) + 1, drawn, static_cast<int>(m_height) - 2);
        m_painter.fillRect(box, fill);
        ++m_counters.fills;
        if (m_labels && drawn >= kMinTextBoxPx)
            drawLabel(box, e, fill);
    }

    void drawLabel(const QRect& box, const TraceEvent& e, const QColor& fill)
    {
        const QRectF textRect(box.left() + 3, box.top(), box.width() - 5, box.height());
        const QString text = TimelinePainter::eventLabel(m_trace, e, m_metrics, textRect.width());
        if (text.isEmpty())
            return;
        m_painter.setPen(textColourOn(fill));
        m_painter.drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, text);
        ++m_counters.texts;
    }

    void flush()
    {
        if (!m_pending)
            return;
        m_painter.fillRect(
            QRect(m_pendingX0, static_cast<int>(m_top) + 1, m_pendingX1 - m_pendingX0, static_cast<int>(m_height) - 2),
            m_pendingFill);
        ++m_counters.fills;
        m_pending = false;
    }

    QPainter& m_painter;
    const TimelineFrame& m_frame;
    const ProfileTrace& m_trace;
    double m_left;
    double m_width;
    FrameCounters& m_counters;
    QColor m_background;
    QFontMetricsF m_metrics;
    double m_top = 0;
    double m_height = 0;
    bool m_labels = true;
    bool m_pending = false;
    QColor m_pendingFill;
    int m_pendingX0 = 0;
    int m_pendingX1 = 0;
};

struct Layout {
    double left = 0;  ///< x of the time area
    double width = 0; ///< width of the time area
    double top = 0;   ///< y of the content (below the ruler)
    double bottom = 0;
};

double timeToX(const TimelineFrame& f, const Layout& l, double traceNs)
{
    return l.left + f.window.xOf(traceNs - f.anchorNs, l.width);
}

void drawMemoryRow(QPainter& p, const TimelineFrame& f, const Layout& l, const TimelineRow& row, double top,
                   FrameCounters& counters)
{
    const ProfileTrace& trace = f.index->trace();
    const MemoryCounter& counter = trace.memory[row.index];
    const auto& samples = counter.samples;
    if (samples.empty())
        return;
    const std::int64_t maxValue =
        std::max<std::int64_t>({counter.peakBytes, f.index->memoryMax(row.index, 0, samples.size()), 1});
    const double base = top + row.height - 2;
    const double scale = (row.height - 6) / double(maxValue);
    const double traceEnd = std::min(double(trace.endNs()), f.clipEndNs);
    const double firstTime = std::max(double(samples.front().first), f.clipStartNs);
    auto firstAfter = [&](double t) {
        return std::size_t(std::upper_bound(samples.begin(), samples.end(), t,
                                            [](double v, const std::pair<std::int64_t, std::int64_t>& s) {
                                                return v < double(s.first);
                                            }) -
                           samples.begin());
    };
    QPolygonF area;
    const int columns = static_cast<int>(std::ceil(l.width));
    for (int x = 0; x < columns; ++x) {
        const double tA = f.anchorNs + f.window.timeAt(x, l.width);
        const double tB = f.anchorNs + f.window.timeAt(x + 1, l.width);
        if (tB < firstTime || tA > traceEnd)
            continue;
        // The value holding at the column's start, and the largest value reached inside the column.
        const std::size_t after = firstAfter(tA);
        const std::size_t end = firstAfter(tB);
        counters.searches += 2;
        std::int64_t value = after > 0 ? samples[after - 1].second : 0;
        value = std::max(value, f.index->memoryMax(row.index, after, end));
        const double y = base - double(std::max<std::int64_t>(value, 0)) * scale;
        if (area.isEmpty())
            area << QPointF(l.left + x, base);
        area << QPointF(l.left + x, y) << QPointF(l.left + x + 1, y);
    }
    if (area.isEmpty())
        return;
    area << QPointF(area.back().x(), base);
    QColor fill = paletteColour(static_cast<int>(row.index));
    p.setPen(fill.darker(130));
    fill.setAlpha(110);
    p.setBrush(fill);
    p.drawPolygon(area);
    p.setBrush(Qt::NoBrush);
    ++counters.fills;

    // The peak: a marker where it happens and its value beside it.
    const auto& peak = samples[f.index->memoryPeakSample(row.index)];
    const double px = timeToX(f, l, double(peak.first));
    if (px >= l.left && px <= l.left + l.width && double(peak.first) >= f.clipStartNs &&
        double(peak.first) <= f.clipEndNs) {
        const double py = base - double(peak.second) * scale;
        QPolygonF marker;
        marker << QPointF(px - 4, py - 6) << QPointF(px + 4, py - 6) << QPointF(px, py);
        p.setPen(Qt::NoPen);
        p.setBrush(f.palette.color(QPalette::Text));
        p.drawPolygon(marker);
        p.setBrush(Qt::NoBrush);
        p.setPen(f.palette.color(QPalette::Text));
        const QString label = QString::fromStdString(formatBytes(peak.second));
        p.drawText(QPointF(px + 6, std::max(top + 11, py)), label);
        ++counters.texts;
    }
}

void drawArrow(QPainter& p, QPointF from, QPointF to, const QPen& pen, double boxHeight)
{
    QPainterPath path;
    QPointF c1, c2;
    if (std::fabs(from.y() - to.y()) < 1.0) {
        // Within one lane the arrow arcs over the boxes between its ends instead of running through them.
        from.ry() -= boxHeight / 2;
        to.ry() -= boxHeight / 2;
        const double lift = std::min(16.0, 6.0 + std::fabs(to.x() - from.x()) * 0.1);
        c1 = from + QPointF((to.x() - from.x()) / 3, -lift);
        c2 = to + QPointF((from.x() - to.x()) / 3, -lift);
    } else {
        const double dx = std::max(20.0, std::fabs(to.x() - from.x()) * 0.4);
        c1 = from + QPointF(dx, 0);
        c2 = to - QPointF(dx, 0);
    }
    path.moveTo(from);
    path.cubicTo(c1, c2, to);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    // The head points along the curve's last tangent.
    QPointF direction = to - c2;
    const double length = std::hypot(direction.x(), direction.y());
    direction = length > 1e-9 ? direction / length : QPointF(1, 0);
    const QPointF normal(-direction.y(), direction.x());
    QPolygonF head;
    head << to << to - direction * 7 + normal * 4 << to - direction * 7 - normal * 4;
    p.setPen(Qt::NoPen);
    p.setBrush(pen.color());
    p.drawPolygon(head);
    p.setBrush(Qt::NoBrush);
}

} // namespace

QString TimelinePainter::eventLabel(const ProfileTrace& trace, const TraceEvent& e, const QFontMetricsF& metrics,
                                    double width)
{
    if (e.node >= trace.nodes.size())
        return {};
    const TraceNode& node = trace.nodes[e.node];
    // The op type first, as TensorFlow's timeline names its events; the node name too when there is room.
    // Inside a loop the iteration follows: "Mul  while/mul (iteration 3)", else "Mul (iteration 3)",
    // else "Mul #3".
    const QString op = fromUtf8(node.op.empty() ? node.name : node.op);
    QStringList candidates;
    if (e.inLoop()) {
        const QString iteration =
            QCoreApplication::translate("tstudio::profiler::timeline::TimelineCanvas", "(iteration %1)")
                .arg(e.iteration);
        if (!node.op.empty())
            candidates << op + QStringLiteral("  ") + fromUtf8(node.name) + QLatin1Char(' ') + iteration;
        candidates << op + QLatin1Char(' ') + iteration << op + QStringLiteral(" #%1").arg(e.iteration);
    } else if (!node.op.empty()) {
        candidates << op + QStringLiteral("  ") + fromUtf8(node.name);
    }
    for (const QString& candidate : candidates)
        if (metrics.horizontalAdvance(candidate) <= width)
            return candidate;
    if (metrics.horizontalAdvance(op) <= width)
        return op;
    // A name cut to a letter or two says nothing: leave such boxes to colour and tooltip.
    const QString elided = metrics.elidedText(op, Qt::ElideRight, width);
    return elided.size() < 4 ? QString() : elided;
}

QString TimelinePainter::shortDeviceName(const std::string& name)
{
    const std::size_t at = name.find("/device:");
    return fromUtf8(at == std::string::npos ? name : name.substr(at + 8));
}

double TimelinePainter::laneCentreY(const TimelineFrame& frame, std::uint32_t lane)
{
    if (!frame.rows || !frame.index || lane >= frame.index->trace().lanes.size())
        return std::numeric_limits<double>::quiet_NaN();
    const std::uint32_t group = groupOfDevice(frame.index->trace(), frame.index->trace().lanes[lane].device);
    const TimelineRow* header = nullptr;
    for (const TimelineRow& row : *frame.rows) {
        if (row.kind == RowKind::Lane && row.index == lane)
            return frame.metrics.rulerHeight + row.y - frame.scrollY + row.height / 2;
        if (row.kind == RowKind::Device && row.index == group)
            header = &row;
    }
    if (header)
        return frame.metrics.rulerHeight + header->y - frame.scrollY + header->height / 2;
    return std::numeric_limits<double>::quiet_NaN();
}

namespace {

/// The selected event with the arrows to its producers and consumers, and the current search match.
void drawSelection(QPainter& p, const TimelineFrame& f, const Layout& l)
{
    const ProfileTrace& trace = f.index->trace();
    const QPalette& pal = f.palette;
    const CanvasMetrics& m = f.metrics;
    auto eventBox = [&](std::uint32_t event) -> QRectF {
        const TraceEvent& e = trace.events[event];
        const double cy = TimelinePainter::laneCentreY(f, e.lane);
        if (std::isnan(cy))
            return {};
        const double x0 = timeToX(f, l, double(e.startNs));
        const double x1 = timeToX(f, l, double(e.startNs + e.durationNs));
        const double h = m.eventHeight;
        const double w = std::max(3.0, x1 - x0);
        return QRectF(x1 - x0 < 3.0 ? x0 - 1 : x0, cy - h / 2, w, h);
    };
    if (f.currentMatch < trace.events.size()) {
        const QRectF box = eventBox(f.currentMatch);
        if (box.isValid()) {
            p.setPen(QPen(QColor(0xff, 0x8c, 0x00), 3));
            p.drawRect(box.adjusted(-2, -2, 2, 2));
        }
    }
    if (f.selectedEvent < trace.events.size()) {
        const QRectF box = eventBox(f.selectedEvent);
        if (box.isValid()) {
            p.setPen(QPen(pal.color(QPalette::Text), 2));
            p.drawRect(box.adjusted(-1, -1, 1, 1));
        }
        const QRectF target = box;
        const QColor dataColour = pal.color(QPalette::Text);
        const QColor controlColour = pal.color(QPalette::Mid);
        auto pen = [&](bool control) {
            QPen pen(control ? controlColour : dataColour, control ? 1.2 : 1.6);
            if (control)
                pen.setStyle(Qt::DashLine);
            return pen;
        };
        p.setRenderHint(QPainter::Antialiasing, true);
        if (f.producers && target.isValid())
            for (const DependencyLink& link : *f.producers)
                if (link.event < trace.events.size()) {
                    const QRectF from = eventBox(link.event);
                    if (from.isValid())
                        drawArrow(p, QPointF(from.right(), from.center().y()),
                                  QPointF(target.left(), target.center().y()), pen(link.control), m.eventHeight);
                }
        if (f.consumers && target.isValid())
            for (const DependencyLink& link : *f.consumers)
                if (link.event < trace.events.size()) {
                    const QRectF to = eventBox(link.event);
                    if (to.isValid())
                        drawArrow(p, QPointF(target.right(), target.center().y()), QPointF(to.left(), to.center().y()),
                                  pen(link.control), m.eventHeight);
                }
        p.setRenderHint(QPainter::Antialiasing, false);
    }

}

/// The label column: device headers (collapsible), lanes and memory rows from row `first` down.
void drawLabelColumn(QPainter& p, const TimelineFrame& f, const Layout& l, int first, const QFont& small,
                     const QFont& bold, FrameCounters& counters)
{
    const ProfileTrace& trace = f.index->trace();
    const QPalette& pal = f.palette;
    const std::vector<TimelineRow>& rows = *f.rows;
    p.save();
    p.setClipRect(QRectF(0, l.top, l.left, l.bottom - l.top));
    p.fillRect(QRectF(0, l.top, l.left, l.bottom - l.top), pal.color(QPalette::Window));
    for (std::size_t r = std::size_t(first); r < rows.size(); ++r) {
        const TimelineRow& row = rows[r];
        const double top = l.top + row.y - f.scrollY;
        if (top > l.bottom)
            break;
        const QRectF cell(0, top, l.left - 4, row.height);
        p.setPen(pal.color(QPalette::WindowText));
        if (row.kind == RowKind::Device) {
            const bool collapsed = f.collapsed && row.index < f.collapsed->size() && (*f.collapsed)[row.index];
            p.setFont(bold);
            const QString name =
                row.index < trace.devices.size()
                    ? TimelinePainter::shortDeviceName(trace.devices[row.index].name)
                    : QCoreApplication::translate("tstudio::profiler::timeline::TimelineCanvas", "(no device)");
            // U+25B8 / U+25BE: the small triangles of collapsible tree rows.
            const QString text = (collapsed ? QStringLiteral("\u25B8 ") : QStringLiteral("\u25BE ")) + name;
            p.drawText(cell.adjusted(4, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                       QFontMetricsF(bold).elidedText(text, Qt::ElideMiddle, cell.width() - 4));
        } else if (row.kind == RowKind::Memory) {
            const MemoryCounter& counter = trace.memory[row.index];
            p.setFont(small);
            p.drawText(cell.adjusted(14, 2, 0, 0), Qt::AlignLeft | Qt::AlignTop,
                       QCoreApplication::translate("tstudio::profiler::timeline::TimelineCanvas", "Memory %1")
                           .arg(fromUtf8(counter.allocator)));
            p.drawText(cell.adjusted(14, 0, 0, -3), Qt::AlignLeft | Qt::AlignBottom,
                       QCoreApplication::translate("tstudio::profiler::timeline::TimelineCanvas", "peak %1")
                           .arg(QString::fromStdString(formatBytes(counter.peakBytes))));
            counters.texts += 1;
        } else {
            p.setFont(small);
            p.drawText(cell.adjusted(14, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                       QFontMetricsF(small).elidedText(fromUtf8(trace.lanes[row.index].name), Qt::ElideRight,
                                                       cell.width() - 14));
        }
        ++counters.texts;
    }
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(QPointF(l.left - 0.5, l.top), QPointF(l.left - 0.5, l.bottom));
    p.restore();

}

/// The ruler: ticks and their labels, the measured span and the title.
void drawRuler(QPainter& p, const QSize& size, const TimelineFrame& f, const Layout& l,
               const std::vector<RulerTick>& ticks, const QFont& small, const QFont& bold, FrameCounters& counters)
{
    const QPalette& pal = f.palette;
    p.save();
    p.setFont(small);
    p.fillRect(QRectF(0, 0, size.width(), l.top), pal.color(QPalette::Window));
    p.setClipRect(QRectF(l.left, 0, l.width, l.top));
    if (f.hasMeasure) {
        const double x0 = l.left + f.window.xOf(std::min(f.measureStartNs, f.measureEndNs), l.width);
        const double x1 = l.left + f.window.xOf(std::max(f.measureStartNs, f.measureEndNs), l.width);
        p.fillRect(QRectF(x0, 0, std::max(1.0, x1 - x0), l.top), QColor(0x1e, 0x88, 0xe5, 90));
    }
    p.setPen(pal.color(QPalette::WindowText));
    for (const RulerTick& tick : ticks) {
        const double x = l.left + f.window.xOf(tick.timeNs, l.width);
        p.drawLine(QPointF(x, l.top - (tick.major ? 9 : 4)), QPointF(x, l.top));
        if (tick.major) {
            // A label that would be cut by the right edge is left out.
            const QString label = QString::fromStdString(tick.label);
            if (x + 3 + QFontMetricsF(small).horizontalAdvance(label) <= l.left + l.width) {
                p.drawText(QPointF(x + 3, l.top - 12), label);
                ++counters.texts;
            }
        }
    }
    if (f.hasMeasure) {
        const double x0 = l.left + f.window.xOf(std::min(f.measureStartNs, f.measureEndNs), l.width);
        const double x1 = l.left + f.window.xOf(std::max(f.measureStartNs, f.measureEndNs), l.width);
        const QString text = QString::fromStdString(formatDuration(std::fabs(f.measureEndNs - f.measureStartNs)));
        const QFontMetricsF metrics(bold);
        const double w = metrics.horizontalAdvance(text) + 8;
        const QRectF label(std::clamp((x0 + x1) / 2 - w / 2, l.left, l.left + l.width - w), 2, w, l.top - 6);
        p.fillRect(label, QColor(0x1e, 0x88, 0xe5));
        p.setPen(Qt::white);
        p.setFont(bold);
        p.drawText(label, Qt::AlignCenter, text);
        ++counters.texts;
    }
    p.setClipping(false);
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(QPointF(0, l.top - 0.5), QPointF(size.width(), l.top - 0.5));
    if (!f.title.isEmpty()) {
        p.setPen(pal.color(QPalette::WindowText));
        p.setFont(bold);
        p.drawText(QRectF(4, 0, l.left - 8, l.top), Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetricsF(bold).elidedText(f.title, Qt::ElideRight, l.left - 8));
        ++counters.texts;
    }
    p.restore();
}

} // namespace

FrameCounters TimelinePainter::paint(QPainter& p, const QSize& size, const TimelineFrame& f)
{
    FrameCounters counters;
    const QPalette& pal = f.palette;
    const CanvasMetrics& m = f.metrics;
    Layout l;
    l.left = m.labelWidth;
    l.width = std::max(1.0, size.width() - m.labelWidth - m.rightMargin);
    l.top = m.rulerHeight;
    l.bottom = size.height();
    p.fillRect(QRect(QPoint(0, 0), size), pal.color(QPalette::Base));
    if (!f.index || !f.rows)
        return counters;
    const ProfileTrace& trace = f.index->trace();

    QFont font = p.font();
    QFont small = font;
    small.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.9));
    QFont bold = font;
    bold.setBold(true);
    const std::vector<RulerTick> ticks = rulerTicks(f.window, l.width);

    // Rows: backgrounds, grid, events, memory.
    const std::vector<TimelineRow>& rows = *f.rows;
    const QRectF timeArea(l.left, l.top, l.width, l.bottom - l.top);
    p.save();
    p.setClipRect(timeArea);
    p.setFont(small);
    int first = std::max(0, rowAt(rows, f.scrollY));
    LaneDrawer lanes(p, f, l.left, l.width, counters);
    const QColor alternate = pal.color(QPalette::AlternateBase);
    const QColor header = pal.color(QPalette::Window);
    for (std::size_t r = std::size_t(first); r < rows.size(); ++r) {
        const TimelineRow& row = rows[r];
        const double top = l.top + row.y - f.scrollY;
        if (top > l.bottom)
            break;
        if (top + row.height < l.top)
            continue;
        const QRectF band(l.left, top, l.width, row.height);
        if (row.kind == RowKind::Device) {
            p.fillRect(band, header);
            // A collapsed device shows all its lanes' events squeezed into its header.
            if (f.collapsed && row.index < f.collapsed->size() && (*f.collapsed)[row.index])
                for (std::uint32_t lane = 0; lane < trace.lanes.size(); ++lane)
                    if (groupOfDevice(trace, trace.lanes[lane].device) == row.index)
                        lanes.draw(lane, top + 2, row.height - 4, false);
        } else if (row.kind == RowKind::Memory) {
            drawMemoryRow(p, f, l, row, top, counters);
        } else {
            if (r % 2)
                p.fillRect(band, alternate);
            lanes.draw(row.index, top, row.height, true);
            if (f.hasBox && f.boxLanes && row.index < f.boxLanes->size() && (*f.boxLanes)[row.index]) {
                const double x0 = l.left + f.window.xOf(f.boxStartNs, l.width);
                const double x1 = l.left + f.window.xOf(f.boxEndNs, l.width);
                QColor tint = pal.color(QPalette::Highlight);
                tint.setAlpha(60);
                p.fillRect(QRectF(x0, top, std::max(1.0, x1 - x0), row.height), tint);
            }
        }
    }
    // Outside the clip range (another step's time) the canvas is greyed.
    QColor shade = pal.color(QPalette::Window);
    shade.setAlpha(200);
    const double clipX0 = timeToX(f, l, f.clipStartNs);
    const double clipX1 = timeToX(f, l, f.clipEndNs);
    if (clipX0 > l.left)
        p.fillRect(QRectF(l.left, l.top, clipX0 - l.left, l.bottom - l.top), shade);
    if (clipX1 < l.left + l.width)
        p.fillRect(QRectF(clipX1, l.top, l.left + l.width - clipX1, l.bottom - l.top), shade);

    // Grid lines at the major ticks.
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(70);
    p.setPen(grid);
    for (const RulerTick& tick : ticks)
        if (tick.major) {
            const double x = l.left + f.window.xOf(tick.timeNs, l.width);
            p.drawLine(QPointF(x, l.top), QPointF(x, l.bottom));
        }

    drawSelection(p, f, l);

    // Measurement and the rectangle being dragged.
    if (f.hasMeasure) {
        const double x0 = l.left + f.window.xOf(std::min(f.measureStartNs, f.measureEndNs), l.width);
        const double x1 = l.left + f.window.xOf(std::max(f.measureStartNs, f.measureEndNs), l.width);
        QColor band = QColor(0x1e, 0x88, 0xe5);
        band.setAlpha(40);
        p.fillRect(QRectF(x0, l.top, std::max(1.0, x1 - x0), l.bottom - l.top), band);
        p.setPen(QPen(QColor(0x1e, 0x88, 0xe5), 1));
        p.drawLine(QPointF(x0, l.top), QPointF(x0, l.bottom));
        p.drawLine(QPointF(x1, l.top), QPointF(x1, l.bottom));
    }
    if (f.boxDragging) {
        QColor tint = pal.color(QPalette::Highlight);
        p.setPen(tint);
        tint.setAlpha(50);
        p.setBrush(tint);
        p.drawRect(QRectF(QPointF(f.dragX0, f.dragY0), QPointF(f.dragX1, f.dragY1)).normalized());
        p.setBrush(Qt::NoBrush);
    }
    p.restore();

    drawLabelColumn(p, f, l, first, small, bold, counters);

    drawRuler(p, size, f, l, ticks, small, bold, counters);
    return counters;
}

} // namespace tstudio::profiler::timeline
