#include "dashboard/scalar_window.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

namespace tstudio::dashboard {
namespace {

std::size_t clampWindow(std::size_t window)
{
    return std::clamp<std::size_t>(window, 1, kMaxSmoothingWindow);
}

/// Neumaier's compensated sum: adding and taking away values keeps the rounding of each step.
struct CompensatedSum {
    double sum = 0, carry = 0;
    void add(double v)
    {
        const double t = sum + v;
        carry += std::abs(sum) >= std::abs(v) ? (sum - t) + v : (v - t) + sum;
        sum = t;
    }
    double value() const { return sum + carry; }
};

} // namespace

void smoothMovingAverage(std::span<const double> values, std::size_t window, std::vector<double>& out,
                         ValueStats* stats)
{
    window = clampWindow(window);
    const std::size_t n = values.size();
    out.resize(n);
    CompensatedSum sum;
    std::size_t count = 0; // finite values inside the window
    for (std::size_t i = 0; i < n; ++i) {
        const double v = values[i];
        if (std::isfinite(v)) {
            sum.add(v);
            ++count;
        }
        if (i >= window) {
            const double leaving = values[i - window];
            if (std::isfinite(leaving)) {
                sum.add(-leaving);
                --count;
            }
        }
        if (i % window == window - 1 && i + 1 > window) {
            // Start again from the window's own values: what adding and taking away left behind goes.
            sum = {};
            for (std::size_t j = i + 1 - window; j <= i; ++j)
                if (std::isfinite(values[j]))
                    sum.add(values[j]);
        }
        out[i] = !std::isfinite(v) ? v : sum.value() / static_cast<double>(count);
    }
    if (stats)
        *stats = valueStats(out);
}

void rollingMinMax(std::span<const double> values, std::size_t window, std::vector<double>& lo,
                   std::vector<double>& hi, ValueStats* stats)
{
    window = clampWindow(window);
    const std::size_t n = values.size();
    lo.resize(n);
    hi.resize(n);
    // Indices of finite values whose value is a candidate: increasing values (minimum at the front)
    // and decreasing values (maximum at the front).
    std::deque<std::size_t> mins, maxs;
    for (std::size_t i = 0; i < n; ++i) {
        const double v = values[i];
        if (std::isfinite(v)) {
            while (!mins.empty() && values[mins.back()] >= v)
                mins.pop_back();
            mins.push_back(i);
            while (!maxs.empty() && values[maxs.back()] <= v)
                maxs.pop_back();
            maxs.push_back(i);
        }
        while (!mins.empty() && mins.front() + window <= i)
            mins.pop_front();
        while (!maxs.empty() && maxs.front() + window <= i)
            maxs.pop_front();
        lo[i] = mins.empty() ? std::numeric_limits<double>::quiet_NaN() : values[mins.front()];
        hi[i] = maxs.empty() ? std::numeric_limits<double>::quiet_NaN() : values[maxs.front()];
    }
    if (stats) {
        *stats = valueStats(lo);
        stats->merge(valueStats(hi));
    }
}

} // namespace tstudio::dashboard
