// Painting with level of detail, hit testing, and mouse/keyboard navigation for the graph viewer.
#include "graph_viewer/graph_canvas.h"
#include "graph_viewer/line_raster.h"

#include "common/op_style.h"
#include "core/hash_combine.h"
#include "graph_viewer/function_library_view.h"

#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QHelpEvent>
#include <QImage>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <optional>
#include <limits>
#include <cmath>

namespace tstudio::graph_viewer {
namespace {

constexpr double kMinZoom = 0.0005;
constexpr double kMaxZoom = 8.0;
constexpr double kLabelPixels = 11.0;  ///< label font size in world units
constexpr double kToggleSize = 12.0;   ///< the +/- button of groups, in world units
constexpr std::size_t kMaxAntialiasedEdges = 400;

QRectF itemRect(const ViewItem& item)
{
    return QRectF(item.x, item.y, item.width, item.height);
}

QString leafOf(const std::string& path)
{
    const auto slash = path.rfind('/');
    return QString::fromStdString(slash == std::string::npos ? path : path.substr(slash + 1));
}

double segmentDistance(QPointF p, QPointF a, QPointF b)
{
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    double t = len2 > 0 ? QPointF::dotProduct(p - a, ab) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const QPointF d = p - (a + ab * t);
    return std::sqrt(QPointF::dotProduct(d, d));
}

/// Draws text in device pixels: the world rectangle is mapped through the painter's transform and the font
/// gets a whole pixel size. Text drawn under an arbitrary scale would make Qt render and cache glyphs for
/// every zoom step, which costs more than the rest of a frame.
void drawLabel(QPainter& painter, const QRectF& world, double worldPixels, bool bold, const QColor& colour, int flags,
               const QString& text, bool elide)
{
    const QTransform transform = painter.transform();
    const double scale = std::sqrt(std::abs(transform.determinant()));
    const int pixels = static_cast<int>(std::lround(worldPixels * scale));
    if (pixels < 4)
        return;
    const QRectF device = transform.mapRect(world);
    painter.save();
    painter.resetTransform();
    QFont font = painter.font();
    font.setPixelSize(pixels);
    font.setBold(bold);
    painter.setFont(font);
    painter.setPen(colour);
    painter.drawText(device, flags,
                     elide ? painter.fontMetrics().elidedText(text, Qt::ElideMiddle, static_cast<int>(device.width())) : text);
    painter.restore();
}

/// Clips `line` to `rect` (Liang-Barsky); false when nothing of it is inside.
bool clipLine(QLineF& line, const QRectF& rect)
{
    double t0 = 0, t1 = 1;
    const double dx = line.dx(), dy = line.dy();
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {line.x1() - rect.left(), rect.right() - line.x1(), line.y1() - rect.top(), rect.bottom() - line.y1()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return false;
    }
    const QPointF a = line.p1();
    line = QLineF(a + QPointF(dx, dy) * t0, a + QPointF(dx, dy) * t1);
    return true;
}

QPainterPath edgePath(const std::vector<LayoutPoint>& points)
{
    QPainterPath path;
    if (points.empty())
        return path;
    path.moveTo(points.front().x, points.front().y);
    if (points.size() == 2) {
        path.lineTo(points.back().x, points.back().y);
        return path;
    }
    // A smooth curve through the bends: quadratic segments between the midpoints of the polyline.
    for (std::size_t i = 1; i + 1 < points.size(); ++i) {
        const QPointF c(points[i].x, points[i].y);
        const QPointF next(points[i + 1].x, points[i + 1].y);
        const QPointF mid = i + 2 == points.size() ? next : (c + next) / 2.0;
        path.quadTo(c, mid);
    }
    return path;
}

/// Whether edgePath(points) stays within about `tolerance` screen pixels of the polyline through the points at
/// this scale: a quadratic piece's middle is |start - 2 control + end| / 4 from its control point, where the
/// curve and the polyline are farthest apart.
bool curveIsNearPolyline(const std::vector<LayoutPoint>& points, double scale, double tolerance)
{
    if (points.size() < 3)
        return true;
    QPointF start(points.front().x, points.front().y);
    for (std::size_t i = 1; i + 1 < points.size(); ++i) {
        const QPointF c(points[i].x, points[i].y);
        const QPointF next(points[i + 1].x, points[i + 1].y);
        const QPointF end = i + 2 == points.size() ? next : (c + next) / 2.0;
        const QPointF bulge = start - 2 * c + end;
        if (std::hypot(bulge.x(), bulge.y()) / 4 * scale > tolerance)
            return false;
        start = end;
    }
    return true;
}

} // namespace

/// Zoomed out on many edges: the edges drawn as straight pieces go into one pixel layer over the
/// painter's device (rasterPolyline), composited once where they fell.
struct EdgeLayer {
    explicit EdgeLayer(QPainter& painter)
    {
        const QPaintDevice* device = painter.device();
        ratio = device->devicePixelRatioF();
        image = QImage(static_cast<int>(std::ceil(device->width() * ratio)), static_cast<int>(std::ceil(device->height() * ratio)),
                       QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        target = RasterTarget{reinterpret_cast<std::uint32_t*>(image.bits()), image.width(), image.height(),
                              static_cast<int>(image.bytesPerLine() / 4)};
        toPixels = painter.combinedTransform() * QTransform::fromScale(ratio, ratio);
    }

    /// Draws edgePath(points) (its quadratic pieces as straight pieces within a quarter of a pixel).
    void draw(const std::vector<LayoutPoint>& points, const QColor& colour, double widthPx, bool dashed)
    {
        if (points.size() < 2)
            return;
        std::vector<QPointF> at;
        at.reserve(points.size());
        for (const LayoutPoint& p : points) {
            at.push_back(toPixels.map(QPointF(p.x, p.y)));
            left = std::min(left, at.back().x());
            top = std::min(top, at.back().y());
            right = std::max(right, at.back().x());
            bottom = std::max(bottom, at.back().y());
        }
        xy.clear();
        auto add = [&](QPointF p) {
            xy.push_back(p.x());
            xy.push_back(p.y());
        };
        add(at.front());
        QPointF start = at.front();
        for (std::size_t i = 1; i + 1 < at.size(); ++i) {
            const QPointF c = at[i];
            const QPointF end = i + 2 == at.size() ? at[i + 1] : (c + at[i + 1]) / 2.0;
            // A chord of 1/n of a quadratic piece strays at most |start - 2c + end| / (4 n^2) from it.
            const QPointF bulge = start - 2 * c + end;
            const double away = std::hypot(bulge.x(), bulge.y());
            const int pieces = std::clamp(static_cast<int>(std::ceil(std::sqrt(away))), 1, 4096);
            for (int k = 1; k <= pieces; ++k) {
                const double t = double(k) / pieces;
                add((1 - t) * (1 - t) * start + 2 * (1 - t) * t * c + t * t * end);
            }
            start = end;
        }
        if (at.size() == 2)
            add(at.back());
        rasterPolyline(target, RasterPen{qPremultiply(colour.rgba()), widthPx * ratio, dashed}, xy.data(), xy.size() / 2);
        widest = std::max(widest, widthPx * ratio);
    }

    /// Composites the layer's touched pixels over the painter's device.
    void composite(QPainter& painter) const
    {
        if (left > right)
            return; // nothing drawn
        const double margin = widest + 1;
        const QRectF drawnArea(QPointF(std::max(left - margin, 0.0), std::max(top - margin, 0.0)),
                               QPointF(std::min(right + margin, double(image.width())), std::min(bottom + margin, double(image.height()))));
        const QRect area = drawnArea.toAlignedRect().intersected(image.rect());
        if (area.isEmpty())
            return;
        painter.save();
        painter.resetTransform();
        painter.drawImage(QRectF(area.x() / ratio, area.y() / ratio, area.width() / ratio, area.height() / ratio), image, area);
        painter.restore();
    }

    QImage image;
    RasterTarget target;
    QTransform toPixels;
    double ratio = 1.0;
    double widest = 1.0;
    /// The drawn points' bounds in the layer's pixels (left > right: none).
    double left = std::numeric_limits<double>::max();
    double top = std::numeric_limits<double>::max();
    double right = std::numeric_limits<double>::lowest();
    double bottom = std::numeric_limits<double>::lowest();
    std::vector<double> xy;
};

GraphCanvas::GraphCanvas(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("graphCanvas"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(200, 150);
    m_settleTimer = new QTimer(this);
    m_settleTimer->setSingleShot(true);
    m_settleTimer->setInterval(150);
    connect(m_settleTimer, &QTimer::timeout, this, &GraphCanvas::settle);
}

void GraphCanvas::settle()
{
    m_settleTimer->stop();
    if (!m_moving)
        return;
    m_moving = false;
    update();
}

void GraphCanvas::setHierarchy(std::shared_ptr<const GraphHierarchy> hierarchy)
{
    m_hierarchy = std::move(hierarchy);
    m_selected = -1;
    m_matchFlags.clear();
    m_traceFlags.clear();
    m_debugMarks.clear();
    m_tracing = false;
    m_fitPending = true;
    update();
}

void GraphCanvas::setSnapshot(std::shared_ptr<const LayoutSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    m_itemOfNode.assign(m_hierarchy ? m_hierarchy->nodes().size() : 0, -1);
    m_edgeBounds.clear();
    if (m_snapshot) {
        for (std::size_t i = 0; i < m_snapshot->items.size(); ++i) {
            const int node = m_snapshot->items[i].node;
            if (node >= 0 && static_cast<std::size_t>(node) < m_itemOfNode.size())
                m_itemOfNode[static_cast<std::size_t>(node)] = static_cast<int>(i);
        }
        m_edgeBounds.reserve(m_snapshot->edges.size());
        for (const auto& e : m_snapshot->edges) {
            double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
            for (const auto& p : e.points) {
                x0 = std::min(x0, p.x);
                y0 = std::min(y0, p.y);
                x1 = std::max(x1, p.x);
                y1 = std::max(y1, p.y);
            }
            m_edgeBounds.push_back(e.points.empty() ? QRectF() : QRectF(QPointF(x0, y0), QPointF(x1, y1)).adjusted(-4, -4, 4, 4));
        }
    }
    if (m_fitPending && m_snapshot)
        fitView();
    update();
    emit viewChanged();
}

void GraphCanvas::setColouring(std::shared_ptr<const GraphColouring> colouring)
{
    m_colouring = std::move(colouring);
    update();
}

void GraphCanvas::setProblemFlags(std::vector<char> flags)
{
    m_problemFlags = std::move(flags);
    update();
}

void GraphCanvas::setEdgeDescriber(std::function<QString(int, int)> describe)
{
    m_describeEdge = std::move(describe);
}

void GraphCanvas::setSelected(int node)
{
    if (node == m_selected)
        return;
    m_selected = node;
    update();
    emit selectionChanged(node);
}

void GraphCanvas::setMatches(std::vector<int> nodes, int current)
{
    m_matchFlags.assign(m_hierarchy ? m_hierarchy->nodes().size() : 0, 0);
    for (int n : nodes)
        if (n >= 0 && static_cast<std::size_t>(n) < m_matchFlags.size())
            m_matchFlags[static_cast<std::size_t>(n)] = 1;
    m_currentMatch = current;
    update();
}

void GraphCanvas::setTraced(std::vector<int> nodes)
{
    m_tracing = !nodes.empty();
    m_traceFlags.assign(m_hierarchy ? m_hierarchy->nodes().size() : 0, 0);
    for (int n : nodes)
        if (n >= 0 && static_cast<std::size_t>(n) < m_traceFlags.size())
            m_traceFlags[static_cast<std::size_t>(n)] = 1;
    update();
}

void GraphCanvas::setDebugMarks(std::vector<char> marks)
{
    m_debugMarks = std::move(marks);
    update();
}

int GraphCanvas::debugMarks(int node) const
{
    const auto n = static_cast<std::size_t>(node);
    return node >= 0 && n < m_debugMarks.size() ? m_debugMarks[n] : 0;
}

void GraphCanvas::setView(double zoom, QPointF offset)
{
    m_fitPending = false;
    applyView(zoom, offset);
}

void GraphCanvas::applyView(double zoom, QPointF offset)
{
    m_zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    m_offset = offset;
    m_moving = true;
    m_settleTimer->start();
    update();
    emit viewChanged();
}

void GraphCanvas::keepFitting(bool on)
{
    m_fitPending = on;
    if (on)
        fitView();
}

QRectF GraphCanvas::visibleWorldRect() const
{
    return QRectF((QPointF(0, 0) - m_offset) / m_zoom, QSizeF(width() / m_zoom, height() / m_zoom));
}

void GraphCanvas::zoomToFit()
{
    fitView();
    m_fitPending = false;
}

void GraphCanvas::fitView()
{
    if (!m_snapshot || width() <= 0 || height() <= 0)
        return;
    const double w = std::max(1.0, m_snapshot->size.width), h = std::max(1.0, m_snapshot->size.height);
    const double margin = 24;
    const double z = std::clamp(std::min((width() - 2 * margin) / w, (height() - 2 * margin) / h), kMinZoom, 1.5);
    applyView(z, QPointF((width() - w * z) / 2.0, (height() - h * z) / 2.0));
}

void GraphCanvas::centreOn(QPointF world)
{
    setView(m_zoom, QPointF(width() / 2.0, height() / 2.0) - world * m_zoom);
}

bool GraphCanvas::zoomToNode(int node)
{
    const int index = itemIndexOf(node);
    if (index < 0)
        return false;
    const QRectF r = itemRect(m_snapshot->items[static_cast<std::size_t>(index)]);
    const double margin = 40;
    double z = std::min((width() - 2 * margin) / std::max(1.0, r.width()), (height() - 2 * margin) / std::max(1.0, r.height()));
    z = std::clamp(z, kMinZoom, 1.5);
    setView(z, QPointF(width() / 2.0, height() / 2.0) - r.center() * z);
    return true;
}

int GraphCanvas::itemIndexOf(int node) const
{
    if (node < 0 || static_cast<std::size_t>(node) >= m_itemOfNode.size())
        return -1;
    return m_itemOfNode[static_cast<std::size_t>(node)];
}

int GraphCanvas::nodeAt(QPointF widgetPos) const
{
    if (!m_snapshot)
        return -1;
    const QPointF world = (widgetPos - m_offset) / m_zoom;
    // Children come after their parents: the last hit is the innermost.
    for (std::size_t i = m_snapshot->items.size(); i-- > 0;) {
        const auto& item = m_snapshot->items[i];
        if (itemRect(item).contains(world))
            return item.node;
    }
    return -1;
}

int GraphCanvas::edgeAt(QPointF widgetPos) const
{
    if (!m_snapshot)
        return -1;
    const QPointF world = (widgetPos - m_offset) / m_zoom;
    const double tolerance = 5.0 / m_zoom;
    int best = -1;
    double bestDistance = tolerance;
    for (std::size_t i = 0; i < m_snapshot->edges.size(); ++i) {
        if (!m_edgeBounds[i].adjusted(-tolerance, -tolerance, tolerance, tolerance).contains(world))
            continue;
        const auto& pts = m_snapshot->edges[i].points;
        for (std::size_t k = 0; k + 1 < pts.size(); ++k) {
            const double d = segmentDistance(world, QPointF(pts[k].x, pts[k].y), QPointF(pts[k + 1].x, pts[k + 1].y));
            if (d < bestDistance) {
                bestDistance = d;
                best = static_cast<int>(i);
            }
        }
    }
    return best;
}

QRectF GraphCanvas::toggleRect(const ViewItem& item) const
{
    return QRectF(item.x + item.width - kToggleSize - 5, item.y + 5, kToggleSize, kToggleSize);
}

QString GraphCanvas::itemLabel(const HierarchyNode& node) const
{
    if (node.kind == HierarchyNodeKind::kOp && !node.nodeName.empty()) {
        // "a/(a)" for an op named like a scope: show its own leaf.
        return leafOf(node.nodeName);
    }
    if (node.kind == HierarchyNodeKind::kGroup && node.name == kFunctionLibraryScope)
        return tr("Functions");
    return leafOf(node.name);
}

bool GraphCanvas::isLibraryFunction(const HierarchyNode& node) const
{
    return node.kind == HierarchyNodeKind::kGroup && node.parent > 0 &&
           m_hierarchy->node(node.parent).name == kFunctionLibraryScope;
}

void GraphCanvas::renderScene(QPainter& painter, const QRectF& world, double scale, bool screen) const
{
    if (!m_snapshot || !m_hierarchy)
        return;
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    const auto& items = m_snapshot->items;
    const double minPixels = screen ? 1.5 : 0.5;
    // While the view moves, edges are drawn without antialiasing: antialiased long strokes cost Qt's raster
    // engine far more than everything else in a frame. The settled view is redrawn with full quality.
    // Many long edges on screen at once (a zoomed-out large graph) stay aliased even when settled, so that a
    // settled frame never stalls the GUI; a readable zoom level has few.
    std::size_t visibleEdges = 0;
    for (std::size_t i = 0; i < m_snapshot->edges.size() && visibleEdges <= kMaxAntialiasedEdges; ++i)
        visibleEdges += m_edgeBounds[i].intersects(world) ? 1 : 0;
    const bool fastEdges = screen && (m_moving || visibleEdges > kMaxAntialiasedEdges);
    auto visible = [&](const ViewItem& item) {
        return (item.width * scale >= minPixels || item.height * scale >= minPixels) && itemRect(item).intersects(world);
    };
    // Expanded groups are backgrounds: they go first (parents before children), then edges, then boxes.
    for (const auto& item : items)
        if (item.expanded && visible(item))
            drawItem(painter, item, scale, screen);
    // Zoomed out with many edges on screen, bundles of edges run along the same pixels: each is drawn once (the
    // raster engine's cost is in the pixel rows it fills, and an expanded 100,000-node graph's whole view had 550
    // edges over 250,000 rows, on 223 distinct pixel paths).
    std::unordered_set<std::uint64_t> drawn;
    const bool dedupe = screen && visibleEdges > kMaxAntialiasedEdges;
    std::optional<EdgeLayer> layer;
    if (dedupe)
        layer.emplace(painter);
    for (std::size_t i = 0; i < m_snapshot->edges.size(); ++i) {
        const QRectF& bounds = m_edgeBounds[i];
        if (!bounds.intersects(world) || (bounds.width() * scale < 3 && bounds.height() * scale < 3))
            continue;
        painter.setRenderHint(QPainter::Antialiasing, !fastEdges);
        drawEdge(painter, m_snapshot->edges[i], scale, world, bounds, screen, dedupe ? &drawn : nullptr,
                 layer ? &*layer : nullptr);
    }
    if (layer)
        layer->composite(painter);
    painter.setRenderHint(QPainter::Antialiasing, true);
    // Edges crossing an expanded group's border end in short stubs at the inner node (TensorBoard's bridges).
    if (14 * scale >= 3)
        for (const auto& item : items)
            if (item.parentItem >= 0 && !item.sideArea && visible(item))
                drawStubs(painter, item, scale);
    for (const auto& item : items)
        if (!item.expanded && visible(item))
            drawItem(painter, item, scale, screen);
}

void GraphCanvas::drawItem(QPainter& painter, const ViewItem& item, double scale, bool screen) const
{
    const HierarchyNode& node = m_hierarchy->node(item.node);
    const QRectF r = itemRect(item);
    const bool faded = m_tracing && !(static_cast<std::size_t>(item.node) < m_traceFlags.size() &&
                                      m_traceFlags[static_cast<std::size_t>(item.node)]) &&
                       item.node != m_selected;
    const double opacity = faded ? 0.25 : 1.0;
    painter.setOpacity(opacity);
    NodeFill fill;
    if (m_colouring)
        fill = m_colouring->fill(item.node);
    if (fill.bands.empty())
        fill.bands = {{QColor(0xdd, 0xdd, 0xdd), 1.0}};
    const QColor primary = fill.primary();
    if (r.width() * scale < 6 && r.height() * scale < 6 && !item.expanded) {
        // A few pixels: a plain rectangle, no path, no antialiasing (thousands of these make a zoomed-out view).
        painter.fillRect(r, primary.darker(115));
        painter.setOpacity(1.0);
        return;
    }
    const QColor border = primary.darker(160);
    const bool tiny = std::min(r.width(), r.height()) * scale < 4;
    const double radius = node.kind == HierarchyNodeKind::kOp ? std::min(r.height() / 2, 12.0) : 5.0;

    QPainterPath shape;
    shape.addRoundedRect(r, radius, radius);

    if (item.expanded) {
        QColor background = palette().color(QPalette::Base);
        const QColor tint = primary;
        background = QColor::fromRgbF(background.redF() * 0.9 + tint.redF() * 0.1, background.greenF() * 0.9 + tint.greenF() * 0.1,
                                      background.blueF() * 0.9 + tint.blueF() * 0.1);
        painter.setPen(QPen(border, 1.0 / scale));
        painter.setBrush(background);
        painter.drawPath(shape);
        if (!tiny && kLabelPixels * scale >= 4) {
            QString title = itemLabel(node);
            if (node.kind == HierarchyNodeKind::kSeries)
                title = tr("%1 (%2 members)").arg(title).arg(node.children.size());
            drawLabel(painter, QRectF(r.x() + 8, r.y() + 4, r.width() - 30, 18), kLabelPixels, true,
                      palette().color(QPalette::Text), Qt::AlignLeft | Qt::AlignVCenter, title, true);
        }
    } else {
        if (node.kind == HierarchyNodeKind::kSeries && !tiny) {
            // A stack: two offset cards behind the front one.
            painter.setPen(QPen(border, 1.0 / scale));
            painter.setBrush(primary.lighter(115));
            for (int k = 2; k >= 1; --k) {
                QPainterPath back;
                back.addRoundedRect(r.translated(4.0 * k, -4.0 * k).adjusted(0, 0, -8, 0), radius, radius);
                painter.drawPath(back);
            }
        }
        if (fill.bands.size() == 1 || tiny) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(primary);
            painter.drawPath(shape);
        } else {
            painter.save();
            painter.setClipPath(shape, Qt::IntersectClip);
            double x = r.x();
            for (const auto& [colour, share] : fill.bands) {
                const double w = r.width() * share;
                painter.fillRect(QRectF(x, r.y(), w + 0.5 / scale, r.height()), colour);
                x += w;
            }
            painter.restore();
        }
        if (!tiny) {
            painter.setPen(QPen(border, 1.0 / scale));
            painter.setBrush(Qt::NoBrush);
            painter.drawPath(shape);
        }
        if (!tiny && kLabelPixels * scale >= 4) {
            const QColor text = textColourOn(primary);
            const bool group = node.kind != HierarchyNodeKind::kOp;
            const double textWidth = r.width() - (group ? 26 : 10);
            if (group && r.height() >= 34) {
                drawLabel(painter, QRectF(r.x() + 8, r.y() + 4, textWidth, 16), kLabelPixels, true, text,
                          Qt::AlignLeft | Qt::AlignVCenter, itemLabel(node), true);
                const QString sub = node.kind == HierarchyNodeKind::kSeries
                                        ? tr("%1 × %2 ops").arg(node.children.size()).arg(node.opCount / std::max<std::int64_t>(1, static_cast<std::int64_t>(node.children.size())))
                                    : node.name == kFunctionLibraryScope
                                        ? tr("%n function(s)", nullptr, static_cast<int>(node.children.size()))
                                    : isLibraryFunction(node)
                                        ? tr("function · %n node(s)", nullptr, static_cast<int>(node.opCount))
                                        : tr("%n op(s)", nullptr, static_cast<int>(node.opCount));
                drawLabel(painter, QRectF(r.x() + 8, r.y() + 20, textWidth, 14), kLabelPixels - 1, false, text,
                          Qt::AlignLeft | Qt::AlignVCenter, sub, true);
            } else {
                drawLabel(painter, QRectF(r.x() + 5, r.y(), r.width() - 10, r.height()), kLabelPixels, false, text,
                          Qt::AlignCenter, itemLabel(node), true);
            }
        }
        // Embedded constants: small dots on the top edge, as TensorBoard attaches them.
        if (!tiny && !node.inEmbeddings.empty() && 6 * scale >= 2) {
            painter.setPen(QPen(border, 1.0 / scale));
            painter.setBrush(QColor(0xee, 0xee, 0xee));
            const int shown = std::min<int>(3, static_cast<int>(node.inEmbeddings.size()));
            for (int k = 0; k < shown; ++k)
                painter.drawEllipse(QPointF(r.x() + 10 + 8 * k, r.y()), 3, 3);
        }
    }
    // The +/- button of groups and series.
    if (node.kind != HierarchyNodeKind::kOp && !tiny && kToggleSize * scale >= 6) {
        const QRectF t = toggleRect(item);
        painter.setPen(QPen(border, 1.0 / scale));
        painter.setBrush(palette().color(QPalette::Base));
        painter.drawEllipse(t);
        painter.setPen(QPen(palette().color(QPalette::Text), 1.5 / scale));
        const QPointF c = t.center();
        painter.drawLine(c - QPointF(3, 0), c + QPointF(3, 0));
        if (!item.expanded)
            painter.drawLine(c - QPointF(0, 3), c + QPointF(0, 3));
    }
    const auto flag = [](const std::vector<char>& flags, int n) {
        return n >= 0 && static_cast<std::size_t>(n) < flags.size() && flags[static_cast<std::size_t>(n)];
    };
    if (flag(m_problemFlags, item.node)) {
        painter.setPen(QPen(QColor(0xd0, 0x20, 0x20), 2.0 / scale));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(shape);
        if (!tiny) {
            const QRectF badge(r.x() - 5, r.y() - 5, 12, 12);
            painter.setBrush(QColor(0xd0, 0x20, 0x20));
            painter.setPen(Qt::NoPen);
            painter.drawEllipse(badge);
            drawLabel(painter, badge, 10, true, Qt::white, Qt::AlignCenter, QStringLiteral("!"), false);
        }
    }
    if (flag(m_matchFlags, item.node)) {
        painter.setPen(QPen(QColor(0xf0, 0xb0, 0x00), (item.node == m_currentMatch ? 4.0 : 2.5) / scale));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(shape);
    }
    if (const int marks = debugMarks(item.node)) {
        const QColor red(0xd3, 0x2f, 0x2f);
        if (marks & kExecutedMark) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(0x43, 0xa0, 0x47));
            painter.drawEllipse(QPointF(r.right() - 7, r.bottom() - 1), 3, 3);
        }
        // What is inside an expanded group carries its own marks.
        if ((marks & kPausedMark) || ((marks & kContainsPausedMark) && !item.expanded)) {
            painter.setPen(QPen(QColor(0x7b, 0x1f, 0xa2), 4.0 / scale));
            painter.setBrush(Qt::NoBrush);
            painter.drawPath(shape);
        }
        if ((marks & kBreakpointMark) || ((marks & kContainsBreakpointMark) && !item.expanded)) {
            const bool own = marks & kBreakpointMark;
            painter.setPen(own ? QPen(Qt::white, 1.0 / scale) : QPen(red, 2.0 / scale));
            painter.setBrush(own ? QBrush(red) : QBrush(Qt::NoBrush));
            painter.drawEllipse(QPointF(r.x(), r.center().y()), 5, 5);
        }
    }
    if (item.node == m_selected && screen) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 3.0 / scale));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(shape);
    }
    painter.setOpacity(1.0);
}

