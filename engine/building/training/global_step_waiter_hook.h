// GlobalStepWaiterHook: holds a worker back until the global step reaches a step
// (tf.train.GlobalStepWaiterHook), to start the workers of a distributed job gradually.
#pragma once

#include "training/session_run_hook.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace tstudio::training {

/// Before the first run, reads the global step every `pollInterval` (TensorFlow: 0.5 s) until it
/// reaches `waitUntilStep` (at once when that is 0 or less), logging the wait as TensorFlow does
/// ("Waiting for global step 100 before starting training.", then every 1000 steps of progress);
/// later runs pass. A session closed while waiting ends the wait with Cancelled, rather than
/// polling forever.
class GlobalStepWaiterHook : public SessionRunHook {
public:
    explicit GlobalStepWaiterHook(std::int64_t waitUntilStep,
                                  std::chrono::milliseconds pollInterval = std::chrono::milliseconds(500))
        : m_waitUntilStep(waitUntilStep), m_pollInterval(pollInterval)
    {
    }

    /// FailedPrecondition "Global step should be created to use _GlobalStepWaiterHook." without one.
    Status begin(GraphBuilder& graph) override;
    Expected<SessionRunArgs> beforeRun(SessionRunContext& context) override;

    /// Whether the wait is over (the first run went ahead).
    bool workerStarted() const { return m_workerStarted; }

private:
    std::int64_t m_waitUntilStep;
    std::chrono::milliseconds m_pollInterval;
    std::string m_globalStep;
    bool m_workerStarted = false;
};

} // namespace tstudio::training
