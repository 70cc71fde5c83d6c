// traceFromStepStats: ProfileTrace from the StepStats of traced runs (RunMetadata.step_stats), and the
// lane packing and interning that every trace reader shares.
#pragma once

#include "profiler/profile_trace.h"
#include "proto/step_stats.pb.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tstudio::profiler {

/// One traced run: its step number (the global step, or the run's index) and its RunMetadata.step_stats.
struct TracedStep {
    std::int64_t number = 0;
    tensorflow::StepStats stats;
};

/// The trace of one or more traced runs.
///
/// - Devices: DeviceStepStats.device, in first-seen order; the type from the name (traceDeviceType).
///   GPU tracer pseudo-devices (".../device:GPU:0/stream:7", "/gpu:0/stream:all", ".../memcpy") stay
///   devices of their own whose lanes are LaneKind::Stream.
/// - Nodes: NodeExecStats.node_name; a TF 2 name "name:Op" gives the node "name" and the op "Op". Op and
///   inputs come from timeline_label "name = Op(a, b)" as TensorFlow's timeline parses it; a label that
///   does not parse gives the op from "name:Op", else "unknown". A node's op and inputs are taken from
///   its first execution.
/// - Times: all_start_nanos when set, else all_start_micros * 1000; the duration all_end_rel_nanos when
///   set, else all_end_rel_micros * 1000. originNs is the earliest start.
/// - Lanes: one per (device, thread_id), titled by DeviceStepStats.thread_names or "thread <id>"
///   ("stream 7", "stream all", "memcpy" on stream devices); lanes of a device by thread id. Events that
///   overlap within a lane are spread over sub-lanes as TensorFlow's timeline assigns lanes: in start
///   order (a longer event first on equal starts), the first sub-lane whose last event ended strictly
///   before the start, else a new sub-lane ("thread 3 (2)", ...).
/// - Outputs: slot, dtype, shape (interned; kNoIndex for an unknown rank) and requested bytes of
///   NodeExecStats.output; outputBytes is their sum. requested/peak/residualBytes sum
///   total_bytes/peak_bytes/live_bytes of NodeExecStats.memory over allocators.
/// - Memory: one counter per allocator name (device: where it was first seen). Its samples are
///   (event end, allocator_bytes_in_use) of every memory entry; an allocator that never reports bytes
///   in use but has allocation_records gets (alloc_micros, running sum of alloc_bytes) instead.
///   Samples are sorted by time; peakBytes is their maximum.
/// - Loops: a record that setLoopPosition marked (runtime/step_stats_collector.h: a node inside a
///   tf.while_loop) gives its event the frame (interned in ProfileTrace::frames) and iteration; other
///   events have frame kNoIndex.
/// - Steps: one per TracedStep that recorded at least one event, start/end from its events, in time
///   order (runs without events, e.g. untraced ones, are left out).
/// Never fails: any StepStats gives a trace. Linear in the number of records (plus a sort per lane
/// whose records are out of order).
ProfileTrace traceFromStepStats(const std::vector<TracedStep>& steps);
/// One run as step `number`.
ProfileTrace traceFromStepStats(const tensorflow::StepStats& stats, std::int64_t number = 0);

/// "GPU" when the device name's type says GPU (device:GPU:0, /gpu:0, XLA_GPU), "CPU" likewise, else "".
std::string traceDeviceType(std::string_view deviceName);
/// True for the GPU tracer's pseudo-devices: the name holds "/stream:" or "/memcpy" (as TensorFlow's
/// timeline decides).
bool isStreamDevice(std::string_view deviceName);

/// A lane before packing: its events may overlap and be in any order.
struct LaneGroup {
    std::uint32_t device = kNoIndex;
    LaneKind kind = LaneKind::Thread;
    std::string name;
    std::int64_t threadId = 0;
};

/// Fills trace.lanes and trace.events from `events`, whose `lane` holds an index into `groups`. Groups
/// are ordered by device (stable: the given order within a device). Each group's events are sorted by
/// start (then by end, latest first) and spread over sub-lanes with the rule of traceFromStepStats;
/// sub-lane k > 0 is named "<name> (k+1)". Afterwards every lane is sorted and free of overlaps.
/// Groups without events give no lane. Events whose lane is out of range are dropped.
void packLanes(ProfileTrace& trace, const std::vector<LaneGroup>& groups, std::vector<TraceEvent> events);

/// Sets each step's start and end from its events and puts the steps in time order (renumbering
/// TraceEvent::step); steps without events are removed.
void finishSteps(ProfileTrace& trace);

/// Sorts each memory counter's samples by time (stable) and sets its peak.
void finishMemoryCounters(ProfileTrace& trace);

/// Interning of node names and shapes while a trace is built.
class TraceInterner {
public:
    explicit TraceInterner(ProfileTrace& trace) : m_trace(trace) {}

    /// The node named `name`, added (op "unknown", no inputs) when new; `*added` tells which.
    std::uint32_t node(std::string_view name, bool* added);
    /// The interned shape with these dimensions.
    std::uint32_t shape(const std::vector<std::int64_t>& dims);

private:
    struct NameHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view name) const noexcept { return std::hash<std::string_view>{}(name); }
    };
    struct DimsHash {
        std::size_t operator()(const std::vector<std::int64_t>& dims) const noexcept;
    };
    ProfileTrace& m_trace;
    std::unordered_map<std::string, std::uint32_t, NameHash, std::equal_to<>> m_nodes;
    std::unordered_map<std::vector<std::int64_t>, std::uint32_t, DimsHash> m_shapes;
};

/// TensorFlow's timeline label "name = Op(in0, in1)": the op and the inputs, or false when the label
/// has not that form.
bool parseTimelineLabel(std::string_view label, std::string* op, std::vector<std::string>* inputs);

} // namespace tstudio::profiler
