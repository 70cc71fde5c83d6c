// Histogram math of the dashboard (no Qt): TensorBoard's percentile compression and its rebinning for drawing.
#pragma once

#include "io/events/summary_values.h"

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace tstudio::dashboard {

/// One kept sample of a histogram tag, decoded.
struct HistogramSample {
    std::int64_t step = 0;
    double wallTime = 0;
    events::Histogram histogram;
};

/// TensorBoard's compression points in basis points (1/100 of a percent): the normal CDF at
/// -inf, -1.5, -1, -0.5, 0, 0.5, 1, 1.5 and +inf standard deviations.
inline constexpr std::array<int, 9> kNormalHistogramBps = {0, 668, 1587, 3085, 5000, 6915, 8413, 9332, 10000};

/// The values of `histogram` at kNormalHistogramBps, as TensorBoard's distributions show them:
/// the cumulative weight of the buckets (scaled to 10000) is searched for the first bucket whose
/// cumulative weight exceeds the basis point (buckets adding no weight are skipped), and the value
/// is interpolated linearly between that bucket's edges (its left edge is the histogram's first
/// left edge while no weight lies before it); basis points past the last bucket get the last right
/// edge. No buckets give nine zeros; buckets whose counts are all zero give the last right edge nine
/// times. Never fails; non-finite input gives non-finite output.
std::array<double, 9> compressHistogram(const events::Histogram& histogram);

/// One bin of a rebinned histogram: left edge x, width dx, count y.
struct HistogramBin {
    double x = 0;
    double dx = 0;
    double y = 0;
};

/// TensorBoard's number of drawing bins.
inline constexpr int kDefaultHistogramBins = 30;

/// Smallest left edge and largest right edge of the finite buckets, as TensorBoard takes them (a TF 1
/// histogram's trailing empty bucket may have left > right); nullopt when there are none.
struct ValueRange {
    double min = 0;
    double max = 0;
};
std::optional<ValueRange> histogramRange(const events::Histogram& histogram);

/// `histogram` spread over `binCount` equal bins from `min` to `max` as TensorBoard's histogram
/// dashboard does: each bucket (edges clipped to [min, max]) gives every bin the share of its count
/// that its overlap with the bin is of its width. When min == max: binCount bins of width 0 at min,
/// the last holding the whole count. Buckets with non-finite edges or counts are skipped. A bucket
/// of zero width inside the range gives its whole count to the bin holding it (TensorBoard drops
/// it). Empty for a histogram without buckets or binCount < 1.
std::vector<HistogramBin> rebinHistogram(const events::Histogram& histogram, double min, double max,
                                         int binCount = kDefaultHistogramBins);

/// Every histogram rebinned onto the same bins over the range of all of them (steps comparable);
/// empty series for histograms without buckets.
std::vector<std::vector<HistogramBin>> rebinSeries(const std::vector<const events::Histogram*>& histograms,
                                                   int binCount = kDefaultHistogramBins);

} // namespace tstudio::dashboard
