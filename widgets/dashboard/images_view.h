// ImagesView: the dashboard's images tab, an ImageCard per (tag, run) in tag-group sections.
#pragma once

#include "dashboard/run_cards_view.h"
#include "dashboard/run_style.h"
#include "io/events/event_accumulator.h"

#include <QString>
#include <QVector>
#include <QWidget>

#include <cstdint>
#include <vector>

class QCheckBox;
class QLabel;
class QSlider;

namespace tstudio::dashboard {

class ImageCard;
class TagCardGrid;

/// Cards keyed by (tag, run), filtered by tag; hidden runs' cards are left out but keep their
/// slider positions; setImages replaces one card's samples (live data: cheap, slider stays put
/// unless it was at the newest step). Above the cards, "One step for all cards" links them: one
/// slider over every step any card has moves each card to its last sample at or before that step
/// (so runs logged at different steps line up); new data moves it only when it was at the newest.
class ImagesView : public RunCardsView {
    Q_OBJECT
public:
    explicit ImagesView(QWidget* parent = nullptr);
    /// Replaces the samples of (tag, run) (live data: cheap, the card's slider stays put unless it
    /// was at the newest step).
    void setImages(const QString& run, const QString& tag, std::vector<events::ValueSample> samples);
    ImageCard* card(const QString& tag, const QString& run) const;
    void removeRun(const QString& run) override;

    /// Links every card to one step slider (or lets each card keep its own again).
    void setStepsLinked(bool linked);
    bool stepsLinked() const { return m_linked; }
    /// Every step any card has, ascending (the linked slider's positions).
    const std::vector<std::int64_t>& linkedSteps() const { return m_steps; }
    /// Moves the linked slider to the last position at or before `step` (when linked).
    void showLinkedStep(std::int64_t step);
    QSlider* linkedStepSlider() const { return m_stepSlider; }

protected:
    QString emptyText() const override;
    void styleCards() override;
    void changeEvent(QEvent* event) override;

private:
    void updateLinkedSteps();
    void applyLinkedStep();
    void retranslateBar();

    bool m_linked = false;
    std::vector<std::int64_t> m_steps;
    QCheckBox* m_linkBox = nullptr;
    QSlider* m_stepSlider = nullptr;
    QLabel* m_stepLabel = nullptr;
};

} // namespace tstudio::dashboard
