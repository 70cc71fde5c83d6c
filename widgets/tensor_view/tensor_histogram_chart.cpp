// Bars of a tensor's value histogram (see tensor_histogram_chart.h).
#include "tensor_view/tensor_histogram_chart.h"

#include "dashboard/tag_card_grid.h"
#include "tensor_view/tensor_value_text.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <climits>
#include <cmath>

namespace tstudio::debugger_ui {

namespace {

constexpr int kLeft = 56;
constexpr int kRight = 16;
constexpr int kTop = 28;
constexpr int kBottom = 30;
const QColor kBarColour(0x42, 0x85, 0xf4);
const QColor kHighlightColour(255, 193, 7, 90);

QString tickText(double v)
{
    return QString::number(v, 'g', 4);
}

} // namespace

TensorHistogramChart::TensorHistogramChart(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
}

void TensorHistogramChart::setHistogram(ValueHistogram histogram, DataType dtype)
{
    m_histogram = std::move(histogram);
    m_dtype = dtype;
    update();
}

void TensorHistogramChart::clear()
{
    setHistogram({}, tensorflow::DT_FLOAT);
}

void TensorHistogramChart::setHighlight(std::optional<debugger::ValueRanges> ranges)
{
    m_ranges = std::move(ranges);
    update();
}

QRectF TensorHistogramChart::plotRect() const
{
    return QRectF(kLeft, kTop, std::max(1, width() - kLeft - kRight), std::max(1, height() - kTop - kBottom));
}

std::optional<std::size_t> TensorHistogramChart::binAt(const QPointF& pos) const
{
    const QRectF plot = plotRect();
    if (m_histogram.bins.empty() || !plot.contains(pos))
        return std::nullopt;
    const double f = (pos.x() - plot.left()) / plot.width();
    const auto i = static_cast<std::size_t>(std::max(0.0, f * static_cast<double>(m_histogram.bins.size())));
    return std::min(i, m_histogram.bins.size() - 1);
}

QString TensorHistogramChart::binText(std::size_t i) const
{
    if (i >= m_histogram.bins.size())
        return {};
    const auto& bin = m_histogram.bins[i];
    const auto count = static_cast<qlonglong>(bin.y);
    if (m_histogram.binPerInteger)
        return tr("%1: %2").arg(formatValueAs(bin.x + 0.5, m_dtype)).arg(count);
    const bool last = i + 1 == m_histogram.bins.size();
    return tr("[%1, %2%3: %4")
        .arg(formatDouble(bin.x), formatDouble(bin.x + bin.dx), last ? QStringLiteral("]") : QStringLiteral(")"))
        .arg(count);
}

bool TensorHistogramChart::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto bin = binAt(help->pos());
        if (bin)
            QToolTip::showText(help->globalPos(), binText(*bin), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void TensorHistogramChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const auto& h = m_histogram;
    if (h.bins.empty()) {
        p.setPen(palette().placeholderText().color());
        p.drawText(rect(), Qt::AlignCenter, tr("No finite values to count"));
        return;
    }
    const QRectF plot = plotRect();
    double maxCount = 0;
    for (const auto& b : h.bins)
        maxCount = std::max(maxCount, b.y);
    const double span = h.right - h.left;
    const auto xOf = [&](double v) { return plot.left() + (v - h.left) / span * plot.width(); };
    const auto yOf = [&](double c) { return plot.bottom() - (maxCount > 0 ? c / maxCount : 0) * plot.height(); };

    QString caption = tr("%Ln finite value(s)", "", static_cast<int>(std::min<std::int64_t>(h.finiteCount, INT_MAX)));
    if (h.nonFiniteCount > 0)
        caption += tr("; %Ln NaN or infinite value(s) not counted", "",
                      static_cast<int>(std::min<std::int64_t>(h.nonFiniteCount, INT_MAX)));
    p.setPen(palette().text().color());
    p.drawText(QRectF(kLeft, 4, width() - kLeft - kRight, kTop - 8), Qt::AlignLeft | Qt::AlignVCenter, caption);

    // Highlighted ranges first, under the bars.
    if (m_ranges) {
        for (const auto& r : m_ranges->ranges) {
            const double a = std::max(r.low, h.left);
            const double b = std::min(r.high, h.right);
            if (a <= b)
                p.fillRect(QRectF(QPointF(xOf(a), plot.top()), QPointF(std::max(xOf(b), xOf(a) + 1), plot.bottom())),
                           kHighlightColour);
        }
    }

    // Count axis with grid lines.
    p.setPen(palette().mid().color());
    for (double t : dashboard::niceTicks(0, maxCount, 4)) {
        if (t < 0 || t > maxCount)
            continue;
        const double y = yOf(t);
        p.setPen(QPen(palette().midlight().color(), 1, Qt::DotLine));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(palette().text().color());
        p.drawText(QRectF(0, y - 9, kLeft - 6, 18), Qt::AlignRight | Qt::AlignVCenter, tickText(t));
    }

    p.setPen(QPen(kBarColour.darker(130), 1));
    p.setBrush(kBarColour);
    for (const auto& b : h.bins) {
        if (b.y <= 0)
            continue;
        const double x0 = xOf(b.x);
        const double x1 = xOf(b.x + b.dx);
        p.drawRect(QRectF(QPointF(x0 + 0.5, yOf(b.y)), QPointF(std::max(x1 - 0.5, x0 + 1.5), plot.bottom())));
    }

    // Value axis: integer labels under their bars, or round ticks.
    p.setPen(palette().mid().color());
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.setPen(palette().text().color());
    std::vector<double> ticks;
    if (h.binPerInteger) {
        const std::size_t every = std::max<std::size_t>(1, h.bins.size() / 10);
        for (std::size_t i = 0; i < h.bins.size(); i += every)
            ticks.push_back(h.bins[i].x + 0.5);
    } else {
        ticks = dashboard::niceTicks(h.left, h.right, 6);
    }
    for (double t : ticks) {
        if (t < h.left || t > h.right)
            continue;
        const double x = xOf(t);
        p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        p.drawText(QRectF(x - 45, plot.bottom() + 5, 90, 18), Qt::AlignHCenter | Qt::AlignTop,
                   h.binPerInteger ? formatValueAs(t, m_dtype) : tickText(t));
    }
}

} // namespace tstudio::debugger_ui
