// The HParams tab's parallel coordinates: axes, session lines, brushing.
#include "dashboard/hparams_parallel_view.h"

#include <QHelpEvent>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace tstudio::dashboard {
namespace {

constexpr double kLeft = 70, kRight = 70, kTop = 54, kBottom = 24;

double segmentDistance(const QPointF& p, const QPointF& a, const QPointF& b)
{
    const QPointF ab = b - a;
    const double len2 = QPointF::dotProduct(ab, ab);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}

} // namespace

HParamsParallelView::HParamsParallelView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("hparamsParallel"));
    setMouseTracking(true);
    setMinimumHeight(240);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void HParamsParallelView::setState(const HParamsPlotState& state)
{
    const bool sameMatrix = state.matrix == m_state.matrix;
    m_state = state;
    // Brushes on axes no longer shown, or rescaled, or of another matrix, go.
    std::vector<AxisBrush> kept;
    if (sameMatrix)
        for (const AxisBrush& b : m_brushes)
            if (std::find(m_state.columns.begin(), m_state.columns.end(), b.column) != m_state.columns.end() &&
                b.scale == m_state.scale(b.column)) // a range of the other scale would mean other values
                kept.push_back(b);
    // A new matrix drops its brushes quietly (the tab filters it afresh); a hidden axis's brush
    // no longer filters, which the tab learns.
    const bool dropped = sameMatrix && kept.size() != m_brushes.size();
    m_brushes = std::move(kept);
    if (dropped)
        emit brushesChanged();
    m_hover.reset();
    m_lines = QPixmap();
    update();
}

void HParamsParallelView::resizeEvent(QResizeEvent* event)
{
    m_lines = QPixmap();
    QWidget::resizeEvent(event);
}

void HParamsParallelView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange ||
        event->type() == QEvent::FontChange) {
        m_lines = QPixmap();
    }
    QWidget::changeEvent(event);
}

std::optional<double> HParamsParallelView::positionOf(std::size_t row, std::size_t index) const
{
    return index < m_state.columns.size() ? m_state.position(row, m_state.columns[index]) : std::nullopt;
}

void HParamsParallelView::setBrushes(std::vector<AxisBrush> brushes)
{
    m_brushes.clear();
    for (AxisBrush& b : brushes)
        if (std::find(m_state.columns.begin(), m_state.columns.end(), b.column) != m_state.columns.end())
            m_brushes.push_back(b);
    m_lines = QPixmap();
    emit brushesChanged();
    update();
}

QRectF HParamsParallelView::plotRect() const
{
    return QRectF(kLeft, kTop, std::max(1.0, width() - kLeft - kRight), std::max(1.0, height() - kTop - kBottom));
}

double HParamsParallelView::axisX(std::size_t index) const
{
    const QRectF r = plotRect();
    const std::size_t n = m_state.columns.size();
    if (n <= 1)
        return r.center().x();
    return r.left() + r.width() * static_cast<double>(index) / static_cast<double>(n - 1);
}

double HParamsParallelView::axisY(double position) const
{
    const QRectF r = plotRect();
    return r.bottom() - position * r.height();
}

double HParamsParallelView::positionAt(double y) const
{
    const QRectF r = plotRect();
    return std::clamp((r.bottom() - y) / r.height(), 0.0, 1.0);
}

std::optional<std::size_t> HParamsParallelView::axisNear(double x) const
{
    for (std::size_t i = 0; i < m_state.columns.size(); ++i)
        if (std::abs(axisX(i) - x) <= 12)
            return i;
    return std::nullopt;
}

std::optional<std::size_t> HParamsParallelView::rowAt(const QPointF& pos) const
{
    if (!m_state.matrix)
        return std::nullopt;
    std::optional<std::size_t> best;
    double bestDistance = 5.0;
    for (std::size_t row = 0; row < m_state.matrix->rows.size(); ++row) {
        QPointF previous;
        bool open = false; // previous holds the last axis's point and the line goes on from it
        for (std::size_t i = 0; i < m_state.columns.size(); ++i) {
            const std::optional<double> p = positionOf(row, i);
            if (!p) {
                open = false;
                continue;
            }
            const QPointF here(axisX(i), axisY(*p));
            const double d =
                open ? segmentDistance(pos, previous, here) : std::hypot(pos.x() - here.x(), pos.y() - here.y());
            // Shown sessions win over faint ones at the same distance.
            const double bias = m_state.isShown(row) ? 0.0 : 0.5;
            if (d + bias < bestDistance) {
                bestDistance = d + bias;
                best = row;
            }
            previous = here;
            open = true;
        }
    }
    return best;
}

