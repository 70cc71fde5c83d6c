// RawCurveItem: a chart's faded raw curve when it is dense (at least one point per pixel column), drawn
// as the pixels a one-pixel line covers, one rectangle per column (polylineColumnSpans): a
// translucent Qt Charts line of thousands of points is drawn segment by segment with antialiasing,
// blending its overlaps again and again, and took most of a million-point chart's redraw.
#pragma once

#include "dashboard/plot_points_item.h"
#include "dashboard/scalar_math.h"

#include <QColor>

#include <vector>

namespace tstudio::dashboard {

class RawCurveItem : public PlotPointsItem {
public:
    explicit RawCurveItem(QGraphicsItem* parent = nullptr);

    void setColour(const QColor& colour);
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QColor m_colour;
    std::vector<ColumnSpan> m_spans;
};

} // namespace tstudio::dashboard
