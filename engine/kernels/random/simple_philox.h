// SimplePhilox: single numbers drawn one after another from a Philox stream, as TensorFlow's
// random::SimplePhilox hands them to host-side samplers (the candidate samplers' RangeSampler).
#pragma once

#include "kernels/random/philox_random.h"
#include "kernels/random/random_distributions.h"

#include <cstdint>

namespace tstudio::random {

/// Draws from `generator` (which must outlive it) one 32-bit word at a time.
class SimplePhilox {
public:
    explicit SimplePhilox(PhiloxRandom* generator) : m_words(generator) {}

    /// One word.
    std::uint32_t rand32() { return m_words(); }
    /// Two words, the first the low half.
    std::uint64_t rand64()
    {
        const std::uint64_t low = m_words();
        const std::uint64_t high = m_words();
        return low | high << 32;
    }
    /// A double in [0, 1) from two words (52 mantissa bits: 20 of the first, 32 of the second).
    double randDouble()
    {
        const std::uint32_t x0 = m_words();
        const std::uint32_t x1 = m_words();
        return uint64ToDouble(x0, x1);
    }
    /// rand64() modulo n (n > 0), TensorFlow's Uniform64.
    std::uint64_t uniform64(std::uint64_t n) { return rand64() % n; }

private:
    SingleSampleAdapter<PhiloxRandom> m_words;
};

} // namespace tstudio::random
