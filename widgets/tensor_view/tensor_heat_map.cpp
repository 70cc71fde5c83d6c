// A 2-D tensor as a heat map with legend and tooltips (see tensor_heat_map.h).
#include "tensor_view/tensor_heat_map.h"

#include "dashboard/tag_card_grid.h"
#include "tensor_view/tensor_real_values.h"
#include "tensor_view/tensor_value_text.h"

#include <QHelpEvent>
#include <QLinearGradient>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace tstudio::debugger_ui {

namespace {

/// The viridis scale sampled at nine evenly spaced points (matplotlib's published colours).
constexpr std::array<QRgb, 9> kViridis = {0xff440154, 0xff472d7b, 0xff3b528b, 0xff2c728e, 0xff21918c,
                                          0xff28ae80, 0xff5ec962, 0xffaddc30, 0xfffde725};

constexpr int kMargin = 8;
constexpr int kBarWidth = 14;

} // namespace

TensorHeatMap::TensorHeatMap(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
}

void TensorHeatMap::setTensor(const Tensor& matrix)
{
    m_tensor = {};
    m_rows = m_columns = 0;
    m_low = m_high = 0;
    m_hasNaN = m_hasPosInf = m_hasNegInf = false;
    m_image = {};
    m_dirty = false;
    if (matrix.isInitialized() && matrix.rank() == 2 && hasRealValues(matrix.dtype()) && matrix.numElements() > 0) {
        m_tensor = matrix;
        m_rows = matrix.shape().dim(0);
        m_columns = matrix.shape().dim(1);
        const ValueSpread spread = spreadOf(realValues(matrix));
        m_hasNaN = spread.nan;
        m_hasPosInf = spread.posInf;
        m_hasNegInf = spread.negInf;
        m_low = spread.low;
        m_high = spread.high;
        m_dirty = true;
    }
    update();
}

void TensorHeatMap::clear()
{
    setTensor(Tensor::uninitialized(tensorflow::DT_FLOAT));
}

QColor TensorHeatMap::scaleColour(double fraction)
{
    fraction = std::clamp(std::isnan(fraction) ? 0.5 : fraction, 0.0, 1.0);
    const double position = fraction * (kViridis.size() - 1);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(position), kViridis.size() - 2);
    const double t = position - static_cast<double>(i);
    const QColor a = QColor::fromRgb(kViridis[i]);
    const QColor b = QColor::fromRgb(kViridis[i + 1]);
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QRgb TensorHeatMap::valueColour(double value, double low, double high)
{
    if (std::isnan(value))
        return kNaNColour;
    if (std::isinf(value))
        return value > 0 ? kPosInfColour : kNegInfColour;
    const double fraction = high > low ? (value - low) / (high - low) : 0.5;
    return scaleColour(fraction).rgba();
}

const QImage& TensorHeatMap::image() const
{
    if (m_dirty)
        render();
    return m_image;
}

void TensorHeatMap::render() const
{
    m_dirty = false;
    if (!hasTensor()) {
        m_image = {};
        return;
    }
    const int width = static_cast<int>(std::min<std::int64_t>(m_columns, kMaxImageSide));
    const int height = static_cast<int>(std::min<std::int64_t>(m_rows, kMaxImageSide));
    m_image = QImage(width, height, QImage::Format_ARGB32);
    // A 256-entry table of the scale keeps the per-cell work to one lookup.
    std::array<QRgb, 256> table{};
    for (int i = 0; i < 256; ++i)
        table[static_cast<std::size_t>(i)] = scaleColour(i / 255.0).rgba();
    const double span = m_high - m_low;
    const std::vector<double> values = realValues(m_tensor);
    for (int y = 0; y < height; ++y) {
        const std::int64_t row = height == m_rows ? y : static_cast<std::int64_t>(y) * m_rows / height;
        auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(y));
        for (int x = 0; x < width; ++x) {
            const std::int64_t column = width == m_columns ? x : static_cast<std::int64_t>(x) * m_columns / width;
            const double v = values[static_cast<std::size_t>(row * m_columns + column)];
            if (!std::isfinite(v)) {
                line[x] = valueColour(v, m_low, m_high);
                continue;
            }
            const double fraction = span > 0 ? (v - m_low) / span : 0.5;
            line[x] = table[static_cast<std::size_t>(std::lround(std::clamp(fraction, 0.0, 1.0) * 255.0))];
        }
    }
}