void GraphCanvas::drawEdge(QPainter& painter, const ViewEdge& edge, double scale, const QRectF& world,
                           const QRectF& bounds, bool screen, std::unordered_set<std::uint64_t>* drawn,
                           EdgeLayer* layer) const
{
    if (edge.points.size() < 2 || edge.group < 0)
        return;
    const auto& edges = m_hierarchy->node(edge.group).edges;
    if (edge.edgeIndex < 0 || static_cast<std::size_t>(edge.edgeIndex) >= edges.size())
        return;
    const HierarchyEdge& info = edges[static_cast<std::size_t>(edge.edgeIndex)];
    const bool controlOnly = info.dataCount + info.refCount == 0;
    const bool ref = info.refCount > 0;
    double widthPx = 1.2;
    if (!controlOnly && info.sizedCount > 0) {
        const double elements = static_cast<double>(info.totalSize) / info.sizedCount;
        widthPx = std::clamp(1.0 + std::log10(std::max(1.0, elements)) * 0.5, 1.0, 4.0);
    }
    QColor colour = ref ? QColor(0xe0, 0x7b, 0x00) : palette().color(QPalette::Text);
    colour.setAlphaF(controlOnly ? 0.45 : 0.6);
    const bool faded = m_tracing && !((static_cast<std::size_t>(info.from) < m_traceFlags.size() && m_traceFlags[static_cast<std::size_t>(info.from)]) &&
                                      ((static_cast<std::size_t>(info.to) < m_traceFlags.size() && m_traceFlags[static_cast<std::size_t>(info.to)]) || info.to == m_selected));
    if (faded)
        colour.setAlphaF(0.1);
    else if (m_tracing)
        colour = QColor(0xe0, 0x7b, 0x00);
    // On screen the width is set in pixels (a cosmetic pen): the curve is mapped to the screen first and stroked
    // there, which looks the same as a world-space pen of widthPx / scale. Stroked in world space instead, a
    // zoomed-out view's long edges cost milliseconds each (Qt offsets the curve by half a pen width thousands of
    // times smaller than the curve): 550 edges of an expanded 100,000-node graph took 65-226 ms per frame.
    // Exports keep the world-space pen, so that an SVG's edges scale with its boxes.
    if (drawn) {
        // The pen and the pixels the points fall on (the arrowhead follows from them).
        std::uint64_t key = hashCombine(colour.rgba(), static_cast<std::uint64_t>(std::lround(widthPx * 8)) * 2 + (controlOnly ? 1 : 0));
        for (const auto& p : edge.points)
            key = hashCombine(key, (static_cast<std::uint64_t>(static_cast<std::uint32_t>(std::lround(p.x * scale))) << 32) |
                                  static_cast<std::uint32_t>(std::lround(p.y * scale)));
        if (!drawn->insert(key).second)
            return;
    }
    QPen pen(colour, screen ? widthPx : widthPx / scale);
    pen.setCosmetic(screen);
    if (controlOnly)
        pen.setStyle(Qt::DashLine);
    pen.setCapStyle(Qt::FlatCap);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    if (bounds.width() * scale > 4000 || bounds.height() * scale > 4000) {
        // Zoomed far in on a long edge: stroking (and dashing) the whole curve would cost time in proportion to
        // its length on screen, so only the straight pieces inside the view are drawn.
        const QRectF view = world.adjusted(-world.width(), -world.height(), world.width(), world.height());
        for (std::size_t k = 0; k + 1 < edge.points.size(); ++k) {
            QLineF line(edge.points[k].x, edge.points[k].y, edge.points[k + 1].x, edge.points[k + 1].y);
            if (clipLine(line, view))
                painter.drawLine(line);
        }
    } else if (layer) {
        layer->draw(edge.points, colour, widthPx, controlOnly);
    } else if (screen && curveIsNearPolyline(edge.points, scale, 0.25)) {
        // Zoomed out, where the curve and its polyline differ by under a quarter of a pixel: straight pieces,
        // which the raster engine draws on its fast line path instead of stroking a curve.
        std::vector<QLineF> lines;
        lines.reserve(edge.points.size() - 1);
        for (std::size_t k = 0; k + 1 < edge.points.size(); ++k)
            lines.emplace_back(edge.points[k].x, edge.points[k].y, edge.points[k + 1].x, edge.points[k + 1].y);
        painter.drawLines(lines.data(), static_cast<int>(lines.size()));
    } else {
        painter.drawPath(edgePath(edge.points));
    }
    // Arrowhead at the consumer, sized in screen pixels.
    const auto& a = edge.points[edge.points.size() - 2];
    const auto& b = edge.points.back();
    QPointF dir(b.x - a.x, b.y - a.y);
    const double len = std::hypot(dir.x(), dir.y());
    if (len <= 0 || 8 / scale > 200)
        return;
    dir /= len;
    const QPointF tip(b.x, b.y);
    const double size = (5 + widthPx) / scale;
    const QPointF normal(-dir.y(), dir.x());
    QPolygonF head;
    head << tip << tip - dir * size * 1.6 + normal * size * 0.7 << tip - dir * size * 1.6 - normal * size * 0.7;
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    if (ref) {
        // A reference edge (the consumer writes this input) ends in a diamond.
        head.clear();
        head << tip << tip - dir * size * 1.2 + normal * size * 0.7 << tip - dir * size * 2.4 << tip - dir * size * 1.2 - normal * size * 0.7;
    }
    painter.drawPolygon(head);
}

