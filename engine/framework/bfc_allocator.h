// BfcAllocator: TensorFlow's best-fit-with-coalescing caching allocator over regions of a SubAllocator.
#pragma once

#include "framework/allocator.h"
#include "framework/sub_allocator.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tstudio {

/// The caching allocator's own counters, beyond AllocatorStats (which counts requested bytes).
struct BfcStats {
    std::int64_t bytesReserved = 0;        ///< bytes of all regions obtained from the SubAllocator
    std::int64_t peakBytesReserved = 0;    ///< highest bytesReserved since creation
    std::int64_t regions = 0;              ///< regions obtained (never returned before destruction)
    std::int64_t largestFreeChunk = 0;     ///< bytes of the largest free chunk (0 when none)
    std::int64_t freeChunks = 0;           ///< free chunks in the bins
    std::int64_t chunksInUse = 0;          ///< chunks handed out and not yet returned
    std::int64_t chunkBytesInUse = 0;      ///< bytes of the chunks in use (TF's bytes_in_use: rounded sizes)
    std::int64_t peakChunkBytesInUse = 0;  ///< highest chunkBytesInUse since creation (TF's peak_bytes_in_use)
    std::int64_t ignoredDeallocations = 0; ///< deallocations of pointers not in use (double or foreign frees)
};

/// Best fit with coalescing, as TensorFlow's BFC allocator (the GPU's "GPU_0_bfc", pinned host
/// memory's "cuda_host_bfc"). Memory comes from the SubAllocator in a few large regions and is
/// carved into chunks:
/// - requests are rounded up to a multiple of 256 bytes (0 bytes takes 256);
/// - free chunks sit in 21 bins, bin i holding sizes [256 << i, 256 << (i + 1)), the last bin
///   unbounded; a request takes the smallest free chunk that fits (ties: the lowest address);
/// - the chunk is split when it is at least twice the rounded request, or when it exceeds it by
///   128 MiB or more; otherwise it is handed out whole (TF's bound on internal fragmentation);
/// - a freed chunk merges with free neighbours of the same region; regions never merge.
/// Regions: without allow_growth the first request reserves the whole memory limit in one region.
/// With allow_growth the first region is min(limit, 1 MiB) (TensorFlow 1.15) and each later one
/// doubles: a region is the current size (doubled until it holds the request), capped by what is
/// left of the limit; the size doubles after each region that did not need doubling. The first
/// time the SubAllocator refuses a region (only the first, as TF) the size is retried in 90% steps
/// down to the request. Regions are returned only by the destructor: returning them earlier would
/// synchronise a GPU in the middle of a step.
///
/// Alignment: every pointer is 256-byte aligned, so any power of two up to 256 is honoured; a
/// larger alignment is refused (the request fails as out of memory).
/// Errors: a request that cannot be met returns the base class's ResourceExhausted
/// "OOM when allocating tensor of N bytes on GPU:0 (...)" followed by memoryReport().
/// A pointer that is not in use (double free, foreign pointer) is ignored and counted in
/// BfcStats::ignoredDeallocations; the allocator's state is never touched by it.
/// Thread-safe: one mutex guards all state.
class BfcAllocator final : public Allocator {
public:
    static constexpr std::size_t kMinAllocationBytes = 256;
    static constexpr int kNumBins = 21;
    static constexpr std::size_t kMaxAlignment = 256;
    /// First region with allow_growth (TensorFlow 1.15's value; later versions use 2 MiB).
    static constexpr std::size_t kInitialGrowthRegionBytes = std::size_t(1) << 20;
    /// A chunk exceeding the request by this much is always split.
    static constexpr std::size_t kMaxInternalFragmentationBytes = std::size_t(128) << 20;

