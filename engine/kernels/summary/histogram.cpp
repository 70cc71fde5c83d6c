// Histogram: TensorFlow's summary histogram (default exponential buckets, statistics, proto encoding).
#include "kernels/summary/histogram.h"

#include <algorithm>
#include <cfloat>
#include <utility>

namespace tstudio::summary {

namespace {

std::vector<double> makeDefaultLimits()
{
    // Positive limits grow by 10% from 1e-12 while below 1e20, then DBL_MAX ends them; the negative
    // side mirrors them. Multiplying step by step (not pow) matches TensorFlow's values bit for bit.
    std::vector<double> positive;
    for (double v = 1.0e-12; v < 1.0e20; v *= 1.1)
        positive.push_back(v);
    positive.push_back(DBL_MAX);
    std::vector<double> limits;
    limits.reserve(2 * positive.size() + 1);
    for (auto it = positive.rbegin(); it != positive.rend(); ++it)
        limits.push_back(-*it);
    limits.push_back(0.0);
    limits.insert(limits.end(), positive.begin(), positive.end());
    return limits;
}

} // namespace

std::span<const double> Histogram::defaultBucketLimits()
{
    static const std::vector<double> limits = makeDefaultLimits();
    return limits;
}

Histogram::Histogram() : Histogram(std::vector<double>(defaultBucketLimits().begin(), defaultBucketLimits().end()))
{
}

Histogram::Histogram(std::vector<double> bucketLimits) : m_limits(std::move(bucketLimits))
{
    clear();
}

void Histogram::clear()
{
    m_min = m_limits.empty() ? DBL_MAX : m_limits.back();
    m_max = -DBL_MAX;
    m_num = 0;
    m_sum = 0;
    m_sumSquares = 0;
    m_counts.assign(m_limits.size(), 0.0);
}

void Histogram::add(double value)
{
    // upper_bound: the first limit strictly above the value. A value at or above the last limit
    // would index past the end; TensorFlow's last limit is DBL_MAX so only +inf gets there, and
    // callers reject non-finite values. Clamp anyway rather than write out of bounds.
    auto index = static_cast<std::size_t>(std::upper_bound(m_limits.begin(), m_limits.end(), value) - m_limits.begin());
    if (index >= m_counts.size())
        index = m_counts.size() - 1;
    m_counts[index] += 1.0;
    m_min = std::min(m_min, value);
    m_max = std::max(m_max, value);
    m_num += 1;
    m_sum += value;
    m_sumSquares += value * value;
}

void Histogram::encodeToProto(tensorflow::HistogramProto* proto, bool preserveZeroBuckets) const
{
    proto->Clear();
    proto->set_min(m_min);
    proto->set_max(m_max);
    proto->set_num(m_num);
    proto->set_sum(m_sum);
    proto->set_sum_squares(m_sumSquares);
    std::size_t i = 0;
    while (i < m_counts.size()) {
        double limit = m_limits[i];
        double count = m_counts[i];
        ++i;
        if (!preserveZeroBuckets && count <= 0.0) {
            while (i < m_counts.size() && m_counts[i] <= 0.0) {
                limit = m_limits[i];
                count = m_counts[i];
                ++i;
            }
        }
        proto->add_bucket_limit(limit);
        proto->add_bucket(count);
    }
    if (proto->bucket_size() == 0) {
        proto->add_bucket_limit(DBL_MAX);
        proto->add_bucket(0.0);
    }
}

} // namespace tstudio::summary
