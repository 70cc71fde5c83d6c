// The HParams tab's scatter-plot matrix: metrics against hparams, one small plot per pair.
#include "dashboard/hparams_scatter_view.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace tstudio::dashboard {
namespace {

constexpr double kLabelLeft = 150, kLabelBottom = 44, kGap = 10, kInset = 6;

} // namespace

HParamsScatterView::HParamsScatterView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("hparamsScatter"));
    setMouseTracking(true);
    setMinimumHeight(240);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void HParamsScatterView::setState(const HParamsPlotState& state)
{
    m_state = state;
    m_xs.clear();
    m_ys.clear();
    if (m_state.matrix)
        for (std::size_t c : m_state.columns)
            (m_state.matrix->columns[c].kind == HParamsColumn::Kind::HParam ? m_xs : m_ys).push_back(c);
    if (m_xs.empty())
        m_xs = m_ys; // metrics against metrics
    if (m_ys.empty())
        m_ys = m_xs; // hparams against hparams
    m_hover.reset();
    update();
}

std::vector<std::pair<std::size_t, std::size_t>> HParamsScatterView::cells() const
{
    const auto& xs = m_xs;
    const auto& ys = m_ys;
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t y : ys)
        for (std::size_t x : xs)
            out.emplace_back(x, y);
    return out;
}

QRectF HParamsScatterView::cellRect(std::size_t gridColumn, std::size_t gridRow) const
{
    const auto& xs = m_xs;
    const auto& ys = m_ys;
    const double w = (width() - kLabelLeft - kGap) / std::max<std::size_t>(1, xs.size());
    const double h = (height() - kLabelBottom - kGap) / std::max<std::size_t>(1, ys.size());
    return QRectF(kLabelLeft + gridColumn * w, kGap + gridRow * h, std::max(1.0, w - kGap), std::max(1.0, h - kGap));
}

std::optional<QPointF> HParamsScatterView::pointOf(std::size_t cell, std::size_t row) const
{
    const auto& xs = m_xs;
    const auto& ys = m_ys;
    if (xs.empty() || cell >= xs.size() * ys.size())
        return std::nullopt;
    const std::size_t gx = cell % xs.size(), gy = cell / xs.size();
    const std::optional<double> px = m_state.position(row, xs[gx]);
    const std::optional<double> py = m_state.position(row, ys[gy]);
    if (!px || !py)
        return std::nullopt;
    const QRectF r = cellRect(gx, gy).adjusted(kInset, kInset, -kInset, -kInset);
    return QPointF(r.left() + *px * r.width(), r.bottom() - *py * r.height());
}

std::optional<std::size_t> HParamsScatterView::rowAt(const QPointF& pos) const
{
    if (!m_state.matrix)
        return std::nullopt;
    const std::size_t n = cells().size();
    std::optional<std::size_t> best;
    double bestDistance = 6.0;
    for (std::size_t cell = 0; cell < n; ++cell) {
        if (!cellRect(cell % m_xs.size(), cell / m_xs.size()).adjusted(-6, -6, 6, 6).contains(pos))
            continue;
        for (std::size_t row = 0; row < m_state.matrix->rows.size(); ++row)
            if (const std::optional<QPointF> p = pointOf(cell, row)) {
                const double d = std::hypot(p->x() - pos.x(), p->y() - pos.y()) + (m_state.isShown(row) ? 0 : 0.5);
                if (d < bestDistance) {
                    bestDistance = d;
                    best = row;
                }
            }
    }
    return best;
}

