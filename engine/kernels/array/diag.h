// The diagonal functors (Diag, DiagPart, MatrixDiag, MatrixDiagPart, MatrixSetDiag): pure data
// movement, written once per element width E (kernels dispatch with dispatchByElementBytes).
#pragma once

#include "devices/cpu/cpu_parallel.h"

#include <algorithm>
#include <cstdint>

namespace tstudio::array {

// Each functor takes a CPU device (cpuParallelFor on its thread pool); a CUDA kernel
// would specialise them for Eigen::GpuDevice, as TensorFlow's *.cu.cc files do. Every output
// element is written exactly once (zero is the value-initialised E, all bits clear, which is
// 0 / 0.0 / false in every dtype), so the output need not be cleared first.

/// Diag: out [n, n] (n = elements of the diagonal, whatever its shape) with out[i, i] = in[i].
template <typename Device, typename E> struct DiagFunctor {
    void operator()(const Device& device, const E* in, std::int64_t n, E* out) const
    {
        cpuParallelFor(device, n, {0.0, static_cast<double>(n * sizeof(E)), static_cast<double>(n)},
                           [=](std::int64_t first, std::int64_t last) {
                               for (std::int64_t i = first; i < last; ++i) {
                                   E* row = out + i * n;
                                   std::fill(row, row + n, E{});
                                   row[i] = in[i];
                               }
                           });
    }
};

/// DiagPart: in [n, n] (flattened halves), out[i] = in[i, i].
template <typename Device, typename E> struct DiagPartFunctor {
    void operator()(const Device& device, const E* in, std::int64_t n, E* out) const
    {
        cpuParallelFor(device, n, {static_cast<double>(sizeof(E)), static_cast<double>(sizeof(E)), 1.0},
                           [=](std::int64_t first, std::int64_t last) {
                               for (std::int64_t i = first; i < last; ++i)
                                   out[i] = in[i * (n + 1)];
                           });
    }
};

/// MatrixDiag: diag [batch, n] -> out [batch, n, n], diagonal from diag and zeros elsewhere.
template <typename Device, typename E> struct MatrixDiagFunctor {
    void operator()(const Device& device, const E* diag, std::int64_t batch, std::int64_t n, E* out) const
    {
        cpuParallelFor(device, 
            batch,
            {static_cast<double>(n * sizeof(E)), static_cast<double>(n * n * sizeof(E)), static_cast<double>(n * n)},
            [=](std::int64_t first, std::int64_t last) {
                for (std::int64_t b = first; b < last; ++b) {
                    E* matrix = out + b * n * n;
                    std::fill(matrix, matrix + n * n, E{});
                    for (std::int64_t i = 0; i < n; ++i)
                        matrix[i * n + i] = diag[b * n + i];
                }
            });
    }
};

/// MatrixDiagPart: in [batch, rows, cols] -> out [batch, min(rows, cols)], out[b, i] = in[b, i, i].
template <typename Device, typename E> struct MatrixDiagPartFunctor {
    void operator()(const Device& device, const E* in, std::int64_t batch, std::int64_t rows, std::int64_t cols,
                    E* out) const
    {
        const std::int64_t k = std::min(rows, cols);
        cpuParallelFor(device, 
            batch, {static_cast<double>(k * sizeof(E)), static_cast<double>(k * sizeof(E)), static_cast<double>(k)},
            [=](std::int64_t first, std::int64_t last) {
                for (std::int64_t b = first; b < last; ++b)
                    for (std::int64_t i = 0; i < k; ++i)
                        out[b * k + i] = in[(b * rows + i) * cols + i];
            });
    }
};

/// MatrixSetDiag: out [batch, rows, cols] = in, except out[b, i, i] = diag[b, i] for
/// i < min(rows, cols). `out` may be `in` (the elements off the diagonal are then left alone).
template <typename Device, typename E> struct MatrixSetDiagFunctor {
    void operator()(const Device& device, const E* in, const E* diag, std::int64_t batch, std::int64_t rows,
                    std::int64_t cols, E* out) const
    {
        const std::int64_t k = std::min(rows, cols);
        const std::int64_t size = rows * cols;
        cpuParallelFor(device, batch,
                           {static_cast<double>((size + k) * sizeof(E)), static_cast<double>(size * sizeof(E)),
                            static_cast<double>(size)},
                           [=](std::int64_t first, std::int64_t last) {
                               for (std::int64_t b = first; b < last; ++b) {
                                   if (in != out)
                                       std::copy(in + b * size, in + (b + 1) * size, out + b * size);
                                   for (std::int64_t i = 0; i < k; ++i)
                                       out[b * size + i * cols + i] = diag[b * k + i];
                               }
                           });
    }
};

} // namespace tstudio::array
