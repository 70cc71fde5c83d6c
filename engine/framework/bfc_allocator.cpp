// BfcAllocator: best-fit chunks in 21 bins, splitting and coalescing within regions that grow as TF's.
#include "framework/bfc_allocator.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace tstudio {

namespace {

constexpr std::uint64_t kMaxRegionBytes = std::uint64_t(1) << 62;

std::uint64_t roundDown(std::uint64_t bytes)
{
    return bytes / BfcAllocator::kMinAllocationBytes * BfcAllocator::kMinAllocationBytes;
}

std::string plural(std::int64_t n, const char* word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

std::size_t BfcAllocator::roundedBytes(std::size_t bytes)
{
    const std::size_t units = bytes / kMinAllocationBytes + (bytes % kMinAllocationBytes != 0 ? 1 : 0);
    return std::max<std::size_t>(1, units) * kMinAllocationBytes;
}

int BfcAllocator::binForSize(std::size_t bytes)
{
    const auto units = bytes / kMinAllocationBytes;
    if (units == 0)
        return 0;
    return std::min(kNumBins - 1, static_cast<int>(std::bit_width(units)) - 1);
}

BfcAllocator::BfcAllocator(std::unique_ptr<SubAllocator> subAllocator, std::string name, std::string deviceName,
                           std::uint64_t memoryLimit, bool allowGrowth)
    : Allocator(std::move(deviceName), std::nullopt), m_sub(std::move(subAllocator)), m_name(std::move(name)),
      m_memoryLimit(memoryLimit), m_allowGrowth(allowGrowth)
{
    const std::uint64_t first =
        allowGrowth ? std::min<std::uint64_t>(memoryLimit, kInitialGrowthRegionBytes) : memoryLimit;
    // extend() caps every region by what is left of the limit, so rounding up here is harmless.
    m_nextRegionBytes = std::clamp<std::uint64_t>(first, kMinAllocationBytes, kMaxRegionBytes);
    m_nextRegionBytes = (m_nextRegionBytes + kMinAllocationBytes - 1) / kMinAllocationBytes * kMinAllocationBytes;
}

BfcAllocator::~BfcAllocator()
{
    for (const Region& region : m_regions)
        m_sub->freeRegion(region.ptr, region.bytes);
}

// The SubAllocator is only ever called under the lock (its contract).
bool BfcAllocator::hostAccessible() const
{
    std::lock_guard lock(m_mutex);
    return m_sub->hostAccessible();
}

Status BfcAllocator::fillBytes(void* ptr, std::size_t bytes, unsigned char value)
{
    if (!ptr || bytes == 0)
        return Status::ok();
    std::lock_guard lock(m_mutex);
    return m_sub->fillBytes(ptr, bytes, value);
}

void* BfcAllocator::allocateRaw(std::size_t bytes, std::size_t alignment)
{
    if (alignment > kMaxAlignment)
        return nullptr;
    if (bytes > std::numeric_limits<std::size_t>::max() - kMinAllocationBytes)
        return nullptr;
    const std::size_t rounded = roundedBytes(bytes);
    std::lock_guard lock(m_mutex);
    if (void* ptr = takeChunk(rounded, bytes))
        return ptr;
    if (extend(rounded))
        return takeChunk(rounded, bytes);
    return nullptr;
}

void BfcAllocator::deallocateRaw(void* ptr, std::size_t /*bytes*/)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_inUse.find(reinterpret_cast<std::uintptr_t>(ptr));
    if (it == m_inUse.end()) {
        ++m_ignoredDeallocations;
        return;
    }
    ChunkHandle h = it->second;
    m_inUse.erase(it);
    Chunk& chunk = m_chunks[h];
    chunk.inUse = false;
    chunk.requested = 0;
    m_chunkBytesInUse -= chunk.size;

    const ChunkHandle next = chunk.next;
    if (next != kNoChunk && !m_chunks[next].inUse) {
        removeFree(next);
        mergeIntoPrevious(h, next);
    }
    const ChunkHandle prev = m_chunks[h].prev;
    if (prev != kNoChunk && !m_chunks[prev].inUse) {
        removeFree(prev);
        mergeIntoPrevious(prev, h);
        h = prev;
    }
    insertFree(h);
}

void* BfcAllocator::takeChunk(std::size_t rounded, std::size_t requested)
{
    for (int bin = binForSize(rounded); bin < kNumBins; ++bin) {
        auto& freeChunks = m_bins[static_cast<std::size_t>(bin)];
        const auto it = freeChunks.lower_bound(FreeKey{rounded, 0, kNoChunk});
        if (it == freeChunks.end())
            continue;
        const ChunkHandle h = it->handle;
        freeChunks.erase(it);
        if (m_chunks[h].size >= 2 * rounded || m_chunks[h].size - rounded >= kMaxInternalFragmentationBytes)
            split(h, rounded);
        Chunk& chunk = m_chunks[h];
        chunk.inUse = true;
        chunk.requested = requested;
        m_inUse.emplace(chunk.address, h);
        m_chunkBytesInUse += chunk.size;
        m_peakChunkBytesInUse = std::max(m_peakChunkBytesInUse, m_chunkBytesInUse);
        return reinterpret_cast<void*>(chunk.address);
    }
    return nullptr;
}

bool BfcAllocator::extend(std::size_t rounded)
{
    const std::uint64_t available = roundDown(m_memoryLimit > m_bytesReserved ? m_memoryLimit - m_bytesReserved : 0);
    if (rounded > available)
        return false;

    bool doubledForRequest = false;
    while (rounded > m_nextRegionBytes && m_nextRegionBytes <= kMaxRegionBytes / 2) {
        m_nextRegionBytes *= 2;
        doubledForRequest = true;
    }
    std::size_t bytes = static_cast<std::size_t>(std::min(m_nextRegionBytes, available));
    void* ptr = m_sub->allocateRegion(bytes);
    if (!ptr && !m_backoffUsed) {
        m_backoffUsed = true;
        while (!ptr) {
            // TF scales in single precision; the same arithmetic gives the same region sizes.
            const auto scaled = static_cast<std::size_t>(static_cast<float>(bytes) * 0.9f);
            const std::size_t smaller = roundedBytes(scaled);
            if (smaller < rounded || smaller >= bytes)
                break;
            bytes = smaller;
            ptr = m_sub->allocateRegion(bytes);
        }
    }
    if (!ptr)
        return false;
    if (!doubledForRequest && m_nextRegionBytes <= kMaxRegionBytes / 2)
        m_nextRegionBytes *= 2;

    const ChunkHandle h = newChunk();
    Chunk& chunk = m_chunks[h];
    chunk.address = reinterpret_cast<std::uintptr_t>(ptr);
    chunk.size = bytes;
    m_regions.push_back(Region{ptr, bytes, h});
    m_bytesReserved += bytes;
    m_peakBytesReserved = std::max(m_peakBytesReserved, m_bytesReserved);
    insertFree(h);
    return true;
}

BfcAllocator::ChunkHandle BfcAllocator::newChunk()
{
    ChunkHandle h;
    if (!m_spareHandles.empty()) {
        h = m_spareHandles.back();
        m_spareHandles.pop_back();
    } else {
        h = m_chunks.size();
        m_chunks.emplace_back();
    }
    m_chunks[h] = Chunk{};
    return h;
}

void BfcAllocator::releaseChunk(ChunkHandle h)
{
    m_chunks[h] = Chunk{};
    m_spareHandles.push_back(h);
}

void BfcAllocator::insertFree(ChunkHandle h)
{
    const Chunk& chunk = m_chunks[h];
    m_bins[static_cast<std::size_t>(binForSize(chunk.size))].insert(FreeKey{chunk.size, chunk.address, h});
}

void BfcAllocator::removeFree(ChunkHandle h)
{
    const Chunk& chunk = m_chunks[h];
    m_bins[static_cast<std::size_t>(binForSize(chunk.size))].erase(FreeKey{chunk.size, chunk.address, h});
}

void BfcAllocator::split(ChunkHandle h, std::size_t bytes)
{
    const ChunkHandle rest = newChunk(); // may reallocate m_chunks: take references afterwards
    Chunk& chunk = m_chunks[h];
    Chunk& tail = m_chunks[rest];
    tail.address = chunk.address + bytes;
    tail.size = chunk.size - bytes;
    tail.prev = h;
    tail.next = chunk.next;
    if (chunk.next != kNoChunk)
        m_chunks[chunk.next].prev = rest;
    chunk.next = rest;
    chunk.size = bytes;
    insertFree(rest);
}

void BfcAllocator::mergeIntoPrevious(ChunkHandle left, ChunkHandle right)
{
    Chunk& a = m_chunks[left];
    const Chunk& b = m_chunks[right];
    a.size += b.size;
    a.next = b.next;
    if (b.next != kNoChunk)
        m_chunks[b.next].prev = left;
    releaseChunk(right);
}

std::size_t BfcAllocator::largestFreeChunkLocked() const
{
    for (int bin = kNumBins - 1; bin >= 0; --bin) {
        const auto& freeChunks = m_bins[static_cast<std::size_t>(bin)];
        if (!freeChunks.empty())
            return freeChunks.rbegin()->size;
    }
    return 0;
}

std::size_t BfcAllocator::chunkSize(const void* ptr) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_inUse.find(reinterpret_cast<std::uintptr_t>(ptr));
    return it == m_inUse.end() ? 0 : m_chunks[it->second].size;
}

