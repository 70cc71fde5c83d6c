// Histogram math of the dashboard: percentile compression and rebinning, written after TensorBoard's rules.
#include "histogram_math.h"

#include <algorithm>
#include <cmath>

namespace tstudio::dashboard {

std::array<double, 9> compressHistogram(const events::Histogram& histogram)
{
    std::array<double, 9> out{};
    const auto& buckets = histogram.buckets;
    if (buckets.empty())
        return out;
    const double low = buckets.front().left;
    const double high = buckets.back().right;

    double total = 0;
    for (const auto& b : buckets)
        total += b.count;
    const double scale = total != 0 ? total : 1.0;
    // Cumulative weights scaled so that the whole histogram weighs 10000 basis points.
    std::vector<double> cumulative(buckets.size());
    double running = 0;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        running += buckets[i].count * 10000.0 / scale;
        cumulative[i] = running;
    }

    std::size_t next = 0; // the next basis point to fill
    for (; next < kNormalHistogramBps.size(); ++next) {
        const double bp = kNormalHistogramBps[next];
        // The first bucket whose cumulative weight exceeds the basis point and adds some weight.
        std::size_t i = 0;
        while (i < cumulative.size() && !(cumulative[i] > bp))
            ++i;
        while (i < cumulative.size() && cumulative[i] == (i > 0 ? cumulative[i - 1] : 0.0))
            ++i;
        if (i == cumulative.size())
            break;
        const double before = i > 0 ? cumulative[i - 1] : 0.0;
        const double lhs = (i == 0 || before == 0) ? low : std::max(buckets[i - 1].right, low);
        const double rhs = std::min(buckets[i].right, high);
        out[next] = lhs + (bp - before) * (rhs - lhs) / (cumulative[i] - before);
    }
    for (; next < out.size(); ++next)
        out[next] = high;
    return out;
}

namespace {

bool usable(const events::HistogramBucket& b)
{
    return std::isfinite(b.left) && std::isfinite(b.right) && std::isfinite(b.count);
}

} // namespace

std::optional<ValueRange> histogramRange(const events::Histogram& histogram)
{
    std::optional<ValueRange> range;
    for (const auto& b : histogram.buckets) {
        if (!usable(b))
            continue;
        if (!range)
            range = ValueRange{b.left, b.right};
        range->min = std::min(range->min, b.left);
        range->max = std::max(range->max, b.right);
    }
    return range;
}

std::vector<HistogramBin> rebinHistogram(const events::Histogram& histogram, double min, double max, int binCount)
{
    std::vector<HistogramBin> bins;
    if (histogram.buckets.empty() || binCount < 1 || !std::isfinite(min) || !std::isfinite(max) || max < min)
        return bins;
    const auto n = static_cast<std::size_t>(binCount);
    if (max == min) {
        bins.assign(n, HistogramBin{min, 0, 0});
        for (const auto& b : histogram.buckets)
            if (usable(b))
                bins.back().y += b.count;
        return bins;
    }
    const double width = (max - min) / binCount;
    bins.resize(n);
    for (std::size_t j = 0; j < n; ++j)
        bins[j] = HistogramBin{min + static_cast<double>(j) * width, width, 0};

    const auto binOf = [&](double v) {
        const double j = std::floor((v - min) / width);
        return static_cast<std::size_t>(std::clamp(j, 0.0, static_cast<double>(n - 1)));
    };
    for (const auto& b : histogram.buckets) {
        if (!usable(b))
            continue;
        const double left = std::max(min, b.left);
        const double right = std::min(max, b.right);
        if (right < left)
            continue;
        if (right == left) {
            bins[binOf(left)].y += b.count;
            continue;
        }
        // Only the bins near the bucket can overlap it; one bin of slack on each side absorbs rounding.
        const std::size_t first = binOf(left) > 0 ? binOf(left) - 1 : 0;
        const std::size_t last = std::min(binOf(right) + 1, n - 1);
        for (std::size_t j = first; j <= last; ++j) {
            const double binRight = bins[j].x + width;
            const double overlap = std::min(right, binRight) - std::max(left, bins[j].x);
            if (overlap > 0)
                bins[j].y += overlap / (right - left) * b.count;
        }
    }
    return bins;
}

std::vector<std::vector<HistogramBin>> rebinSeries(const std::vector<const events::Histogram*>& histograms,
                                                   int binCount)
{
    std::optional<ValueRange> all;
    for (const auto* h : histograms) {
        if (!h)
            continue;
        if (const auto r = histogramRange(*h)) {
            if (!all)
                all = *r;
            all->min = std::min(all->min, r->min);
            all->max = std::max(all->max, r->max);
        }
    }
    std::vector<std::vector<HistogramBin>> out(histograms.size());
    if (!all)
        return out;
    for (std::size_t i = 0; i < histograms.size(); ++i)
        if (histograms[i])
            out[i] = rebinHistogram(*histograms[i], all->min, all->max, binCount);
    return out;
}

} // namespace tstudio::dashboard
