// randomSeeds: TensorFlow's graph/op seed combination.
#include "builder/random_seed.h"

namespace tstudio {
namespace {

constexpr std::int64_t kMaxInt32 = 2147483647; // 2^31 - 1

/// Python's `seed % (2**31 - 1)`: the result has the divisor's sign, so it is never negative.
std::int64_t truncateSeed(std::int64_t seed)
{
    const std::int64_t r = seed % kMaxInt32;
    return r < 0 ? r + kMaxInt32 : r;
}

} // namespace

RandomSeeds randomSeeds(std::optional<std::int64_t> graphSeed, std::optional<std::int64_t> opSeed,
                        std::int64_t lastOpId)
{
    RandomSeeds seeds;
    if (graphSeed) {
        seeds = {truncateSeed(*graphSeed), truncateSeed(opSeed.value_or(lastOpId))};
    } else if (opSeed) {
        seeds = {kDefaultGraphSeed, truncateSeed(*opSeed)};
    } else {
        return seeds; // (None, None): the op draws a fresh seed at run time
    }
    if (seeds.seed == 0 && seeds.seed2 == 0)
        seeds.seed2 = kMaxInt32;
    return seeds;
}

} // namespace tstudio
