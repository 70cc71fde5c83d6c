// HParamsScatterView: the HParams tab's scatter-plot matrix, a small scatter plot of every chosen
// metric (rows) against every chosen hparam (columns), as TensorBoard's scatter plot matrix view.
#pragma once

#include "dashboard/hparams_plot.h"

#include <QWidget>

namespace tstudio::dashboard {

/// One cell per (metric, hparam) pair of the state's columns: a point per session with both values,
/// x the hparam's position on its axis, y the metric's, coloured by the state's colour column;
/// sessions the filters leave out drawn faint, the chosen one ringed in every cell. Where the
/// columns hold no hparam, metrics are plotted against each other (every pair). Hovering a point
/// shows its session's values; a click chooses it (rowClicked), a double-click activates it.
///
/// Object name: "hparamsScatter". GUI thread only.
class HParamsScatterView : public QWidget {
    Q_OBJECT
public:
    explicit HParamsScatterView(QWidget* parent = nullptr);

    void setState(const HParamsPlotState& state);

    /// The cells' (x column, y column) in matrix column indices, row by row.
    std::vector<std::pair<std::size_t, std::size_t>> cells() const;
    /// Where a session's point lies in cell `cell` (an index into cells()), if it has both values.
    std::optional<QPointF> pointOf(std::size_t cell, std::size_t row) const;
    /// The session whose point lies nearest `pos`, within 6 pixels.
    std::optional<std::size_t> rowAt(const QPointF& pos) const;

    QSize sizeHint() const override { return {800, 500}; }

signals:
    void rowClicked(int row);
    void rowActivated(int row);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRectF cellRect(std::size_t gridColumn, std::size_t gridRow) const;

    HParamsPlotState m_state;
    /// The grid's x and y columns (matrix indices).
    std::vector<std::size_t> m_xs, m_ys;
    std::optional<std::size_t> m_hover;
};

} // namespace tstudio::dashboard
