// SecondOrStepTimer: fires every N global steps or every N seconds.
#include "training/second_or_step_timer.h"

#include <chrono>

namespace tstudio::training {

Expected<SecondOrStepTimer> SecondOrStepTimer::create(std::optional<double> everySecs,
                                                      std::optional<std::int64_t> everySteps,
                                                      std::function<double()> clock)
{
    if (!everySecs && !everySteps)
        return unexpected(invalidArgumentError("Either every_secs or every_steps should be provided."));
    if (everySecs && everySteps)
        return unexpected(invalidArgumentError("Can not provide both every_secs and every_steps."));
    SecondOrStepTimer timer;
    timer.m_everySecs = everySecs;
    timer.m_everySteps = everySteps;
    timer.m_clock = std::move(clock);
    return timer;
}

SecondOrStepTimer SecondOrStepTimer::never()
{
    SecondOrStepTimer timer;
    timer.m_never = true;
    return timer;
}

double SecondOrStepTimer::now() const
{
    if (m_clock)
        return m_clock();
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

bool SecondOrStepTimer::shouldTriggerForStep(std::int64_t step) const
{
    if (m_never)
        return false;
    if (!m_lastStep)
        return true;
    if (*m_lastStep == step)
        return false;
    if (m_everySecs && now() >= *m_lastTime + *m_everySecs)
        return true;
    if (m_everySteps && step >= *m_lastStep + *m_everySteps)
        return true;
    return false;
}

std::optional<std::pair<double, std::int64_t>> SecondOrStepTimer::updateLastTriggeredStep(std::int64_t step)
{
    const double t = now();
    std::optional<std::pair<double, std::int64_t>> elapsed;
    if (m_lastTime)
        elapsed = std::make_pair(t - *m_lastTime, step - *m_lastStep);
    m_lastTime = t;
    m_lastStep = step;
    return elapsed;
}

void SecondOrStepTimer::reset()
{
    m_lastTime.reset();
    m_lastStep.reset();
}

} // namespace tstudio::training
