// SubAllocator: where a caching allocator (BfcAllocator) gets its large regions of raw memory.
#pragma once

#include "core/status.h"

#include <cstddef>

namespace tstudio {

/// The source of the regions a BfcAllocator carves tensors from: host memory (tests, pinned host
/// memory) or a GPU's memory (cudaMalloc). Regions are few and large; the caching allocator above
/// never returns part of a region. Thread-safety: called under the caching allocator's lock.
class SubAllocator {
public:
    virtual ~SubAllocator() = default;

    /// A region of `bytes` bytes (a multiple of 256, > 0) aligned to at least 256 bytes, or
    /// nullptr when the memory is not available (the caller may then try a smaller region).
    virtual void* allocateRegion(std::size_t bytes) = 0;
    /// Returns a region from allocateRegion with its size.
    virtual void freeRegion(void* ptr, std::size_t bytes) = 0;
    /// Whether the host may read and write the memory directly.
    virtual bool hostAccessible() const = 0;
    /// Sets `bytes` bytes at `ptr` to `value` (device memory: asynchronously, ordered before the
    /// device's later work); the error when the fill could not be queued.
    [[nodiscard]] virtual Status fillBytes(void* ptr, std::size_t bytes, unsigned char value) = 0;
};

} // namespace tstudio
