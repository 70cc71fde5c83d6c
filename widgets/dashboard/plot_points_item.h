// PlotViewItem and PlotPointsItem: what a scalar chart's hand-drawn layers share. PlotViewItem: the plot
// area and the data ranges it shows, and the mapping from data to pixels as the chart's axes make it
// (EnvelopeItem). PlotPointsItem adds a curve's points in data coordinates (RawCurveItem,
// DenseLineItem).
#pragma once

#include <QGraphicsItem>
#include <QPointF>
#include <QRectF>

#include <utility>
#include <vector>

namespace tstudio::dashboard {

class PlotViewItem : public QGraphicsItem {
public:
    explicit PlotViewItem(QGraphicsItem* parent = nullptr);

    /// The plot area (in the parent's coordinates) and the data ranges it shows.
    void setView(const QRectF& plotArea, std::pair<double, double> xRange, std::pair<double, double> yRange);

    QRectF boundingRect() const override { return m_area; }

protected:
    const QRectF& area() const { return m_area; }
    /// Whether the area and the ranges are not empty.
    bool hasView() const;
    /// A point in data coordinates, in pixels (the parent's coordinates).
    QPointF toPixel(const QPointF& data) const;
    /// Whether the view (or, in a PlotPointsItem, the points) changed since the last call.
    bool takeGeometryChange() { return std::exchange(m_geometryChanged, false); }
    void markGeometryChanged() { m_geometryChanged = true; }

private:
    QRectF m_area;
    std::pair<double, double> m_x{0, 1}, m_y{0, 1};
    bool m_geometryChanged = true;
};

class PlotPointsItem : public PlotViewItem {
public:
    explicit PlotPointsItem(QGraphicsItem* parent = nullptr);

    /// The points in data coordinates (x ascending, as plotted), or none to draw nothing.
    void setPoints(std::vector<QPointF> points);
    const std::vector<QPointF>& points() const { return m_points; }

protected:
    /// Whether there are points and a view to draw them in.
    bool drawable() const { return !m_points.empty() && hasView(); }
    /// The points in pixels.
    void toPixels(std::vector<double>& xs, std::vector<double>& ys) const;

private:
    std::vector<QPointF> m_points;
};

} // namespace tstudio::dashboard
