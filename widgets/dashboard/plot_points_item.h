// PlotPointsItem: what a scalar chart's hand-drawn curves (RawCurveItem, DenseLineItem) share: their
// points in data coordinates, the plot area and the data ranges it shows, and the mapping to pixels as
// the chart's axes make it.
#pragma once

#include <QGraphicsItem>
#include <QPointF>
#include <QRectF>

#include <utility>
#include <vector>

namespace tstudio::dashboard {

class PlotPointsItem : public QGraphicsItem {
public:
    explicit PlotPointsItem(QGraphicsItem* parent = nullptr);

    /// The points in data coordinates (x ascending, as plotted), or none to draw nothing.
    void setPoints(std::vector<QPointF> points);
    const std::vector<QPointF>& points() const { return m_points; }
    /// The plot area (in the parent's coordinates) and the data ranges it shows.
    void setView(const QRectF& plotArea, std::pair<double, double> xRange, std::pair<double, double> yRange);

    QRectF boundingRect() const override { return m_area; }

protected:
    const QRectF& area() const { return m_area; }
    /// Whether there are points and a view to draw them in.
    bool drawable() const;
    /// Whether the points or the view changed since the last takeGeometryChange().
    bool takeGeometryChange() { return std::exchange(m_geometryChanged, false); }
    /// The points in pixels (the parent's coordinates).
    void toPixels(std::vector<double>& xs, std::vector<double>& ys) const;

private:
    std::vector<QPointF> m_points;
    QRectF m_area;
    std::pair<double, double> m_x{0, 1}, m_y{0, 1};
    bool m_geometryChanged = true;
};

} // namespace tstudio::dashboard
