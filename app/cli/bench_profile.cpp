// printStepProfile: traces benchmark steps into StepStats and prints the profile summary.
#include "bench_profile.h"

#include "bench_report.h"
#include "profile_json.h"

#include "profiler/profile_summary.h"
#include "profiler/trace_builder.h"
#include "runtime/arena_run_metadata.h"

#include "proto/config.pb.h"

#include <cstdio>
#include <vector>

namespace tstudio::cli {

Status printStepProfile(int steps, const tensorflow::GraphDef* graph,
                        const std::function<Status(const tensorflow::RunOptions&, tensorflow::RunMetadata*)>& runStep,
                        BenchReport& report)
{
    tensorflow::RunOptions traced;
    traced.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
    std::vector<profiler::TracedStep> profiled;
    for (int i = 0; i < steps; ++i) {
        ArenaRunMetadata metadata; // as the profiler runs a traced step
        if (Status s = runStep(traced, metadata.get()); !s.isOk())
            return s;
        profiled.push_back({i, metadata->step_stats()});
    }
    profiler::ProfileSummaryOptions summary;
    summary.graph = graph;
    const profiler::ProfileTrace trace = profiler::traceFromStepStats(profiled);
    auto text = profiler::formatProfileSummary(trace, summary);
    if (!text)
        return text.error();
    report.textBlock(*text);
    if (report.json()) {
        auto json = profileSummaryJson(trace, summary);
        if (!json)
            return json.error();
        report["profile"] = std::move(*json);
    }
    return Status::ok();
}

} // namespace tstudio::cli
