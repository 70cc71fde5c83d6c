// CpuDevice: a CPU device with a byte-counting allocator and an Eigen thread pool for intra-op work.
#pragma once

#include "framework/device.h"

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

namespace Eigen {
class ThreadPoolInterface;
}

namespace tstudio {

class CpuAllocator;

class CpuDevice : public Device {
public:
    /// `intraOpThreads` <= 0 means one per core this process may run on (schedulableCores(): its
    /// affinity, as TensorFlow's ConfigProto default counts them).
    /// `memoryLimitBytes` 0 means no limit.
    CpuDevice(int id, int intraOpThreads, std::uint64_t memoryLimitBytes = 0);
    ~CpuDevice() override;

    Allocator& allocator() override;
    /// The Eigen device of the active thread count (see setActiveIntraOpThreads).
    const Eigen::ThreadPoolDevice* eigenCpuDevice() const override
    {
        return m_eigenDevices[static_cast<std::size_t>(m_active.load(std::memory_order_relaxed) - 1)].get();
    }
    /// The pool's threads: the most an op may use.
    int intraOpThreads() const { return m_threads; }

    /// Limits the ops that start from now on to `threads` of the pool's threads (clamped to
    /// [1, intraOpThreads()]; the calling thread of a parallel loop counts as one), as a session
    /// with fewer intra_op_parallelism_threads would run them. The pool keeps its workers; those
    /// no loop asks for go to sleep. Ops already running keep the count they started with. Called
    /// between steps by a trainer that tunes the count (project/run/intra_op_thread_tuner.h).
    void setActiveIntraOpThreads(int threads);
    int activeIntraOpThreads() const { return m_active.load(std::memory_order_relaxed); }

    /// How many allocators of destroyed CPU devices still wait for the last tensor that uses their
    /// memory (a session's results may outlive it; the allocator goes once they are freed and a
    /// CPU device is next made or destroyed).
    static std::size_t retiredAllocatorCount();

private:
    int m_threads;
    std::unique_ptr<CpuAllocator> m_allocator;
    std::unique_ptr<Eigen::ThreadPoolInterface> m_pool;
    /// m_eigenDevices[k - 1]: the pool seen as k threads, k = 1 .. m_threads.
    std::vector<std::unique_ptr<Eigen::ThreadPoolDevice>> m_eigenDevices;
    std::atomic<int> m_active;
};

} // namespace tstudio
