// DenseLineItem: a chart's full-colour curve when it is dense (at least one point per pixel column),
// drawn with the series' pen as columnStrokes (a stroke or two per pixel column) whose antialiased
// coverage (StrokeCoverage) is drawn as one image. Qt Charts draws a solid line segment by segment,
// each stroked and rasterized by QPainter on its own, four per column after decimation; that was
// most of a million-point chart's redraw.
#pragma once

#include "dashboard/plot_points_item.h"

#include <QLineF>
#include <QPen>
#include <QRect>

#include <span>
#include <vector>

namespace tstudio::dashboard {

class DenseLineItem : public PlotPointsItem {
public:
    explicit DenseLineItem(QGraphicsItem* parent = nullptr);

    void setPen(const QPen& pen);
    const QPen& pen() const { return m_pen; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    /// The strokes of the last paint, in pixels.
    std::span<const QLineF> strokes() const;

private:
    QPen m_pen;
    std::vector<QLineF> m_strokes; ///< in pixels, with the pixels they reach (clipped to the plot area)
    QRect m_box;
    bool m_strokesDirty = true;
};

} // namespace tstudio::dashboard
