// StepCounterHook: measures global steps per second and writes them as the scalar summary
// "global_step/sec" (tf.train.StepCounterHook of TF 1.15).
#pragma once

#include "io/events/event_file_writer.h"
#include "training/second_or_step_timer.h"
#include "training/session_run_hook.h"
#include "training/summary_writer_cache.h"

#include <memory>
#include <optional>
#include <string>

namespace tstudio::training {

struct StepCounterHookOptions {
    /// Exactly one of the two (set everyNSteps to nullopt to count by seconds).
    std::optional<std::int64_t> everyNSteps = 100;
    std::optional<double> everyNSecs;
    std::string outputDir;
    std::shared_ptr<events::EventFileWriter> writer;
    SummaryWriterCache* writers = nullptr;
    std::function<double()> clock; ///< seconds; default the system clock (tests pass their own)
};

/// When the timer fires for a global step (read again after the run) it divides the steps since it
/// last fired by the seconds since then, writes Summary{tag "<global step op>/sec", simple_value}
/// at that step and logs "global_step/sec: <value>"; the first firing only starts the clock. Logs
/// TensorFlow's warning when the global step did not move between two runs.
class StepCounterHook : public SessionRunHook {
public:
    /// InvalidArgument "exactly one of every_n_steps and every_n_secs should be provided."
    static Expected<std::shared_ptr<StepCounterHook>> create(StepCounterHookOptions options);

    Status begin(GraphBuilder& graph) override;
    Expected<SessionRunArgs> beforeRun(SessionRunContext& context) override;
    Status afterRun(SessionRunContext& context, const SessionRunValues& values) override;
    /// Flushes the writer (TensorFlow leaves that to the writer's own timer).
    Status end(Session& session) override;

private:
    StepCounterHook(StepCounterHookOptions options, SecondOrStepTimer timer)
        : m_options(std::move(options)), m_timer(std::move(timer))
    {
    }

    StepCounterHookOptions m_options;
    SecondOrStepTimer m_timer;
    std::shared_ptr<events::EventFileWriter> m_writer;
    std::string m_globalStep;
    std::string m_tag;
    std::optional<std::int64_t> m_lastGlobalStep;
    int m_warnings = 0;
};

} // namespace tstudio::training
