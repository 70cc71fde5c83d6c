// runStatsFromTrace: a profile's per-node cost in the form the graph viewer colours by (Qt-free).
#pragma once

#include "graph_viewer/run_stats.h"
#include "profiler/profile_trace.h"

namespace tstudio::profiler {

/// Every execution of the trace summed per node, as runStatsFromStepStats sums a step's records: compute
/// time, output bytes, peak and requested bytes, the device of the first execution, occurrences and the
/// span from the first start to the last end. GPU stream pseudo-devices are left out, as there.
graph_viewer::RunStats runStatsFromTrace(const ProfileTrace& trace);

} // namespace tstudio::profiler
