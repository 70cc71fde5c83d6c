// ValueHistoryChart: a watched tensor's min, mean and max across session runs, as three lines.
#pragma once

#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

namespace tstudio::debugger_ui {

/// One session run's summary of a watched tensor (finite values only; NaN statistics leave a gap).
struct HistoryPoint {
    std::int64_t run = 0;
    double min = 0;
    double mean = 0;
    double max = 0;
};

/// Draws min, mean and max against the run number, marks the selected run, and reports clicks on a
/// run (the nearest point in x) with runClicked.
class ValueHistoryChart : public QWidget {
    Q_OBJECT
public:
    explicit ValueHistoryChart(QWidget* parent = nullptr);

    /// Points in run order (they are sorted by run).
    void setPoints(std::vector<HistoryPoint> points);
    const std::vector<HistoryPoint>& points() const { return m_points; }
    void setSelectedRun(std::optional<std::int64_t> run);
    std::optional<std::int64_t> selectedRun() const { return m_selected; }

    /// Where the lines are drawn.
    QRectF plotRect() const;
    /// The widget position of point `i`'s value `which` (0 min, 1 mean, 2 max); nullopt when not finite.
    std::optional<QPointF> pointPosition(std::size_t i, int which) const;
    /// The run nearest to `pos` in x, if `pos` lies over the plot.
    std::optional<std::int64_t> runAt(const QPointF& pos) const;

    QSize sizeHint() const override { return {520, 300}; }

signals:
    void runClicked(std::int64_t run);

protected:
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    /// The value range drawn (finite statistics only), widened when flat.
    std::pair<double, double> valueRange() const;

    std::vector<HistoryPoint> m_points;
    std::optional<std::int64_t> m_selected;
};

} // namespace tstudio::debugger_ui
