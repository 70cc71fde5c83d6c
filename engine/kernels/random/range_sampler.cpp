// RangeSampler and its uniform, log-uniform and all-classes forms (range_sampler.h), with
// TensorFlow 1.15's draws, rounding and expected-count estimate.
#include "kernels/random/range_sampler.h"

#include <cmath>
#include <unordered_set>

namespace tstudio::random {

namespace {

/// The expected count of a class of probability p in a batch of `batchSize` drawn in `tries`
/// tries: p * batchSize when every try was kept (always so without `unique`), else the chance that
/// one of the tries drew it, 1 - (1 - p)^tries, computed as -expm1(tries * log1p(-p)).
float expectedCount(float p, std::int64_t batchSize, std::int64_t tries)
{
    if (tries == batchSize)
        return p * static_cast<float>(batchSize);
    return static_cast<float>(-std::expm1(static_cast<double>(tries) * std::log1p(-static_cast<double>(p))));
}

} // namespace

void RangeSampler::sampleBatchGetExpectedCount(SimplePhilox& rnd, bool unique, std::span<std::int64_t> batch,
                                               std::span<float> batchExpectedCount,
                                               std::span<const std::int64_t> extras,
                                               std::span<float> extrasExpectedCount) const
{
    const auto batchSize = static_cast<std::int64_t>(batch.size());
    std::int64_t tries = 0;
    if (unique) {
        std::unordered_set<std::int64_t> used(batch.size());
        std::size_t picked = 0;
        while (picked < batch.size()) {
            ++tries;
            const std::int64_t value = sample(rnd);
            if (used.insert(value).second)
                batch[picked++] = value;
        }
    } else {
        for (std::int64_t& value : batch)
            value = sample(rnd);
        tries = batchSize;
    }
    for (std::size_t i = 0; i < batchExpectedCount.size() && i < batch.size(); ++i)
        batchExpectedCount[i] = expectedCount(probability(batch[i]), batchSize, tries);
    for (std::size_t i = 0; i < extras.size() && i < extrasExpectedCount.size(); ++i)
        extrasExpectedCount[i] = expectedCount(probability(extras[i]), batchSize, tries);
}

UniformSampler::UniformSampler(std::int64_t range)
    : RangeSampler(range), m_inverseRange(static_cast<float>(1.0 / static_cast<double>(range)))
{
}

std::int64_t UniformSampler::sample(SimplePhilox& rnd) const
{
    return static_cast<std::int64_t>(rnd.uniform64(static_cast<std::uint64_t>(range())));
}

float UniformSampler::probability(std::int64_t) const
{
    return m_inverseRange;
}

LogUniformSampler::LogUniformSampler(std::int64_t range)
    : RangeSampler(range), m_logRange(std::log1p(static_cast<double>(range)))
{
}

std::int64_t LogUniformSampler::sample(SimplePhilox& rnd) const
{
    const auto value = static_cast<std::int64_t>(std::exp(rnd.randDouble() * m_logRange)) - 1;
    // exp(u * log(range + 1)) < range + 1 for u < 1; the modulo guards against rounding up to it.
    return value % range();
}

float LogUniformSampler::probability(std::int64_t value) const
{
    const double v = static_cast<double>(value);
    return static_cast<float>(std::log((v + 2.0) / (v + 1.0)) / m_logRange);
}

void AllSampler::sampleBatchGetExpectedCount(SimplePhilox&, bool, std::span<std::int64_t> batch,
                                             std::span<float> batchExpectedCount, std::span<const std::int64_t> extras,
                                             std::span<float> extrasExpectedCount) const
{
    for (std::size_t i = 0; i < batch.size(); ++i)
        batch[i] = static_cast<std::int64_t>(i);
    for (float& count : batchExpectedCount)
        count = 1.0f;
    for (std::size_t i = 0; i < extras.size() && i < extrasExpectedCount.size(); ++i)
        extrasExpectedCount[i] = 1.0f;
}

} // namespace tstudio::random
