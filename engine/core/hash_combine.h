// hashCombine: one 64-bit value folded into a running hash (structure signatures, pixel-path keys).
#pragma once

#include <cstdint>

namespace tstudio {

/// Combines `v` into `h` (boost's hash_combine step over 64 bits, then splitmix64's finaliser, so
/// that every bit of both reaches every bit of the result). Not a cryptographic hash; stable across
/// runs and platforms.
inline std::uint64_t hashCombine(std::uint64_t h, std::uint64_t v)
{
    std::uint64_t x = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

} // namespace tstudio
