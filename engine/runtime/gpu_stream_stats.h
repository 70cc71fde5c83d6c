// GPU stream records of a traced step: the kernels, copies and memsets CUPTI saw, as TensorFlow's
// GPU tracer puts them in RunMetadata.step_stats (pseudo-devices "<gpu>/stream:all",
// "<gpu>/stream:<id>" and "<gpu>/memcpy"), each named after the node whose kernel queued it.
#pragma once

#include "devices/gpu_activity.h"
#include "proto/step_stats.pb.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tstudio {

/// The node a GpuActivityTag stood for.
struct GpuTaggedNode {
    std::string name;
    std::string op;
};

/// Appends `activity`'s records to `out` as TensorFlow 1.x's GPU tracer does: each GPU's records
/// (in start order) under "<gpu>/stream:all" and again under "<gpu>/stream:<stream id>", copies
/// also under "<gpu>/memcpy"; `gpuName` gives a CUDA ordinal's device name (nullopt: the GPU is
/// not the session's, its records are left out). node_name is "<node>:<op>" of the tagged node (the
/// kernel's own name when untagged), timeline_label "<kernel> grid:[x,y,z] block:[x,y,z]@@<node>:<op>#"
/// for kernels and "<copy> <bytes> bytes@@<node>:<op>#" for copies and memsets. Starts are wall-clock
/// time on the clock of the host's node records (traceWallNanos). Returns how many records it added
/// to the stream:all devices.
std::int64_t appendGpuStreamStats(const GpuActivity& activity,
                                  const std::function<std::optional<std::string>(std::uint32_t ordinal)>& gpuName,
                                  const std::function<std::optional<GpuTaggedNode>(std::uint64_t tag)>& nodeOfTag,
                                  tensorflow::StepStats* out);

} // namespace tstudio
