// pprofProfile: a profile table's name-scope tree as pprof's profile format (gzip-compressed
// perftools.profiles.Profile), which `go tool pprof` and `pprof` read: flame graphs, call graphs
// and top lists of graph nodes by name scope (tfprof's `-output pprof:outfile=FILE`).
#pragma once

#include "core/expected.h"
#include "profiler/profile_tables.h"

#include <filesystem>
#include <string>
#include <vector>

namespace tstudio::profiler {

struct PprofOptions {
    /// The quantity after the count, as tfprof's select (its first in name order): micros,
    /// accelerator_micros, cpu_micros, bytes, peak_bytes, residual_bytes, output_bytes, params or
    /// float_ops.
    std::string select = "micros";
    /// Only nodes whose op type matches one of these (whole match) become samples.
    std::vector<std::string> accountTypeRegexes{".*"};
    /// Profile.time_nanos and duration_nanos (informational).
    std::int64_t timeNanos = 0;
    std::int64_t durationNanos = 0;
};

/// The serialized (not yet compressed) Profile of `scopes` (a ProfileView::ByScope table). As
/// tfprof writes its code view, with name scopes as the frames: every accounted graph node is one
/// sample whose locations are the node and then each enclosing scope up to the top (leaf first);
/// a frame's function is named by the full scope path ("gradients/dense/MatMul_grad") with the op
/// type as its system name; values are [1, the node's own selected quantity] with sample types
/// [count/count, <select>/<microseconds|bytes|count>]; the label "graph node:" names the node;
/// one comment says what the quantity is (tfprof's texts). Nodes run in several steps carry the
/// table's per-step numbers. InvalidArgument for a select pprof cannot carry ("pprof doesn't
/// support -select=device") or a bad regex.
Expected<std::string> pprofProfile(const ProfileTable& scopes, const PprofOptions& options);

/// pprofProfile, gzip-compressed, written atomically to `path`.
Status writePprofProfile(const ProfileTable& scopes, const PprofOptions& options, const std::filesystem::path& path);

} // namespace tstudio::profiler
