// StopAtStepHook: requests a stop once the global step reaches a last step (tf.train.StopAtStepHook).
#pragma once

#include "training/session_run_hook.h"

#include <memory>
#include <optional>
#include <string>

namespace tstudio::training {

/// Stops at `lastStep`, or `numSteps` past the global step the session starts at (exactly one).
/// After a run whose fetched (possibly stale) global step + 1 reaches the last step, the global
/// step is read again and a stop is requested when it has reached it, so the run that makes the
/// global step equal to the last step is the last one.
class StopAtStepHook : public SessionRunHook {
public:
    /// InvalidArgument "One of num_steps or last_step must be specified." / "Only one of num_steps or
    /// last_step can be specified."
    static Expected<std::shared_ptr<StopAtStepHook>> create(std::optional<std::int64_t> numSteps,
                                                            std::optional<std::int64_t> lastStep);

    Status begin(GraphBuilder& graph) override;
    Status afterCreateSession(Session& session) override;
    Expected<SessionRunArgs> beforeRun(SessionRunContext& context) override;
    Status afterRun(SessionRunContext& context, const SessionRunValues& values) override;

    /// The step the hook stops at (known after afterCreateSession when given as numSteps).
    std::optional<std::int64_t> lastStep() const { return m_lastStep; }

private:
    StopAtStepHook(std::optional<std::int64_t> numSteps, std::optional<std::int64_t> lastStep)
        : m_numSteps(numSteps), m_lastStep(lastStep)
    {
    }

    std::optional<std::int64_t> m_numSteps;
    std::optional<std::int64_t> m_lastStep;
    std::string m_globalStep;
};

} // namespace tstudio::training