void HParamsScatterView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const auto& xs = m_xs;
    const auto& ys = m_ys;
    if (!m_state.matrix || xs.empty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("Choose hparams and metrics to plot against each other."));
        return;
    }
    const HParamsMatrix& m = *m_state.matrix;
    const QFontMetrics fm = painter.fontMetrics();
    // The points in opaque colours (see hparamsOver); beyond 300 sessions smaller and written
    // straight into an image (eight cells of a thousand sessions in about 2 ms, QPainter's discs 35).
    const QColor base = pal.color(QPalette::Base);
    const QColor faint = hparamsOver(base, pal.color(QPalette::Text), 0.16);
    const bool dense = m.rows.size() > 300;
    const double radius = dense ? 2.0 : 3.0;
    auto bulkColour = [&](std::size_t row) { return m_state.isShown(row) ? hparamsRowColour(m_state, row) : faint; };
    const std::size_t cellCount = xs.size() * ys.size();
    if (dense) {
        const qreal ratio = devicePixelRatioF();
        QImage canvas((QSizeF(size()) * ratio).toSize(), QImage::Format_RGB32);
        canvas.fill(base);
        for (std::size_t cell = 0; cell < cellCount; ++cell)
            for (int pass = 0; pass < 2; ++pass) // faint ones first, under the shown ones
                for (std::size_t row = 0; row < m.rows.size(); ++row)
                    if (m_state.isShown(row) == (pass == 1))
                        if (const std::optional<QPointF> p = pointOf(cell, row))
                            hparamsRasterDisc(canvas, *p * ratio, radius * ratio, bulkColour(row).rgb());
        canvas.setDevicePixelRatio(ratio);
        painter.drawImage(QPointF(0, 0), canvas);
    }
    for (std::size_t gy = 0; gy < ys.size(); ++gy)
        for (std::size_t gx = 0; gx < xs.size(); ++gx) {
            const QRectF r = cellRect(gx, gy);
            const std::size_t cell = gy * xs.size() + gx;
            painter.setPen(QPen(pal.color(QPalette::Mid), 1));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(r);
            painter.setPen(Qt::NoPen);
            for (int pass = 0; pass < 2 && !dense; ++pass)
                for (std::size_t row = 0; row < m.rows.size(); ++row)
                    if (m_state.isShown(row) == (pass == 1))
                        if (const std::optional<QPointF> p = pointOf(cell, row)) {
                            painter.setBrush(bulkColour(row));
                            painter.drawEllipse(*p, radius, radius);
                        }
            for (const int row : {m_hover ? static_cast<int>(*m_hover) : -1, m_state.selected})
                if (row >= 0)
                    if (const std::optional<QPointF> p = pointOf(cell, static_cast<std::size_t>(row))) {
                        painter.setBrush(hparamsRowColour(m_state, static_cast<std::size_t>(row)));
                        painter.setPen(QPen(pal.color(QPalette::Text), row == m_state.selected ? 2.0 : 1.0));
                        painter.drawEllipse(*p, radius + 2.5, radius + 2.5);
                        painter.setPen(Qt::NoPen);
                    }
        }
    // Titles and the axes' ends: metrics down the left, hparams along the bottom (every category of
    // a categorical axis, the least and greatest value of a numeric one).
    painter.setPen(pal.color(QPalette::Text));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    const QFontMetrics sm(small);
    auto endTicks = [&](std::size_t column) {
        auto ticks = hparamsAxisTicks(m_state, column);
        if (m.columns[column].numeric && ticks.size() > 2)
            ticks = {ticks.front(), ticks.back()};
        return ticks;
    };
    for (std::size_t gy = 0; gy < ys.size(); ++gy) {
        const QRectF r = cellRect(0, gy);
        const QRectF inner = r.adjusted(0, kInset, 0, -kInset);
        painter.setFont(font());
        const QString title =
            fm.elidedText(hparamsColumnTitle(m_state, ys[gy]), Qt::ElideMiddle, static_cast<int>(kLabelLeft - 60));
        painter.drawText(QRectF(4, r.top(), kLabelLeft - 60, r.height()), Qt::AlignLeft | Qt::AlignVCenter, title);
        painter.setFont(small);
        for (const auto& [p, text] : endTicks(ys[gy])) {
            const double y = inner.bottom() - p * inner.height();
            painter.drawText(QRectF(kLabelLeft - 56, y - sm.height() / 2.0, 50, sm.height()),
                             Qt::AlignRight | Qt::AlignVCenter, sm.elidedText(text, Qt::ElideRight, 50));
        }
    }
    for (std::size_t gx = 0; gx < xs.size(); ++gx) {
        const QRectF r = cellRect(gx, ys.size() - 1);
        const QRectF inner = r.adjusted(kInset, 0, -kInset, 0);
        painter.setFont(small);
        const auto ticks = endTicks(xs[gx]);
        const double room = ticks.size() > 1 ? inner.width() / static_cast<double>(ticks.size() - 1) : inner.width();
        for (const auto& [p, text] : ticks) {
            const double x = inner.left() + p * inner.width();
            const QString label = sm.elidedText(text, Qt::ElideRight, static_cast<int>(std::max(24.0, room - 4)));
            const double w = sm.horizontalAdvance(label);
            // The ends' labels stay inside the cell.
            const double left = std::clamp(x - w / 2, r.left(), r.right() - w);
            painter.drawText(QRectF(left, r.bottom() + 2, w + 1, sm.height()), Qt::AlignLeft, label);
        }
        painter.setFont(font());
        const QString title =
            fm.elidedText(hparamsColumnTitle(m_state, xs[gx]), Qt::ElideMiddle, static_cast<int>(r.width()));
        painter.drawText(QRectF(r.left(), r.bottom() + 4 + sm.height(), r.width(), kLabelBottom - sm.height() - 4),
                         Qt::AlignHCenter | Qt::AlignTop, title);
    }
}

void HParamsScatterView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        if (const std::optional<std::size_t> row = rowAt(event->position()))
            emit rowClicked(static_cast<int>(*row));
}

void HParamsScatterView::mouseMoveEvent(QMouseEvent* event)
{
    const std::optional<std::size_t> hover = rowAt(event->position());
    if (hover != m_hover) {
        m_hover = hover;
        update();
    }
}

void HParamsScatterView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (const std::optional<std::size_t> row = rowAt(event->position()))
        emit rowActivated(static_cast<int>(*row));
}

bool HParamsScatterView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const std::optional<std::size_t> row = rowAt(help->pos()))
            QToolTip::showText(help->globalPos(), hparamsRowToolTip(m_state, *row), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace tstudio::dashboard
