// The Projector tab's canvas: points (or their sprite images), zoom, pan and picking.
#include "dashboard/projector_canvas.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace tstudio::dashboard {
namespace {

constexpr double kPickPixels = 8;

} // namespace

ProjectorCanvas::ProjectorCanvas(QWidget* parent) : QWidget(parent)
{
    setMinimumSize(300, 240);
    setMouseTracking(false);
    setAutoFillBackground(false);
}

void ProjectorCanvas::setPoints(std::vector<QPointF> points, std::vector<QColor> colours)
{
    m_points3.clear();
    m_depth.clear();
    m_order.clear();
    m_points = std::move(points);
    m_colours = std::move(colours);
    m_highlighted.assign(m_points.size(), false);
    m_selected.reset();
    m_neighbours.clear();
    fitAll();
}

void ProjectorCanvas::setPoints3D(std::vector<std::array<double, 3>> points, std::vector<QColor> colours,
                                  bool keepRotation)
{
    keepRotation = keepRotation && is3D();
    std::array<double, 3> centroid{0, 0, 0};
    for (const auto& p : points)
        for (int k = 0; k < 3; ++k)
            centroid[k] += p[k] / static_cast<double>(points.size());
    for (auto& p : points)
        for (int k = 0; k < 3; ++k)
            p[k] -= centroid[k];
    m_points3 = std::move(points);
    m_colours = std::move(colours);
    m_highlighted.assign(m_points3.size(), false);
    m_selected.reset();
    m_neighbours.clear();
    if (!keepRotation) {
        m_yaw = 0.6; // an oblique first view, so that the depth shows
        m_pitch = 0.35;
    }
    turn();
    fitAll();
}

void ProjectorCanvas::setRotation(double yaw, double pitch)
{
    m_yaw = yaw;
    m_pitch = std::clamp(pitch, -1.5, 1.5);
    turn();
    update();
}

void ProjectorCanvas::turn()
{
    const double cy = std::cos(m_yaw), sy = std::sin(m_yaw), cp = std::cos(m_pitch), sp = std::sin(m_pitch);
    m_points.resize(m_points3.size());
    m_depth.resize(m_points3.size());
    m_depthLow = 0, m_depthHigh = 0;
    for (std::size_t i = 0; i < m_points3.size(); ++i) {
        const auto& [x, y, z] = m_points3[i];
        const double x1 = x * cy + z * sy, z1 = -x * sy + z * cy; // about the vertical axis
        const double y2 = y * cp - z1 * sp, z2 = y * sp + z1 * cp; // about the horizontal axis
        m_points[i] = QPointF(x1, y2);
        m_depth[i] = z2;
        m_depthLow = std::min(m_depthLow, z2);
        m_depthHigh = std::max(m_depthHigh, z2);
    }
    m_order.resize(m_points3.size());
    for (std::size_t i = 0; i < m_order.size(); ++i)
        m_order[i] = i;
    std::sort(m_order.begin(), m_order.end(), [this](std::size_t a, std::size_t b) { return m_depth[a] < m_depth[b]; });
}

void ProjectorCanvas::setColours(std::vector<QColor> colours)
{
    m_colours = std::move(colours);
    update();
}

void ProjectorCanvas::setSprites(std::vector<QImage> sprites)
{
    m_sprites = std::move(sprites);
    update();
}

void ProjectorCanvas::setSpritesShown(bool shown)
{
    m_spritesShown = shown;
    update();
}

void ProjectorCanvas::setHighlighted(std::vector<bool> highlighted)
{
    m_highlighted = std::move(highlighted);
    update();
}

void ProjectorCanvas::setSelection(std::optional<std::size_t> selected, std::vector<std::size_t> neighbours)
{
    m_selected = selected;
    m_neighbours = std::move(neighbours);
    update();
}

void ProjectorCanvas::fitAll()
{
    if (m_points.empty()) {
        update();
        return;
    }
    if (is3D()) {
        // The cloud's radius about its centroid: every turn of it stays in view.
        double radius = 1e-12;
        for (const auto& [x, y, z] : m_points3)
            radius = std::max(radius, std::sqrt(x * x + y * y + z * z));
        m_centre = QPointF(0, 0);
        m_scale = 0.9 * std::min(std::max(width(), 1), std::max(height(), 1)) / (2 * radius);
        update();
        return;
    }
    double x0 = m_points[0].x(), x1 = x0, y0 = m_points[0].y(), y1 = y0;
    for (const QPointF& p : m_points) {
        x0 = std::min(x0, p.x()), x1 = std::max(x1, p.x());
        y0 = std::min(y0, p.y()), y1 = std::max(y1, p.y());
    }
    m_centre = QPointF((x0 + x1) / 2, (y0 + y1) / 2);
    const double span = std::max({x1 - x0, y1 - y0, 1e-12});
    m_scale = 0.9 * std::min(std::max(width(), 1), std::max(height(), 1)) / span;
    update();
}

QPointF ProjectorCanvas::toPixel(std::size_t index) const
{
    const QPointF p = m_points[index];
    return QPointF(width() / 2.0 + (p.x() - m_centre.x()) * m_scale, height() / 2.0 - (p.y() - m_centre.y()) * m_scale);
}

