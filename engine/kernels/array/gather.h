// GatherFunctor and OneHotFunctor: the CPU loops of Gather/GatherV2 and OneHot, templated on the
// device and on the element (moved by value, see dispatchByElementBytes).
#pragma once

#include "kernels/array/gather_plan.h"
#include "devices/cpu/cpu_parallel.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <cstdint>

namespace tstudio::array {

template <typename Device, typename E> struct GatherFunctor;

template <typename E> struct GatherFunctor<Eigen::ThreadPoolDevice, E> {
    void operator()(const Eigen::ThreadPoolDevice& device, const GatherShape& s, const E* params,
                    const std::int64_t* indices, E* out) const
    {
        const std::int64_t slices = s.batch * s.outer * s.count;
        if (slices == 0 || s.inner == 0)
            return;
        const double bytes = static_cast<double>(s.inner) * static_cast<double>(sizeof(E));
        cpuParallelFor(device, slices, Eigen::TensorOpCost(bytes, bytes, static_cast<double>(s.inner)),
                           [&s, params, indices, out](Eigen::Index first, Eigen::Index last) {
                               for (Eigen::Index slice = first; slice < last; ++slice) {
                                   const std::int64_t i = slice % s.count;
                                   const std::int64_t bo = slice / s.count; // batch * outer + o
                                   const std::int64_t b = bo / s.outer;
                                   const std::int64_t index = indices[b * s.count + i];
                                   const E* from = params + (bo * s.limit + index) * s.inner;
                                   std::copy(from, from + s.inner, out + slice * s.inner);
                               }
                           });
    }
};

/// OneHot: output [prefix, depth, suffix] is `on` where indices[p, s] == d, else `off`; indices
/// outside [0, depth) give a row of `off`.
template <typename Device, typename E> struct OneHotFunctor;

template <typename E> struct OneHotFunctor<Eigen::ThreadPoolDevice, E> {
    void operator()(const Eigen::ThreadPoolDevice& device, std::int64_t prefix, std::int64_t depth, std::int64_t suffix,
                    const std::int64_t* indices, const E& on, const E& off, E* out) const
    {
        if (prefix * depth * suffix == 0)
            return;
        const double bytes = static_cast<double>(depth * suffix) * static_cast<double>(sizeof(E));
        cpuParallelFor(device, 
            prefix, Eigen::TensorOpCost(static_cast<double>(suffix) * 8, bytes, static_cast<double>(depth * suffix)),
            [=, &on, &off](Eigen::Index first, Eigen::Index last) {
                for (Eigen::Index p = first; p < last; ++p) {
                    E* block = out + p * depth * suffix;
                    std::fill(block, block + depth * suffix, off);
                    for (std::int64_t s = 0; s < suffix; ++s) {
                        const std::int64_t index = indices[p * suffix + s];
                        if (index >= 0 && index < depth)
                            block[index * suffix + s] = on;
                    }
                }
            });
    }
};

} // namespace tstudio::array
