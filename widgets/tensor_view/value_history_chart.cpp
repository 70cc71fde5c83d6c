// Min, mean and max of a watched tensor across runs (see value_history_chart.h).
#include "tensor_view/value_history_chart.h"

#include "dashboard/tag_card_grid.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace tstudio::debugger_ui {

namespace {

constexpr int kLeft = 64;
constexpr int kRight = 16;
constexpr int kTop = 30;
constexpr int kBottom = 34;

const std::array<QColor, 3> kSeriesColours = {QColor(0x1e, 0x88, 0xe5), QColor(0x43, 0xa0, 0x47), QColor(0xe5, 0x39, 0x35)};

double valueOf(const HistoryPoint& p, int which)
{
    return which == 0 ? p.min : which == 1 ? p.mean : p.max;
}

} // namespace

ValueHistoryChart::ValueHistoryChart(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
}

void ValueHistoryChart::setPoints(std::vector<HistoryPoint> points)
{
    std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.run < b.run; });
    m_points = std::move(points);
    update();
}

void ValueHistoryChart::setSelectedRun(std::optional<std::int64_t> run)
{
    m_selected = run;
    update();
}

QRectF ValueHistoryChart::plotRect() const
{
    return QRectF(kLeft, kTop, std::max(1, width() - kLeft - kRight), std::max(1, height() - kTop - kBottom));
}

std::pair<double, double> ValueHistoryChart::valueRange() const
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (const auto& p : m_points)
        for (int which = 0; which < 3; ++which) {
            const double v = valueOf(p, which);
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
    if (lo > hi)
        return {0, 1};
    if (lo == hi) {
        const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
        return {lo - pad, hi + pad};
    }
    const double pad = (hi - lo) * 0.05;
    return {lo - pad, hi + pad};
}

std::optional<QPointF> ValueHistoryChart::pointPosition(std::size_t i, int which) const
{
    if (i >= m_points.size())
        return std::nullopt;
    const double v = valueOf(m_points[i], which);
    if (!std::isfinite(v))
        return std::nullopt;
    const QRectF plot = plotRect();
    const auto [lo, hi] = valueRange();
    const double firstRun = static_cast<double>(m_points.front().run);
    const double runSpan = static_cast<double>(m_points.back().run) - firstRun;
    const double x = runSpan > 0 ? plot.left() + (static_cast<double>(m_points[i].run) - firstRun) / runSpan * plot.width()
                                 : plot.center().x();
    return QPointF(x, plot.bottom() - (v - lo) / (hi - lo) * plot.height());
}

std::optional<std::int64_t> ValueHistoryChart::runAt(const QPointF& pos) const
{
    const QRectF plot = plotRect().adjusted(-8, -8, 8, 8);
    if (m_points.empty() || !plot.contains(pos))
        return std::nullopt;
    const QRectF inner = plotRect();
    const double firstRun = static_cast<double>(m_points.front().run);
    const double runSpan = static_cast<double>(m_points.back().run) - firstRun;
    std::optional<std::int64_t> best;
    double bestDistance = 0;
    for (const auto& p : m_points) {
        const double x = runSpan > 0 ? inner.left() + (static_cast<double>(p.run) - firstRun) / runSpan * inner.width()
                                     : inner.center().x();
        const double d = std::abs(x - pos.x());
        if (!best || d < bestDistance) {
            best = p.run;
            bestDistance = d;
        }
    }
    return best;
}

bool ValueHistoryChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto run = runAt(help->pos());
        const auto it = std::find_if(m_points.begin(), m_points.end(), [&](const auto& p) { return run && p.run == *run; });
        if (it == m_points.end()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(),
                               tr("run %1\nmin %2\nmean %3\nmax %4")
                                   .arg(it->run)
                                   .arg(QString::number(it->min, 'g', 6), QString::number(it->mean, 'g', 6),
                                        QString::number(it->max, 'g', 6)),
                               this);
        }
        return true;
    }
    return QWidget::event(event);
}

