// Histogram: TensorFlow's summary histogram (default exponential buckets, statistics, proto encoding).
#pragma once

#include "proto/histogram.pb.h"

#include <span>
#include <vector>

namespace tstudio::summary {

/// Counts values into buckets as TensorFlow's histogram::Histogram does for HistogramSummary.
/// Bucket i holds the values v with limit[i-1] <= v < limit[i] (the first bucket everything below
/// limit[0]). The default limits are TensorFlow's: 1e-12, 1.1e-12, ... growing by a factor 1.1
/// while below 1e20, then DBL_MAX; the same negated and in increasing order below 0; and 0 between
/// them (1551 limits). A value: not synchronised.
class Histogram {
public:
    /// The default bucket limits.
    Histogram();
    /// Custom limits; the caller guarantees they are non-empty and strictly increasing.
    explicit Histogram(std::vector<double> bucketLimits);

    /// TensorFlow's default limits (computed once, shared).
    static std::span<const double> defaultBucketLimits();

    /// Forgets every value added.
    void clear();
    /// Adds one value. Values must be finite (HistogramSummary rejects others before calling).
    void add(double value);

    double min() const { return m_min; }
    double max() const { return m_max; }
    double num() const { return m_num; }
    double sum() const { return m_sum; }
    double sumSquares() const { return m_sumSquares; }
    std::span<const double> bucketLimits() const { return m_limits; }
    std::span<const double> bucketCounts() const { return m_counts; }

    /// Writes the histogram as TensorFlow's EncodeToProto: min, max, num, sum, sum_squares, and
    /// (limit, count) pairs. Without `preserveZeroBuckets`, every run of empty buckets becomes one
    /// empty bucket whose limit is the run's last limit. An all-empty result keeps one bucket
    /// (DBL_MAX, 0). An empty histogram has min DBL_MAX (the last limit) and max -DBL_MAX, as there.
    void encodeToProto(tensorflow::HistogramProto* proto, bool preserveZeroBuckets) const;

private:
    std::vector<double> m_limits;
    std::vector<double> m_counts;
    double m_min = 0;
    double m_max = 0;
    double m_num = 0;
    double m_sum = 0;
    double m_sumSquares = 0;
};

} // namespace tstudio::summary
