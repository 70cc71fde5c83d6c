// printStepProfile: the op and scope tables of traced benchmark steps (tstudio bench ... --profile N).
#pragma once

#include "core/status.h"

#include <functional>

namespace tensorflow {
class GraphDef;
class RunMetadata;
class RunOptions;
} // namespace tensorflow

namespace tstudio::cli {

class BenchReport;

/// Runs `steps` steps through `runStep` with FULL_TRACE options and a RunMetadata to fill, then
/// prints the profiler's op and scope tables averaged per step (as tstudio profile --summary;
/// `graph`, when given, names parameters and float operations) to the report's text, and with
/// --json puts them in its "profile" (as tstudio profile --json). Returns the first failure.
Status printStepProfile(int steps, const tensorflow::GraphDef* graph,
                        const std::function<Status(const tensorflow::RunOptions&, tensorflow::RunMetadata*)>& runStep,
                        BenchReport& report);

} // namespace tstudio::cli
