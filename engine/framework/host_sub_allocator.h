// HostSubAllocator: BFC regions from aligned host memory, with caps and call counters for tests.
#pragma once

#include "framework/sub_allocator.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace tstudio {

/// Regions of ordinary host memory (posix_memalign, 256-byte aligned). Two optional knobs make it
/// refuse regions the way a GPU with little free memory would: a cap on the bytes of all live
/// regions, and a cap on the size of one region. Every call is counted so that tests can check a
/// caching allocator's growth policy. Thread-safe (its own lock), so counters may be read while
/// another thread allocates.
class HostSubAllocator final : public SubAllocator {
public:
    static constexpr std::size_t kRegionAlignment = 256;

    struct Limits {
        std::optional<std::size_t> totalBytes;     ///< refuse a region that would take live bytes above this
        std::optional<std::size_t> maxRegionBytes; ///< refuse any single region larger than this
    };

    explicit HostSubAllocator(Limits limits = {});
    /// Frees regions that were never returned (a caching allocator returns them all itself).
    ~HostSubAllocator() override;
    HostSubAllocator(const HostSubAllocator&) = delete;
    HostSubAllocator& operator=(const HostSubAllocator&) = delete;

    /// `bytes` > 0; nullptr when a limit refuses it, when `bytes` is 0, or when the system has no
    /// memory. Every call is recorded in attemptedRegionSizes().
    void* allocateRegion(std::size_t bytes) override;
    /// Returns a region from allocateRegion; a pointer this object did not hand out is ignored.
    void freeRegion(void* ptr, std::size_t bytes) override;
    bool hostAccessible() const override { return true; }
    Status fillBytes(void* ptr, std::size_t bytes, unsigned char value) override;

    /// Changes the limits for later calls (live regions are not affected).
    void setLimits(Limits limits);

    /// Sizes of every allocateRegion call in order, refused ones included.
    std::vector<std::size_t> attemptedRegionSizes() const;
    /// Sizes of the regions handed out, in order.
    std::vector<std::size_t> allocatedRegionSizes() const;
    std::int64_t regionsAllocated() const;
    std::int64_t regionsFreed() const;
    std::int64_t refusals() const;
    /// Bytes of the regions handed out and not yet freed.
    std::size_t liveBytes() const;

private:
    struct LiveRegion {
        void* ptr;
        std::size_t bytes;
    };

    mutable std::mutex m_mutex;
    Limits m_limits;
    std::vector<LiveRegion> m_live;
    std::vector<std::size_t> m_attempted;
    std::vector<std::size_t> m_allocated;
    std::int64_t m_freed = 0;
    std::int64_t m_refusals = 0;
    std::size_t m_liveBytes = 0;
};

} // namespace tstudio
