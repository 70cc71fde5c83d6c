// The SubAllocators of a CUDA device: its own memory (cudaMalloc) and page-locked host memory
// (cudaHostAlloc) for fast copies. Never managed (unified) memory.
#pragma once

#include "framework/sub_allocator.h"

#include <cuda_runtime_api.h>

namespace tstudio::cuda {

/// Regions of GPU `ordinal`'s memory. fillBytes is a cudaMemsetAsync on `stream` (the device's
/// compute stream), so it is ordered before the kernels that later use the memory.
class DeviceMemory final : public SubAllocator {
public:
    DeviceMemory(int ordinal, cudaStream_t stream) : m_ordinal(ordinal), m_stream(stream) {}

    void* allocateRegion(std::size_t bytes) override;
    void freeRegion(void* ptr, std::size_t bytes) override;
    bool hostAccessible() const override { return false; }
    Status fillBytes(void* ptr, std::size_t bytes, unsigned char value) override;

private:
    int m_ordinal;
    cudaStream_t m_stream;
};

/// Regions of page-locked host memory (the device's hostAllocator(): staging for copies and the
/// tensors that host-memory kernel arguments hold).
class PinnedHostMemory final : public SubAllocator {
public:
    void* allocateRegion(std::size_t bytes) override;
    void freeRegion(void* ptr, std::size_t bytes) override;
    bool hostAccessible() const override { return true; }
    Status fillBytes(void* ptr, std::size_t bytes, unsigned char value) override;
};

} // namespace tstudio::cuda
