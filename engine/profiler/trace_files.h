// Trace files: reading a ProfileTrace from whatever holds one (Chrome trace JSON, plain or gzip; a binary
// or text RunMetadata; an event file or log directory with tagged run metadata), and writing Chrome JSON.
#pragma once

#include "core/expected.h"
#include "profiler/chrome_trace_json.h"
#include "profiler/profile_trace.h"

#include <atomic>
#include <cstdint>
#include <filesystem>

namespace tstudio::profiler {

/// The largest trace file read (after inflating a gzip file): 4 GiB - 1 - padding, simdjson's limit.
inline constexpr std::uint64_t kMaxTraceFileBytes = 0xffffffffull - 64;

/// Reads a trace, deciding by content, not by name:
/// - gzip (1f 8b): inflated, then read as below (TensorFlow's and Perfetto's traces are often .json.gz);
/// - JSON (first non-blank character '{' or '['): parseChromeTrace;
/// - a TFRecord file (a valid record header): an event file; every tagged_run_metadata record is a step,
///   numbered by its tag when the tag is "step_<N>", else by Event.step (readEventGraphs);
/// - otherwise a RunMetadata protobuf, binary or text (tf.RunMetadata written with SerializeToString or
///   as text), or a bare binary StepStats: its step_stats as step 0; or tfprof's binary ProfileProto
///   (traceFromProfileProto: its traced steps).
/// A directory is a log directory: the event files under it as above, runs in order.
/// Errors name the path: NotFound; ResourceExhausted for a file (or inflated content) larger than
/// kMaxTraceFileBytes; DataLoss for a damaged gzip stream; InvalidArgument for content that is none of
/// the above, a RunMetadata without step_stats, an event file or directory without run metadata, and
/// every parseChromeTrace error; Cancelled when `cancelled` becomes true (checked between chunks and
/// records). Damaged records of an event file are skipped, as readEventGraphs does.
/// Threads: a plain function; call it on a worker thread.
Expected<ProfileTrace> readTraceFile(const std::filesystem::path& path, const std::atomic<bool>* cancelled = nullptr);

/// Writes chromeTraceJson(trace, options) to `path` atomically (a temporary file renamed over it).
Status writeChromeTraceFile(const ProfileTrace& trace, const std::filesystem::path& path,
                            const ChromeTraceOptions& options);

} // namespace tstudio::profiler
