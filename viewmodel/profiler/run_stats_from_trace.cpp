// runStatsFromTrace: sums per node over a ProfileTrace.
#include "profiler/run_stats_from_trace.h"

#include <algorithm>

namespace tstudio::profiler {

graph_viewer::RunStats runStatsFromTrace(const ProfileTrace& trace)
{
    graph_viewer::RunStats stats;
    std::vector<bool> counted(trace.devices.size(), false);
    for (const TraceLane& lane : trace.lanes) {
        if (lane.device >= trace.devices.size())
            continue;
        const std::string& device = trace.devices[lane.device].name;
        if (lane.kind == LaneKind::Stream) {
            if (!counted[lane.device])
                stats.ignoredDevices.push_back(device);
            counted[lane.device] = true;
            continue;
        }
        if (!counted[lane.device])
            stats.devices.push_back(device);
        counted[lane.device] = true;
        for (std::uint32_t e = lane.firstEvent; e < lane.firstEvent + lane.eventCount; ++e) {
            const TraceEvent& event = trace.events[e];
            if (event.node >= trace.nodes.size())
                continue;
            graph_viewer::NodeRunStats& node = stats.byNode[trace.nodes[event.node].name];
            const std::int64_t startMicros = (trace.originNs + event.startNs) / 1000;
            const std::int64_t endMicros = (trace.originNs + event.startNs + event.durationNs) / 1000;
            if (node.occurrences == 0) {
                node.device = device;
                node.firstStartMicros = startMicros;
                node.lastEndMicros = endMicros;
            }
            node.firstStartMicros = std::min(node.firstStartMicros, startMicros);
            node.lastEndMicros = std::max(node.lastEndMicros, endMicros);
            node.computeMicros += static_cast<double>(event.durationNs) / 1000.0;
            node.outputBytes += event.outputBytes;
            node.peakBytes += event.peakBytes;
            node.allocatedBytes += std::max<std::int64_t>(0, event.requestedBytes);
            ++node.occurrences;
            stats.totalMicros += static_cast<double>(event.durationNs) / 1000.0;
            stats.totalBytes += event.outputBytes;
        }
    }
    return stats;
}

} // namespace tstudio::profiler
