// ProfilerHook: traces a run every N steps or seconds and writes it as a Chrome trace
// "timeline-<step>.json" (tf.train.ProfilerHook of TF 1.15).
#pragma once

#include "io/events/event_file_writer.h"
#include "training/second_or_step_timer.h"
#include "training/session_run_hook.h"
#include "training/summary_writer_cache.h"

#include <memory>
#include <optional>
#include <string>

namespace tstudio::training {

struct ProfilerHookOptions {
    /// Exactly one of the two.
    std::optional<std::int64_t> saveSteps;
    std::optional<double> saveSecs;
    /// Where the timelines go, and the event file that gets the run metadata ("" = the current
    /// directory, as TensorFlow).
    std::string outputDir;
    SummaryWriterCache* writers = nullptr;
};

/// As TensorFlow's hook: the first run only starts the timer (at its fetched global step); a later
/// run for whose step (the one after the previous run's) the timer fires runs with FULL_TRACE,
/// then the hook reads the global step, writes "<outputDir>/timeline-<step>.json" (the run's
/// step_stats as profiler::chromeTraceJson with TensorFlow's show_dataflow=True, show_memory=False,
/// indented as generate_chrome_trace_format writes it) and adds the RunMetadata to the event file
/// with tag "step_<step>".
class ProfilerHook : public SessionRunHook {
public:
    static Expected<std::shared_ptr<ProfilerHook>> create(ProfilerHookOptions options);

    Status begin(GraphBuilder& graph) override;
    Expected<SessionRunArgs> beforeRun(SessionRunContext& context) override;
    Status afterRun(SessionRunContext& context, const SessionRunValues& values) override;
    /// Flushes the writer (TensorFlow leaves that to the writer's own timer).
    Status end(Session& session) override;

private:
    ProfilerHook(ProfilerHookOptions options, SecondOrStepTimer timer)
        : m_options(std::move(options)), m_timer(std::move(timer))
    {
    }

    ProfilerHookOptions m_options;
    SecondOrStepTimer m_timer;
    std::shared_ptr<events::EventFileWriter> m_writer;
    std::string m_globalStep;
    std::optional<std::int64_t> m_nextStep;
    bool m_requestTrace = false;
};

} // namespace tstudio::training
