#include "dashboard/dense_line_item.h"

#include "dashboard/column_strokes.h"
#include "dashboard/stroke_coverage.h"

#include <QImage>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>

namespace tstudio::dashboard {

DenseLineItem::DenseLineItem(QGraphicsItem* parent) : PlotPointsItem(parent) {}

void DenseLineItem::setPen(const QPen& pen)
{
    if (pen == m_pen)
        return;
    m_pen = pen;
    m_strokesDirty = true;
    update();
}

void DenseLineItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    if (!drawable())
        return;
    const double width = std::max(1.0, m_pen.widthF());
    if (takeGeometryChange() || m_strokesDirty) {
        std::vector<double> xs, ys;
        toPixels(xs, ys);
        // The grid of the chart's decimation: ceil(width) columns over the plot area.
        const double columns = std::max(1.0, std::ceil(area().width()));
        columnStrokes(xs, ys, width, m_strokes, ColumnGrid{area().left(), area().width() / columns});
        // The pixels the strokes reach, clipped to the plot area as Qt Charts clips its series.
        double left = INFINITY, top = INFINITY, right = -INFINITY, bottom = -INFINITY;
        for (const QLineF& s : m_strokes) {
            left = std::min({left, s.x1(), s.x2()});
            right = std::max({right, s.x1(), s.x2()});
            top = std::min({top, s.y1(), s.y2()});
            bottom = std::max({bottom, s.y1(), s.y2()});
        }
        const double reach = width / 2 + 1;
        m_box = QRect();
        if (!m_strokes.empty())
            m_box = QRect(QPoint(static_cast<int>(std::floor(left - reach)), static_cast<int>(std::floor(top - reach))),
                          QPoint(static_cast<int>(std::ceil(right + reach)), static_cast<int>(std::ceil(bottom + reach))))
                        .intersected(area().toAlignedRect());
        m_strokesDirty = false;
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
    const QRect& box = m_box;
    if (box.isEmpty())
        return;
    // The coverage and the image are worked out at each paint in buffers every item shares (per
    // thread): an item keeps only its strokes, not megabytes per chart, and a fresh megabyte per
    // paint would cost page faults.
    thread_local StrokeCoverage coverage;
    coverage.reset(box);
    coverage.addStrokes(m_strokes, width, m_pen.color().alphaF());
    // The coverage as the pen's colour, premultiplied, in an image drawn once.
    thread_local QImage scratch;
    if (scratch.width() < box.width() || scratch.height() < box.height())
        scratch = QImage(std::max(box.width(), scratch.width()), std::max(box.height(), scratch.height()),
                         QImage::Format_ARGB32_Premultiplied);
    // The pen's colour premultiplied by each of the 256 alphas a pixel can get.
    const QColor colour = m_pen.color();
    std::array<QRgb, 256> shade;
    for (int a = 0; a < 256; ++a) {
        auto byte = [a](double v) { return static_cast<int>(v * a + 0.5); };
        shade[static_cast<std::size_t>(a)] = qRgba(byte(colour.redF()), byte(colour.greenF()), byte(colour.blueF()), a);
    }
    for (int y = 0; y < box.height(); ++y) {
        const std::span<const float> t = coverage.transmission(box.top() + y);
        auto* out = reinterpret_cast<QRgb*>(scratch.scanLine(y));
        for (int x = 0; x < box.width(); ++x) {
            // 1 - t is in [0, 1]: the alpha rounds to 0..255.
            const auto a = static_cast<std::size_t>((1.0f - t[static_cast<std::size_t>(x)]) * 255.0f + 0.5f);
            out[x] = shade[a];
        }
    }
    painter->drawImage(QPointF(box.topLeft()), scratch, QRectF(0, 0, box.width(), box.height()));
}

std::span<const QLineF> DenseLineItem::strokes() const { return m_strokes; }

} // namespace tstudio::dashboard
