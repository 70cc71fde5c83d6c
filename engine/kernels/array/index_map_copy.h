// IndexMapCopy: the copy loop of the data-movement kernels, templated on the device: gathers
// elements through an IndexMap (out[i] = in[map(i)]) or scatters them (out[map(i)] = in[i]).
#pragma once

#include "kernels/array/index_map.h"
#include "devices/cpu/cpu_parallel.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tstudio::array {

/// Elements E are moved by value (an unsigned integer of the element's width, Bytes16 or
/// std::string; see dispatchByElementBytes). For a scatter the map must be one-to-one.
/// A CUDA specialization walks the same IndexMap; only the loop differs per device.
template <typename Device, typename E> struct IndexMapCopy;

template <typename E> struct IndexMapCopy<Eigen::ThreadPoolDevice, E> {
    /// out (row-major over the map's axes) [i] = in[map(i)].
    void gather(const Eigen::ThreadPoolDevice& device, const IndexMap& map, const E* in, E* out) const
    {
        run<false>(device, map, in, out);
    }
    /// out[map(i)] = in (row-major over the map's axes) [i].
    void scatter(const Eigen::ThreadPoolDevice& device, const IndexMap& map, const E* in, E* out) const
    {
        run<true>(device, map, in, out);
    }

private:
    template <bool kScatter>
    static void run(const Eigen::ThreadPoolDevice& device, const IndexMap& map, const E* in, E* out)
    {
        const std::int64_t total = map.numElements();
        if (total == 0)
            return;
        if (map.axes.empty()) {
            if constexpr (kScatter)
                out[map.base] = in[0];
            else
                out[0] = in[map.base];
            return;
        }
        const std::size_t rank = map.axes.size();
        const IndexAxis& inner = map.axes.back();
        const std::int64_t rowLength = inner.size;
        const std::int64_t rows = total / rowLength;
        const bool contiguous = inner.isLinear() && inner.step == 1;
        const double bytes = static_cast<double>(rowLength) * static_cast<double>(sizeof(E));

        auto work = [&, rank, rowLength, contiguous](Eigen::Index first, Eigen::Index last) {
            // The multi-index of row `first` over the outer axes, and its offset.
            std::vector<std::int64_t> index(rank - 1, 0);
            std::int64_t offset = map.base;
            std::int64_t rest = first;
            for (std::size_t d = rank - 1; d-- > 0;) {
                index[d] = rest % map.axes[d].size;
                rest /= map.axes[d].size;
                offset += map.axes[d].offset(index[d]);
            }
            for (Eigen::Index row = first; row < last; ++row) {
                const std::int64_t linear = row * rowLength;
                const std::int64_t mapped = offset + inner.start;
                if constexpr (kScatter) {
                    if (contiguous) {
                        std::copy(in + linear, in + linear + rowLength, out + mapped);
                    } else {
                        for (std::int64_t j = 0; j < rowLength; ++j)
                            out[offset + inner.offset(j)] = in[linear + j];
                    }
                } else {
                    if (contiguous) {
                        std::copy(in + mapped, in + mapped + rowLength, out + linear);
                    } else {
                        for (std::int64_t j = 0; j < rowLength; ++j)
                            out[linear + j] = in[offset + inner.offset(j)];
                    }
                }
                // Next row: advance the odometer over the outer axes.
                for (std::size_t d = rank - 1; d-- > 0;) {
                    const IndexAxis& axis = map.axes[d];
                    offset -= axis.offset(index[d]);
                    if (++index[d] < axis.size) {
                        offset += axis.offset(index[d]);
                        break;
                    }
                    index[d] = 0;
                    offset += axis.offset(0);
                }
            }
        };
        cpuParallelFor(device, rows, Eigen::TensorOpCost(bytes, bytes, static_cast<double>(rowLength)), work);
    }
};

} // namespace tstudio::array
