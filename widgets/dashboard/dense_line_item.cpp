#include "dashboard/dense_line_item.h"

#include "dashboard/column_strokes.h"

#include <QImage>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace tstudio::dashboard {

DenseLineItem::DenseLineItem(QGraphicsItem* parent) : PlotPointsItem(parent) {}

void DenseLineItem::setPen(const QPen& pen)
{
    if (pen == m_pen)
        return;
    m_pen = pen;
    m_coverageDirty = true;
    update();
}

void DenseLineItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (!drawable())
        return;
    const double width = std::max(1.0, m_pen.widthF());
    if (takeGeometryChange() || m_coverageDirty) {
        std::vector<double> xs, ys;
        toPixels(xs, ys);
        columnStrokes(xs, ys, width, m_strokes);
        // The pixels the strokes reach, clipped to the plot area as Qt Charts clips its series.
        double left = INFINITY, top = INFINITY, right = -INFINITY, bottom = -INFINITY;
        for (const QLineF& s : m_strokes) {
            left = std::min({left, s.x1(), s.x2()});
            right = std::max({right, s.x1(), s.x2()});
            top = std::min({top, s.y1(), s.y2()});
            bottom = std::max({bottom, s.y1(), s.y2()});
        }
        const double reach = width / 2 + 1;
        QRect box;
        if (!m_strokes.empty())
            box = QRect(QPoint(static_cast<int>(std::floor(left - reach)), static_cast<int>(std::floor(top - reach))),
                        QPoint(static_cast<int>(std::ceil(right + reach)), static_cast<int>(std::ceil(bottom + reach))))
                      .intersected(area().toAlignedRect());
        m_coverage.reset(box);
        m_coverage.addStrokes(m_strokes, width, m_pen.color().alphaF());
        m_coverageDirty = false;
    }
    const QPaintEngine* engine = painter->paintEngine();
    if (engine && engine->type() != QPaintEngine::Raster && engine->type() != QPaintEngine::OpenGL2) {
        // Vector output (an SVG export): the strokes themselves, so the curve scales as a line.
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setClipRect(area());
        painter->setPen(m_pen);
        painter->drawLines(m_strokes.data(), static_cast<int>(m_strokes.size()));
        painter->restore();
        return;
    }
    const QRect& box = m_coverage.box();
    if (box.isEmpty())
        return;
    // The coverage as the pen's colour, premultiplied, in an image drawn once. Reused between paints:
    // a fresh megabyte per paint would cost page faults.
    thread_local QImage scratch;
    if (scratch.width() < box.width() || scratch.height() < box.height())
        scratch = QImage(std::max(box.width(), scratch.width()), std::max(box.height(), scratch.height()),
                         QImage::Format_ARGB32_Premultiplied);
    const QColor colour = m_pen.color();
    const float r = static_cast<float>(colour.redF()), g = static_cast<float>(colour.greenF()),
                b = static_cast<float>(colour.blueF());
    for (int y = 0; y < box.height(); ++y) {
        const std::span<const float> t = m_coverage.transmission(box.top() + y);
        auto* out = reinterpret_cast<QRgb*>(scratch.scanLine(y));
        for (int x = 0; x < box.width(); ++x) {
            const float alpha = 1.0f - t[static_cast<std::size_t>(x)];
            auto byte = [alpha](float v) { return static_cast<int>(v * alpha * 255 + 0.5f); };
            out[x] = alpha <= 0 ? 0u : qRgba(byte(r), byte(g), byte(b), byte(1.0f));
        }
    }
    painter->drawImage(QPointF(box.topLeft()), scratch, QRectF(0, 0, box.width(), box.height()));
}

std::span<const QLineF> DenseLineItem::strokes() const { return m_strokes; }

} // namespace tstudio::dashboard