std::optional<std::size_t> ProjectorCanvas::pointAt(const QPoint& pos) const
{
    std::optional<std::size_t> best;
    double bestDistance = kPickPixels * kPickPixels;
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const QPointF d = toPixel(i) - QPointF(pos);
        const double squared = d.x() * d.x() + d.y() * d.y();
        if (squared <= bestDistance) {
            bestDistance = squared;
            best = i;
        }
    }
    return best;
}

void ProjectorCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), Qt::white);
    p.setPen(QColor(0xe0, 0xe0, 0xe0));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    const bool searching = std::find(m_highlighted.begin(), m_highlighted.end(), true) != m_highlighted.end();
    // Points as small squares (thousands of antialiased circles would cost tens of milliseconds);
    // highlighted, neighbouring and selected points drawn last, larger and outlined.
    const bool sprites = m_spritesShown && m_sprites.size() == m_points.size();
    const bool deep = is3D() && m_order.size() == m_points.size() && m_depthHigh > m_depthLow;
    for (std::size_t k = 0; k < m_points.size(); ++k) {
        const std::size_t i = deep ? m_order[k] : k; // far to near in 3-D
        const bool faded = searching && !(i < m_highlighted.size() && m_highlighted[i]);
        const QPointF at = toPixel(i);
        // 0 for the farthest point, 1 for the nearest.
        const double nearness = deep ? (m_depth[i] - m_depthLow) / (m_depthHigh - m_depthLow) : 1.0;
        if (sprites) {
            // The point's own image, centred on it (TensorBoard's sprites), faded outside a search.
            // On a square of its colour, which keeps "Colour by" visible as a frame.
            const QImage& image = m_sprites[i];
            p.setOpacity(faded ? 0.2 : 1.0);
            const QRectF box(at.x() - image.width() / 2.0, at.y() - image.height() / 2.0, image.width(),
                             image.height());
            if (m_colours.size() == m_points.size())
                p.fillRect(box.adjusted(-2, -2, 2, 2), m_colours[i]);
            p.drawImage(box.topLeft(), image);
            continue;
        }
        QColor c = m_colours.size() == m_points.size() ? m_colours[i] : QColor(0x1f, 0x77, 0xb4);
        double half = 3;
        if (deep) {
            // Depth: nearer points larger; farther ones mixed toward the white background (opaque).
            half = 2 + 2.5 * nearness;
            const double pale = 0.55 * (1 - nearness);
            c = QColor::fromRgbF(float(c.redF() + (1 - c.redF()) * pale), float(c.greenF() + (1 - c.greenF()) * pale),
                                 float(c.blueF() + (1 - c.blueF()) * pale));
        }
        if (faded)
            c.setAlpha(50);
        p.fillRect(QRectF(at.x() - half, at.y() - half, 2 * half, 2 * half), c);
    }
    p.setOpacity(1.0);
    p.setRenderHint(QPainter::Antialiasing);
    auto ring = [&](std::size_t i, double radius, const QColor& colour, qreal width) {
        p.setPen(QPen(colour, width));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(toPixel(i), radius, radius);
    };
    for (std::size_t i = 0; i < m_highlighted.size() && i < m_points.size(); ++i)
        if (m_highlighted[i])
            ring(i, 4, QColor(0xd3, 0x2f, 0x2f), 1.2);
    if (m_selected && *m_selected < m_points.size()) {
        p.setPen(QPen(QColor(0x42, 0x42, 0x42, 120), 1));
        for (std::size_t n : m_neighbours)
            if (n < m_points.size())
                p.drawLine(toPixel(*m_selected), toPixel(n));
        for (std::size_t n : m_neighbours)
            if (n < m_points.size())
                ring(n, 4, QColor(0xff, 0x8f, 0x00), 1.5);
        ring(*m_selected, 6, Qt::black, 2);
    }
}

void ProjectorCanvas::wheelEvent(QWheelEvent* event)
{
    const double factor = std::pow(1.0015, event->angleDelta().y());
    const QPointF at = event->position();
    // Keep the data point under the cursor where it is.
    const QPointF data(m_centre.x() + (at.x() - width() / 2.0) / m_scale,
                       m_centre.y() - (at.y() - height() / 2.0) / m_scale);
    m_scale = std::clamp(m_scale * factor, 1e-9, 1e12);
    m_centre = QPointF(data.x() - (at.x() - width() / 2.0) / m_scale, data.y() + (at.y() - height() / 2.0) / m_scale);
    update();
    event->accept();
}

void ProjectorCanvas::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    m_pressAt = m_lastDrag = event->position().toPoint();
    m_dragging = true;
}

void ProjectorCanvas::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragging)
        return;
    const QPoint now = event->position().toPoint();
    const QPoint delta = now - m_lastDrag;
    m_lastDrag = now;
    if (is3D() && !(event->modifiers() & Qt::ShiftModifier)) {
        setRotation(m_yaw + delta.x() * 0.01, m_pitch + delta.y() * 0.01);
        return;
    }
    m_centre -= QPointF(delta.x() / m_scale, -delta.y() / m_scale);
    update();
}

void ProjectorCanvas::mouseReleaseEvent(QMouseEvent* event)
{
    if (!m_dragging || event->button() != Qt::LeftButton)
        return;
    m_dragging = false;
    if ((event->position().toPoint() - m_pressAt).manhattanLength() <= 3)
        if (const auto hit = pointAt(event->position().toPoint()))
            emit pointClicked(*hit);
}

void ProjectorCanvas::mouseDoubleClickEvent(QMouseEvent*)
{
    fitAll();
}

} // namespace tstudio::dashboard
