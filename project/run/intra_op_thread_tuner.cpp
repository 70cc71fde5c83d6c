// IntraOpThreadTuner: alternating windows of timed steps, the medians compared, the choice held.
#include "project/run/intra_op_thread_tuner.h"

#include <algorithm>

namespace tstudio::project {

namespace {

double median(std::vector<double> values)
{
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

} // namespace

IntraOpThreadTuner::IntraOpThreadTuner(int maxThreads) : IntraOpThreadTuner(maxThreads, Settings{}) {}

IntraOpThreadTuner::IntraOpThreadTuner(int maxThreads, Settings settings)
    : m_max(std::max(maxThreads, 1)),
      m_settings(settings),
      m_phase(Phase::kWarmup),
      m_threads(m_max),
      m_chosen(m_max),
      m_warmupLeft(std::max(settings.warmupSteps, 0))
{
    m_settings.windowSteps = std::max(m_settings.windowSteps, 1);
    m_settings.trialWindows = std::max(m_settings.trialWindows, 2);
    if (m_max >= 2 && m_warmupLeft == 0)
        startTrial();
}

void IntraOpThreadTuner::startTrial()
{
    m_phase = Phase::kTrial;
    m_window = 0;
    m_windowSteps = 0;
    m_windowElapsed = 0;
    m_trialElapsed = 0;
    m_times[0].clear();
    m_times[1].clear();
    m_threads = m_max;
}

void IntraOpThreadTuner::stepRan(double seconds)
{
    if (m_max < 2)
        return;
    switch (m_phase) {
    case Phase::kWarmup:
        if (--m_warmupLeft <= 0)
            startTrial();
        return;
    case Phase::kTrial:
        m_times[m_window % 2].push_back(seconds);
        ++m_windowSteps;
        m_windowElapsed += seconds;
        m_trialElapsed += seconds;
        if (m_windowSteps >= m_settings.windowSteps && m_windowElapsed >= m_settings.windowSeconds)
            finishWindow();
        return;
    case Phase::kHold:
        skipStep(seconds);
        return;
    }
}

void IntraOpThreadTuner::skipStep(double seconds)
{
    if (m_max < 2)
        return;
    if (m_phase == Phase::kTrial) {
        m_trialElapsed += seconds;
    } else if (m_phase == Phase::kHold) {
        m_holdLeft -= seconds;
        if (m_holdLeft <= 0)
            startTrial();
    }
}

void IntraOpThreadTuner::finishWindow()
{
    ++m_window;
    m_windowSteps = 0;
    m_windowElapsed = 0;
    if (m_window >= m_settings.trialWindows) {
        finishTrial();
        return;
    }
    m_threads = m_window % 2 == 0 ? m_max : m_max - 1;
}

void IntraOpThreadTuner::finishTrial()
{
    const double full = median(m_times[0]);
    const double fewer = median(m_times[1]);
    m_chosen = fewer < full * (1.0 - m_settings.margin) ? m_max - 1 : m_max;
    m_threads = m_chosen;
    ++m_trials;
    m_phase = Phase::kHold;
    m_holdLeft = std::max(m_settings.holdSeconds, m_settings.holdTrials * m_trialElapsed);
}

} // namespace tstudio::project
