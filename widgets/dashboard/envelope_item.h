// EnvelopeItem: a run's min/max envelope in a scalar chart, the band between the least and the
// greatest value of each smoothing window, filled in the run's colour under its curves.
#pragma once

#include <QColor>
#include <QGraphicsItem>
#include <QPointF>
#include <QRectF>

#include <utility>
#include <vector>

namespace tstudio::dashboard {

class EnvelopeItem : public QGraphicsItem {
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
    /// The plot area (in the parent's coordinates) and the data ranges it shows.
    void setView(const QRectF& plotArea, std::pair<double, double> xRange, std::pair<double, double> yRange);

    QRectF boundingRect() const override { return m_area; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    std::vector<Stretch> m_stretches;
    QColor m_colour;
    QRectF m_area;
    std::pair<double, double> m_x{0, 1}, m_y{0, 1};
};

} // namespace tstudio::dashboard
