// The CPU FillPhiloxRandom: groups of outputs sharded over Eigen's thread pool.
#pragma once

#ifndef EIGEN_USE_THREADS
#define EIGEN_USE_THREADS
#endif

#include "kernels/random/fill_philox_random.h"
#include "devices/cpu/cpu_parallel.h"

#include <unsupported/Eigen/CXX11/Tensor>

namespace tstudio::random {

template <typename Distribution> struct FillPhiloxRandom<Eigen::ThreadPoolDevice, Distribution> {
    using T = typename Distribution::ResultElementType;

    void operator()(const Eigen::ThreadPoolDevice& device, PhiloxRandom gen, T* data, std::int64_t size,
                    const Distribution& dist) const
    {
        if (size <= 0)
            return;
        constexpr int kGroupSize = Distribution::kResultElementCount;
        const std::int64_t groups = (size + kGroupSize - 1) / kGroupSize;
        // TensorFlow's cost estimate per group: 4 words x (10 Philox cycles + a few per value).
        const double cycles = Distribution::kVariableSamplesPerOutput ? 4 * (10 + 90) : 4 * (10 + 70);
        cpuParallelFor(device, static_cast<Eigen::Index>(groups), Eigen::TensorOpCost(0, sizeof(T) * kGroupSize, cycles),
                           [&](Eigen::Index start, Eigen::Index limit) {
                               fillPhiloxRandomGroups(gen, data, size, static_cast<std::int64_t>(start),
                                                      static_cast<std::int64_t>(limit), dist);
                           });
    }
};

} // namespace tstudio::random
