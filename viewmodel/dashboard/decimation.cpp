#include "dashboard/decimation.h"

#include "dashboard/scalar_math.h"

#include <algorithm>
#include <array>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TSTUDIO_DECIMATE_AVX2 1
#endif

namespace tstudio::dashboard {

namespace {

bool finite(double v) { return std::isfinite(v); }

/// The least and the greatest of y[first..last] (y[first] finite), NaN never winning: min/max keep
/// their second operand when the first is NaN. An infinity does win; the caller redoes such a column.
struct Extremes {
    double low = 0, high = 0;
};

/// The first index from `i` on whose value equals `v` (one does, at most at `last`).
std::size_t firstEqual(const double* y, std::size_t i, [[maybe_unused]] std::size_t last, double v)
{
    while (y[i] != v)
        ++i;
    return i;
}

Extremes extremes(const double* y, std::size_t first, std::size_t last)
{
    double lowV = y[first], highV = y[first];
    std::size_t i = first + 1;
#if defined(__SSE2__)
    __m128d low2 = _mm_set1_pd(lowV), high2 = low2;
    for (; i + 2 <= last + 1; i += 2) {
        const __m128d v = _mm_loadu_pd(y + i);
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
    return {lowV, highV};
}

#if defined(TSTUDIO_DECIMATE_AVX2)
/// extremes() eight values a step in two pairs of accumulators, for processors with AVX2 (chosen at
/// run time): the same values, as min and max are exact.
__attribute__((target("avx2"))) Extremes extremesAvx2(const double* y, std::size_t first, std::size_t last)
{
    const std::size_t stop = last + 1;
    if (stop - first < 16)
        return extremes(y, first, last);
    __m256d low0 = _mm256_set1_pd(y[first]), low1 = low0, high0 = low0, high1 = low0;
    std::size_t i = first + 1;
    for (; i + 8 <= stop; i += 8) {
        const __m256d a = _mm256_loadu_pd(y + i), b = _mm256_loadu_pd(y + i + 4);
        low0 = _mm256_min_pd(a, low0);
        low1 = _mm256_min_pd(b, low1);
        high0 = _mm256_max_pd(a, high0);
        high1 = _mm256_max_pd(b, high1);
    }
    alignas(32) double lo[4], hi[4];
    _mm256_store_pd(lo, _mm256_min_pd(low0, low1));
    _mm256_store_pd(hi, _mm256_max_pd(high0, high1));
    double lowV = std::min(std::min(lo[0], lo[1]), std::min(lo[2], lo[3]));
    double highV = std::max(std::max(hi[0], hi[1]), std::max(hi[2], hi[3]));
    for (; i < stop; ++i) {
        const double v = y[i];
        lowV = v < lowV ? v : lowV;
        highV = v > highV ? v : highV;
    }
    return {lowV, highV};
}

/// firstEqual four values a step.
__attribute__((target("avx2"))) std::size_t firstEqualAvx2(const double* y, std::size_t i, std::size_t last, double v)
{
    const __m256d target = _mm256_set1_pd(v);
    for (; i + 4 <= last + 1; i += 4) {
        const int mask = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(y + i), target, _CMP_EQ_OQ));
        if (mask)
            return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
    return firstEqual(y, i, last, v);
}
#endif

/// The end of the pixel column that starts at `from`: the first index in (from, end) whose point
/// lies right of it, or `end`. `inColumn(i)` says whether point i lies in the column (x is sorted, so
/// it holds up to the end and not after). Evenly spaced steps give every column about the length of
/// the one before (`guess`): a few points around that settle it, touching one or two cache lines of
/// x, before a binary search of what is left.
template <typename InColumn>
std::size_t columnEnd(std::size_t from, std::size_t end, std::size_t guess, const InColumn& inColumn)
{
    std::size_t lo = from + 1, hi = end; // [from, lo) in the column, [hi, end) right of it
    constexpr std::size_t kWalk = 4;
    if (guess > 0) {
        const std::size_t p = std::min(from + guess, end);
        if (inColumn(p - 1)) {
            lo = p;
            for (std::size_t k = 0; k < kWalk && lo < hi; ++k, ++lo)
                if (!inColumn(lo)) {
                    hi = lo;
                    break;
                }
        } else {
            hi = p - 1;
            for (std::size_t k = 0; k < kWalk && hi > lo; ++k, --hi)
                if (inColumn(hi - 1)) {
                    lo = hi;
                    break;
                }
        }
    }
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (inColumn(mid))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

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
    auto reduce = extremes;
    auto find = firstEqual;
#if defined(TSTUDIO_DECIMATE_AVX2)
    if (avx2ScanAllowed()) {
        reduce = extremesAvx2;
        find = firstEqualAvx2;
    }
#endif
    // x is sorted, so each pixel column is a contiguous index range: find its end and reduce the
    // range, instead of computing a column for every point.
    std::size_t from = begin, guess = 0;
    while (from < end) {
        const std::int64_t column = columnOf(x[from]);
        const std::size_t to = columnEnd(from, end, guess, [&](std::size_t i) { return columnOf(x[i]) <= column; });
        guess = to - from;
        std::size_t first = from, last = to - 1;
        from = to;
        while (first <= last && !usable(first))
            ++first;
        if (first > last)
            continue;
        while (!usable(last))
            --last;
        // The extremes' values first, then the first index holding each. An infinity would win, so
        // such a column is redone below.
        const auto [lowV, highV] = reduce(y.data(), first, last);
        std::size_t low = find(y.data(), first, last, lowV), high = find(y.data(), first, last, highV);
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