void GraphCanvas::drawStubs(QPainter& painter, const ViewItem& item, double scale) const
{
    const HierarchyNode& node = m_hierarchy->node(item.node);
    if (node.externalInputs == 0 && node.externalOutputs == 0)
        return;
    const bool leftToRight = m_snapshot->direction == LayoutDirection::kLeftToRight;
    const QPointF dir = leftToRight ? QPointF(1, 0) : QPointF(0, 1);
    const QPointF normal(-dir.y(), dir.x());
    const double length = 14;
    QColor colour = palette().color(QPalette::Text);
    colour.setAlphaF(0.45);
    painter.setPen(QPen(colour, 1.2 / scale, Qt::SolidLine, Qt::FlatCap));
    const double head = 4 / scale;
    auto arrow = [&](QPointF from, QPointF to) {
        painter.setPen(QPen(colour, 1.2 / scale, Qt::SolidLine, Qt::FlatCap));
        painter.drawLine(from, to);
        QPolygonF tip;
        tip << to << to - dir * head * 1.5 + normal * head * 0.6 << to - dir * head * 1.5 - normal * head * 0.6;
        painter.setPen(Qt::NoPen);
        painter.setBrush(colour);
        painter.drawPolygon(tip);
    };
    const QRectF r(item.x, item.y, item.width, item.height);
    if (node.externalInputs > 0) {
        const QPointF end = leftToRight ? QPointF(r.left(), r.center().y()) : QPointF(r.center().x(), r.top());
        arrow(end - dir * length, end);
    }
    if (node.externalOutputs > 0) {
        const QPointF start = leftToRight ? QPointF(r.right(), r.center().y()) : QPointF(r.center().x(), r.bottom());
        arrow(start, start + dir * length);
    }
}