BfcStats BfcAllocator::bfcStats() const
{
    std::lock_guard lock(m_mutex);
    BfcStats s;
    s.bytesReserved = static_cast<std::int64_t>(m_bytesReserved);
    s.peakBytesReserved = static_cast<std::int64_t>(m_peakBytesReserved);
    s.regions = static_cast<std::int64_t>(m_regions.size());
    s.largestFreeChunk = static_cast<std::int64_t>(largestFreeChunkLocked());
    for (const auto& freeChunks : m_bins)
        s.freeChunks += static_cast<std::int64_t>(freeChunks.size());
    s.chunksInUse = static_cast<std::int64_t>(m_inUse.size());
    s.chunkBytesInUse = static_cast<std::int64_t>(m_chunkBytesInUse);
    s.peakChunkBytesInUse = static_cast<std::int64_t>(m_peakChunkBytesInUse);
    s.ignoredDeallocations = m_ignoredDeallocations;
    return s;
}

std::string BfcAllocator::memoryReport() const
{
    std::lock_guard lock(m_mutex);
    std::array<std::int64_t, kNumBins> inUse{};
    std::array<std::int64_t, kNumBins> total{};
    std::uint64_t requested = 0;
    for (const Region& region : m_regions) {
        for (ChunkHandle h = region.first; h != kNoChunk; h = m_chunks[h].next) {
            const Chunk& chunk = m_chunks[h];
            const auto bin = static_cast<std::size_t>(binForSize(chunk.size));
            ++total[bin];
            if (chunk.inUse) {
                ++inUse[bin];
                requested += chunk.requested;
            }
        }
    }
    std::string text = "Allocator " + m_name + ": limit " + std::to_string(m_memoryLimit) + " bytes, in use " +
                       std::to_string(m_chunkBytesInUse) + " bytes in " +
                       plural(static_cast<std::int64_t>(m_inUse.size()), "chunk") + " (" + std::to_string(requested) +
                       " bytes requested), reserved " + std::to_string(m_bytesReserved) + " bytes in " +
                       plural(static_cast<std::int64_t>(m_regions.size()), "region") + ", largest free chunk " +
                       std::to_string(largestFreeChunkLocked()) + " bytes";
    std::string bins;
    for (std::size_t bin = 0; bin < total.size(); ++bin) {
        if (total[bin] == 0)
            continue;
        bins += (bins.empty() ? "" : ", ") + std::string("bin ") + std::to_string(bin) + " (" +
                std::to_string(std::uint64_t(kMinAllocationBytes) << bin) + (bin + 1 == total.size() ? "+" : "") +
                " B) " + std::to_string(inUse[bin]) + "/" + std::to_string(total[bin]);
    }
    if (!bins.empty())
        text += "; chunks in use/total per bin: " + bins;
    return text;
}

} // namespace tstudio
