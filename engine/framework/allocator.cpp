// Allocator bookkeeping (limit, statistics) and the aligned host-memory CpuAllocator.
#include "framework/allocator.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tstudio {

namespace {

void raiseToAtLeast(std::atomic<std::int64_t>& value, std::int64_t candidate)
{
    std::int64_t current = value.load(std::memory_order_relaxed);
    while (candidate > current && !value.compare_exchange_weak(current, candidate, std::memory_order_relaxed)) {
    }
}

std::uint64_t physicalMemoryBytes()
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0)
        return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);
#endif
    return Allocator::kMaxRequestBytes;
}

} // namespace

Allocator::Allocator(std::string deviceName, std::optional<std::int64_t> byteLimit)
    : m_deviceName(std::move(deviceName)), m_byteLimit(byteLimit)
{
}

Status Allocator::oomError(std::size_t bytes, const std::string& reason) const
{
    std::string message =
        "OOM when allocating tensor of " + std::to_string(bytes) + " bytes on " + m_deviceName + " (" + reason + ")";
    const std::string detail = oomDetail();
    if (!detail.empty())
        message += ". " + detail;
    return resourceExhaustedError(std::move(message));
}

Expected<void*> Allocator::allocate(std::size_t bytes, std::size_t alignment)
{
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
        return unexpected(invalidArgumentError("alignment " + std::to_string(alignment) + " is not a power of two"));
    const std::uint64_t maxBytes = std::min(kMaxRequestBytes, maxRequestBytes());
    if (bytes > maxBytes) {
        return unexpected(oomError(
            bytes, "more than the " + std::to_string(maxBytes) + " bytes a single allocation on this device may take"));
    }
    const auto size = static_cast<std::int64_t>(bytes);

    // Reserve first, so that concurrent requests can never overshoot the limit together.
    std::int64_t inUse = m_bytesInUse.load(std::memory_order_relaxed);
    do {
        if (m_byteLimit && inUse + size > *m_byteLimit) {
            return unexpected(oomError(bytes, "limit " + std::to_string(*m_byteLimit) + ", in use " +
                                                  std::to_string(inUse)));
        }
    } while (!m_bytesInUse.compare_exchange_weak(inUse, inUse + size, std::memory_order_relaxed));

    void* ptr = allocateRaw(bytes, alignment);
    if (!ptr) {
        m_bytesInUse.fetch_sub(size, std::memory_order_relaxed);
        return unexpected(oomError(bytes, "the system refused the request"));
    }
    raiseToAtLeast(m_peakBytesInUse, inUse + size);
    raiseToAtLeast(m_largestAllocation, size);
    m_totalAllocations.fetch_add(1, std::memory_order_relaxed);
    return ptr;
}

void Allocator::deallocate(void* ptr, std::size_t bytes)
{
    if (!ptr)
        return;
    deallocateRaw(ptr, bytes);
    // The last use of the allocator here: released, so that whoever sees bytesInUse reach zero
    // (and an acquire fence) may destroy an allocator whose device is gone (CpuDevice).
    m_bytesInUse.fetch_sub(static_cast<std::int64_t>(bytes), std::memory_order_release);
}

AllocatorStats Allocator::stats() const
{
    AllocatorStats s;
    s.bytesInUse = m_bytesInUse.load(std::memory_order_relaxed);
    s.peakBytesInUse = m_peakBytesInUse.load(std::memory_order_relaxed);
    s.totalAllocations = m_totalAllocations.load(std::memory_order_relaxed);
    s.largestAllocation = m_largestAllocation.load(std::memory_order_relaxed);
    return s;
}

