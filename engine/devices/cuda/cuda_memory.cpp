// The SubAllocators of a CUDA device: cudaMalloc regions and page-locked host regions.
#include "devices/cuda/cuda_memory.h"

#include <cstring>

namespace tstudio::cuda {

void* DeviceMemory::allocateRegion(std::size_t bytes)
{
    void* ptr = nullptr;
    if (cudaSetDevice(m_ordinal) != cudaSuccess || cudaMalloc(&ptr, bytes) != cudaSuccess) {
        cudaGetLastError(); // an out-of-memory answer is not sticky; clear it for the next call
        return nullptr;
    }
    return ptr;
}

void DeviceMemory::freeRegion(void* ptr, std::size_t)
{
    cudaSetDevice(m_ordinal);
    cudaFree(ptr);
}

void DeviceMemory::fillZero(void* ptr, std::size_t bytes)
{
    if (bytes != 0)
        cudaMemsetAsync(ptr, 0, bytes, m_stream);
}

void* PinnedHostMemory::allocateRegion(std::size_t bytes)
{
    void* ptr = nullptr;
    if (cudaHostAlloc(&ptr, bytes, cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError();
        return nullptr;
    }
    return ptr;
}

void PinnedHostMemory::freeRegion(void* ptr, std::size_t)
{
    cudaFreeHost(ptr);
}

void PinnedHostMemory::fillZero(void* ptr, std::size_t bytes)
{
    if (bytes != 0)
        std::memset(ptr, 0, bytes);
}

} // namespace tstudio::cuda
