// The two-spirals problem: a synthetic, download-free classification data set (two interleaved
// spirals in the plane) for the built-in training example.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"

#include <cstdint>

namespace tstudio::examples {

struct TwoSpiralsOptions {
    std::int64_t pointsPerClass = 500;
    /// Turns of each spiral (from its centre outwards).
    double turns = 1.75;
    /// Standard deviation of the Gaussian noise added to each coordinate, in units where the
    /// spirals end at radius 1.
    double noise = 0.04;
    std::uint64_t seed = 1;
};

/// The points and their classes: `points` float32 [2N, 2] (x, y within about [-1.1, 1.1]) and
/// `labels` int32 [2N] (0 or 1), the two classes interleaved (point 2i of class 0, 2i+1 of class 1).
/// Spiral k is r = t, angle = 2 pi turns t + k pi for t evenly spaced in (0, 1]. The same seed gives
/// the same points on every platform (the noise comes from a fixed generator, not std::
/// distributions). InvalidArgument for fewer than 1 or more than 10,000,000 points per class, or a
/// negative or non-finite noise or turns.
struct TwoSpirals {
    Tensor points;
    Tensor labels;
};
Expected<TwoSpirals> makeTwoSpirals(Allocator& allocator, const TwoSpiralsOptions& options = {});

} // namespace tstudio::examples
