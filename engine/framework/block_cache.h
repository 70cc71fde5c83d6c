// BlockCache: keeps large freed host buffers for reuse, so a training step does not map, fault in
// and unmap the same tens of megabytes again on every run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>

namespace tstudio {

/// A cache of raw blocks from std::aligned_alloc, keyed by exact (size, alignment). The C library
/// serves blocks above its mmap threshold (128 KiB to 32 MiB) with fresh mappings and returns them
/// to the system when freed, so a buffer allocated and freed once per step pays its page faults
/// and zeroing every step. Tensors of a graph have the same sizes step after step: exact-size
/// reuse catches them without fragmenting.
///
/// Blocks from kMinBlockBytes (32 KiB) up are cached: smaller ones sit in the C library's bins,
/// but a freed block of tens of kilobytes at the top of its heap lets it trim the heap and fault
/// the pages in again on the next step, the more so when other small allocations (a traced step's
/// records) move the top about. At most `capacityBytes` are kept; past that the least recently
/// cached blocks are freed. Thread-safe.
class BlockCache {
public:
    static constexpr std::size_t kMinBlockBytes = std::size_t(32) << 10;

    explicit BlockCache(std::size_t capacityBytes) : m_capacity(capacityBytes) {}
    ~BlockCache();
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;

    /// A block of exactly `bytes` (a multiple of `alignment`) from the cache, or nullptr.
    void* take(std::size_t bytes, std::size_t alignment);
    /// Keeps `block` (from std::aligned_alloc with this size and alignment) for reuse, or frees it
    /// when it is too small to cache. Frees the oldest blocks when over capacity.
    void give(void* block, std::size_t bytes, std::size_t alignment);
    /// Frees every cached block.
    void clear();
    /// Bytes held now.
    std::size_t cachedBytes() const;

private:
    struct Block {
        void* ptr;
        std::size_t bytes;
        std::size_t alignment;
    };
    using Age = std::list<Block>;
    using Key = std::pair<std::size_t, std::size_t>;

    void evictLocked(std::size_t target);

    std::size_t m_capacity;
    mutable std::mutex m_mutex;
    Age m_age; ///< oldest first
    std::multimap<Key, Age::iterator> m_bySize;
    std::size_t m_cached = 0;
};

} // namespace tstudio
