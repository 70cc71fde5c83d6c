// Allocator: the interface tensor buffers get memory from, with usage statistics; CpuAllocator implements it.
#pragma once

#include "core/expected.h"
#include "framework/block_cache.h"

#include <atomic>
#include <memory>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace tstudio {

/// A snapshot of an allocator's counters. Byte counts are the sizes callers asked for (not
/// rounded up to the alignment).
struct AllocatorStats {
    std::int64_t bytesInUse = 0;         ///< allocated and not yet deallocated
    std::int64_t peakBytesInUse = 0;     ///< highest bytesInUse since creation or resetPeak()
    std::int64_t totalAllocations = 0;   ///< successful allocate() calls since creation
    std::int64_t largestAllocation = 0;  ///< largest successful request since creation
};

/// Where tensor buffers come from. The base class does the bookkeeping every device shares: it
/// checks requests, enforces the optional limit on bytes in use, and keeps AllocatorStats with
/// atomics; subclasses only obtain and release raw memory.
/// Thread-safe: allocate, deallocate, stats and resetPeak may be called from any thread.
/// An allocator must outlive every buffer it handed out (tensors keep a pointer to it).
class Allocator {
public:
    /// Enough for Eigen's vectorised code (AVX-512) on every buffer.
    static constexpr std::size_t kDefaultAlignment = 64;
    /// No single request above 2^48 bytes is attempted: such sizes come from damaged or
    /// malicious shapes, never from a real tensor.
    static constexpr std::uint64_t kMaxRequestBytes = std::uint64_t(1) << 48;

    virtual ~Allocator() = default;
    Allocator(const Allocator&) = delete;
    Allocator& operator=(const Allocator&) = delete;

    /// TensorFlow's allocator name, as in AllocationDescription.allocator_name ("cpu").
    virtual std::string name() const = 0;
    /// The device in messages ("CPU").
    const std::string& deviceName() const { return m_deviceName; }
    /// The limit on bytes in use, if any.
    std::optional<std::int64_t> byteLimit() const { return m_byteLimit; }

    /// `bytes` of uninitialised memory aligned to `alignment` (a power of two). Zero bytes gives a
    /// valid, unique pointer. InvalidArgument for a bad alignment; ResourceExhausted
    /// "OOM when allocating tensor of N bytes on CPU (...)" when the limit would be exceeded, the
    /// request is absurd (above kMaxRequestBytes or the device's memory) or the system refuses.
    /// A failed request changes no statistic.
    Expected<void*> allocate(std::size_t bytes, std::size_t alignment = kDefaultAlignment);
    /// Returns memory from allocate(); `bytes` must be the size asked for. Null is ignored.
    void deallocate(void* ptr, std::size_t bytes);

    AllocatorStats stats() const;
    /// Sets peakBytesInUse to the current bytesInUse (e.g. before profiling one step).
    void resetPeak();

    /// Whether the host may read and write this allocator's memory directly (false for GPU
    /// memory: such tensors are read through their device's copies).
    virtual bool hostAccessible() const { return true; }
    /// Sets `bytes` bytes at `ptr` (memory from this allocator) to `value`. Host memory: memset.
    /// Device memory: an asynchronous memset ordered before the device's later kernels.
    /// The error when a device could not queue the fill (never for host memory).
    [[nodiscard]] virtual Status fillBytes(void* ptr, std::size_t bytes, unsigned char value);
    [[nodiscard]] Status fillZero(void* ptr, std::size_t bytes) { return fillBytes(ptr, bytes, 0); }

protected:
    /// `deviceName` for messages; `byteLimit` caps bytesInUse (none when empty).
    Allocator(std::string deviceName, std::optional<std::int64_t> byteLimit);

    /// The largest single request the device could ever satisfy (at most kMaxRequestBytes).
    virtual std::uint64_t maxRequestBytes() const { return kMaxRequestBytes; }
    /// Raw memory or nullptr; `bytes` may be 0. Called concurrently.
    virtual void* allocateRaw(std::size_t bytes, std::size_t alignment) = 0;
    virtual void deallocateRaw(void* ptr, std::size_t bytes) = 0;
    /// Extra text for every OOM error of this allocator (e.g. a caching allocator's memory report),
    /// appended after the reason; empty for none. Called outside allocateRaw, from any thread.
    virtual std::string oomDetail() const { return {}; }

private:
    Status oomError(std::size_t bytes, const std::string& reason) const;

    std::string m_deviceName;
    std::optional<std::int64_t> m_byteLimit;
    std::atomic<std::int64_t> m_bytesInUse{0};
    std::atomic<std::int64_t> m_peakBytesInUse{0};
    std::atomic<std::int64_t> m_totalAllocations{0};
    std::atomic<std::int64_t> m_largestAllocation{0};
};

/// Host memory from the C library's aligned allocation. Without a limit, requests larger than
/// the machine's physical memory are refused up front (they could only end in the OOM killer).
/// Freed blocks of 32 KiB and more are kept for reuse by size (BlockCache, up to 1 GiB), so
/// the same tensors of the next step cost no page faults; they are released with the allocator.
class CpuAllocator final : public Allocator {
public:
    /// `byteLimit`: the most bytes in use at once (e.g. from a session option); none by default.
    explicit CpuAllocator(std::optional<std::int64_t> byteLimit = std::nullopt);
    ~CpuAllocator() override;

    std::string name() const override { return "cpu"; }

    /// Frees the cached blocks and from then on frees each returned block at once: for an allocator
    /// whose device is gone while tensors from it live on (session results; see CpuDevice).
    void stopCaching();

protected:
    std::uint64_t maxRequestBytes() const override;
    void* allocateRaw(std::size_t bytes, std::size_t alignment) override;
    void deallocateRaw(void* ptr, std::size_t bytes) override;

private:
    std::unique_ptr<BlockCache> m_cache;
    std::atomic<bool> m_caching{true};
};

} // namespace tstudio
