// ProgressLine: the one-line progress report of `tstudio train` (bar, step, loss, steps/s, ETA).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tstudio::cli {

/// What a training loop knows at one step.
struct ProgressSample {
    std::int64_t step = 0;        ///< global step reached
    std::int64_t firstStep = 0;   ///< global step this run started from (a resumed run starts above 0)
    std::int64_t lastStep = 0;    ///< global step the run stops at
    std::optional<double> loss;   ///< the latest loss, when the run fetches one
    std::optional<double> accuracy; ///< the latest batch's accuracy, when the run logs one
    double stepsPerSecond = 0.0;  ///< measured over the recent steps of this run
};

/// Formats a sample as `[########------------]  1200/3000  loss 0.2345  52.3 steps/s  ETA 0:34`
/// (with an accuracy: `... loss 0.2345  accuracy 0.93  52.3 steps/s ...`).
/// `barWidth` is the number of cells between the brackets (0 leaves the bar out). The ETA is
/// "--:--" until a speed is known; loss "nan" and "inf" are printed as such.
std::string formatProgress(const ProgressSample& sample, int barWidth = 24);

/// Seconds as "M:SS", or "H:MM:SS" from one hour on.
std::string formatDuration(double seconds);

} // namespace tstudio::cli
