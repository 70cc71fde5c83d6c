// TimelineDetails: the timeline's details pane (the selected op's node, op, device, timing, outputs, memory,
// inputs and consumers as links; box-selection totals; the comparison of two steps by op type).
#pragma once

#include "profiler/timeline_index.h"

#include <QTextBrowser>

#include <memory>
#include <optional>

namespace tstudio::profiler::timeline {

class TimelineDetails : public QTextBrowser {
    Q_OBJECT
public:
    explicit TimelineDetails(QWidget* parent = nullptr);

    void setIndex(std::shared_ptr<const TimelineIndex> index);
    /// Shows one execution with its producers and consumers (as TimelineIndex computes them); kNoIndex clears.
    void setEvent(std::uint32_t event, const std::vector<DependencyLink>& producers,
                  const std::vector<DependencyLink>& consumers);
    std::uint32_t event() const { return m_event; }
    /// Shows the totals of a box selection when no event is selected; nullopt clears.
    void setSelectionTotals(std::optional<SelectionTotals> totals);
    const std::optional<SelectionTotals>& selectionTotals() const { return m_totals; }
    /// Adds the per-op-type comparison of steps `a` and `b` below the rest; kNoIndex for either clears it.
    void setComparison(std::uint32_t a, std::uint32_t b);

signals:
    /// An input or consumer link was clicked.
    void eventLinkActivated(std::uint32_t event);
    /// "Show in graph" was clicked.
    void nodeLinkActivated(const QString& nodeName);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    QString eventHtml() const;
    QString totalsHtml() const;
    QString comparisonHtml() const;

    std::shared_ptr<const TimelineIndex> m_index;
    std::uint32_t m_event = kNoIndex;
    std::vector<DependencyLink> m_producers;
    std::vector<DependencyLink> m_consumers;
    std::optional<SelectionTotals> m_totals;
    std::uint32_t m_stepA = kNoIndex;
    std::uint32_t m_stepB = kNoIndex;
    std::vector<OpTypeChange> m_changes;
};

} // namespace tstudio::profiler::timeline
