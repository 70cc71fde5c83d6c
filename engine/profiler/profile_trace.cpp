// ProfileTrace: the queries every reader of a trace needs.
#include "profiler/profile_trace.h"

#include <algorithm>

namespace tstudio::profiler {

std::int64_t ProfileTrace::endNs() const
{
    std::int64_t end = 0;
    for (const TraceEvent& event : events)
        end = std::max(end, event.startNs + event.durationNs);
    return end;
}

std::uint32_t ProfileTrace::findNode(const std::string& name) const
{
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].name == name)
            return static_cast<std::uint32_t>(i);
    return kNoIndex;
}

std::uint32_t ProfileTrace::internFrame(const std::string& name)
{
    for (std::size_t i = 0; i < frames.size(); ++i)
        if (frames[i] == name)
            return static_cast<std::uint32_t>(i);
    frames.push_back(name);
    return static_cast<std::uint32_t>(frames.size() - 1);
}

} // namespace tstudio::profiler
