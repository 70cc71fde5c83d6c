// Chrome trace JSON (chrome://tracing, Perfetto) as TensorFlow 1.x's client/timeline.py writes it:
// ProfileTrace to JSON text and back.
#pragma once

#include "core/expected.h"
#include "profiler/profile_trace.h"

#include <string>
#include <string_view>
#include <vector>

namespace tstudio::profiler {

struct ChromeTraceOptions {
    /// Flow events ("s"/"t", cat "DataFlow") from each producer to each consumer on another lane.
    bool showDataflow = true;
    /// Tensor object events ("N"/"O"/"D" on the "<device> Tensors" processes) and the allocators'
    /// counter events ("C" on the "Allocators" process).
    bool showMemory = false;
    /// Extra args that let parseChromeTrace give the same trace back: on op events "step", "frame"
    /// and "iteration" (an op inside a tf.while_loop), "outputs"
    /// ([[slot, dtype, [dims] or null, requested bytes], ...]), "requested_bytes", "peak_bytes",
    /// "residual_bytes" (when not 0); "thread_name" metadata events for the lanes (args "name",
    /// "lane_kind", "thread_id"); with showMemory, "allocator_pids" on the Allocators' process_name
    /// args. Chrome and Perfetto ignore args they do not know.
    bool tensorStudioArgs = true;
    /// json.dumps(indent=4, separators=(',', ': ')) as Timeline.generate_chrome_trace_format writes it;
    /// false: compact (separators (',', ':')), a third of the size.
    bool pretty = false;
};

/// Timeline.generate_chrome_trace_format(show_dataflow, show_memory) of the trace: {"traceEvents": [...]}
/// with the metadata first, keys in TensorFlow's order, strings escaped as Python's json (ASCII only).
/// - "process_name" metadata ("ph": "M"): pid 0 "Allocators", then per device "<device> Compute" and
///   "<device> Tensors" (pids 1, 2, 3, ...).
/// - One complete event per TraceEvent, device by device in time order: {"ph": "X", "cat": "Op", "name":
///   <op>, "pid": <Compute pid>, "tid": <the lane's index among its device's lanes>, "ts", "dur", "args":
///   {"name": <node>, "op": <op>, "input0": ..., ...}} (no inputs on GPU stream lanes), each followed
///   (showDataflow) by a flow "s" at the producer's end and "t" at the event's start for each input whose
///   producer ran on another lane of the same step (tensor names "node" / "node:k" with k the output's
///   position; an input "x/_12" falls back to "x", as in TensorFlow).
/// - showMemory: "N" (at the producer's start) and "O" (1 us before its end, args.snapshot.
///   tensor_description in protobuf text format without quotes) per output before the ops; afterwards
///   "D" per tensor at its last use and the memory counters' samples as "C" events
///   {"cat": "Memory", "name": <allocator>, "pid": 0, "tid": 0, "args": {<allocator>: bytes}}.
/// Times are microseconds since the epoch (originNs + startNs): integers when whole, else with the
/// nanoseconds as up to three decimals.
std::string chromeTraceJson(const ProfileTrace& trace, const ChromeTraceOptions& options);

/// Reads Chrome trace JSON: an object with a "traceEvents" array, or a bare array (whose closing ']' may
/// be missing, as the format allows).
/// - "X" complete events and "B"/"E" pairs per (pid, tid) (nested; an "E" closes the latest open "B"; the
///   "B" gives name and args) are ops (a missing "tid" is 0). The node is args.name (else the event name), the op
///   args.op (else the event name), the inputs args.input0, input1, ...
/// - "M" process_name / thread_name name devices and lanes: a process "<device> Compute" is the device
///   "<device>"; TensorFlow's "<device> Tensors" and "Allocators" processes hold no ops; an unnamed
///   process is the device "pid <pid>". Devices in pid order; a device's lanes by tid, split into
///   sub-lanes where events overlap (packLanes).
/// - "C" counters are memory counters, one per (name, arg): named by the event name when it has one
///   numeric arg, else "<name> <arg>".
/// - Flow, object, instant, async and other events are skipped, and so is an empty object (TensorFlow's
///   profiler writes one after its last event).
/// - ts and dur are microseconds (integers or decimals, exact to the nanosecond); pid and tid integers or
///   strings. TensorStudio's args (ChromeTraceOptions::tensorStudioArgs) restore steps, outputs, bytes
///   and lane kinds; without them the whole trace is one step, number 0.
/// Errors (InvalidArgument, naming `sourceName`): not JSON (simdjson's message and the byte offset), no
/// "traceEvents" array, an event that is not an object or has no "ph", ts/dur/pid/tid of the wrong type,
/// a dur below 0, a ts or dur beyond 1e15 us. An "E" without an open "B", and a "B" never closed, are
/// not errors: they are skipped and, when `warnings` is given, reported there.
Expected<ProfileTrace> parseChromeTrace(std::string_view json, const std::string& sourceName,
                                        std::vector<std::string>* warnings = nullptr);
/// As above, parsing `json` in place (it is padded, not copied: no second copy of a large file).
Expected<ProfileTrace> parseChromeTrace(std::string&& json, const std::string& sourceName,
                                        std::vector<std::string>* warnings = nullptr);

} // namespace tstudio::profiler
