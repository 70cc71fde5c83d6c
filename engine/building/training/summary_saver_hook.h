// SummarySaverHook: writes the summary op's value to the event file every N steps or seconds
// (tf.train.SummarySaverHook of TF 1.15).
#pragma once

#include "io/events/event_file_writer.h"
#include "training/scaffold.h"
#include "training/second_or_step_timer.h"
#include "training/session_run_hook.h"
#include "training/summary_writer_cache.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::training {

struct SummarySaverHookOptions {
    /// Exactly one of the two.
    std::optional<std::int64_t> saveSteps;
    std::optional<double> saveSecs;
    /// The writer's directory (through the writer cache) unless `writer` is given; with neither the
    /// hook writes nothing.
    std::string outputDir;
    std::shared_ptr<events::EventFileWriter> writer;
    /// The summary tensors (scalar strings of serialized Summary protos), or the scaffold whose
    /// summary op to use (exactly one).
    std::vector<std::string> summaryOp;
    std::shared_ptr<Scaffold> scaffold;
    SummaryWriterCache* writers = nullptr;
};

/// As TensorFlow's hook: the first run writes SessionLog START at the global step after it; a run
/// for which the timer fires (always the first) fetches the summary tensors and writes each with
/// the global step read after the run; end() flushes the writer.
class SummarySaverHook : public SessionRunHook {
public:
    /// InvalidArgument "Exactly one of scaffold or summary_op must be provided."; the timer's error.
    static Expected<std::shared_ptr<SummarySaverHook>> create(SummarySaverHookOptions options);

    Status begin(GraphBuilder& graph) override;
    Expected<SessionRunArgs> beforeRun(SessionRunContext& context) override;
    Status afterRun(SessionRunContext& context, const SessionRunValues& values) override;
    Status end(Session& session) override;

private:
    SummarySaverHook(SummarySaverHookOptions options, SecondOrStepTimer timer)
        : m_options(std::move(options)), m_timer(std::move(timer))
    {
    }
    std::vector<std::string> summaryTensors() const;

    SummarySaverHookOptions m_options;
    SecondOrStepTimer m_timer;
    std::shared_ptr<events::EventFileWriter> m_writer;
    std::string m_globalStep;
    std::optional<std::int64_t> m_nextStep;
    bool m_requestSummary = false;
};

} // namespace tstudio::training
