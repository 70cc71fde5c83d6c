// The samplers behind TensorFlow 1.15's candidate sampling ops (its RangeSampler family): each draws
// classes from [0, range) and knows the probability of each class, from which the ops report
// expected counts. Uniform, log-uniform (Zipfian) and "all" are here; the learned and fixed unigram
// samplers are not.
#pragma once

#include "kernels/random/simple_philox.h"

#include <cstdint>
#include <span>

namespace tstudio::random {

/// Draws classes from [0, range()).
class RangeSampler {
public:
    explicit RangeSampler(std::int64_t range) : m_range(range) {}
    virtual ~RangeSampler() = default;

    std::int64_t range() const { return m_range; }
    /// One class.
    virtual std::int64_t sample(SimplePhilox& rnd) const = 0;
    /// The probability that sample() returns `value`.
    virtual float probability(std::int64_t value) const = 0;

    /// Fills `batch` with samples (distinct ones when `unique`: samples are drawn until that many
    /// distinct classes were seen) and reports expected counts: for each class of `batch` in
    /// `batchExpectedCount` (empty: none) and for each of `extras` in `extrasExpectedCount`. The
    /// expected count of a class of probability p is p * batch.size() when every try was kept, else
    /// its probability of being among the tries, 1 - (1 - p)^tries. With `unique`, the caller
    /// guarantees batch.size() <= range().
    virtual void sampleBatchGetExpectedCount(SimplePhilox& rnd, bool unique, std::span<std::int64_t> batch,
                                             std::span<float> batchExpectedCount, std::span<const std::int64_t> extras,
                                             std::span<float> extrasExpectedCount) const;

private:
    std::int64_t m_range;
};

/// Every class with the same probability 1 / range (uniform64).
class UniformSampler : public RangeSampler {
public:
    explicit UniformSampler(std::int64_t range);
    std::int64_t sample(SimplePhilox& rnd) const override;
    float probability(std::int64_t value) const override;

private:
    float m_inverseRange;
};

/// P(k) = log((k + 2) / (k + 1)) / log(range + 1): small classes (frequent words, when a vocabulary
/// is sorted by frequency) are drawn most. A sample is floor(exp(u * log(range + 1))) - 1 for a
/// uniform double u, modulo range.
class LogUniformSampler : public RangeSampler {
public:
    explicit LogUniformSampler(std::int64_t range);
    std::int64_t sample(SimplePhilox& rnd) const override;
    float probability(std::int64_t value) const override;

private:
    double m_logRange;
};

/// The batch is every class 0 .. range - 1 in order (its size must be the range), each with
/// expected count 1; draws nothing.
class AllSampler : public RangeSampler {
public:
    explicit AllSampler(std::int64_t range) : RangeSampler(range) {}
    std::int64_t sample(SimplePhilox&) const override { return 0; }
    float probability(std::int64_t) const override { return 0.0f; }
    void sampleBatchGetExpectedCount(SimplePhilox& rnd, bool unique, std::span<std::int64_t> batch,
                                     std::span<float> batchExpectedCount, std::span<const std::int64_t> extras,
                                     std::span<float> extrasExpectedCount) const override;
};

} // namespace tstudio::random
