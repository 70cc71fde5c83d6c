// SecondOrStepTimer: fires every N global steps or every N seconds (TF 1.x's hook timer).
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <utility>

namespace tstudio::training {

/// The timer the hooks share (basic_session_run_hooks.SecondOrStepTimer). It fires for a step when
/// it never fired, or (not for the step it last fired at) when `everySecs` have passed since it
/// last fired, or when the step is at least `everySteps` past that step. never() makes
/// NeverTriggerTimer.
class SecondOrStepTimer {
public:
    /// Exactly one of the two; InvalidArgument "Either every_secs or every_steps should be provided."
    /// / "Can not provide both every_secs and every_steps." otherwise (TensorFlow's ValueErrors).
    static Expected<SecondOrStepTimer> create(std::optional<double> everySecs, std::optional<std::int64_t> everySteps,
                                              std::function<double()> clock = {});
    /// A timer that never fires (NeverTriggerTimer).
    static SecondOrStepTimer never();

    bool shouldTriggerForStep(std::int64_t step) const;
    /// Records that the timer fired at `step` now; returns (seconds, steps) since it last fired,
    /// nullopt the first time.
    std::optional<std::pair<double, std::int64_t>> updateLastTriggeredStep(std::int64_t step);
    std::optional<std::int64_t> lastTriggeredStep() const { return m_lastStep; }
    void reset();

private:
    SecondOrStepTimer() = default;
    double now() const;

    std::optional<double> m_everySecs;
    std::optional<std::int64_t> m_everySteps;
    bool m_never = false;
    std::function<double()> m_clock;
    std::optional<double> m_lastTime;
    std::optional<std::int64_t> m_lastStep;
};

} // namespace tstudio::training
