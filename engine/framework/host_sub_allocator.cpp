// HostSubAllocator: aligned host regions with optional caps and counters.
#include "framework/host_sub_allocator.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace tstudio {

HostSubAllocator::HostSubAllocator(Limits limits) : m_limits(limits)
{
}

HostSubAllocator::~HostSubAllocator()
{
    for (const LiveRegion& region : m_live)
        std::free(region.ptr);
}

void* HostSubAllocator::allocateRegion(std::size_t bytes)
{
    std::lock_guard lock(m_mutex);
    m_attempted.push_back(bytes);
    const bool overRegionCap = m_limits.maxRegionBytes && bytes > *m_limits.maxRegionBytes;
    const bool overTotalCap =
        m_limits.totalBytes && (bytes > *m_limits.totalBytes || m_liveBytes > *m_limits.totalBytes - bytes);
    void* ptr = nullptr;
    if (bytes == 0 || overRegionCap || overTotalCap || posix_memalign(&ptr, kRegionAlignment, bytes) != 0)
        ptr = nullptr;
    if (!ptr) {
        ++m_refusals;
        return nullptr;
    }
    m_live.push_back({ptr, bytes});
    m_allocated.push_back(bytes);
    m_liveBytes += bytes;
    return ptr;
}

void HostSubAllocator::freeRegion(void* ptr, std::size_t bytes)
{
    std::lock_guard lock(m_mutex);
    const auto it = std::find_if(m_live.begin(), m_live.end(),
                                 [ptr, bytes](const LiveRegion& r) { return r.ptr == ptr && r.bytes == bytes; });
    if (it == m_live.end())
        return;
    std::free(it->ptr);
    m_liveBytes -= it->bytes;
    m_live.erase(it);
    ++m_freed;
}

Status HostSubAllocator::fillBytes(void* ptr, std::size_t bytes, unsigned char value)
{
    if (ptr && bytes != 0)
        std::memset(ptr, value, bytes);
    return Status::ok();
}

void HostSubAllocator::setLimits(Limits limits)
{
    std::lock_guard lock(m_mutex);
    m_limits = limits;
}

std::vector<std::size_t> HostSubAllocator::attemptedRegionSizes() const
{
    std::lock_guard lock(m_mutex);
    return m_attempted;
}

std::vector<std::size_t> HostSubAllocator::allocatedRegionSizes() const
{
    std::lock_guard lock(m_mutex);
    return m_allocated;
}

std::int64_t HostSubAllocator::regionsAllocated() const
{
    std::lock_guard lock(m_mutex);
    return static_cast<std::int64_t>(m_allocated.size());
}

std::int64_t HostSubAllocator::regionsFreed() const
{
    std::lock_guard lock(m_mutex);
    return m_freed;
}

std::int64_t HostSubAllocator::refusals() const
{
    std::lock_guard lock(m_mutex);
    return m_refusals;
}

std::size_t HostSubAllocator::liveBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_liveBytes;
}

} // namespace tstudio
