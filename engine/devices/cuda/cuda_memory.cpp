// The SubAllocators of a CUDA device: cudaMalloc regions and page-locked host regions.
#include "devices/cuda/cuda_memory.h"

#include "devices/cuda/cuda_error.h"

#include <cstring>

namespace tstudio::cuda {

namespace {

/// Lets this thread call cudaMalloc and friends while it captures a CUDA graph. They are "unsafe"
/// during a capture only in that the graph does not record them; our regions belong to the
/// caching allocators, which keep them for the graph (its private pool), so nothing is lost.
class RelaxedCaptureMode {
public:
    RelaxedCaptureMode() { cudaThreadExchangeStreamCaptureMode(&m_mode); }
    ~RelaxedCaptureMode() { cudaThreadExchangeStreamCaptureMode(&m_mode); }
    RelaxedCaptureMode(const RelaxedCaptureMode&) = delete;
    RelaxedCaptureMode& operator=(const RelaxedCaptureMode&) = delete;

private:
    cudaStreamCaptureMode m_mode = cudaStreamCaptureModeRelaxed;
};

} // namespace

void* DeviceMemory::allocateRegion(std::size_t bytes)
{
    RelaxedCaptureMode relaxed;
    void* ptr = nullptr;
    if (cudaSetDevice(m_ordinal) != cudaSuccess || cudaMalloc(&ptr, bytes) != cudaSuccess) {
        cudaGetLastError(); // an out-of-memory answer is not sticky; clear it for the next call
        return nullptr;
    }
    return ptr;
}

void DeviceMemory::freeRegion(void* ptr, std::size_t)
{
    RelaxedCaptureMode relaxed;
    cudaSetDevice(m_ordinal);
    cudaFree(ptr);
}

Status DeviceMemory::fillBytes(void* ptr, std::size_t bytes, unsigned char value)
{
    if (bytes == 0)
        return Status::ok();
    return cudaStatus(cudaMemsetAsync(ptr, value, bytes, m_stream),
                      "cudaMemsetAsync (" + std::to_string(bytes) + " bytes on GPU " + std::to_string(m_ordinal) + ")");
}

void* PinnedHostMemory::allocateRegion(std::size_t bytes)
{
    RelaxedCaptureMode relaxed;
    void* ptr = nullptr;
    if (cudaHostAlloc(&ptr, bytes, cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError();
        return nullptr;
    }
    return ptr;
}

void PinnedHostMemory::freeRegion(void* ptr, std::size_t)
{
    RelaxedCaptureMode relaxed;
    cudaFreeHost(ptr);
}

Status PinnedHostMemory::fillBytes(void* ptr, std::size_t bytes, unsigned char value)
{
    if (bytes != 0)
        std::memset(ptr, value, bytes);
    return Status::ok();
}

} // namespace tstudio::cuda
