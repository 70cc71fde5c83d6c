// TensorHistogramChart: bars of a tensor's value histogram, with highlighted value ranges shaded.
#pragma once

#include "tensor_view/value_histogram.h"
#include "debugger/value_ranges.h"
#include "framework/data_type.h"

#include <QWidget>

#include <optional>

namespace tstudio::debugger_ui {

/// Draws a ValueHistogram as bars (values along the bottom, counts up the left), shades the ranges
/// being highlighted, says how many NaN and infinite values were left out, and names the bar under
/// the pointer in a tooltip ("[0.5, 0.75): 12").
class TensorHistogramChart : public QWidget {
    Q_OBJECT
public:
    explicit TensorHistogramChart(QWidget* parent = nullptr);

    /// `dtype` formats the edges in the tensor's precision.
    void setHistogram(ValueHistogram histogram, DataType dtype);
    void clear();
    const ValueHistogram& histogram() const { return m_histogram; }
    void setHighlight(std::optional<debugger::ValueRanges> ranges);

    /// Where the bars are drawn.
    QRectF plotRect() const;
    /// The bar under `pos` (an index into histogram().bins), if any.
    std::optional<std::size_t> binAt(const QPointF& pos) const;
    /// The tooltip text of bin `i`.
    QString binText(std::size_t i) const;

    QSize sizeHint() const override { return {520, 320}; }

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    ValueHistogram m_histogram;
    DataType m_dtype = tensorflow::DT_FLOAT;
    std::optional<debugger::ValueRanges> m_ranges;
};

} // namespace tstudio::debugger_ui
