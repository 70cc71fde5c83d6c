// What GPU kernels share: their CudaDevice, launch shapes, and the check after a launch.
#pragma once

#include "devices/cuda/cuda_device.h"
#include "devices/cuda/cuda_error.h"
#include "framework/op_kernel.h"

#include <algorithm>
#include <cstdint>

namespace tstudio::cuda {

/// The GPU `context` computes on, made current on the calling thread. Every GPU kernel's
/// compute() starts with it (the executor may call kernels from any thread).
inline Expected<CudaDevice*> gpuOf(OpKernelContext& context)
{
    auto* device = static_cast<CudaDevice*>(&context.device());
    if (Status s = device->activate(); !s.isOk())
        return unexpected(s);
    return device;
}

/// Blocks and threads for a grid-stride loop over `n` elements: 256 threads a block, at most
/// 8 blocks per multiprocessor's worth of work (the loop covers the rest). n > 0.
struct LaunchShape {
    unsigned blocks = 1;
    unsigned threads = 256;
};
inline LaunchShape launchShape(std::int64_t n, unsigned threads = 256)
{
    constexpr std::int64_t kMaxBlocks = 132 * 8 * 4; // enough for an H100/H200; the loop strides the rest
    const std::int64_t blocks = std::clamp<std::int64_t>((n + threads - 1) / threads, 1, kMaxBlocks);
    return {static_cast<unsigned>(blocks), threads};
}

} // namespace tstudio::cuda