void GraphCanvas::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    if (!m_snapshot)
        return;
    painter.translate(m_offset);
    painter.scale(m_zoom, m_zoom);
    renderScene(painter, visibleWorldRect(), m_zoom, true);
}

void GraphCanvas::resizeEvent(QResizeEvent*)
{
    // Until the user moves the view, the graph stays fitted as the window settles its size.
    if (m_fitPending && m_snapshot)
        fitView();
}

void GraphCanvas::zoomAt(QPointF widgetPos, double factor)
{
    const double z = std::clamp(m_zoom * factor, kMinZoom, kMaxZoom);
    const QPointF world = (widgetPos - m_offset) / m_zoom;
    setView(z, widgetPos - world * z);
}

void GraphCanvas::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ShiftModifier) {
        setView(m_zoom, m_offset + QPointF(event->angleDelta().y() / 2.0, 0));
    } else {
        zoomAt(event->position(), std::pow(1.2, steps));
    }
    event->accept();
}

void GraphCanvas::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    m_pressPos = event->pos();
    m_pressOffset = m_offset;
    m_panning = event->button() == Qt::LeftButton || event->button() == Qt::MiddleButton;
    event->accept();
}

void GraphCanvas::mouseMoveEvent(QMouseEvent* event)
{
    if (m_panning && (event->buttons() & (Qt::LeftButton | Qt::MiddleButton))) {
        const QPoint delta = event->pos() - m_pressPos;
        if (delta.manhattanLength() > 3) {
            setCursor(Qt::ClosedHandCursor);
            setView(m_zoom, m_pressOffset + QPointF(delta));
        }
    }
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent* event)
{
    unsetCursor();
    const bool click = (event->pos() - m_pressPos).manhattanLength() <= 3;
    m_panning = false;
    if (!click || event->button() != Qt::LeftButton)
        return;
    const int node = nodeAt(event->position());
    if (node >= 0 && m_hierarchy->node(node).kind != HierarchyNodeKind::kOp) {
        const ViewItem& item = m_snapshot->items[static_cast<std::size_t>(itemIndexOf(node))];
        if (toggleRect(item).contains((event->position() - m_offset) / m_zoom)) {
            setSelected(node);
            emit expansionRequested(node, !item.expanded);
            return;
        }
    }
    setSelected(node);
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent* event)
{
    const int node = nodeAt(event->position());
    if (node < 0 || m_hierarchy->node(node).kind == HierarchyNodeKind::kOp)
        return;
    const ViewItem& item = m_snapshot->items[static_cast<std::size_t>(itemIndexOf(node))];
    setSelected(node);
    emit expansionRequested(node, !item.expanded);
}

