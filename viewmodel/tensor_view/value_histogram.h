// ValueHistogram: exact counts of a tensor's finite values in equal bins (np.histogram's rule), for the
// tensor inspector's Histogram tab.
#pragma once

#include "dashboard/histogram_math.h"

#include <cstdint>
#include <vector>

namespace tstudio::debugger_ui {

/// Counts of values in equal bins from `left` to `right`; `bins[i]` is {left edge, width, count}.
struct ValueHistogram {
    std::vector<dashboard::HistogramBin> bins; ///< empty when there is no finite value
    double left = 0;
    double right = 0;
    std::int64_t finiteCount = 0;
    std::int64_t nonFiniteCount = 0; ///< NaN and infinities, left out of the bins
    bool binPerInteger = false;     ///< one bin centred on each integer of the range
};

/// The histogram the inspector draws. NaN and infinities are counted apart. When `integral` (integer
/// and bool tensors) and the range spans at most `maxBins` integers, one bin per integer over
/// [min - 0.5, max + 0.5]; otherwise `maxBins` equal bins over [min, max], widened to [v - 0.5, v + 0.5]
/// when all values are equal. Values are placed as np.histogram places them (edges from linspace,
/// the last bin closed on the right), so counts match NumPy's exactly. Never fails; maxBins < 1 counts as 1.
ValueHistogram computeValueHistogram(const std::vector<double>& values, bool integral,
                                     int maxBins = dashboard::kDefaultHistogramBins);

} // namespace tstudio::debugger_ui