void HParamsParallelView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    if (!m_state.matrix || m_state.columns.empty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("Choose hparams and metrics to draw as axes."));
        return;
    }
    const HParamsMatrix& m = *m_state.matrix;
    // Each stretch of axes on which a session has values, as one polyline (a single point where it
    // has a value on one axis alone).
    QPolygonF line;
    auto forEachStretch = [&](std::size_t row, auto&& draw) {
        line.clear();
        for (std::size_t i = 0; i <= m_state.columns.size(); ++i) {
            const std::optional<double> p = i < m_state.columns.size() ? positionOf(row, i) : std::nullopt;
            if (p) {
                line.append(QPointF(axisX(i), axisY(*p)));
                continue;
            }
            if (!line.isEmpty())
                draw(line);
            line.clear();
        }
    };
    auto drawRow = [&](std::size_t row, const QColor& colour, double width) {
        painter.setPen(QPen(colour, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        forEachStretch(row, [&](const QPolygonF& stretch) {
            if (stretch.size() == 1)
                painter.drawPoint(stretch.front());
            else
                painter.drawPolyline(stretch);
        });
    };
    // Every line of the many is opaque (faint and translucent colours mixed with the background
    // first): the raster engine blends a translucent line's spans on its thread pool, waking the pool
    // for every steep line, which made a thousand sessions take seconds a frame on two cores. Beyond
    // 200 sessions the lines are one pixel wide without antialiasing, written straight into an image
    // (a thousand sessions' lines in a few milliseconds, where QPainter took over 30).
    const QColor base = pal.color(QPalette::Base);
    const QColor faint = hparamsOver(base, pal.color(QPalette::Text), 0.14);
    const bool dense = m.rows.size() > 200;
    const double opacity = dense ? 0.45 : 0.8;
    auto bulkColour = [&](std::size_t row) {
        return m_state.isShown(row) ? hparamsOver(base, hparamsRowColour(m_state, row), opacity) : faint;
    };
    const qreal ratio = devicePixelRatioF();
    const QSize pixels = (QSizeF(size()) * ratio).toSize();
    if (m_lines.isNull() || m_lines.size() != pixels || m_lines.devicePixelRatio() != ratio) {
        QImage image(pixels, QImage::Format_RGB32);
        image.fill(base);
        if (dense) {
            for (int pass = 0; pass < 2; ++pass) // faint ones first, under the shown ones
                for (std::size_t row = 0; row < m.rows.size(); ++row)
                    if (m_state.isShown(row) == (pass == 1) && static_cast<int>(row) != m_state.selected) {
                        const QRgb colour = bulkColour(row).rgb();
                        forEachStretch(row, [&](const QPolygonF& stretch) {
                            for (qsizetype k = 0; k < stretch.size(); ++k)
                                hparamsRasterLine(image, stretch[std::max<qsizetype>(0, k - 1)] * ratio,
                                                  stretch[k] * ratio, colour);
                        });
                    }
        }
        image.setDevicePixelRatio(ratio);
        QPainter picture(&image);
        picture.setRenderHint(QPainter::Antialiasing);
        if (!dense)
            for (int pass = 0; pass < 2; ++pass)
                for (std::size_t row = 0; row < m.rows.size(); ++row)
                    if (m_state.isShown(row) == (pass == 1) && static_cast<int>(row) != m_state.selected) {
                        picture.setPen(QPen(bulkColour(row), 1.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
                        forEachStretch(row, [&](const QPolygonF& stretch) {
                            if (stretch.size() == 1)
                                picture.drawPoint(stretch.front());
                            else
                                picture.drawPolyline(stretch);
                        });
                    }
        // Axes, brushes, titles and ticks over the lines, into the same picture: its text is the
        // costly part of a frame. As a pixmap (the backing store's own format) it is drawn by copying.
        picture.setFont(font());
        paintAxes(picture);
        picture.end();
        m_lines = QPixmap::fromImage(std::move(image));
    }
    painter.drawPixmap(QPointF(0, 0), m_lines);
    // The session under the pointer and the selected one, over everything.
    painter.setRenderHint(QPainter::Antialiasing, true);
    if (m_hover && *m_hover < m.rows.size())
        drawRow(*m_hover, hparamsRowColour(m_state, *m_hover), 3.0);
    if (m_state.selected >= 0 && static_cast<std::size_t>(m_state.selected) < m.rows.size()) {
        drawRow(static_cast<std::size_t>(m_state.selected), pal.color(QPalette::Text), 4.0);
        drawRow(static_cast<std::size_t>(m_state.selected),
                hparamsRowColour(m_state, static_cast<std::size_t>(m_state.selected)), 2.0);
    }
}

void HParamsParallelView::paintAxes(QPainter& painter) const
{
    const QPalette pal = palette();
    const HParamsMatrix& m = *m_state.matrix;
    const QFontMetrics fm = painter.fontMetrics();
    const double spacing = m_state.columns.size() > 1 ? axisX(1) - axisX(0) : width();
    for (std::size_t i = 0; i < m_state.columns.size(); ++i) {
        const std::size_t c = m_state.columns[i];
        const double x = axisX(i);
        for (const AxisBrush& b : m_brushes)
            if (b.column == c) {
                QColor fill = pal.color(QPalette::Highlight);
                fill.setAlpha(70);
                const double y0 = axisY(std::max(b.low, b.high)), y1 = axisY(std::min(b.low, b.high));
                painter.fillRect(QRectF(x - 8, y0, 16, std::max(2.0, y1 - y0)), fill);
                painter.setPen(pal.color(QPalette::Highlight));
                painter.drawRect(QRectF(x - 8, y0, 16, std::max(2.0, y1 - y0)));
            }
        painter.setPen(QPen(pal.color(QPalette::Text), 1.2));
        painter.drawLine(QPointF(x, axisY(1)), QPointF(x, axisY(0)));
        // Metrics in bold; a title may take two lines, broken after a '/', '_' or '.'.
        QString title = hparamsColumnTitle(m_state, c);
        for (const QChar breakAfter : {QLatin1Char('/'), QLatin1Char('_'), QLatin1Char('.')})
            title.replace(breakAfter, QString(breakAfter) + QChar(0x200B));
        QFont bold = painter.font();
        bold.setBold(m.columns[c].kind == HParamsColumn::Kind::Metric);
        painter.setFont(bold);
        const QFontMetrics titleMetrics(bold);
        const double titleWidth = std::max(40.0, std::min(spacing - 6, 180.0));
        const QRectF titleBox(x - titleWidth / 2.0, 2, titleWidth, kTop - 12);
        const QRectF needed = titleMetrics.boundingRect(titleBox.toRect(), Qt::AlignHCenter | Qt::TextWordWrap, title);
        if (needed.height() <= titleBox.height() && needed.width() <= titleBox.width() + 1)
            painter.drawText(titleBox, Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, title);
        else
            painter.drawText(titleBox, Qt::AlignHCenter | Qt::AlignBottom,
                             titleMetrics.elidedText(title, Qt::ElideMiddle, static_cast<int>(titleWidth)));
        painter.setFont(QFont(font()));
        for (const auto& [p, text] : hparamsAxisTicks(m_state, c)) {
            const double y = axisY(p);
            painter.drawLine(QPointF(x - 3, y), QPointF(x, y));
            const QString label =
                fm.elidedText(text, Qt::ElideRight, static_cast<int>(std::min(spacing * 0.75, 100.0)));
            painter.drawText(QRectF(x - 4 - fm.horizontalAdvance(label), y - fm.height() / 2.0,
                                    fm.horizontalAdvance(label), fm.height()),
                             Qt::AlignRight | Qt::AlignVCenter, label);
        }
    }
}

void HParamsParallelView::mousePressEvent(QMouseEvent* event)
{
    if (!m_state.matrix)
        return;
    const QPointF pos = event->position();
    const std::optional<std::size_t> axis = axisNear(pos.x());
    if (event->button() == Qt::RightButton) {
        if (axis) {
            const std::size_t c = m_state.columns[*axis];
            if (m_state.matrix->columns[c].numeric && m_state.matrix->columns[c].positive)
                emit scaleToggled(c);
        }
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    if (axis && pos.y() >= axisY(1) - 6 && pos.y() <= axisY(0) + 6) {
        m_brushAxis = axis;
        m_brushFrom = positionAt(pos.y());
        m_brushMoved = false;
        return;
    }
    if (const std::optional<std::size_t> row = rowAt(pos))
        emit rowClicked(static_cast<int>(*row));
}

void HParamsParallelView::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if (m_brushAxis) {
        const double to = positionAt(pos.y());
        if (!m_brushMoved && std::abs(axisY(to) - axisY(m_brushFrom)) < 3)
            return;
        m_brushMoved = true;
        const std::size_t c = m_state.columns[*m_brushAxis];
        std::erase_if(m_brushes, [c](const AxisBrush& b) { return b.column == c; });
        m_brushes.push_back({c, std::min(m_brushFrom, to), std::max(m_brushFrom, to), m_state.scale(c)});
        m_lines = QPixmap();
        emit brushesChanged();
        update();
        return;
    }
    const std::optional<std::size_t> hover = rowAt(pos);
    if (hover != m_hover) {
        m_hover = hover;
        update();
    }
}

void HParamsParallelView::mouseReleaseEvent(QMouseEvent*)
{
    if (m_brushAxis && !m_brushMoved) {
        const std::size_t c = m_state.columns[*m_brushAxis];
        const auto before = m_brushes.size();
        std::erase_if(m_brushes, [c](const AxisBrush& b) { return b.column == c; });
        if (m_brushes.size() != before) {
            m_lines = QPixmap();
            emit brushesChanged();
            update();
        }
    }
    m_brushAxis.reset();
}

void HParamsParallelView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (const std::optional<std::size_t> row = rowAt(event->position()))
        emit rowActivated(static_cast<int>(*row));
}

bool HParamsParallelView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const std::optional<std::size_t> row = rowAt(help->pos()))
            QToolTip::showText(help->globalPos(), hparamsRowToolTip(m_state, *row), this);
        else if (const std::optional<std::size_t> axis = axisNear(help->pos().x()); axis && m_state.matrix)
            QToolTip::showText(help->globalPos(),
                               QString::fromStdString(m_state.matrix->columns[m_state.columns[*axis]].title) +
                                   QLatin1Char('\n') + tr("Drag along the axis to keep a range; click it to clear."),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace tstudio::dashboard
