// TensorHeatMap: a 2-D tensor as coloured cells with a colour legend and per-cell tooltips.
#pragma once

#include "framework/tensor.h"

#include <QColor>
#include <QImage>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <utility>

namespace tstudio::debugger_ui {

/// Draws a rank-2 tensor of real values (tensor_real_values.h) as a heat map: rows top to bottom,
/// columns left to right, stretched to fill the widget. Colours run along the viridis scale from the
/// smallest finite value to the largest (all cells mid-scale when they are equal); NaN, +inf and -inf
/// get colours of their own, shown in the legend when present.
///
/// The cells are rendered into a QImage once per tensor (at most kMaxImageSide pixels a side: larger
/// tensors are sampled at the nearest row and column), and painting only scales that image, so a
/// 1000 x 1000 tensor stays responsive. Tooltips name the cell under the pointer and its exact value.
class TensorHeatMap : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxImageSide = 2048;
    static constexpr QRgb kNaNColour = 0xffff0000;    ///< red, TensorFlow's image summary "bad colour"
    static constexpr QRgb kPosInfColour = 0xffffffff; ///< white
    static constexpr QRgb kNegInfColour = 0xff808080; ///< grey

    explicit TensorHeatMap(QWidget* parent = nullptr);

    /// Shows `matrix` (rank 2, real values); anything else clears the map.
    void setTensor(const Tensor& matrix);
    void clear();
    bool hasTensor() const { return m_rows > 0 && m_columns > 0; }

    /// The colour of `fraction` (0 = smallest value, 1 = largest) on the scale.
    static QColor scaleColour(double fraction);
    /// The colour of a value given the scale's range.
    static QRgb valueColour(double value, double low, double high);

    /// The rendered cells (renders first when the tensor changed).
    const QImage& image() const;
    /// Smallest and largest finite value (the ends of the scale); equal to each other without finite values.
    double low() const { return m_low; }
    double high() const { return m_high; }

    /// The cell (row, column) under `pos` in widget coordinates, if any.
    std::optional<std::pair<std::int64_t, std::int64_t>> cellAt(const QPointF& pos) const;
    /// What the tooltip at `pos` says ("[3, 7] = 0.25"), empty outside the cells.
    QString toolTipAt(const QPointF& pos) const;
    /// Where the cells are drawn.
    QRectF plotRect() const;

    QSize sizeHint() const override { return {520, 360}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void render() const;
    /// Width of the legend right of the cells (bar and labels).
    int legendWidth() const;

    Tensor m_tensor;
    std::int64_t m_rows = 0;
    std::int64_t m_columns = 0;
    double m_low = 0;
    double m_high = 0;
    bool m_hasNaN = false;
    bool m_hasPosInf = false;
    bool m_hasNegInf = false;
    mutable QImage m_image;
    mutable bool m_dirty = false;
};

} // namespace tstudio::debugger_ui
