// What the HParams tab's parallel-coordinates and scatter-plot views share: the state they draw
// (matrix, columns, colouring, filter, selection, axis scales), a session's colour and tooltip, and
// an axis's tick labels.
#pragma once

#include "dashboard/hparams_matrix.h"

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QString>

#include <cmath>
#include <memory>
#include <optional>
#include <vector>

namespace tstudio::dashboard {

struct HParamsPlotState {
    std::shared_ptr<const HParamsMatrix> matrix;
    /// The matrix columns shown, in order.
    std::vector<std::size_t> columns;
    /// The column whose value colours each session (none: one colour).
    std::optional<std::size_t> colourColumn;
    /// Per matrix row: kept by the tab's filters (text and axis brushes); others are drawn faint.
    std::vector<bool> shown;
    /// The chosen session (a matrix row), or -1.
    int selected = -1;
    /// Per matrix column.
    std::vector<AxisScale> scales;
    /// Every session's position on every column's axis with these scales (rows x matrix columns,
    /// NaN where it has none): hparamsPositions(), worked out once per matrix and scales.
    std::shared_ptr<const std::vector<float>> positions;

    /// Row `row`'s position on column `column` (from `positions` where set, else the matrix).
    std::optional<double> position(std::size_t row, std::size_t column) const
    {
        if (positions && matrix) {
            const std::size_t at = row * matrix->columns.size() + column;
            if (at >= positions->size() || std::isnan((*positions)[at]))
                return std::nullopt;
            return (*positions)[at];
        }
        return matrix ? matrix->position(row, column, scale(column)) : std::nullopt;
    }

    AxisScale scale(std::size_t column) const { return column < scales.size() ? scales[column] : AxisScale::Linear; }
    bool isShown(std::size_t row) const { return row >= shown.size() || shown[row]; }
};

/// Every row's position on every column of `matrix` with `scales` (rows x columns, NaN where none).
std::shared_ptr<const std::vector<float>> hparamsPositions(const HParamsMatrix& matrix,
                                                           const std::vector<AxisScale>& scales);

/// `colour` laid over `base` at `opacity`, as one opaque colour. The plots draw their many sessions
/// in opaque colours: the raster engine blends translucent spans on its thread pool, waking the pool
/// for every call, which made a thousand sessions take seconds a frame on two cores.
QColor hparamsOver(const QColor& base, const QColor& colour, double opacity);

/// A one-pixel line from a to b (device pixels) written into `image` (32-bit pixels), clipped to
/// it; for the plots' many sessions, where QPainter's lines took over 30 ms a frame.
void hparamsRasterLine(QImage& image, const QPointF& a, const QPointF& b, QRgb colour);

/// A filled disc of `radius` device pixels around `centre` (pixel centres inside it), clipped.
void hparamsRasterDisc(QImage& image, const QPointF& centre, double radius, QRgb colour);

/// A session's colour: its position on the colour column along a viridis-like ramp (dark blue for
/// the least, yellow for the greatest), grey where it has no value, steel blue without a column.
QColor hparamsRowColour(const HParamsPlotState& state, std::size_t row);

/// A column's title as the plots show it: " (log)" added where its axis is logarithmic.
QString hparamsColumnTitle(const HParamsPlotState& state, std::size_t column);

/// A session's run, status and the values of `state.columns`, one per line, for a tooltip.
QString hparamsRowToolTip(const HParamsPlotState& state, std::size_t row);

/// Tick labels along a column's axis: (position in [0, 1], text); five evenly spaced values of a
/// numeric axis (its least and greatest among them), every category of a categorical one.
std::vector<std::pair<double, QString>> hparamsAxisTicks(const HParamsPlotState& state, std::size_t column);

} // namespace tstudio::dashboard
