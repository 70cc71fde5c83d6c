// `tensorstudio --bench-chart N`, `--bench-dashboard LOGDIR` and `--bench-live PROJECT`: the dashboard's
// performance figures, printed (benchmarks, not tests).
#pragma once

#include "core/expected.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace tstudio {

/// Redraws of an N-point scalar chart with smoothing (dashboard::benchRedraw); prints the median and
/// its parts. Returns the process exit code.
int runChartBench(int points);

/// Opens LOGDIR in a dashboard tab (1400x900, offscreen) and prints the time to the first chart on
/// screen: reading every run on the worker, handing the data to the views, and painting the window.
int runDashboardBench(const QString& logdir);

/// What a run started from the Training panel measured (trainInPanel).
struct PanelTrainingFigures {
    std::int64_t steps = 0;
    double stepsPerSecond = 0; ///< steps over the run's training time, as tstudio train reports it
    double loss = 0;
    int dashboardUpdates = 0;  ///< redraws of the dashboard that followed the run
    double seconds = 0;        ///< from the dashboard's opening to the run's end
    std::vector<double> stalls; ///< the GUI thread's delays beyond a 5 ms timer's period, one per tick
};

/// `project` when it is a file, else the path of the shipped example of that name (spirals, ...).
QString benchProjectPath(const QString& project);

/// Opens PROJECT (.tsproj or a shipped example's name) in a main window's node editor (1400x900,
/// offscreen when QT_QPA_PLATFORM says so), trains it `steps` steps from the Training panel with
/// `threads` intra-op threads (0: the panel's default) into a temporary log directory (`dataDir` as
/// its MNIST folder when it needs one) while the dashboard follows the run at its default refresh,
/// and measures it. Errors: the project does not open, the run does not start or does not finish.
Expected<PanelTrainingFigures> trainInPanel(const QString& project, int steps, const QString& dataDir, int threads);
/// The `p` quantile (0..1) of `stalls`.
double stallPercentile(const std::vector<double>& stalls, double p);

/// trainInPanel with the panel's default threads, and prints the GUI thread's stalls (the longest
/// gaps between 5 ms timer ticks), the dashboard's updates per second and the training speed.
int runLiveBench(const QString& project, int steps, const QString& dataDir);

} // namespace tstudio
