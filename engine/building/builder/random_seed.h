// The seed attrs of a random op from the graph-level and op-level seeds, as tf.compat.v1.get_seed.
#pragma once

#include <cstdint>
#include <optional>

namespace tstudio {

/// TensorFlow's DEFAULT_GRAPH_SEED: the graph seed used when only an op seed is given.
inline constexpr std::int64_t kDefaultGraphSeed = 87654321;

/// The `seed` and `seed2` attrs of a random op (0 and 0: seeded nondeterministically).
struct RandomSeeds {
    std::int64_t seed = 0;
    std::int64_t seed2 = 0;
    bool operator==(const RandomSeeds&) const = default;
};

/// TensorFlow 1.x's get_seed: with a graph seed, the op seed defaults to `lastOpId` (the number of
/// ops the graph has created so far); with only an op seed, the graph seed is kDefaultGraphSeed;
/// with neither, both are 0. Each is reduced modulo 2^31 - 1 (Python's modulo: never negative),
/// and the pair (0, 0) coming from given seeds becomes (0, 2^31 - 1) so it stays deterministic.
RandomSeeds randomSeeds(std::optional<std::int64_t> graphSeed, std::optional<std::int64_t> opSeed,
                        std::int64_t lastOpId);

} // namespace tstudio