int TensorHeatMap::legendWidth() const
{
    // The bar, a gap and the widest label (the scale's ends, or the swatch names).
    const QFontMetrics metrics = fontMetrics();
    int label = metrics.horizontalAdvance(QStringLiteral("+Inf")) + 18;
    if (hasTensor()) {
        label = std::max(label, metrics.horizontalAdvance(formatValueAs(m_high, m_tensor.dtype())));
        label = std::max(label, metrics.horizontalAdvance(formatValueAs(m_low, m_tensor.dtype())));
    }
    return 12 + kBarWidth + 8 + label + 4;
}

QRectF TensorHeatMap::plotRect() const
{
    return QRectF(kMargin, kMargin, std::max(1, width() - 2 * kMargin - legendWidth()),
                  std::max(1, height() - 2 * kMargin));
}

std::optional<std::pair<std::int64_t, std::int64_t>> TensorHeatMap::cellAt(const QPointF& pos) const
{
    const QRectF plot = plotRect();
    if (!hasTensor() || !plot.contains(pos))
        return std::nullopt;
    const auto row = static_cast<std::int64_t>((pos.y() - plot.top()) / plot.height() * static_cast<double>(m_rows));
    const auto column =
        static_cast<std::int64_t>((pos.x() - plot.left()) / plot.width() * static_cast<double>(m_columns));
    return std::pair{std::clamp<std::int64_t>(row, 0, m_rows - 1), std::clamp<std::int64_t>(column, 0, m_columns - 1)};
}

QString TensorHeatMap::toolTipAt(const QPointF& pos) const
{
    const auto cell = cellAt(pos);
    if (!cell)
        return {};
    return tr("[%1, %2] = %3")
        .arg(cell->first)
        .arg(cell->second)
        .arg(formatElement(m_tensor, cell->first * m_columns + cell->second));
}

bool TensorHeatMap::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void TensorHeatMap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QRectF plot = plotRect();
    if (!hasTensor()) {
        p.setPen(palette().placeholderText().color());
        p.drawText(rect(), Qt::AlignCenter, tr("No 2-D tensor to draw"));
        return;
    }
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(plot, image());
    p.setPen(palette().mid().color());
    p.drawRect(plot.adjusted(-0.5, -0.5, 0.5, 0.5));

    // Legend: the scale as a vertical bar, largest value on top, with round tick values.
    const QRectF bar(plot.right() + 12, plot.top() + 4, kBarWidth, std::max(20.0, plot.height() * 0.7 - 8));
    QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
    for (std::size_t i = 0; i < kViridis.size(); ++i)
        gradient.setColorAt(static_cast<double>(i) / (kViridis.size() - 1), QColor::fromRgb(kViridis[i]));
    p.fillRect(bar, gradient);
    p.drawRect(bar);
    p.setPen(palette().text().color());
    const DataType dtype = m_tensor.dtype();
    const auto yOf = [&](double v) {
        return m_high > m_low ? bar.bottom() - (v - m_low) / (m_high - m_low) * bar.height() : bar.center().y();
    };
    const QRectF labelBox(bar.right() + 8, 0, width() - bar.right() - 8, 16);
    p.drawText(labelBox.translated(0, yOf(m_high) - 8), Qt::AlignLeft | Qt::AlignVCenter, formatValueAs(m_high, dtype));
    if (m_high > m_low) {
        p.drawText(labelBox.translated(0, yOf(m_low) - 8), Qt::AlignLeft | Qt::AlignVCenter,
                   formatValueAs(m_low, dtype));
        const double minGap = p.fontMetrics().height() + 2;
        for (double t : dashboard::niceTicks(m_low, m_high, 5)) {
            const double y = yOf(t);
            p.drawLine(QPointF(bar.right() - 4, y), QPointF(bar.right(), y));
            if (std::abs(y - yOf(m_high)) > minGap && std::abs(y - yOf(m_low)) > minGap)
                p.drawText(labelBox.translated(0, y - 8), Qt::AlignLeft | Qt::AlignVCenter, QString::number(t, 'g', 4));
        }
    }
    // Swatches for the values off the scale, only when present.
    double y = bar.bottom() + 12;
    const auto swatch = [&](bool present, QRgb colour, const QString& label) {
        if (!present)
            return;
        const QRectF box(bar.left(), y, 12, 12);
        p.fillRect(box, QColor::fromRgba(colour));
        p.setPen(palette().mid().color());
        p.drawRect(box);
        p.setPen(palette().text().color());
        p.drawText(QRectF(box.right() + 5, y - 2, width() - box.right() - 5, 16), Qt::AlignLeft | Qt::AlignVCenter, label);
        y += 18;
    };
    swatch(m_hasNaN, kNaNColour, tr("NaN"));
    swatch(m_hasPosInf, kPosInfColour, tr("+Inf"));
    swatch(m_hasNegInf, kNegInfColour, tr("-Inf"));
}

} // namespace tstudio::debugger_ui
