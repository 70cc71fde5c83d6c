// CpuDevice: a CPU device with a byte-counting allocator and an Eigen thread pool for intra-op work.
#pragma once

#include "framework/device.h"

#include <cstddef>
#include <memory>

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
    const Eigen::ThreadPoolDevice* eigenCpuDevice() const override { return m_eigenDevice.get(); }
    int intraOpThreads() const { return m_threads; }

    /// How many allocators of destroyed CPU devices still wait for the last tensor that uses their
    /// memory (a session's results may outlive it; the allocator goes once they are freed and a
    /// CPU device is next made or destroyed).
    static std::size_t retiredAllocatorCount();

private:
    int m_threads;
    std::unique_ptr<CpuAllocator> m_allocator;
    std::unique_ptr<Eigen::ThreadPoolInterface> m_pool;
    std::unique_ptr<Eigen::ThreadPoolDevice> m_eigenDevice;
};

} // namespace tstudio
