// What every hand-written grid-stride kernel shares (array, math, nn, random, state and training
// families): launch shapes, the loop index and element types by byte width (the device parts only
// under nvcc; host code may include this for the constants).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

namespace tstudio::gpu {

/// Threads per block of every grid-stride kernel here.
constexpr unsigned kThreadsPerBlock = 256;
/// At most this many blocks (enough to fill an H100/H200 several times over; the loop strides the
/// rest). With kThreadsPerBlock a grid has at most about 2^20 threads, so a 32-bit loop index below
/// 2^30 cannot overflow when it strides.
constexpr std::int64_t kMaxBlocks = 132 * 8 * 4;
/// Element counts below this use 32-bit index arithmetic (see kMaxBlocks).
constexpr std::int64_t kNarrowLimit = std::int64_t(1) << 30;

/// Blocks for a grid-stride loop over n > 0 items.
inline unsigned blocksFor(std::int64_t n)
{
    return static_cast<unsigned>(
        std::clamp<std::int64_t>((n + kThreadsPerBlock - 1) / kThreadsPerBlock, 1, kMaxBlocks));
}

#if defined(__CUDACC__)
/// The first index of this thread and the stride of a grid-stride loop, in Index arithmetic.
template <typename Index> __device__ inline Index firstIndex()
{
    return static_cast<Index>(blockIdx.x) * static_cast<Index>(blockDim.x) + static_cast<Index>(threadIdx.x);
}
template <typename Index> __device__ inline Index gridStride()
{
    return static_cast<Index>(gridDim.x) * static_cast<Index>(blockDim.x);
}
#endif

/// A 16-byte element (complex128) moved as a unit.
struct alignas(16) Element16 {
    unsigned long long word[2];
};

/// Calls f(E{}) with the unsigned type (or Element16) of `bytes` bytes; false for another width.
template <typename F> bool dispatchWidth(int bytes, F&& f)
{
    switch (bytes) {
    case 1: f(std::uint8_t{}); return true;
    case 2: f(std::uint16_t{}); return true;
    case 4: f(std::uint32_t{}); return true;
    case 8: f(static_cast<unsigned long long>(0)); return true;
    case 16: f(Element16{}); return true;
    default: return false;
    }
}

} // namespace tstudio::gpu
