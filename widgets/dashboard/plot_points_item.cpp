#include "dashboard/plot_points_item.h"

namespace tstudio::dashboard {

PlotViewItem::PlotViewItem(QGraphicsItem* parent) : QGraphicsItem(parent) {}

void PlotViewItem::setView(const QRectF& plotArea, std::pair<double, double> xRange, std::pair<double, double> yRange)
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

bool PlotViewItem::hasView() const { return m_area.isValid() && m_x.second > m_x.first && m_y.second > m_y.first; }

QPointF PlotViewItem::toPixel(const QPointF& data) const
{
    const double sx = m_area.width() / (m_x.second - m_x.first), sy = m_area.height() / (m_y.second - m_y.first);
    return {m_area.left() + (data.x() - m_x.first) * sx, m_area.bottom() - (data.y() - m_y.first) * sy};
}

PlotPointsItem::PlotPointsItem(QGraphicsItem* parent) : PlotViewItem(parent) {}

void PlotPointsItem::setPoints(std::vector<QPointF> points)
{
    m_points = std::move(points);
    markGeometryChanged();
    update();
}

void PlotPointsItem::toPixels(std::vector<double>& xs, std::vector<double>& ys) const
{
    xs.resize(m_points.size());
    ys.resize(m_points.size());
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const QPointF p = toPixel(m_points[i]);
        xs[i] = p.x();
        ys[i] = p.y();
    }
}

} // namespace tstudio::dashboard
