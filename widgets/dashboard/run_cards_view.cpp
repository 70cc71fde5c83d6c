// RunCardsView: the grid, the run styles and the translated empty text of the per-(tag, run) views.
#include "dashboard/run_cards_view.h"

#include "dashboard/tag_card_grid.h"

#include <QEvent>
#include <QVBoxLayout>

namespace tstudio::dashboard {

RunCardsView::RunCardsView(int cardWidth, QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_grid = new TagCardGrid(this);
    m_grid->setCardWidth(cardWidth);
    layout->addWidget(m_grid);
}

void RunCardsView::addBar(QWidget* bar)
{
    static_cast<QVBoxLayout*>(layout())->insertWidget(0, bar);
}

void RunCardsView::setRuns(const QVector<RunStyle>& runs)
{
    m_runs = runs;
    styleCards();
}

void RunCardsView::removeRun(const QString& run)
{
    const QString suffix = QLatin1Char('\n') + run;
    for (const QString& key : m_grid->keys())
        if (key.endsWith(suffix) && key.indexOf(QLatin1Char('\n')) == key.size() - suffix.size())
            m_grid->removeCard(key);
}

void RunCardsView::retranslateUi()
{
    m_grid->setEmptyText(emptyText());
}

void RunCardsView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace tstudio::dashboard
