// HParamsParallelView: the HParams tab's parallel-coordinates view, one vertical axis per chosen
// hparam and metric and one line per session across them.
#pragma once

#include "dashboard/hparams_plot.h"

#include <QPixmap>
#include <QWidget>

class QPainter;

namespace tstudio::dashboard {

/// Each session a polyline through its values on the axes (broken where it has none), coloured by
/// the state's colour column; sessions the filters leave out drawn faint, the chosen one thick.
/// Dragging along an axis brushes it: only sessions inside every brush stay shown (brushesChanged);
/// a click on an axis without dragging clears its brush. A right-click on a numeric axis with only
/// positive values switches it between linear and logarithmic (scaleToggled). Hovering a line
/// shows its session's values; a click chooses it (rowClicked), a double-click activates it.
///
/// Object name: "hparamsParallel". GUI thread only.
class HParamsParallelView : public QWidget {
    Q_OBJECT
public:
    explicit HParamsParallelView(QWidget* parent = nullptr);

    void setState(const HParamsPlotState& state);
    const std::vector<AxisBrush>& brushes() const { return m_brushes; }
    /// Replaces the brushes (columns no longer shown are dropped) and emits brushesChanged.
    void setBrushes(std::vector<AxisBrush> brushes);

    /// The x of the axis of state column `index` (an index into state.columns).
    double axisX(std::size_t index) const;
    /// The y of `position` in [0, 1] along every axis.
    double axisY(double position) const;
    /// The session (matrix row) whose line passes nearest `pos`, within 5 pixels.
    std::optional<std::size_t> rowAt(const QPointF& pos) const;

    QSize sizeHint() const override { return {800, 420}; }

signals:
    void rowClicked(int row);
    void rowActivated(int row);
    void brushesChanged();
    void scaleToggled(std::size_t column);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void paintAxes(QPainter& painter) const;
    bool event(QEvent* event) override;

private:
    /// The state column index whose axis lies within 12 pixels of x.
    std::optional<std::size_t> axisNear(double x) const;
    double positionAt(double y) const;
    /// Row `row`'s position on the axis of state column `index`.
    std::optional<double> positionOf(std::size_t row, std::size_t index) const;
    QRectF plotRect() const;

    HParamsPlotState m_state;
    std::vector<AxisBrush> m_brushes;
    std::optional<std::size_t> m_brushAxis; ///< the axis being brushed (state column index)
    double m_brushFrom = 0;
    bool m_brushMoved = false;
    std::optional<std::size_t> m_hover;
    /// Every session's line but the selected one with the axes, brushes, titles and ticks over them, as
    /// last drawn: a hover (which only adds the line under the pointer) draws over it instead of
    /// drawing a thousand lines and the axes' text again. Dropped by any change of the state, the
    /// brushes, the size, the font or the palette.
    QPixmap m_lines;

};

} // namespace tstudio::dashboard
