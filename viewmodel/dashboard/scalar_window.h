// Windowed views of a scalar series without Qt: a trailing moving average and the min/max envelope.
#pragma once

#include "dashboard/scalar_math.h"

#include <cstddef>
#include <span>
#include <vector>

namespace tstudio::dashboard {

/// The largest window the dashboard offers, in samples.
inline constexpr std::size_t kMaxSmoothingWindow = 100000;

/// A trailing moving average over `window` samples: out[i] is the mean of the finite values among
/// values[i - window + 1 .. i] (fewer at the start). A non-finite value is copied through and does
/// not enter any mean, as in TensorBoard's exponential smoothing. `window` is clamped to
/// [1, kMaxSmoothingWindow]; 1 copies the series. The running sum is compensated (Neumaier) and
/// recomputed from its window every `window` samples, so a million samples drift by no more than one
/// window's rounding. `out` is resized and may be reused; `stats` receives valueStats(out).
void smoothMovingAverage(std::span<const double> values, std::size_t window, std::vector<double>& out,
                         ValueStats* stats = nullptr);

/// The least and greatest finite value among values[i - window + 1 .. i], for every i (monotonic
/// queues: O(n) at any window). NaN in both where the window holds no finite value. `window` is
/// clamped as above. `lo` and `hi` are resized and may be reused; `stats` receives valueStats(lo)
/// merged with valueStats(hi) (for the y domain).
void rollingMinMax(std::span<const double> values, std::size_t window, std::vector<double>& lo,
                   std::vector<double>& hi, ValueStats* stats = nullptr);

} // namespace tstudio::dashboard
