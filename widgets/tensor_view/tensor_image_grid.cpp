// Image-like tensors drawn as a grid of images (see tensor_image_grid.h).
#include "tensor_view/tensor_image_grid.h"

#include "tensor_view/tensor_real_values.h"
#include "tensor_view/tensor_value_text.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>

namespace tstudio::debugger_ui {

namespace {

constexpr int kCaptionHeight = 22;
constexpr int kGap = 4;
constexpr int kMargin = 6;
constexpr QRgb kBadColour = 0xffff0000;

QString shapeText(const Tensor& tensor)
{
    return QString::fromStdString(tensor.shape().toString());
}

} // namespace

TensorImageGrid::TensorImageGrid(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
}

QString TensorImageGrid::unsuitableReason(const Tensor& tensor)
{
    if (!tensor.isInitialized())
        return tr("The tensor holds no value.");
    if (!hasRealValues(tensor.dtype()))
        return tr("Images need real numbers; %1 tensors have none.")
            .arg(QString::fromStdString(dataTypeName(tensor.dtype())));
    const int rank = tensor.rank();
    const bool shapeOk = (rank == 3 || rank == 4) && [&] {
        const std::int64_t channels = tensor.shape().dim(rank - 1);
        return channels == 1 || channels == 3 || channels == 4;
    }();
    if (!shapeOk)
        return tr("Images need a [batch, height, width, channels] or [height, width, channels] tensor with 1, 3 "
                  "or 4 channels; this one is %1.")
            .arg(shapeText(tensor));
    if (tensor.numElements() == 0)
        return tr("The tensor %1 has no elements.").arg(shapeText(tensor));
    if (tensor.shape().dim(rank - 2) > 32768 || tensor.shape().dim(rank - 3) > 32768)
        return tr("Images of %1 are too large to draw.").arg(shapeText(tensor));
    return {};
}

void TensorImageGrid::setTensor(const Tensor& tensor)
{
    m_tensor = {};
    m_total = m_height = m_width = m_channels = 0;
    m_low = m_high = 0;
    m_images.clear();
    m_dirty = false;
    if (unsuitableReason(tensor).isEmpty()) {
        const int rank = tensor.rank();
        m_tensor = tensor;
        m_channels = static_cast<int>(tensor.shape().dim(rank - 1));
        m_width = static_cast<int>(tensor.shape().dim(rank - 2));
        m_height = static_cast<int>(tensor.shape().dim(rank - 3));
        m_total = rank == 4 ? static_cast<int>(std::min<std::int64_t>(tensor.shape().dim(0), INT_MAX)) : 1;
        if (baseType(tensor.dtype()) == tensorflow::DT_UINT8) {
            m_low = 0;
            m_high = 255;
        } else {
            const ValueSpread spread = spreadOf(realValues(tensor));
            m_low = spread.low;
            m_high = spread.high;
        }
        m_dirty = true;
    }
    update();
}

void TensorImageGrid::clear()
{
    setTensor(Tensor::uninitialized(tensorflow::DT_FLOAT));
}

int TensorImageGrid::imageCount() const
{
    return std::min(m_total, kMaxImages);
}

QImage TensorImageGrid::image(int i) const
{
    if (m_dirty)
        render();
    return i >= 0 && i < static_cast<int>(m_images.size()) ? m_images[static_cast<std::size_t>(i)] : QImage();
}

void TensorImageGrid::render() const
{
    m_dirty = false;
    m_images.clear();
    const int count = imageCount();
    if (count == 0)
        return;
    const bool raw = baseType(m_tensor.dtype()) == tensorflow::DT_UINT8;
    const double span = m_high - m_low;
    const auto level = [&](double v) {
        double f = 0;
        if (raw)
            f = v / 255.0;
        else if (span > 0)
            f = (v - m_low) / span;
        else
            f = std::clamp(v, 0.0, 1.0); // a constant tensor: values already in [0, 1] keep their shade
        return static_cast<int>(std::lround(std::clamp(f, 0.0, 1.0) * 255.0));
    };
    const std::int64_t pixels = static_cast<std::int64_t>(m_height) * m_width;
    const std::vector<double> values = realValues(m_tensor, 0, pixels * m_channels * count);
    for (int i = 0; i < count; ++i) {
        QImage img(m_width, m_height, QImage::Format_ARGB32);
        const std::int64_t base = static_cast<std::int64_t>(i) * pixels * m_channels;
        for (int y = 0; y < m_height; ++y) {
            auto* line = reinterpret_cast<QRgb*>(img.scanLine(y));
            for (int x = 0; x < m_width; ++x) {
                const std::int64_t at = base + (static_cast<std::int64_t>(y) * m_width + x) * m_channels;
                double c[4] = {0, 0, 0, 255};
                bool bad = false;
                for (int k = 0; k < m_channels; ++k) {
                    c[k] = values[static_cast<std::size_t>(at + k)];
                    bad = bad || !std::isfinite(c[k]);
                }
                if (bad) {
                    line[x] = kBadColour;
                } else if (m_channels == 1) {
                    const int g = level(c[0]);
                    line[x] = qRgb(g, g, g);
                } else {
                    line[x] = qRgba(level(c[0]), level(c[1]), level(c[2]), m_channels == 4 ? level(c[3]) : 255);
                }
            }
        }
        m_images.push_back(std::move(img));
    }
}

QRectF TensorImageGrid::gridRect() const
{
    return QRectF(kMargin, kMargin + kCaptionHeight, std::max(1, width() - 2 * kMargin),
                  std::max(1, height() - 2 * kMargin - kCaptionHeight));
}

std::pair<int, double> TensorImageGrid::layout() const
{
    const int n = imageCount();
    if (n == 0 || m_width == 0 || m_height == 0)
        return {1, 0};
    const QRectF area = gridRect();
    int bestColumns = 1;
    double bestScale = 0;
    for (int columns = 1; columns <= n; ++columns) {
        const int rows = (n + columns - 1) / columns;
        const double sx = (area.width() - (columns - 1) * kGap) / (double(columns) * m_width);
        const double sy = (area.height() - (rows - 1) * kGap) / (double(rows) * m_height);
        const double s = std::min(sx, sy);
        if (s > bestScale) {
            bestScale = s;
            bestColumns = columns;
        }
    }
    // Whole-number zoom keeps small images (28 x 28 digits) crisp when there is room for it.
    if (bestScale >= 1)
        bestScale = std::floor(bestScale);
    return {bestColumns, std::max(bestScale, 0.0)};
}

QRectF TensorImageGrid::imageRect(int i) const
{
    if (i < 0 || i >= imageCount())
        return {};
    const auto [columns, scale] = layout();
    const QRectF area = gridRect();
    const double w = m_width * scale;
    const double h = m_height * scale;
    return QRectF(area.left() + (i % columns) * (w + kGap), area.top() + (i / columns) * (h + kGap), w, h);
}

std::optional<TensorImageGrid::Hit> TensorImageGrid::hitAt(const QPointF& pos) const
{
    for (int i = 0; i < imageCount(); ++i) {
        const QRectF r = imageRect(i);
        if (r.width() > 0 && r.contains(pos)) {
            const int column = std::clamp(static_cast<int>((pos.x() - r.left()) / r.width() * m_width), 0, m_width - 1);
            const int row = std::clamp(static_cast<int>((pos.y() - r.top()) / r.height() * m_height), 0, m_height - 1);
            return Hit{i, row, column};
        }
    }
    return std::nullopt;
}

bool TensorImageGrid::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto hit = hitAt(help->pos());
        if (!hit) {
            QToolTip::hideText();
            return true;
        }
        const std::int64_t at =
            (static_cast<std::int64_t>(hit->image) * m_height * m_width + static_cast<std::int64_t>(hit->row) * m_width +
             hit->column) * m_channels;
        QStringList values;
        for (int k = 0; k < m_channels; ++k)
            values << formatElement(m_tensor, at + k);
        const QString where = m_tensor.rank() == 4 ? tr("image %1, pixel (%2, %3)").arg(hit->image).arg(hit->row).arg(hit->column)
                                                   : tr("pixel (%1, %2)").arg(hit->row).arg(hit->column);
        QToolTip::showText(help->globalPos(), where + QStringLiteral(": ") + values.join(QStringLiteral(", ")), this);
        return true;
    }
    return QWidget::event(event);
}