    /// `name`: TensorFlow's allocator name ("GPU_0_bfc"); `deviceName` for messages ("GPU:0");
    /// `memoryLimit`: the most bytes all regions together may hold.
    BfcAllocator(std::unique_ptr<SubAllocator> subAllocator, std::string name, std::string deviceName,
                 std::uint64_t memoryLimit, bool allowGrowth);
    /// Returns every region to the SubAllocator. Buffers still in use become invalid.
    ~BfcAllocator() override;

    std::string name() const override { return m_name; }
    bool hostAccessible() const override;
    Status fillBytes(void* ptr, std::size_t bytes, unsigned char value) override;

    std::uint64_t memoryLimit() const { return m_memoryLimit; }
    bool allowGrowth() const { return m_allowGrowth; }

    BfcStats bfcStats() const;
    /// One paragraph for OOM messages and logs: limit, bytes in use (chunks and requested),
    /// reserved bytes and regions, the largest free chunk, and per bin the chunks in use / total.
    std::string memoryReport() const;
    /// The size of the chunk serving `ptr` (the rounded request, or more when not split); 0 for a
    /// pointer that is not in use.
    std::size_t chunkSize(const void* ptr) const;

    /// `bytes` rounded up to a multiple of 256, at least 256.
    static std::size_t roundedBytes(std::size_t bytes);
    /// The bin of a chunk of `bytes` (>= 256) bytes: floor(log2(bytes / 256)), at most 20.
    static int binForSize(std::size_t bytes);

protected:
    std::uint64_t maxRequestBytes() const override { return m_memoryLimit; }
    void* allocateRaw(std::size_t bytes, std::size_t alignment) override;
    void deallocateRaw(void* ptr, std::size_t bytes) override;
    std::string oomDetail() const override { return memoryReport(); }

private:
    using ChunkHandle = std::size_t;
    static constexpr ChunkHandle kNoChunk = ~ChunkHandle(0);

    /// A piece of one region, free or in use, linked to its neighbours by address.
    struct Chunk {
        std::uintptr_t address = 0;
        std::size_t size = 0;
        std::size_t requested = 0; ///< bytes asked for while in use
        ChunkHandle prev = kNoChunk;
        ChunkHandle next = kNoChunk;
        bool inUse = false;
    };
    /// Free chunks of one bin ordered by size, then address: lower_bound finds the best fit.
    struct FreeKey {
        std::size_t size;
        std::uintptr_t address;
        ChunkHandle handle;
        bool operator<(const FreeKey& other) const
        {
            return size != other.size ? size < other.size : address < other.address;
        }
    };
    struct Region {
        void* ptr;
        std::size_t bytes;
        ChunkHandle first; ///< the chunk at the region's start (it never merges into another)
    };

    void* takeChunk(std::size_t rounded, std::size_t requested);
    bool extend(std::size_t rounded);
    ChunkHandle newChunk();
    void releaseChunk(ChunkHandle h);
    void insertFree(ChunkHandle h);
    void removeFree(ChunkHandle h);
    void split(ChunkHandle h, std::size_t bytes);
    void mergeIntoPrevious(ChunkHandle left, ChunkHandle right);
    std::size_t largestFreeChunkLocked() const;

    std::unique_ptr<SubAllocator> m_sub;
    const std::string m_name;
    const std::uint64_t m_memoryLimit;
    const bool m_allowGrowth;

    mutable std::mutex m_mutex;
    std::vector<Chunk> m_chunks;
    std::vector<ChunkHandle> m_spareHandles;
    std::array<std::set<FreeKey>, kNumBins> m_bins;
    std::unordered_map<std::uintptr_t, ChunkHandle> m_inUse;
    std::vector<Region> m_regions;
    std::uint64_t m_nextRegionBytes = 0;
    bool m_backoffUsed = false;
    std::uint64_t m_bytesReserved = 0;
    std::uint64_t m_peakBytesReserved = 0;
    std::uint64_t m_chunkBytesInUse = 0;
    std::uint64_t m_peakChunkBytesInUse = 0;
    std::int64_t m_ignoredDeallocations = 0;
};

} // namespace tstudio
