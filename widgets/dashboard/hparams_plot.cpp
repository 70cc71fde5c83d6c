// Colours, tooltips and axis ticks shared by the HParams tab's plots.
#include "dashboard/hparams_plot.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace tstudio::dashboard {

std::shared_ptr<const std::vector<float>> hparamsPositions(const HParamsMatrix& matrix,
                                                           const std::vector<AxisScale>& scales)
{
    auto out = std::make_shared<std::vector<float>>();
    out->reserve(matrix.rows.size() * matrix.columns.size());
    for (std::size_t row = 0; row < matrix.rows.size(); ++row)
        for (std::size_t c = 0; c < matrix.columns.size(); ++c)
            out->push_back(static_cast<float>(matrix.position(row, c, c < scales.size() ? scales[c] : AxisScale::Linear)
                                                  .value_or(std::numeric_limits<double>::quiet_NaN())));
    return out;
}

QColor hparamsOver(const QColor& base, const QColor& colour, double opacity)
{
    auto mix = [opacity](int under, int top) { return static_cast<int>(std::lround(under + opacity * (top - under))); };
    return QColor(mix(base.red(), colour.red()), mix(base.green(), colour.green()), mix(base.blue(), colour.blue()));
}

void hparamsRasterLine(QImage& image, const QPointF& a, const QPointF& b, QRgb colour)
{
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    const int steps = std::max(1, static_cast<int>(std::ceil(std::max(std::abs(dx), std::abs(dy)))));
    const auto w = static_cast<unsigned>(image.width()), h = static_cast<unsigned>(image.height());
    uchar* bits = image.bits();
    const qsizetype stride = image.bytesPerLine();
    // Pixel centres by floor(v + 0.5); the offset by 2^20 keeps the truncation of a cast a floor for
    // any coordinate above -2^20.
    constexpr double kShift = 1 << 20;
    double x = a.x() + 0.5 + kShift, y = a.y() + 0.5 + kShift;
    const double sx = dx / steps, sy = dy / steps;
    for (int k = 0; k <= steps; ++k, x += sx, y += sy) {
        const auto px = static_cast<unsigned>(static_cast<long>(x) - (1L << 20));
        const auto py = static_cast<unsigned>(static_cast<long>(y) - (1L << 20));
        if (px < w && py < h)
            reinterpret_cast<QRgb*>(bits + py * stride)[px] = colour;
    }
}

void hparamsRasterDisc(QImage& image, const QPointF& centre, double radius, QRgb colour)
{
    const int x0 = static_cast<int>(std::floor(centre.x() - radius)),
              x1 = static_cast<int>(std::ceil(centre.x() + radius));
    const int y0 = static_cast<int>(std::floor(centre.y() - radius)),
              y1 = static_cast<int>(std::ceil(centre.y() + radius));
    const double r2 = radius * radius;
    for (int y = std::max(0, y0); y <= std::min(image.height() - 1, y1); ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        const double dy = y + 0.5 - centre.y();
        for (int x = std::max(0, x0); x <= std::min(image.width() - 1, x1); ++x) {
            const double dx = x + 0.5 - centre.x();
            if (dx * dx + dy * dy <= r2)
                line[x] = colour;
        }
    }
}

QColor hparamsRowColour(const HParamsPlotState& state, std::size_t row)
{
    if (!state.colourColumn || !state.matrix)
        return QColor(70, 130, 180);
    const std::optional<double> p = state.position(row, *state.colourColumn);
    if (!p)
        return QColor(150, 150, 150);
    static constexpr std::array<std::array<int, 3>, 5> kStops{
        {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {230, 210, 30}}};
    const double t = std::clamp(*p, 0.0, 1.0) * (kStops.size() - 1);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(t), kStops.size() - 2);
    const double f = t - static_cast<double>(i);
    auto mix = [&](int k) {
        return static_cast<int>(std::lround(kStops[i][k] + f * (kStops[i + 1][k] - kStops[i][k])));
    };
    return QColor(mix(0), mix(1), mix(2));
}

QString hparamsColumnTitle(const HParamsPlotState& state, std::size_t column)
{
    if (!state.matrix || column >= state.matrix->columns.size())
        return {};
    const HParamsColumn& c = state.matrix->columns[column];
    QString title = QString::fromStdString(c.title);
    if (state.scale(column) == AxisScale::Log && c.numeric && c.positive)
        title = QCoreApplication::translate("tstudio::dashboard::HParamsView", "%1 (log)").arg(title);
    return title;
}

QString hparamsRowToolTip(const HParamsPlotState& state, std::size_t row)
{
    if (!state.matrix || row >= state.matrix->rows.size())
        return {};
    const HParamsRow& r = state.matrix->rows[row];
    QStringList lines{
        QCoreApplication::translate("tstudio::dashboard::HParamsView", "Run: %1").arg(QString::fromStdString(r.run)),
        QCoreApplication::translate("tstudio::dashboard::HParamsView", "Status: %1")
            .arg(QString::fromStdString(r.status))};
    for (std::size_t c : state.columns) {
        const events::HParamValue& v = r.values[c];
        lines << QStringLiteral("%1: %2").arg(
            QString::fromStdString(state.matrix->columns[c].title),
            std::holds_alternative<std::monostate>(v)
                ? QCoreApplication::translate("tstudio::dashboard::HParamsView", "(none)")
                : QString::fromStdString(events::hparamText(v)));
    }
    return lines.join(QLatin1Char('\n'));
}

std::vector<std::pair<double, QString>> hparamsAxisTicks(const HParamsPlotState& state, std::size_t column)
{
    std::vector<std::pair<double, QString>> ticks;
    if (!state.matrix || column >= state.matrix->columns.size())
        return ticks;
    const HParamsColumn& c = state.matrix->columns[column];
    if (!c.numeric) {
        const std::size_t n = c.categories.size();
        for (std::size_t i = 0; i < n; ++i)
            ticks.emplace_back(n == 1 ? 0.5 : static_cast<double>(i) / static_cast<double>(n - 1),
                               QString::fromStdString(c.categories[i]));
        return ticks;
    }
    if (c.max <= c.min) {
        ticks.emplace_back(0.5, QString::number(c.min, 'g', 3));
        return ticks;
    }
    for (int i = 0; i <= 4; ++i) {
        const double p = i / 4.0;
        ticks.emplace_back(p, QString::number(state.matrix->valueAt(column, p, state.scale(column)), 'g', 3));
    }
    return ticks;
}

} // namespace tstudio::dashboard
