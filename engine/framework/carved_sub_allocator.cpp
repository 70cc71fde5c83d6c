// CarvedSubAllocator: regions from a parent allocator.
#include "framework/carved_sub_allocator.h"

namespace tstudio {

void* CarvedSubAllocator::allocateRegion(std::size_t bytes)
{
    // A refused region is an answer (the pool then tries smaller ones), not an error to report.
    auto region = m_parent.allocate(bytes, 256);
    return region ? *region : nullptr;
}

void CarvedSubAllocator::freeRegion(void* ptr, std::size_t bytes)
{
    m_parent.deallocate(ptr, bytes);
}

} // namespace tstudio
