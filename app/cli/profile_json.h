// `tstudio profile --json`: tfprof's op and scope views of a trace as one JSON document
// (docs/cli-json.md), the data behind the text of profile_summary.h.
#pragma once

#include "core/expected.h"
#include "profiler/profile_summary.h"
#include "profiler/profile_trace.h"

#include <nlohmann/json.hpp>

namespace tstudio::cli {

/// {"steps", "step", "steps_counted", "events", "devices", "op_types", "scopes", "total",
/// "float_ops_incomplete_nodes", "parameters"}: every op type (by time, the largest first) and the
/// whole scope tree (each level by time) with tfprof's quantities, times in ns and sizes in bytes per
/// step; "parameters" is null without a graph. options.maxOpTypes and the scope limits do not apply.
/// InvalidArgument for a step the trace does not have.
Expected<nlohmann::ordered_json> profileSummaryJson(const profiler::ProfileTrace& trace,
                                                   const profiler::ProfileSummaryOptions& options);

} // namespace tstudio::cli