void ValueHistoryChart::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        if (const auto run = runAt(event->position()))
            emit runClicked(*run);
    QWidget::mousePressEvent(event);
}

void ValueHistoryChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    if (m_points.empty()) {
        p.setPen(palette().placeholderText().color());
        p.drawText(rect(), Qt::AlignCenter, tr("No values recorded yet: watch the tensor and run the session"));
        return;
    }
    const QRectF plot = plotRect();
    const auto [lo, hi] = valueRange();

    // Legend.
    const std::array<QString, 3> names = {tr("min"), tr("mean"), tr("max")};
    double lx = kLeft;
    for (int which = 0; which < 3; ++which) {
        p.setPen(QPen(kSeriesColours[static_cast<std::size_t>(which)], 2));
        p.drawLine(QPointF(lx, 15), QPointF(lx + 16, 15));
        p.setPen(palette().text().color());
        const QString& name = names[static_cast<std::size_t>(which)];
        p.drawText(QRectF(lx + 20, 6, 80, 18), Qt::AlignLeft | Qt::AlignVCenter, name);
        lx += 28 + p.fontMetrics().horizontalAdvance(name) + 12;
    }

    // Axes.
    for (double t : dashboard::niceTicks(lo, hi, 5)) {
        if (t < lo || t > hi)
            continue;
        const double y = plot.bottom() - (t - lo) / (hi - lo) * plot.height();
        p.setPen(QPen(palette().midlight().color(), 1, Qt::DotLine));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(palette().text().color());
        p.drawText(QRectF(0, y - 9, kLeft - 6, 18), Qt::AlignRight | Qt::AlignVCenter, QString::number(t, 'g', 4));
    }
    p.setPen(palette().mid().color());
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    const double firstRun = static_cast<double>(m_points.front().run);
    const double lastRun = static_cast<double>(m_points.back().run);
    p.setPen(palette().text().color());
    for (double t : dashboard::niceTicks(firstRun, lastRun, 6)) {
        if (t < firstRun || t > lastRun || t != std::floor(t))
            continue;
        const double x = lastRun > firstRun ? plot.left() + (t - firstRun) / (lastRun - firstRun) * plot.width()
                                            : plot.center().x();
        p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        p.drawText(QRectF(x - 40, plot.bottom() + 5, 80, 16), Qt::AlignHCenter | Qt::AlignTop, QString::number(t));
    }
    p.drawText(QRectF(plot.left(), plot.bottom() + 18, plot.width(), 16), Qt::AlignHCenter | Qt::AlignTop,
               tr("session run"));

    // Selected run.
    if (m_selected) {
        for (std::size_t i = 0; i < m_points.size(); ++i) {
            if (m_points[i].run != *m_selected)
                continue;
            const double x = m_points.size() > 1 && lastRun > firstRun
                                 ? plot.left() + (static_cast<double>(m_points[i].run) - firstRun) / (lastRun - firstRun) * plot.width()
                                 : plot.center().x();
            p.setPen(QPen(palette().highlight().color(), 2));
            p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        }
    }

    // Lines, broken where a statistic is not finite; dots when a run stands alone.
    for (int which = 0; which < 3; ++which) {
        const QColor colour = kSeriesColours[static_cast<std::size_t>(which)];
        QPainterPath path;
        bool open = false;
        for (std::size_t i = 0; i < m_points.size(); ++i) {
            const auto pos = pointPosition(i, which);
            if (!pos) {
                open = false;
                continue;
            }
            if (open)
                path.lineTo(*pos);
            else
                path.moveTo(*pos);
            open = true;
        }
        p.setPen(QPen(colour, 1.8));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        if (m_points.size() <= 60) {
            p.setBrush(colour);
            p.setPen(Qt::NoPen);
            for (std::size_t i = 0; i < m_points.size(); ++i)
                if (const auto pos = pointPosition(i, which))
                    p.drawEllipse(*pos, 2.5, 2.5);
        }
    }
}

} // namespace tstudio::debugger_ui
