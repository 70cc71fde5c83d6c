// StepStatsCollector: per-node timing, outputs and memory of one traced step (RunMetadata.step_stats).
#pragma once

#include "framework/allocator.h"
#include "framework/device.h"
#include "framework/op_kernel.h"
#include "proto/node_def.pb.h"
#include "proto/step_stats.pb.h"

#include <google/protobuf/arena.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {

/// Wall-clock nanoseconds (since the Unix epoch) of a steady-clock instant, as every traced record
/// states its start: both clocks are read together once per process.
std::int64_t traceWallNanos(std::chrono::steady_clock::time_point at);

/// The record of one node execution, filled in place as it runs. Created only when a step is
/// traced, so an untraced step makes no clock calls at all. The record lives on the collector's
/// arena (the RunMetadata's, when the caller put it on one), so filling it costs no heap
/// allocations beyond long strings.
class NodeStatsRecorder {
public:
    /// Records all_start (wall clock), the thread and the timeline label
    /// "<node> = <Op>(<in0>, <in1>)" (NodeDef inputs, control inputs included, as TensorFlow).
    NodeStatsRecorder(const tensorflow::NodeDef& node, google::protobuf::Arena* arena);
    ~NodeStatsRecorder();
    NodeStatsRecorder(const NodeStatsRecorder&) = delete;
    NodeStatsRecorder& operator=(const NodeStatsRecorder&) = delete;

    void opStart();
    void opEnd();
    /// Describes output `slot`: dtype, shape and allocation_description (requested_bytes,
    /// allocated_bytes, allocator_name).
    void addOutput(int slot, const Tensor& value, const std::string& allocatorName);
    /// One AllocatorMemoryUsed entry: the bytes this node's outputs newly allocated (total and
    /// live), the peak above the level before the node, and the allocator's bytes in use after it.
    void setMemory(const std::string& allocatorName, std::int64_t totalBytes, std::int64_t peakBytes,
                   std::int64_t liveBytes, std::int64_t allocatorBytesInUse);
    /// Sets all_end_rel and hands the record over (on the arena it was created on; the caller
    /// owns it when that arena is null).
    tensorflow::NodeExecStats* finish();

    /// A small number naming the calling thread (stable for the thread's life).
    static std::uint32_t currentThreadId();

private:
    std::int64_t relNanos() const;

    tensorflow::NodeExecStats* m_stats;
    bool m_owned; ///< heap record not yet handed over
    std::chrono::steady_clock::time_point m_start;
};

/// Where a node inside a tf.while_loop ran: the loop's frame ("while/while_context"; the innermost
/// one in nested loops) and the iteration within it (0, 1, ...).
struct LoopPosition {
    std::string frame;
    std::int64_t iteration = 0;

    bool operator==(const LoopPosition&) const = default;
};

/// TensorFlow's NodeExecStats has no field for the loop position, so a record of a node inside a
/// loop carries it as two fields that TensorFlow's proto does not define: kLoopFrameField (string)
/// and kLoopIterationField (varint). They stay on the wire (proto3 keeps unknown fields through
/// parsing, copying and serialising), and TensorFlow's readers, TensorBoard's and our own older ones
/// skip them, so RunMetadata stays readable by TensorFlow. The numbers are far above TensorFlow's
/// (1..17) so that a future TensorFlow field cannot take them.
inline constexpr int kLoopFrameField = 10001;
inline constexpr int kLoopIterationField = 10002;

/// Marks `stats` as an execution of a node in loop frame `frame`, iteration `iteration` (replaces an
/// earlier mark). An empty frame (outside every loop) leaves the record unmarked.
void setLoopPosition(tensorflow::NodeExecStats* stats, const std::string& frame, std::int64_t iteration);
/// The loop position setLoopPosition wrote, or nullopt for a record outside loops (or one written by
/// TensorFlow). A record whose marks are malformed (wrong wire types) gives nullopt.
std::optional<LoopPosition> loopPositionOf(const tensorflow::NodeExecStats& stats);

/// Collects the records of one step by device. Thread-safe.
class StepStatsCollector {
public:
    /// One DeviceStepStats per device, in this order, named by the device's full name. Records
    /// are created on `arena` (null: the heap); finish() moves them without copying into a
    /// StepStats on the same arena.
    StepStatsCollector(const std::vector<Device*>& devices, google::protobuf::Arena* arena);
    ~StepStatsCollector();
    StepStatsCollector(const StepStatsCollector&) = delete;
    StepStatsCollector& operator=(const StepStatsCollector&) = delete;

    /// Where NodeStatsRecorders of this step create their records.
    google::protobuf::Arena* arena() const { return m_arena; }
    /// Takes the record from NodeStatsRecorder::finish().
    void add(int deviceIndex, tensorflow::NodeExecStats* stats);
    /// Appends the collected DeviceStepStats to `out` (records in the order they were added).
    void finish(tensorflow::StepStats* out);

private:
    google::protobuf::Arena* m_arena;
    std::mutex m_mutex;
    std::vector<tensorflow::DeviceStepStats*> m_devices; ///< owned when m_arena is null
};

} // namespace tstudio
