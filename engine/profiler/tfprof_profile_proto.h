// tfprof's ProfileProto: the profile tf.profiler.Profiler.serialize_to_string and ProfileContext
// write ("profile_<step>" files), written from a trace and read back into one (Qt-free).
#pragma once

#include "core/expected.h"
#include "profiler/profile_trace.h"
#include "proto/tfprof_log.pb.h"

#include <filesystem>
#include <optional>
#include <string>

namespace tensorflow {
class GraphDef;
}

namespace tstudio::profiler {

/// The ProfileProto of `trace`, as tfprof keeps a profile: one ProfileNode per graph node (id = its
/// position; name, op, inputs with src_output_index, input and output shapes of its first
/// execution, the device it ran on and its host) and, with `graph`, also the nodes that did not
/// run, their attrs and "shape"; float_ops of one execution by the float-op rules; per traced step
/// an ExecProfile: run_count (executions on canonical devices), all_start_micros and
/// latest_end_micros (wall clock), {start, duration} micros per execution in cpu_execs (canonical
/// devices, the GPU's scheduling too) or accelerator_execs (the GPU tracer's stream devices) by
/// device, one ExecMemory per canonical execution (requested, peak, residual and output bytes and
/// each output's bytes) and the devices. steps lists the traced step numbers.
tensorflow::tfprof::ProfileProto profileProtoFromTrace(const ProfileTrace& trace,
                                                       const tensorflow::GraphDef* graph = nullptr);

/// The trace a ProfileProto holds: each step of `steps` (or of the execs when steps is empty)
/// becomes one traced run whose records are the nodes' executions on their devices (memory
/// paired with the canonical executions in order), built as traceFromStepStats builds a trace.
/// Times have microsecond resolution; threads are not in the format (each device gets one lane
/// and sub-lanes where executions overlap). InvalidArgument naming `what` when no node has an
/// execution, or a node has no name.
Expected<ProfileTrace> traceFromProfileProto(const tensorflow::tfprof::ProfileProto& proto, const std::string& what);

/// The graph a ProfileProto describes: its nodes that carry attrs (by id) with their op, inputs
/// ("x", "y:1"; the format keeps control inputs as inputs) and attrs, and the "shape" attr from
/// ProfileNode.shape where the attrs have none. Enough for the float-op rules' attrs and the
/// parameters of its variables; nodes without attrs were not in the graph it was written with.
tensorflow::GraphDef graphFromProfileProto(const tensorflow::tfprof::ProfileProto& proto);

/// graphFromProfileProto of the file at `path` when it is a ProfileProto (parseProfileProto), else
/// nullopt (not one, or unreadable).
std::optional<tensorflow::GraphDef> readProfileProtoGraph(const std::filesystem::path& path);

/// Whether `bytes` are a binary ProfileProto: it parses and holds named nodes, at least one with an
/// execution (how a trace file is told apart from a RunMetadata).
bool parseProfileProto(const std::string& bytes, tensorflow::tfprof::ProfileProto& out);

/// profileProtoFromTrace serialized to `path` atomically.
Status writeProfileProto(const ProfileTrace& trace, const tensorflow::GraphDef* graph,
                         const std::filesystem::path& path);

} // namespace tstudio::profiler
