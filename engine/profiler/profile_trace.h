// ProfileTrace: the recorded timeline of one or more traced steps (every op execution by device,
// lane and step, with its outputs and memory), compact enough for millions of events (Qt-free).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tstudio::profiler {

inline constexpr std::uint32_t kNoIndex = 0xffffffffu;

/// A device as a trace names it: a TensorFlow device name ("/job:localhost/replica:0/task:0/device:CPU:0",
/// also GPU stream pseudo-devices such as ".../device:GPU:0/stream:7"), or an imported trace's process
/// name when it names no device.
struct TraceDevice {
    std::string name;
    /// "CPU", "GPU" or "" when the name says neither. Accelerator time is time on "GPU" devices.
    std::string type;
};

/// Where a lane's events ran: a host thread, a GPU stream, or an imported trace's (pid, tid).
enum class LaneKind { Thread, Stream, Imported };

/// One horizontal track of the timeline. Invariant: the events of a lane do not overlap and are sorted
/// by start, so a viewport finds its first event by binary search on starts (or on ends).
struct TraceLane {
    std::uint32_t device = kNoIndex;
    LaneKind kind = LaneKind::Thread;
    /// What the lane shows as its title: "thread 3", "stream 7", or the imported thread name; sub-lanes
    /// made to keep events apart get " (2)", " (3)", ...
    std::string name;
    /// The thread id (or tid) the events came from.
    std::int64_t threadId = 0;
    /// Events [firstEvent, firstEvent + eventCount) of ProfileTrace::events.
    std::uint32_t firstEvent = 0;
    std::uint32_t eventCount = 0;
};

/// A graph node seen in the trace: its name, op type and inputs ("x", "y:1", "^ctrl"), from the timeline
/// label "node = Op(a, b)" or a Chrome event's args. One entry per distinct node name.
struct TraceNode {
    std::string name;
    std::string op;
    std::vector<std::string> inputs;
};

/// One output of one execution. The shape is interned in ProfileTrace::shapes.
struct TraceOutput {
    std::int32_t slot = 0;
    std::int32_t dtype = 0;           ///< tensorflow::DataType
    std::uint32_t shape = kNoIndex;   ///< index into ProfileTrace::shapes; kNoIndex = unknown
    std::int64_t requestedBytes = 0;
};

/// One execution of one node.
struct TraceEvent {
    std::int64_t startNs = 0;         ///< relative to ProfileTrace::originNs
    std::int64_t durationNs = 0;
    std::uint32_t node = kNoIndex;    ///< index into nodes
    std::uint32_t lane = kNoIndex;    ///< index into lanes
    std::uint32_t step = kNoIndex;    ///< index into steps
    std::uint32_t firstOutput = 0;    ///< outputs [firstOutput, firstOutput + outputCount)
    std::uint32_t outputCount = 0;
    /// The loop frame the execution ran in: an index into ProfileTrace::frames, kNoIndex outside loops.
    std::uint32_t frame = kNoIndex;
    /// From NodeExecStats.memory, summed over allocators: bytes the node requested (total_bytes), its
    /// peak above what was in use before it (peak_bytes) and what it left allocated (live_bytes).
    std::int64_t requestedBytes = 0;
    std::int64_t peakBytes = 0;
    std::int64_t residualBytes = 0;
    /// Sum of the outputs' requested bytes.
    std::int64_t outputBytes = 0;
    /// The iteration of `frame` (0 outside loops): a node in a loop body runs once per iteration.
    std::int64_t iteration = 0;

    bool inLoop() const { return frame != kNoIndex; }
};

/// One traced session run (a training step).
struct TraceStep {
    std::int64_t number = 0;          ///< the global step, or the run's index when unknown
    std::int64_t startNs = 0;         ///< first event start, relative to originNs
    std::int64_t endNs = 0;           ///< last event end
};

/// Bytes in use of one allocator over time: (time relative to originNs, bytes), sorted by time.
struct MemoryCounter {
    std::string allocator;
    std::uint32_t device = kNoIndex;
    std::vector<std::pair<std::int64_t, std::int64_t>> samples;
    std::int64_t peakBytes = 0;
};

struct ProfileTrace {
    /// Wall-clock time (ns since the epoch) of the earliest event; every time in the trace is relative to it.
    std::int64_t originNs = 0;
    std::vector<TraceDevice> devices;
    std::vector<TraceLane> lanes;       ///< grouped by device, in device order
    std::vector<TraceNode> nodes;
    std::vector<TraceEvent> events;     ///< grouped by lane (see TraceLane), each lane sorted by start
    std::vector<TraceOutput> outputs;
    std::vector<std::vector<std::int64_t>> shapes; ///< interned; -1 is an unknown dimension
    std::vector<TraceStep> steps;       ///< in time order
    std::vector<MemoryCounter> memory;
    /// Interned loop frame names ("while/while_context") that TraceEvent::frame points into.
    std::vector<std::string> frames;

    std::int64_t endNs() const;         ///< the latest event end (0 for an empty trace)
    std::uint32_t findNode(const std::string& name) const; ///< kNoIndex when absent (linear; build an index for many)
    /// The index of frame `name`, added when absent (linear: traces have few loops).
    std::uint32_t internFrame(const std::string& name);
};

} // namespace tstudio::profiler
