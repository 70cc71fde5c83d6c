// RunStats: one pass over StepStats' per-device node records, summed by node name.
#include "graph_viewer/run_stats.h"

#include "io/proto_parse.h"
#include "proto/config.pb.h"
#include "proto/step_stats.pb.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace tstudio::graph_viewer {
namespace {

/// A real device's full name ends "device:<TYPE>:<N>" (TensorBoard's rule for the devices it shows);
/// GPU tracers add pseudo-devices "<device>/stream:all", "<device>/stream:N" and "<device>/memcpy".
bool isRealDevice(std::string_view name)
{
    const std::size_t at = name.rfind("device:");
    if (at == std::string_view::npos)
        return false;
    const std::string_view rest = name.substr(at + 7); // "<TYPE>:<N>"
    const std::size_t colon = rest.find(':');
    if (colon == 0 || colon == std::string_view::npos || colon + 1 == rest.size())
        return false;
    if (rest.substr(0, colon).find('/') != std::string_view::npos)
        return false;
    return std::all_of(rest.begin() + static_cast<std::ptrdiff_t>(colon) + 1, rest.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

std::string_view nodeNameOf(std::string_view recorded)
{
    const std::size_t colon = recorded.find(':');
    return colon == std::string_view::npos ? recorded : recorded.substr(0, colon);
}

double computeMicrosOf(const tensorflow::NodeExecStats& stats)
{
    if (stats.all_end_rel_nanos() > 0)
        return static_cast<double>(stats.all_end_rel_nanos()) / 1000.0;
    if (stats.all_end_rel_micros() > 0)
        return static_cast<double>(stats.all_end_rel_micros());
    if (stats.op_end_rel_nanos() > stats.op_start_rel_nanos())
        return static_cast<double>(stats.op_end_rel_nanos() - stats.op_start_rel_nanos()) / 1000.0;
    if (stats.op_end_rel_micros() > stats.op_start_rel_micros())
        return static_cast<double>(stats.op_end_rel_micros() - stats.op_start_rel_micros());
    return 0;
}

} // namespace

RunStats runStatsFromStepStats(const tensorflow::StepStats& stepStats)
{
    RunStats out;
    for (const tensorflow::DeviceStepStats& device : stepStats.dev_stats()) {
        if (!isRealDevice(device.device())) {
            out.ignoredDevices.push_back(device.device());
            continue;
        }
        out.devices.push_back(device.device());
        for (const tensorflow::NodeExecStats& stats : device.node_stats()) {
            NodeRunStats& node = out.byNode[std::string(nodeNameOf(stats.node_name()))];
            if (node.occurrences++ == 0)
                node.device = device.device();
            const double micros = computeMicrosOf(stats);
            node.computeMicros += micros;
            out.totalMicros += micros;
            for (const tensorflow::NodeOutput& output : stats.output()) {
                const std::int64_t bytes = output.tensor_description().allocation_description().requested_bytes();
                node.outputBytes += bytes;
                out.totalBytes += bytes;
            }
            for (const tensorflow::AllocatorMemoryUsed& memory : stats.memory()) {
                node.peakBytes += memory.peak_bytes();
                if (memory.total_bytes() > 0)
                    node.allocatedBytes += memory.total_bytes();
            }
            if (stats.all_end_rel_micros() >= 0) {
                const std::int64_t start = stats.all_start_micros();
                const std::int64_t end = start + stats.all_end_rel_micros();
                const bool first = node.firstStartMicros == 0 && node.lastEndMicros == 0;
                node.firstStartMicros = first ? start : std::min(node.firstStartMicros, start);
                node.lastEndMicros = first ? end : std::max(node.lastEndMicros, end);
            }
        }
    }
    return out;
}

Expected<RunStats> runStatsFromRunMetadata(const std::string& serializedRunMetadata)
{
    tensorflow::RunMetadata metadata;
    if (!parseBinaryProto(serializedRunMetadata, metadata))
        return unexpected(
            dataLossError("RunMetadata is not valid (" + std::to_string(serializedRunMetadata.size()) + " bytes)"));
    return runStatsFromStepStats(metadata.step_stats());
}

} // namespace tstudio::graph_viewer
