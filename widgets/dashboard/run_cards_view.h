// RunCardsView: the base of the dashboard views that show one card per (tag, run): images, text, audio.
#pragma once

#include "dashboard/run_style.h"

#include <QString>
#include <QVector>
#include <QWidget>

namespace tstudio::dashboard {

class TagCardGrid;

/// A TagCardGrid of cards keyed by (tag, run) (run_cards.h), the run styles pushed to every card,
/// and the grid's empty text, translated. Subclasses add their data setter and card type.
class RunCardsView : public QWidget {
    Q_OBJECT
public:
    /// Colours and visibility of the runs: each card takes its run's colour; hidden runs' cards are
    /// left out but keep their state.
    void setRuns(const QVector<RunStyle>& runs);
    TagCardGrid* grid() const { return m_grid; }
    /// Removes every card of `run` (its files are gone).
    virtual void removeRun(const QString& run);

protected:
    RunCardsView(int cardWidth, QWidget* parent);
    void changeEvent(QEvent* event) override;
    /// Puts `bar` above the grid (a subclass's controls).
    void addBar(QWidget* bar);
    /// Sets the grid's empty text; subclasses call it at the end of their constructor.
    void retranslateUi();
    /// The text shown when there is no card (translated).
    virtual QString emptyText() const = 0;
    /// Applies m_runs to the cards (styleRunCards with the subclass's card type).
    virtual void styleCards() = 0;

    TagCardGrid* m_grid = nullptr;
    QVector<RunStyle> m_runs;
};

} // namespace tstudio::dashboard
