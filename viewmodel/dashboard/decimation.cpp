#include "dashboard/decimation.h"

#include <algorithm>
#include <array>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tstudio::dashboard {

namespace {

bool finite(double v) { return std::isfinite(v); }

} // namespace

void decimateForDrawing(std::span<const double> x, std::span<const double> y, double xMin, double xMax, int columns,
                        std::vector<std::uint32_t>& indices)
{
    indices.clear();
    const std::size_t n = std::min(x.size(), y.size());
    if (n == 0)
        return;
    x = x.first(n);
    y = y.first(n);
    const auto begin = static_cast<std::size_t>(std::lower_bound(x.begin(), x.end(), xMin) - x.begin());
    const auto end = static_cast<std::size_t>(std::upper_bound(x.begin(), x.end(), xMax) - x.begin());
    auto usable = [&](std::size_t i) { return finite(x[i]) && finite(y[i]); };
    // The last usable point left of the range, so the line enters the plot at the right height.
    for (std::size_t i = begin; i > 0; --i)
        if (usable(i - 1)) {
            indices.push_back(static_cast<std::uint32_t>(i - 1));
            break;
        }
    if (columns < 1 || !(xMax > xMin))
        columns = 1;
    const double scale = xMax > xMin ? columns / (xMax - xMin) : 0;
    auto columnOf = [&](double xv) -> std::int64_t {
        const double t = (xv - xMin) * scale;
        if (!(t >= 0))
            return 0;
        return t >= columns ? columns - 1 : static_cast<std::int64_t>(t);
    };
    // x is sorted, so each pixel column is a contiguous index range: find its end by binary search
    // and reduce the range, instead of computing a column for every point.
    std::size_t from = begin;
    while (from < end) {
        const std::int64_t column = columnOf(x[from]);
        const auto to = static_cast<std::size_t>(
            std::partition_point(x.begin() + static_cast<std::ptrdiff_t>(from), x.begin() + static_cast<std::ptrdiff_t>(end),
                                 [&](double xv) { return columnOf(xv) <= column; }) -
            x.begin());
        std::size_t first = from, last = to - 1;
        from = to;
        while (first <= last && !usable(first))
            ++first;
        if (first > last)
            continue;
        while (!usable(last))
            --last;
        // The extremes' values first (NaN never wins: min/max keep their second operand when the
        // first is NaN), then the first index holding each. An infinity would win, so such a
        // column is redone below.
        double lowV = y[first], highV = y[first];
        std::size_t i = first + 1;
#if defined(__SSE2__)
        __m128d low2 = _mm_set1_pd(lowV), high2 = low2;
        for (; i + 2 <= last + 1; i += 2) {
            const __m128d v = _mm_loadu_pd(y.data() + i);
            low2 = _mm_min_pd(v, low2);
            high2 = _mm_max_pd(v, high2);
        }
        alignas(16) double lanes[2];
        _mm_store_pd(lanes, low2);
        lowV = std::min(lanes[0], lanes[1]);
        _mm_store_pd(lanes, high2);
        highV = std::max(lanes[0], lanes[1]);
#endif
        for (; i <= last; ++i) {
            const double v = y[i];
            lowV = v < lowV ? v : lowV;
            highV = v > highV ? v : highV;
        }
        std::size_t low = first, high = first;
        while (y[low] != lowV)
            ++low;
        while (y[high] != highV)
            ++high;
        if (!finite(lowV) || !finite(highV) || !finite(x[first]) || !finite(x[last])) {
            low = high = first;
            for (std::size_t i = first + 1; i <= last; ++i) {
                if (!usable(i))
                    continue;
                if (y[i] < y[low])
                    low = i;
                if (y[i] > y[high])
                    high = i;
            }
        }
        std::array<std::size_t, 4> keep = {first, low, high, last};
        std::sort(keep.begin(), keep.end());
        for (std::size_t k = 0; k < keep.size(); ++k)
            if (k == 0 || keep[k] != keep[k - 1])
                indices.push_back(static_cast<std::uint32_t>(keep[k]));
    }
    for (std::size_t i = end; i < n; ++i)
        if (usable(i)) {
            indices.push_back(static_cast<std::uint32_t>(i));
            break;
        }
}

} // namespace tstudio::dashboard
