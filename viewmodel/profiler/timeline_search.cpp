// TimelineSearch: node and op name matching with QRegularExpression, and the match cursor.
#include "profiler/timeline_search.h"

#include <QRegularExpression>

#include <algorithm>

namespace tstudio::profiler::timeline {

void TimelineSearch::clear()
{
    m_mask.reset();
    m_matches.clear();
    m_current = -1;
    m_error.clear();
}

void TimelineSearch::run(const TimelineIndex* index, const QString& text, bool regex, std::uint32_t step)
{
    clear();
    if (!index || text.isEmpty())
        return;
    const QRegularExpression pattern(regex ? text : QRegularExpression::escape(text),
                                     QRegularExpression::CaseInsensitiveOption);
    const auto& nodes = index->trace().nodes;
    auto mask = std::make_shared<std::vector<char>>(nodes.size(), 0);
    if (!pattern.isValid()) {
        m_error = pattern.errorString();
    } else {
        for (std::size_t i = 0; i < nodes.size(); ++i)
            (*mask)[i] = pattern.match(QString::fromStdString(nodes[i].name)).hasMatch() ||
                         pattern.match(QString::fromStdString(nodes[i].op)).hasMatch();
    }
    m_matches = index->eventsOfNodes(*mask);
    if (step != kNoIndex) {
        const auto& events = index->trace().events;
        std::erase_if(m_matches, [&](std::uint32_t e) { return events[e].step != step; });
    }
    m_mask = std::move(mask);
}

std::uint32_t TimelineSearch::currentEvent() const
{
    return m_current >= 0 && std::size_t(m_current) < m_matches.size() ? m_matches[std::size_t(m_current)] : kNoIndex;
}

std::uint32_t TimelineSearch::next()
{
    if (m_matches.empty())
        return kNoIndex;
    m_current = m_current < 0 ? 0 : (m_current + 1) % int(m_matches.size());
    return currentEvent();
}

std::uint32_t TimelineSearch::previous()
{
    if (m_matches.empty())
        return kNoIndex;
    m_current = m_current <= 0 ? int(m_matches.size()) - 1 : m_current - 1;
    return currentEvent();
}

void TimelineSearch::setCurrentEvent(std::uint32_t event)
{
    const auto it = std::find(m_matches.begin(), m_matches.end(), event);
    if (it != m_matches.end())
        m_current = int(it - m_matches.begin());
}

} // namespace tstudio::profiler::timeline
