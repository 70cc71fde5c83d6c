// RunStats: compute time and memory per node of one traced step (RunMetadata.step_stats), for colouring
// the graph viewer by cost (Qt-free).
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace tensorflow {
class StepStats;
}

namespace tstudio::graph_viewer {

struct NodeRunStats {
    /// Sum over the node's executions (loop iterations, several devices) of all_end_rel (all_end_rel_nanos
    /// when set, else micros); op_end_rel - op_start_rel where all_end_rel is 0. Negative spans are ignored.
    double computeMicros = 0;
    /// Sum of output[].tensor_description.allocation_description.requested_bytes.
    std::int64_t outputBytes = 0;
    /// Sum of memory[].peak_bytes.
    std::int64_t peakBytes = 0;
    /// Sum of memory[].total_bytes (positive ones): what TensorBoard's graph shows as the node's memory.
    std::int64_t allocatedBytes = 0;
    /// The device of its first record.
    std::string device;
    /// Records of this node (one per execution).
    int occurrences = 0;
    /// TensorBoard's compute time is the span from the first all_start to the last all_start + all_end_rel.
    std::int64_t firstStartMicros = 0;
    std::int64_t lastEndMicros = 0;
};

struct RunStats {
    /// By node name: a record's node_name up to its first ':' ("dense/MatMul:MatMul" in TF 2 traces is
    /// node "dense/MatMul"; a TF node name never holds ':').
    std::unordered_map<std::string, NodeRunStats> byNode;
    double totalMicros = 0;      ///< sum of computeMicros over nodes
    std::int64_t totalBytes = 0; ///< sum of outputBytes over nodes
    /// Devices whose records were counted, in step-stats order: names ending "device:<TYPE>:<N>".
    std::vector<std::string> devices;
    /// Devices left out, as TensorBoard leaves them out: GPU streams ("/device:GPU:0/stream:all",
    /// ".../stream:7") and copies (".../memcpy") that repeat the work of a real device's records.
    std::vector<std::string> ignoredDevices;
};

/// Parses a serialized RunMetadata and summarises its step_stats. DataLoss when the bytes are not a
/// RunMetadata ("RunMetadata is not valid (N bytes)"). A RunMetadata without step stats gives empty stats.
Expected<RunStats> runStatsFromRunMetadata(const std::string& serializedRunMetadata);

/// Summarises step stats (our Session's FULL_TRACE records, or TensorFlow's). Thread-safe, pure.
RunStats runStatsFromStepStats(const tensorflow::StepStats& stepStats);

} // namespace tstudio::graph_viewer
