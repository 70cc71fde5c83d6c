// ImagesView: creates and updates image cards per (tag, run) and applies run colours and visibility.
#include "images_view.h"

#include "dashboard/run_cards.h"
#include "dashboard/image_card.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>

namespace tstudio::dashboard {

ImagesView::ImagesView(QWidget* parent) : RunCardsView(360, parent)
{
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(4, 4, 4, 0);
    m_linkBox = new QCheckBox(bar);
    m_stepSlider = new QSlider(Qt::Horizontal, bar);
    m_stepSlider->setRange(0, 0);
    m_stepSlider->setEnabled(false);
    m_stepLabel = new QLabel(bar);
    m_stepLabel->setMinimumWidth(m_stepLabel->fontMetrics().horizontalAdvance(QStringLiteral("step 00000000")));
    row->addWidget(m_linkBox);
    row->addWidget(m_stepSlider, 1);
    row->addWidget(m_stepLabel);
    addBar(bar);
    connect(m_linkBox, &QCheckBox::toggled, this, &ImagesView::setStepsLinked);
    connect(m_stepSlider, &QSlider::valueChanged, this, [this] { applyLinkedStep(); });
    retranslateUi();
    retranslateBar();
}

void ImagesView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateBar();
    RunCardsView::changeEvent(event);
}

void ImagesView::retranslateBar()
{
    m_linkBox->setText(tr("One step for all cards"));
    m_linkBox->setToolTip(tr("Show every run's images at the same step (each card's last sample at or before it)"));
    const int i = m_stepSlider->value();
    m_stepLabel->setText(m_steps.empty() ? QString()
                                         : tr("step %1").arg(m_steps[static_cast<std::size_t>(std::max(i, 0))]));
}

void ImagesView::removeRun(const QString& run)
{
    RunCardsView::removeRun(run);
    updateLinkedSteps();
}

void ImagesView::setStepsLinked(bool linked)
{
    if (m_linkBox->isChecked() != linked)
        m_linkBox->setChecked(linked); // comes back here through toggled
    if (m_linked == linked)
        return;
    m_linked = linked;
    m_stepSlider->setEnabled(linked && m_steps.size() > 1);
    applyLinkedStep();
}

void ImagesView::showLinkedStep(std::int64_t step)
{
    const auto after = std::upper_bound(m_steps.begin(), m_steps.end(), step);
    m_stepSlider->setValue(after == m_steps.begin() ? 0 : static_cast<int>(after - m_steps.begin()) - 1);
}

void ImagesView::updateLinkedSteps()
{
    const bool atNewest = m_steps.empty() || m_stepSlider->value() == m_stepSlider->maximum();
    const std::int64_t shown = m_steps.empty() ? 0 : m_steps[static_cast<std::size_t>(m_stepSlider->value())];
    std::vector<std::int64_t> steps;
    for (const QString& key : m_grid->keys())
        if (auto* c = qobject_cast<ImageCard*>(m_grid->card(key))) {
            const std::vector<std::int64_t> s = c->steps();
            steps.insert(steps.end(), s.begin(), s.end());
        }
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    m_steps = std::move(steps);
    {
        const QSignalBlocker block(m_stepSlider);
        m_stepSlider->setRange(0, std::max(0, static_cast<int>(m_steps.size()) - 1));
        if (atNewest)
            m_stepSlider->setValue(m_stepSlider->maximum());
        else
            showLinkedStep(shown);
    }
    m_stepSlider->setEnabled(m_linked && m_steps.size() > 1);
    applyLinkedStep();
}

void ImagesView::applyLinkedStep()
{
    retranslateBar();
    if (!m_linked || m_steps.empty())
        return;
    const std::int64_t step = m_steps[static_cast<std::size_t>(std::max(m_stepSlider->value(), 0))];
    for (const QString& key : m_grid->keys())
        if (auto* c = qobject_cast<ImageCard*>(m_grid->card(key)))
            c->showStepAtOrBefore(step);
}

QString ImagesView::emptyText() const
{
    return tr("No image data. Write image summaries (tf.summary.image) to the log directory.");
}

void ImagesView::styleCards()
{
    styleRunCards<ImageCard>(*m_grid, m_runs);
}

ImageCard* ImagesView::card(const QString& tag, const QString& run) const
{
    return runCard<ImageCard>(*m_grid, tag, run);
}

void ImagesView::setImages(const QString& run, const QString& tag, std::vector<events::ValueSample> samples)
{
    setRunCardSamples<ImageCard>(*m_grid, m_runs, run, tag, std::move(samples));
    updateLinkedSteps();
}

} // namespace tstudio::dashboard