void Allocator::resetPeak()
{
    m_peakBytesInUse.store(m_bytesInUse.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

Status Allocator::fillBytes(void* ptr, std::size_t bytes, unsigned char value)
{
    if (bytes != 0)
        std::memset(ptr, value, bytes);
    return Status::ok();
}

std::uint64_t CpuAllocator::maxRequestBytes() const
{
    static const std::uint64_t physical = physicalMemoryBytes();
    return physical;
}

namespace {

/// aligned_alloc wants a size that is a multiple of the alignment (and not zero).
std::size_t roundedSize(std::size_t bytes, std::size_t alignment)
{
    return std::max<std::size_t>(1, (bytes + alignment - 1) / alignment) * alignment;
}

/// Large blocks kept for reuse: 1 GiB, or an eighth of the machine's memory when that is less.
std::size_t blockCacheCapacity()
{
    return static_cast<std::size_t>(std::min<std::uint64_t>(std::uint64_t(1) << 30, physicalMemoryBytes() / 8));
}

/// Small blocks (below BlockCache::kMinBlockBytes) kept by each thread for reuse. std::aligned_alloc
/// bypasses the C library's per-thread cache (it takes the arena lock and carves the block out of
/// a larger chunk, and free() coalesces it back), and a step allocates and frees a few small
/// tensors for every node it runs. The blocks are plain std::aligned_alloc memory of one rounded
/// size, so any CpuAllocator on any thread may reuse them; a thread keeps at most kPerClass blocks
/// of a size and kMaxBytes in all, and frees them when it ends.
///
/// The lists are trivially destructible thread_local data, so a tensor freed late in a thread's
/// exit (after SmallBlockRelease ran) still finds them: it is then freed, not kept.
namespace small_blocks {

constexpr std::size_t kQuantum = Allocator::kDefaultAlignment;
constexpr std::size_t kClasses = BlockCache::kMinBlockBytes / kQuantum;
constexpr std::uint32_t kPerClass = 16;
constexpr std::size_t kMaxBytes = std::size_t(2) << 20;

struct Lists {
    struct Class {
        std::uint32_t count;
        void* blocks[kPerClass];
    };
    Class classes[kClasses];
    std::size_t bytes;
    bool released; ///< the thread is ending: keep nothing more
};
thread_local Lists t_lists; // zero-initialised

/// Frees this thread's blocks when the thread ends.
struct Release {
    ~Release()
    {
        for (Lists::Class& c : t_lists.classes) {
            for (std::uint32_t i = 0; i < c.count; ++i)
                std::free(c.blocks[i]);
            c.count = 0;
        }
        t_lists.bytes = 0;
        t_lists.released = true;
    }
};

/// A block of `bytes` (a multiple of kQuantum below BlockCache::kMinBlockBytes), or nullptr.
void* take(std::size_t bytes)
{
    Lists::Class& c = t_lists.classes[bytes / kQuantum];
    if (c.count == 0)
        return nullptr;
    t_lists.bytes -= bytes;
    return c.blocks[--c.count];
}

/// Keeps `block` or, when this thread keeps enough already, frees it.
void give(void* block, std::size_t bytes)
{
    Lists::Class& c = t_lists.classes[bytes / kQuantum];
    if (t_lists.released || c.count == kPerClass || t_lists.bytes + bytes > kMaxBytes) {
        std::free(block);
        return;
    }
    thread_local Release release; // constructed on this thread's first give
    (void)release;
    c.blocks[c.count++] = block;
    t_lists.bytes += bytes;
}

} // namespace small_blocks

/// Once per process, before the first CpuAllocator: the C library keeps freed memory for reuse
/// instead of giving it back to the system after every free. Its defaults map every block from
/// 128 KiB up afresh (raising that threshold only as such blocks are freed) and trim a heap whose
/// free top passes 256 KiB, so buffers that are allocated and freed on every run (Eigen's GEMM
/// packing buffers, kernels' scratch) page-fault again on every run: about a tenth of a
/// batch-100 MLP step. Fixed thresholds (blocks up to 32 MiB from the heaps, trimming only past
/// 512 MiB free) keep them mapped, as TensorFlow's own allocators keep their memory.
void keepFreedMemoryMapped()
{
#if defined(__GLIBC__)
    static const bool done = [] {
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TRIM_THRESHOLD, 512 << 20);
        return true;
    }();
    (void)done;
#endif
}

} // namespace

CpuAllocator::CpuAllocator(std::optional<std::int64_t> byteLimit)
    : Allocator("CPU", byteLimit), m_cache(std::make_unique<BlockCache>(blockCacheCapacity()))
{
    keepFreedMemoryMapped();
}

CpuAllocator::~CpuAllocator() = default;

void* CpuAllocator::allocateRaw(std::size_t bytes, std::size_t alignment)
{
    alignment = std::max(alignment, alignof(void*));
    if (alignment <= kDefaultAlignment) {
        // Every block of the default alignment or less is kDefaultAlignment-aligned, so that any
        // of them can serve any such request of its size (deallocateRaw is not told the alignment).
        const std::size_t size = roundedSize(bytes, kDefaultAlignment);
        if (size < BlockCache::kMinBlockBytes) {
            if (void* cached = small_blocks::take(size))
                return cached;
        } else if (void* cached = m_cache->take(size, kDefaultAlignment)) {
            return cached;
        }
        return std::aligned_alloc(kDefaultAlignment, size);
    }
    return std::aligned_alloc(alignment, roundedSize(bytes, alignment));
}

void CpuAllocator::deallocateRaw(void* ptr, std::size_t bytes)
{
    // A block aligned more strictly is at least as large and as aligned as this key says.
    const std::size_t size = roundedSize(bytes, kDefaultAlignment);
    if (size < BlockCache::kMinBlockBytes) {
        if (ptr)
            small_blocks::give(ptr, size);
        return;
    }
    if (m_caching.load(std::memory_order_relaxed))
        m_cache->give(ptr, size, kDefaultAlignment);
    else
        std::free(ptr);
}

void CpuAllocator::stopCaching()
{
    m_caching.store(false, std::memory_order_relaxed);
    // A block given back meanwhile may still land in the cache: it is freed with the allocator.
    m_cache->clear();
}

} // namespace tstudio
