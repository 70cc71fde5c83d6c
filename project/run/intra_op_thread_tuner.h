// IntraOpThreadTuner: a training run's choice between every core and one core fewer for its
// intra-op threads, made by timing its own steps with each and remade now and then.
#pragma once

#include <cstdint>
#include <vector>

namespace tstudio::project {

/// Where the program that trains also draws (the IDE's GUI thread follows the run on a dashboard)
/// or other programs take a core, a small model's steps can run faster on one thread fewer than
/// there are cores: a parallel op then waits on a thread that shares its core. Which is faster
/// depends on the model and on the load, so it is measured: after `warmupSteps`, the run times
/// `trialWindows` windows of steps, alternating the full count and one fewer (each window at
/// least `windowSteps` steps and `windowSeconds` long; alternating, so that a machine whose speed
/// drifts favours neither), takes each count's median step time and keeps the faster count
/// (the full count unless one fewer is faster by more than `margin`). It keeps that count for
/// `holdSeconds` or `holdTrials` times the trial's length, whichever is longer, then times again:
/// a program that starts or stops beside the run changes the answer.
///
/// Pure bookkeeping: the caller sets the device's active threads (CpuDevice::setActiveIntraOpThreads)
/// to threads() before each step and reports the step's wall time to stepRan(). Steps that do
/// more than train (traced, evaluated, checkpointed) are left out with skipStep().
class IntraOpThreadTuner {
public:
    struct Settings {
        int warmupSteps = 3;
        int windowSteps = 6;
        double windowSeconds = 0.25;
        int trialWindows = 4;
        double margin = 0.02;
        double holdSeconds = 30;
        double holdTrials = 20;
    };

    /// `maxThreads` the device's threads; below 2 there is nothing to choose (threads() is 1).
    explicit IntraOpThreadTuner(int maxThreads);
    IntraOpThreadTuner(int maxThreads, Settings settings);

    /// The threads the next step should run with.
    int threads() const { return m_threads; }
    /// The count the last trial chose (the full count before the first trial ends).
    int chosen() const { return m_chosen; }
    /// Trials finished so far.
    int trials() const { return m_trials; }
    /// A step ran with threads() and took `seconds` (its wall time).
    void stepRan(double seconds);
    /// A step that is not timed (it also traced, evaluated or saved); the hold still counts it.
    void skipStep(double seconds);

private:
    enum class Phase { kWarmup, kTrial, kHold };
    void startTrial();
    void finishWindow();
    void finishTrial();

    int m_max;
    Settings m_settings;
    Phase m_phase;
    int m_threads;
    int m_chosen;
    int m_trials = 0;
    int m_warmupLeft;
    int m_window = 0;            ///< the trial's window now timed (even: the full count)
    int m_windowSteps = 0;       ///< steps timed in that window
    double m_windowElapsed = 0;  ///< and their seconds
    double m_trialElapsed = 0;   ///< seconds of the trial so far (skipped steps too)
    double m_holdLeft = 0;       ///< seconds of holding left
    std::vector<double> m_times[2]; ///< the trial's step times: [0] the full count, [1] one fewer
};

} // namespace tstudio::project
