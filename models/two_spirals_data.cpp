// makeTwoSpirals: points on two interleaved noisy spirals, reproducible from a seed.
#include "two_spirals_data.h"

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

namespace tstudio::examples {
namespace {

/// A uniform double in (0, 1) from 53 random bits; std::mt19937_64's output is fixed by the
/// standard, unlike std::uniform_real_distribution's, so the data are the same everywhere.
double uniformOpen(std::mt19937_64& engine)
{
    return (static_cast<double>(engine() >> 11) + 0.5) * 0x1.0p-53;
}

/// A standard normal sample (Box-Muller; the second value is dropped for simplicity).
double standardNormal(std::mt19937_64& engine)
{
    const double u1 = uniformOpen(engine);
    const double u2 = uniformOpen(engine);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

} // namespace

Expected<TwoSpirals> makeTwoSpirals(Allocator& allocator, const TwoSpiralsOptions& options)
{
    constexpr std::int64_t kMaxPoints = 10'000'000;
    if (options.pointsPerClass < 1 || options.pointsPerClass > kMaxPoints)
        return unexpected(invalidArgumentError("two spirals: points per class must be between 1 and " +
                                       std::to_string(kMaxPoints) + ", got " + std::to_string(options.pointsPerClass)));
    if (!std::isfinite(options.noise) || options.noise < 0)
        return unexpected(invalidArgumentError("two spirals: noise must be a finite number >= 0, got " + std::to_string(options.noise)));
    if (!std::isfinite(options.turns) || options.turns <= 0)
        return unexpected(invalidArgumentError("two spirals: turns must be a finite number > 0, got " + std::to_string(options.turns)));

    const std::int64_t n = options.pointsPerClass;
    std::vector<float> points;
    std::vector<std::int32_t> labels;
    points.reserve(static_cast<std::size_t>(4 * n));
    labels.reserve(static_cast<std::size_t>(2 * n));
    std::mt19937_64 engine(options.seed);
    for (std::int64_t i = 0; i < n; ++i) {
        const double t = static_cast<double>(i + 1) / static_cast<double>(n);
        for (int k = 0; k < 2; ++k) {
            const double angle = 2.0 * std::numbers::pi * options.turns * t + k * std::numbers::pi;
            const double x = t * std::cos(angle) + options.noise * standardNormal(engine);
            const double y = t * std::sin(angle) + options.noise * standardNormal(engine);
            points.push_back(static_cast<float>(x));
            points.push_back(static_cast<float>(y));
            labels.push_back(k);
        }
    }
    auto pointTensor = Tensor::fromVector(allocator, TensorShape({2 * n, 2}), points);
    if (!pointTensor)
        return unexpected(pointTensor.error());
    auto labelTensor = Tensor::fromVector(allocator, TensorShape({2 * n}), labels);
    if (!labelTensor)
        return unexpected(labelTensor.error());
    return TwoSpirals{std::move(*pointTensor), std::move(*labelTensor)};
}

} // namespace tstudio::examples
