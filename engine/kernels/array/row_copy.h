// RowCopy: the copy loops of Concat/Pack (side-by-side rows) and Split/Unpack (rows cut apart),
// templated on the device; tensors are seen as matrices [rows, width] with a shared row count.
#pragma once

#include "devices/cpu/cpu_parallel.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tstudio::array {

/// One matrix [rows, width] of elements E (E as in dispatchByElementBytes).
template <typename E> struct RowBlock {
    E* data = nullptr;
    std::int64_t width = 0;
};

template <typename Device, typename E> struct RowCopy;

template <typename E> struct RowCopy<Eigen::ThreadPoolDevice, E> {
    /// out[r, :] = parts[0][r, :] ++ parts[1][r, :] ++ ...; out's width is the sum of the parts'.
    void concat(const Eigen::ThreadPoolDevice& device, std::int64_t rows, const std::vector<RowBlock<const E>>& parts,
                E* out) const
    {
        run<true>(device, rows, parts, out);
    }
    /// parts[k][r, :] = in[r, offset_k : offset_k + width_k], the parts side by side in order.
    void split(const Eigen::ThreadPoolDevice& device, std::int64_t rows, const E* in,
               const std::vector<RowBlock<E>>& parts) const
    {
        run<false>(device, rows, parts, const_cast<E*>(in));
    }

private:
    template <bool kConcat, typename Part>
    static void run(const Eigen::ThreadPoolDevice& device, std::int64_t rows, const std::vector<Part>& parts, E* whole)
    {
        std::int64_t width = 0;
        for (const Part& p : parts)
            width += p.width;
        if (rows == 0 || width == 0)
            return;
        const double bytes = static_cast<double>(width) * static_cast<double>(sizeof(E));
        cpuParallelFor(device, rows, Eigen::TensorOpCost(bytes, bytes, static_cast<double>(width)),
                           [&parts, whole, width](Eigen::Index first, Eigen::Index last) {
                               for (Eigen::Index r = first; r < last; ++r) {
                                   E* row = whole + r * width;
                                   for (const Part& p : parts) {
                                       if constexpr (kConcat)
                                           std::copy(p.data + r * p.width, p.data + (r + 1) * p.width, row);
                                       else
                                           std::copy(row, row + p.width, p.data + r * p.width);
                                       row += p.width;
                                   }
                               }
                           });
    }
};

} // namespace tstudio::array