void TensorImageGrid::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (imageCount() == 0) {
        p.setPen(palette().placeholderText().color());
        p.drawText(rect(), Qt::AlignCenter, tr("No image-like tensor to draw"));
        return;
    }
    const QString channels = m_channels == 1 ? tr("grey") : m_channels == 3 ? tr("RGB") : tr("RGBA");
    QString caption = tr("%n image(s) of %1 x %2, %3", "", m_total).arg(m_width).arg(m_height).arg(channels);
    if (imageCount() < m_total)
        caption += tr(" (the first %1 shown; slice to see others)").arg(imageCount());
    const DataType dtype = m_tensor.dtype();
    if (baseType(dtype) == tensorflow::DT_UINT8)
        caption += tr("; values as they are (0 to 255)");
    else
        caption += tr("; %1 (black) to %2 (white)").arg(formatValueAs(m_low, dtype), formatValueAs(m_high, dtype));
    p.setPen(palette().text().color());
    p.drawText(QRectF(kMargin, kMargin, width() - 2 * kMargin, kCaptionHeight - 4), Qt::AlignLeft | Qt::AlignVCenter,
               p.fontMetrics().elidedText(caption, Qt::ElideRight, width() - 2 * kMargin));

    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    for (int i = 0; i < imageCount(); ++i) {
        const QRectF r = imageRect(i);
        if (m_channels == 4) { // a checkerboard under transparent pixels
            const int cell = 6;
            for (int y = 0; y * cell < r.height(); ++y)
                for (int x = 0; x * cell < r.width(); ++x)
                    p.fillRect(QRectF(r.left() + x * cell, r.top() + y * cell, std::min<double>(cell, r.width() - x * cell),
                                      std::min<double>(cell, r.height() - y * cell)),
                               (x + y) % 2 ? QColor(204, 204, 204) : QColor(255, 255, 255));
        }
        p.drawImage(r, image(i));
    }
}

} // namespace tstudio::debugger_ui
