// `tensorstudio --bench-profiler TRACE`: the profiler's figures for a large trace, printed (a benchmark,
// not a test).
#pragma once

#include <QString>

namespace tstudio {

/// Opens TRACE (Chrome trace JSON, RunMetadata, event file) in a profiler tab (1600x900, offscreen) and
/// prints the time to the first painted timeline (reading and indexing on the worker, the tables, the
/// paint), then the timeline's frame times over pans and zooms (TimelineView::benchFrames). Returns the
/// process exit code.
int runProfilerBench(const QString& trace);

} // namespace tstudio
