#include "envelope_item.h"

#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>

namespace tstudio::dashboard {

EnvelopeItem::EnvelopeItem(QGraphicsItem* parent) : PlotViewItem(parent) {}

void EnvelopeItem::setStretches(std::vector<Stretch> stretches)
{
    m_stretches = std::move(stretches);
    update();
}

void EnvelopeItem::setColour(const QColor& colour)
{
    if (colour == m_colour)
        return;
    m_colour = colour;
    update();
}

void EnvelopeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (m_stretches.empty() || !hasView())
        return;
    auto pixel = [this](const QPointF& p) { return toPixel(p); };
    // Each stretch is one polygon: along the upper boundary, back along the lower one. The
    // boundaries are decimated separately and may cross inside a pixel column: the winding rule
    // fills such a crossing instead of leaving a hole.
    QPainterPath path;
    path.setFillRule(Qt::WindingFill);
    for (const Stretch& s : m_stretches) {
        if (s.upper.empty() || s.lower.empty())
            continue;
        QPolygonF polygon;
        polygon.reserve(static_cast<qsizetype>(s.upper.size() + s.lower.size()));
        for (const QPointF& p : s.upper)
            polygon << pixel(p);
        for (auto it = s.lower.rbegin(); it != s.lower.rend(); ++it)
            polygon << pixel(*it);
        path.addPolygon(polygon);
        path.closeSubpath();
    }
    painter->save();
    painter->setClipRect(area());
    painter->setPen(Qt::NoPen);
    painter->setBrush(m_colour);
    painter->drawPath(path);
    painter->restore();
}

} // namespace tstudio::dashboard
