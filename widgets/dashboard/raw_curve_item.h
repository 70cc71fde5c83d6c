// RawCurveItem: a chart's faded raw curve when it is dense (at least one point per pixel column), drawn
// as the pixels a one-pixel line covers, one rectangle per column (polylineColumnSpans): a
// translucent Qt Charts line of thousands of points is drawn segment by segment with antialiasing,
// blending its overlaps again and again, and took most of a million-point chart's redraw.
#pragma once

#include "dashboard/scalar_math.h"

#include <QColor>
#include <QGraphicsItem>
#include <QPointF>
#include <QRectF>

#include <utility>
#include <vector>

namespace tstudio::dashboard {

class RawCurveItem : public QGraphicsItem {
public:
    explicit RawCurveItem(QGraphicsItem* parent = nullptr);

    /// The points in data coordinates (x ascending, as plotted), or none to draw nothing.
    void setPoints(std::vector<QPointF> points);
    const std::vector<QPointF>& points() const { return m_points; }
    void setColour(const QColor& colour);
    /// The plot area (in the parent's coordinates) and the data ranges it shows.
    void setView(const QRectF& plotArea, std::pair<double, double> xRange, std::pair<double, double> yRange);

    QRectF boundingRect() const override { return m_area; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    std::vector<QPointF> m_points;
    QColor m_colour;
    QRectF m_area;
    std::pair<double, double> m_x{0, 1}, m_y{0, 1};
    bool m_spansDirty = true;
    std::vector<ColumnSpan> m_spans;
};

} // namespace tstudio::dashboard
