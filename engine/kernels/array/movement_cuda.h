// The GPU loops of the array kernels (CUDA builds only): IndexMap gathers and scatters, row
// concatenation and splitting, fills, Gather and OneHot, launched on a stream. Host code calls these
// launchers; the kernels live in movement_cuda.cu and gather_cuda.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tstudio::array {

class Movement;
/// The element movement of the array kernels on a CUDA device (movement_cuda.cpp): kernels queued
/// on the device's compute stream, nothing waited for.
const Movement& gpuMovement();

} // namespace tstudio::array

namespace tstudio::array::cuda {

/// An IndexMap (index_map.h) as a kernel argument, passed by value: element i of the walked array
/// (row-major over size[0..rank)) maps to base + sum_d offset_d(j_d), with offset_d(j) =
/// table[d][j] when table[d] is set (device memory) and start[d] + j * step[d] otherwise.
struct DeviceIndexMap {
    static constexpr int kMaxAxes = 16;
    std::int64_t base = 0;
    int rank = 0;
    std::int64_t size[kMaxAxes] = {};
    std::int64_t start[kMaxAxes] = {};
    std::int64_t step[kMaxAxes] = {};
    const std::int64_t* table[kMaxAxes] = {};
};

/// out[i] = in[map(i)] (or, with `scatter`, out[map(i)] = in[i]) for the `total` elements of the
/// map, moving `elementBytes`-byte elements (1, 2, 4, 8 or 16). `narrow`: both buffers' element
/// counts and `total` are below gpu::kNarrowLimit (32-bit index arithmetic). total > 0.
void launchIndexMapCopy(cudaStream_t stream, int elementBytes, const DeviceIndexMap& map, std::int64_t total,
                        bool narrow, bool scatter, const void* in, void* out);

/// Up to kMaxParts matrices [rows, width_k] that lie side by side, from column `firstColumn`, in a
/// matrix [rows, totalWidth] (Concat: parts -> whole; Split: whole -> parts).
struct DeviceRowParts {
    static constexpr int kMaxParts = 32;
    int count = 0;
    std::int64_t totalWidth = 0;
    std::int64_t firstColumn = 0;
    /// Prefix sums of the parts' widths: part k covers columns [edge[k], edge[k + 1]) of the batch.
    std::int64_t edge[kMaxParts + 1] = {};
    void* data[kMaxParts] = {};
};

/// Concat (`concat`) copies every part into `whole`; otherwise (Split) `whole` into every part.
/// Parts have non-zero widths; rows > 0. `narrow`: rows * totalWidth is below gpu::kNarrowLimit.
void launchRowCopy(cudaStream_t stream, int elementBytes, std::int64_t rows, const DeviceRowParts& parts, bool narrow,
                   bool concat, void* whole);

/// out[0, n) = *value (value in device memory). n > 0.
void launchFillFromDevice(cudaStream_t stream, int elementBytes, const void* value, void* out, std::int64_t n);
/// out[0, n) = the `elementBytes` bytes at `value` (host memory, read at the call). n > 0.
void launchFillWithValue(cudaStream_t stream, int elementBytes, const void* value, void* out, std::int64_t n);

/// Gather: params [batch, outer, limit, inner], indices [batch, count] (int32 or int64, as
/// `wideIndices`), out [batch, outer, count, inner]. An index outside [0, limit) gives zeros, as
/// TensorFlow's GPU kernel does (the CPU kernel fails instead; a GPU kernel cannot report it
/// without waiting for the device). total = batch * outer * count * inner > 0.
struct DeviceGatherShape {
    std::int64_t batch = 1;
    std::int64_t outer = 1;
    std::int64_t limit = 0;
    std::int64_t count = 0;
    std::int64_t inner = 1;
};
void launchGather(cudaStream_t stream, int elementBytes, bool wideIndices, const DeviceGatherShape& shape,
                  const void* params, const void* indices, void* out);

/// OneHot: out [prefix, depth, suffix] is *on where indices[p, s] == d, else *off (on and off in
/// device memory); `indexBytes` is 1 (uint8), 4 (int32) or 8 (int64). prefix*depth*suffix > 0.
void launchOneHot(cudaStream_t stream, int elementBytes, int indexBytes, std::int64_t prefix, std::int64_t depth,
                  std::int64_t suffix, const void* indices, const void* on, const void* off, void* out);

} // namespace tstudio::array::cuda
