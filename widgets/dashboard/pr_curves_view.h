// PrCurvesView: the dashboard's PR Curves tab (TensorBoard's pr_curves plugin): per (tag, run) a
// precision-recall curve of one step, chosen with a step slider; each point's threshold and counts
// in its tooltip.
#pragma once

#include "dashboard/run_cards_view.h"
#include "io/events/event_accumulator.h"
#include "io/events/summary_values.h"

#include <QWidget>

#include <optional>
#include <vector>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QSlider;

namespace tstudio::dashboard {

/// One (tag, run): its samples by step, the curve of the chosen step (newest by default; a slider at
/// the newest step follows new steps), precision on the y axis against recall on the x axis, both
/// [0, 1]. The caption names the step and the thresholds; hovering a point shows its threshold,
/// precision, recall and TP/FP/TN/FN. A sample that is no pr_curves tensor shows its error.
class PrCurveCard : public QWidget {
    Q_OBJECT
public:
    PrCurveCard(const QString& tag, const QString& run, const QColor& colour, QWidget* parent = nullptr);
    void setSamples(std::vector<events::ValueSample> samples);
    void setColour(const QColor& colour);
    /// The steps held, oldest first, and the one shown.
    std::vector<std::int64_t> steps() const;
    std::int64_t shownStep() const;
    void showStep(std::int64_t step);
    /// The curve shown (nullopt when its sample does not decode).
    const std::optional<events::PrCurve>& curve() const { return m_curve; }
    QLineSeries* series() const { return m_series; }
    /// The tooltip text of point `index` of the curve shown.
    QString pointText(int index) const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void showIndex(int index);

    QString m_tag;
    QString m_run;
    QColor m_colour;
    std::vector<events::ValueSample> m_samples; ///< oldest first
    int m_index = -1;
    std::optional<events::PrCurve> m_curve;
    QLabel* m_caption;
    QSlider* m_slider;
    QChart* m_chart;
    QChartView* m_view;
    QLineSeries* m_series;
};

class PrCurvesView : public RunCardsView {
    Q_OBJECT
public:
    explicit PrCurvesView(QWidget* parent = nullptr);
    void setCurves(const QString& run, const QString& tag, std::vector<events::ValueSample> samples);
    PrCurveCard* card(const QString& tag, const QString& run) const;

protected:
    QString emptyText() const override;
    void styleCards() override;
};

} // namespace tstudio::dashboard
