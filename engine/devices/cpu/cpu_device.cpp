// CpuDevice: an IntraOpThreadPool drives the intra-op parallelism of CPU kernels through Eigen's ThreadPoolDevice.
#define EIGEN_USE_THREADS
#include "devices/cpu/cpu_device.h"

#include "core/affinity_cores.h"
#include "devices/cpu/intra_op_thread_pool.h"
#include "framework/allocator.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace tstudio {

namespace {

/// Allocators of destroyed CPU devices that tensors still use (session results handed out without
/// a copy: Session::collectResults), kept until their last buffer is freed. Leaked on purpose, as
/// tensors may outlive static destruction.
struct RetiredAllocators {
    std::mutex mutex;
    std::vector<std::unique_ptr<CpuAllocator>> allocators;

    /// Destroys those no tensor uses any more. Every buffer is a tensor's (of one element or more),
    /// so no bytes in use means no buffer left.
    void sweepLocked()
    {
        std::erase_if(allocators, [](const std::unique_ptr<CpuAllocator>& a) {
            if (a->stats().bytesInUse != 0)
                return false;
            // Pairs with the release of the last deallocate: its uses of the allocator came first.
            std::atomic_thread_fence(std::memory_order_acquire);
            return true;
        });
    }
};

RetiredAllocators& retiredAllocators()
{
    static auto* retired = new RetiredAllocators;
    return *retired;
}

} // namespace

CpuDevice::CpuDevice(int id, int intraOpThreads, std::uint64_t memoryLimitBytes)
    : Device("CPU", id),
      m_threads(intraOpThreads > 0 ? intraOpThreads
                                   : schedulableCores()),
      m_allocator(std::make_unique<CpuAllocator>(
          memoryLimitBytes > 0 ? std::optional<std::int64_t>(static_cast<std::int64_t>(memoryLimitBytes))
                               : std::nullopt)),
      m_pool(std::make_unique<IntraOpThreadPool>(m_threads)),
      m_active(m_threads)
{
    for (int k = 1; k <= m_threads; ++k)
        m_eigenDevices.push_back(std::make_unique<Eigen::ThreadPoolDevice>(m_pool.get(), k));
    RetiredAllocators& retired = retiredAllocators();
    std::lock_guard lock(retired.mutex);
    retired.sweepLocked();
}

void CpuDevice::setActiveIntraOpThreads(int threads)
{
    m_active.store(std::clamp(threads, 1, m_threads), std::memory_order_relaxed);
}

CpuDevice::~CpuDevice()
{
    // The pool first (no kernel runs any more), then the allocator: destroyed unless a tensor
    // still holds its memory, in which case it frees its cache and waits for the last buffer.
    m_eigenDevices.clear();
    m_pool.reset();
    RetiredAllocators& retired = retiredAllocators();
    std::lock_guard lock(retired.mutex);
    retired.sweepLocked();
    if (m_allocator->stats().bytesInUse == 0) {
        std::atomic_thread_fence(std::memory_order_acquire);
        return; // destroyed with the device
    }
    m_allocator->stopCaching();
    retired.allocators.push_back(std::move(m_allocator));
}

std::size_t CpuDevice::retiredAllocatorCount()
{
    RetiredAllocators& retired = retiredAllocators();
    std::lock_guard lock(retired.mutex);
    return retired.allocators.size();
}

Allocator& CpuDevice::allocator()
{
    return *m_allocator;
}

} // namespace tstudio
