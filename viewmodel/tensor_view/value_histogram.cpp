// Exact equal-bin histograms of tensor values (see value_histogram.h).
#include "tensor_view/value_histogram.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tstudio::debugger_ui {

ValueHistogram computeValueHistogram(const std::vector<double>& values, bool integral, int maxBins)
{
    ValueHistogram out;
    maxBins = std::max(maxBins, 1);
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (double v : values) {
        if (!std::isfinite(v)) {
            ++out.nonFiniteCount;
            continue;
        }
        ++out.finiteCount;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (out.finiteCount == 0)
        return out;

    int binCount = maxBins;
    if (integral && hi - lo + 1 <= maxBins) {
        binCount = static_cast<int>(hi - lo) + 1;
        lo -= 0.5;
        hi += 0.5;
        out.binPerInteger = true;
    } else if (lo == hi) {
        lo -= 0.5;
        hi += 0.5;
    }
    out.left = lo;
    out.right = hi;

    // Edges as np.linspace makes them: start + i * step, the last one exactly `hi`.
    const auto n = static_cast<std::size_t>(binCount);
    const double step = (hi - lo) / binCount;
    std::vector<double> edges(n + 1);
    for (std::size_t i = 0; i < n; ++i)
        edges[i] = static_cast<double>(i) * step + lo;
    edges[n] = hi;

    std::vector<std::int64_t> counts(n, 0);
    const double norm = binCount / (hi - lo);
    for (double v : values) {
        if (!std::isfinite(v))
            continue;
        auto index = static_cast<std::size_t>((v - lo) * norm);
        if (index >= n)
            index = n - 1;
        // The computed index can be one off near an edge; the edges decide, as in NumPy.
        if (v < edges[index] && index > 0)
            --index;
        else if (v >= edges[index + 1] && index != n - 1)
            ++index;
        ++counts[index];
    }
    out.bins.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        out.bins.push_back({edges[i], edges[i + 1] - edges[i], static_cast<double>(counts[i])});
    return out;
}

} // namespace tstudio::debugger_ui
