// EnvelopeItem: a run's min/max envelope in a scalar chart, the band between the least and the
// greatest value of each smoothing window, filled in the run's colour under its curves.
#pragma once

#include "dashboard/plot_points_item.h"

#include <QColor>
#include <QPointF>

#include <vector>

namespace tstudio::dashboard {

class EnvelopeItem : public PlotViewItem {
public:
    /// One stretch of the band without gaps: its upper and its lower boundary, each in data
    /// coordinates (x ascending, as plotted).
    struct Stretch {
        std::vector<QPointF> upper, lower;
    };

    explicit EnvelopeItem(QGraphicsItem* parent = nullptr);

    void setStretches(std::vector<Stretch> stretches);
    const std::vector<Stretch>& stretches() const { return m_stretches; }
    void setColour(const QColor& colour);

    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    std::vector<Stretch> m_stretches;
    QColor m_colour;
};

} // namespace tstudio::dashboard
