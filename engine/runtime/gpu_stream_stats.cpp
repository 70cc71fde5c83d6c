// GPU activity records to TensorFlow's stream pseudo-devices.
#include "runtime/gpu_stream_stats.h"

#include "runtime/step_stats_collector.h"

#include <algorithm>
#include <map>
#include <vector>

namespace tstudio {

namespace {

std::string label(const GpuActivityRecord& record, const std::string& annotation)
{
    std::string text = record.name;
    if (record.kind == GpuActivityRecord::Kind::kKernel) {
        text += " grid:[" + std::to_string(record.grid[0]) + "," + std::to_string(record.grid[1]) + "," +
                std::to_string(record.grid[2]) + "] block:[" + std::to_string(record.block[0]) + "," +
                std::to_string(record.block[1]) + "," + std::to_string(record.block[2]) + "]";
    } else {
        text += " " + std::to_string(record.bytes) + " bytes";
    }
    if (!annotation.empty())
        text += "@@" + annotation + "#";
    return text;
}

} // namespace

std::int64_t appendGpuStreamStats(const GpuActivity& activity,
                                  const std::function<std::optional<std::string>(std::uint32_t ordinal)>& gpuName,
                                  const std::function<std::optional<GpuTaggedNode>(std::uint64_t tag)>& nodeOfTag,
                                  tensorflow::StepStats* out)
{
    // Records of each GPU in start order (CUPTI delivers them per buffer, not in time order).
    std::map<std::uint32_t, std::vector<const GpuActivityRecord*>> byGpu;
    for (const GpuActivityRecord& record : activity.records)
        byGpu[record.device].push_back(&record);

    std::int64_t added = 0;
    for (auto& [ordinal, records] : byGpu) {
        const std::optional<std::string> name = gpuName(ordinal);
        if (!name)
            continue;
        std::stable_sort(records.begin(), records.end(),
                         [](const GpuActivityRecord* a, const GpuActivityRecord* b) { return a->startNs < b->startNs; });
        tensorflow::DeviceStepStats* all = out->add_dev_stats();
        all->set_device(*name + "/stream:all");
        std::map<std::uint32_t, tensorflow::DeviceStepStats*> streams;
        tensorflow::DeviceStepStats* copies = nullptr;
        for (const GpuActivityRecord* record : records) {
            tensorflow::NodeExecStats stats;
            std::string annotation;
            if (record->tag != 0)
                if (std::optional<GpuTaggedNode> node = nodeOfTag(record->tag))
                    annotation = node->name + ":" + node->op;
            stats.set_node_name(annotation.empty() ? record->name : annotation);
            stats.set_timeline_label(label(*record, annotation));
            const std::int64_t start = traceWallNanos(activity.toSteady(record->startNs));
            // At least a microsecond, as TensorFlow's tracer: a zero-length record would not show.
            const std::int64_t duration =
                std::max<std::int64_t>(static_cast<std::int64_t>(record->endNs) - static_cast<std::int64_t>(record->startNs), 1000);
            stats.set_all_start_micros(start / 1000);
            stats.set_all_start_nanos(start);
            stats.set_op_start_rel_micros(0);
            stats.set_op_end_rel_micros(duration / 1000);
            stats.set_op_end_rel_nanos(duration);
            stats.set_all_end_rel_micros(duration / 1000);
            stats.set_all_end_rel_nanos(duration);
            *all->add_node_stats() = stats;
            ++added;
            tensorflow::DeviceStepStats*& stream = streams[record->stream];
            if (!stream) {
                stream = out->add_dev_stats();
                stream->set_device(*name + "/stream:" + std::to_string(record->stream));
            }
            *stream->add_node_stats() = stats;
            if (record->kind == GpuActivityRecord::Kind::kCopy) {
                if (!copies) {
                    copies = out->add_dev_stats();
                    copies->set_device(*name + "/memcpy");
                }
                *copies->add_node_stats() = stats;
            }
        }
    }
    return added;
}

} // namespace tstudio
