// ProgressLine: the one-line progress report of `tstudio train`.
#include "progress_line.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tstudio::cli {

std::string formatDuration(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0)
        return "--:--";
    const auto total = static_cast<long long>(std::llround(seconds));
    const long long h = total / 3600, m = (total % 3600) / 60, s = total % 60;
    char text[32];
    if (h > 0)
        std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", h, m, s);
    else
        std::snprintf(text, sizeof text, "%lld:%02lld", m, s);
    return text;
}

std::string formatProgress(const ProgressSample& sample, int barWidth)
{
    std::string line;
    const std::int64_t span = std::max<std::int64_t>(sample.lastStep - sample.firstStep, 0);
    const std::int64_t done = std::clamp<std::int64_t>(sample.step - sample.firstStep, 0, span);
    if (barWidth > 0) {
        const double fraction = span > 0 ? static_cast<double>(done) / static_cast<double>(span) : 1.0;
        const int filled = static_cast<int>(std::floor(fraction * barWidth));
        line += '[';
        line.append(static_cast<std::size_t>(filled), '#');
        line.append(static_cast<std::size_t>(barWidth - filled), '-');
        line += "]  ";
    }
    char text[160];
    std::snprintf(text, sizeof text, "%lld/%lld", static_cast<long long>(sample.step),
                  static_cast<long long>(sample.lastStep));
    line += text;
    if (sample.loss) {
        std::snprintf(text, sizeof text, "  loss %.4g", *sample.loss);
        line += text;
    }
    if (sample.accuracy) {
        std::snprintf(text, sizeof text, "  accuracy %.4g", *sample.accuracy);
        line += text;
    }
    std::snprintf(text, sizeof text, "  %.1f steps/s", sample.stepsPerSecond);
    line += text;
    const double eta = sample.stepsPerSecond > 0 ? static_cast<double>(span - done) / sample.stepsPerSecond : -1.0;
    line += "  ETA " + formatDuration(eta);
    return line;
}

} // namespace tstudio::cli
