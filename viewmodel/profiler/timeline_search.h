// TimelineSearch: finds the executions whose node name or op type matches a substring or regular expression,
// in time order, and steps through them (next / previous with wrap-around).
#pragma once

#include "profiler/timeline_index.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace tstudio::profiler::timeline {

class TimelineSearch {
public:
    /// Runs a search over `index` (nothing when null or `text` is empty). Case-insensitive. With `regex` the
    /// text is a QRegularExpression pattern; an invalid one matches nothing and sets errorText(). With
    /// `step` != kNoIndex only that step's executions count.
    void run(const TimelineIndex* index, const QString& text, bool regex, std::uint32_t step = kNoIndex);
    void clear();

    bool active() const { return m_mask != nullptr; }
    const QString& errorText() const { return m_error; }
    /// Per node: 1 when the node matches (null when no search is active).
    const std::shared_ptr<const std::vector<char>>& nodeMask() const { return m_mask; }
    /// Matching executions, by start then lane.
    const std::vector<std::uint32_t>& matches() const { return m_matches; }
    /// The position of the current match in matches(), or -1 before next()/previous() was used.
    int current() const { return m_current; }
    std::uint32_t currentEvent() const;

    /// Moves to the next match (the first one after a new search) and returns its event; wraps at the end.
    std::uint32_t next();
    /// Moves to the previous match (the last one after a new search); wraps at the start.
    std::uint32_t previous();
    /// Makes the match holding `event` current, if there is one.
    void setCurrentEvent(std::uint32_t event);

private:
    std::shared_ptr<const std::vector<char>> m_mask;
    std::vector<std::uint32_t> m_matches;
    int m_current = -1;
    QString m_error;
};

} // namespace tstudio::profiler::timeline
