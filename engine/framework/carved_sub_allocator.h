// CarvedSubAllocator: regions carved out of another allocator, for a private pool of memory (the
// pool of one captured CUDA graph) that shares its device's memory limit.
#pragma once

#include "framework/allocator.h"
#include "framework/sub_allocator.h"

namespace tstudio {

/// Gives a BfcAllocator its regions from `parent` (256-byte aligned chunks of the device's own
/// caching allocator), so a private pool takes no memory beyond the device's budget and returns
/// it to the parent when the pool is destroyed. `parent` must outlive this object and every
/// region it handed out.
class CarvedSubAllocator final : public SubAllocator {
public:
    explicit CarvedSubAllocator(Allocator& parent) : m_parent(parent) {}

    void* allocateRegion(std::size_t bytes) override;
    void freeRegion(void* ptr, std::size_t bytes) override;
    bool hostAccessible() const override { return m_parent.hostAccessible(); }
    Status fillBytes(void* ptr, std::size_t bytes, unsigned char value) override
    {
        return m_parent.fillBytes(ptr, bytes, value);
    }

private:
    Allocator& m_parent;
};

} // namespace tstudio