void GraphCanvas::keyPressEvent(QKeyEvent* event)
{
    const int index = itemIndexOf(m_selected);
    const ViewItem* item = index >= 0 ? &m_snapshot->items[static_cast<std::size_t>(index)] : nullptr;
    const bool group = item && m_hierarchy->node(m_selected).kind != HierarchyNodeKind::kOp;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        if (group && !item->expanded)
            emit expansionRequested(m_selected, true);
        else if (!item)
            zoomAt(QPointF(width() / 2.0, height() / 2.0), 1.25);
        break;
    case Qt::Key_Minus:
        if (group && item->expanded) {
            emit expansionRequested(m_selected, false);
        } else if (item && m_hierarchy->node(m_selected).parent > 0) {
            const int parent = m_hierarchy->node(m_selected).parent;
            setSelected(parent);
            emit expansionRequested(parent, false);
        } else if (!item) {
            zoomAt(QPointF(width() / 2.0, height() / 2.0), 0.8);
        }
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (group)
            emit expansionRequested(m_selected, !item->expanded);
        break;
    case Qt::Key_Escape:
        setSelected(-1);
        break;
    case Qt::Key_Left:
        setView(m_zoom, m_offset + QPointF(60, 0));
        break;
    case Qt::Key_Right:
        setView(m_zoom, m_offset - QPointF(60, 0));
        break;
    case Qt::Key_Up:
        setView(m_zoom, m_offset + QPointF(0, 60));
        break;
    case Qt::Key_Down:
        setView(m_zoom, m_offset - QPointF(0, 60));
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void GraphCanvas::contextMenuEvent(QContextMenuEvent* event)
{
    const int node = nodeAt(event->pos());
    if (node >= 0)
        setSelected(node);
    emit contextMenuRequested(node, event->globalPos());
}

bool GraphCanvas::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && m_hierarchy && m_snapshot) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int node = nodeAt(help->pos());
        QString text;
        if (node >= 0 && !m_snapshot->items[static_cast<std::size_t>(itemIndexOf(node))].expanded) {
            const auto& n = m_hierarchy->node(node);
            if (n.kind == HierarchyNodeKind::kOp)
                text = QStringLiteral("<b>%1</b><br>%2").arg(QString::fromStdString(n.nodeName).toHtmlEscaped(), QString::fromStdString(n.op));
            else
                text = tr("<b>%1</b><br>%n op(s)", nullptr, static_cast<int>(n.opCount))
                           .arg(QString::fromStdString(n.name).toHtmlEscaped());
        }
        const int e = node < 0 || m_snapshot->items[static_cast<std::size_t>(itemIndexOf(node))].expanded ? edgeAt(help->pos()) : -1;
        if (e >= 0 && m_describeEdge)
            text = m_describeEdge(m_snapshot->edges[static_cast<std::size_t>(e)].group, m_snapshot->edges[static_cast<std::size_t>(e)].edgeIndex);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace tstudio::graph_viewer
