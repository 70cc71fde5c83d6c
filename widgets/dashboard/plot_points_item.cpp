#include "dashboard/plot_points_item.h"

namespace tstudio::dashboard {

PlotPointsItem::PlotPointsItem(QGraphicsItem* parent) : QGraphicsItem(parent) {}

void PlotPointsItem::setPoints(std::vector<QPointF> points)
{
    m_points = std::move(points);
    m_geometryChanged = true;
    update();
}

void PlotPointsItem::setView(const QRectF& plotArea, std::pair<double, double> xRange, std::pair<double, double> yRange)
{
    if (plotArea == m_area && xRange == m_x && yRange == m_y)
        return;
    if (plotArea != m_area)
        prepareGeometryChange();
    m_area = plotArea;
    m_x = xRange;
    m_y = yRange;
    m_geometryChanged = true;
    update();
}

bool PlotPointsItem::drawable() const
{
    return !m_points.empty() && m_area.isValid() && m_x.second > m_x.first && m_y.second > m_y.first;
}

void PlotPointsItem::toPixels(std::vector<double>& xs, std::vector<double>& ys) const
{
    xs.resize(m_points.size());
    ys.resize(m_points.size());
    const double sx = m_area.width() / (m_x.second - m_x.first), sy = m_area.height() / (m_y.second - m_y.first);
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        xs[i] = m_area.left() + (m_points[i].x() - m_x.first) * sx;
        ys[i] = m_area.bottom() - (m_points[i].y() - m_y.first) * sy;
    }
}

} // namespace tstudio::dashboard
