// PrCurvesView: precision-recall curves per (tag, run) and step.
#include "dashboard/pr_curves_view.h"

#include "dashboard/run_cards.h"
#include "dashboard/tag_card_grid.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPainter>
#include <QSlider>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace tstudio::dashboard {

PrCurveCard::PrCurveCard(const QString& tag, const QString& run, const QColor& colour, QWidget* parent)
    : QWidget(parent), m_tag(tag), m_run(run), m_colour(colour), m_caption(new QLabel(this)),
      m_slider(new QSlider(Qt::Horizontal, this)), m_chart(new QChart), m_view(new QChartView(m_chart, this)),
      m_series(new QLineSeries)
{
    setObjectName(QStringLiteral("prCurveCard"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 12, 10, 8);
    auto* title = new QLabel(tag, this);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    layout->addWidget(title);
    layout->addWidget(new QLabel(run, this));
    m_chart->addSeries(m_series);
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    auto* recall = new QValueAxis;
    recall->setRange(0, 1);
    recall->setTitleText(tr("Recall"));
    auto* precision = new QValueAxis;
    precision->setRange(0, 1);
    precision->setTitleText(tr("Precision"));
    m_chart->addAxis(recall, Qt::AlignBottom);
    m_chart->addAxis(precision, Qt::AlignLeft);
    m_series->attachAxis(recall);
    m_series->attachAxis(precision);
    m_series->setPen(QPen(colour, 2));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(260);
    layout->addWidget(m_view, 1);
    m_slider->setObjectName(QStringLiteral("prStepSlider"));
    layout->addWidget(m_slider);
    layout->addWidget(m_caption);
    connect(m_slider, &QSlider::valueChanged, this, &PrCurveCard::showIndex);
    connect(m_series, &QLineSeries::hovered, this, [this](const QPointF& point, bool state) {
        if (!state || !m_curve)
            return;
        // The nearest point of the curve to where the pointer is.
        int best = -1;
        double bestDistance = INFINITY;
        for (std::size_t i = 0; i < m_curve->thresholds(); ++i) {
            const double d = std::hypot(m_curve->recall[i] - point.x(), m_curve->precision[i] - point.y());
            if (d < bestDistance) {
                bestDistance = d;
                best = static_cast<int>(i);
            }
        }
        if (best >= 0)
            QToolTip::showText(QCursor::pos(), pointText(best), this);
    });
}

void PrCurveCard::setColour(const QColor& colour)
{
    m_colour = colour;
    m_series->setPen(QPen(colour, 2));
    update();
}

void PrCurveCard::paintEvent(QPaintEvent* event)
{
    QWidget::paintEvent(event);
    QPainter p(this);
    p.setPen(palette().mid().color());
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    p.fillRect(QRect(0, 0, width(), 5), m_colour);
}

void PrCurveCard::setSamples(std::vector<events::ValueSample> samples)
{
    std::stable_sort(samples.begin(), samples.end(), [](const auto& a, const auto& b) { return a.step < b.step; });
    const bool atNewest = m_index < 0 || m_index + 1 == static_cast<int>(m_samples.size());
    const std::int64_t shown = shownStep();
    m_samples = std::move(samples);
    int index = static_cast<int>(m_samples.size()) - 1;
    if (!atNewest)
        for (int i = 0; i < static_cast<int>(m_samples.size()); ++i)
            if (m_samples[std::size_t(i)].step == shown)
                index = i;
    const QSignalBlocker block(m_slider);
    m_slider->setRange(0, std::max(0, static_cast<int>(m_samples.size()) - 1));
    m_slider->setValue(std::max(0, index));
    m_slider->setVisible(m_samples.size() > 1);
    showIndex(index);
}

std::vector<std::int64_t> PrCurveCard::steps() const
{
    std::vector<std::int64_t> out;
    for (const auto& s : m_samples)
        out.push_back(s.step);
    return out;
}

std::int64_t PrCurveCard::shownStep() const
{
    return m_index >= 0 && m_index < static_cast<int>(m_samples.size()) ? m_samples[std::size_t(m_index)].step : -1;
}

void PrCurveCard::showStep(std::int64_t step)
{
    for (int i = 0; i < static_cast<int>(m_samples.size()); ++i)
        if (m_samples[std::size_t(i)].step == step) {
            const QSignalBlocker block(m_slider);
            m_slider->setValue(i);
            showIndex(i);
            return;
        }
}

void PrCurveCard::showIndex(int index)
{
    m_index = index;
    m_series->clear();
    m_curve.reset();
    if (index < 0 || index >= static_cast<int>(m_samples.size())) {
        m_caption->clear();
        return;
    }
    const events::ValueSample& sample = m_samples[std::size_t(index)];
    auto curve = events::decodePrCurve(*sample.value, m_tag.toStdString());
    if (!curve) {
        m_caption->setText(tr("Step %1: %2").arg(sample.step).arg(QString::fromStdString(curve.error().message())));
        return;
    }
    m_curve = std::move(*curve);
    QList<QPointF> points;
    for (std::size_t i = 0; i < m_curve->thresholds(); ++i)
        points.append(QPointF(m_curve->recall[i], m_curve->precision[i]));
    m_series->replace(points);
    m_caption->setText(tr("Step %1 · %2 thresholds").arg(sample.step).arg(m_curve->thresholds()));
}

QString PrCurveCard::pointText(int index) const
{
    if (!m_curve || index < 0 || static_cast<std::size_t>(index) >= m_curve->thresholds())
        return {};
    const auto i = static_cast<std::size_t>(index);
    const QLocale locale;
    auto count = [&](double v) { return locale.toString(v, 'f', std::abs(v - std::round(v)) < 1e-9 ? 0 : 2); };
    return tr("threshold %1\nprecision %2, recall %3\nTP %4, FP %5, TN %6, FN %7")
        .arg(locale.toString(m_curve->threshold(i), 'f', 3), locale.toString(m_curve->precision[i], 'g', 4),
             locale.toString(m_curve->recall[i], 'g', 4), count(m_curve->truePositives[i]),
             count(m_curve->falsePositives[i]), count(m_curve->trueNegatives[i]), count(m_curve->falseNegatives[i]));
}

PrCurvesView::PrCurvesView(QWidget* parent) : RunCardsView(420, parent)
{
    retranslateUi();
}

QString PrCurvesView::emptyText() const
{
    return tr("No PR curves. Write pr_curves summaries (tensorboard.summary.pr_curve, or PyTorch's "
              "SummaryWriter.add_pr_curve) to the log directory.");
}

void PrCurvesView::styleCards()
{
    styleRunCards<PrCurveCard>(*m_grid, m_runs);
}

PrCurveCard* PrCurvesView::card(const QString& tag, const QString& run) const
{
    return runCard<PrCurveCard>(*m_grid, tag, run);
}

void PrCurvesView::setCurves(const QString& run, const QString& tag, std::vector<events::ValueSample> samples)
{
    setRunCardSamples<PrCurveCard>(*m_grid, m_runs, run, tag, std::move(samples));
}

} // namespace tstudio::dashboard
