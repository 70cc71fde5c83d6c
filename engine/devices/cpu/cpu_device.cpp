// CpuDevice: an IntraOpThreadPool drives the intra-op parallelism of CPU kernels through Eigen's ThreadPoolDevice.
#define EIGEN_USE_THREADS
#include "devices/cpu/cpu_device.h"

#include "devices/cpu/intra_op_thread_pool.h"
#include "framework/allocator.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <thread>

namespace tstudio {

CpuDevice::CpuDevice(int id, int intraOpThreads, std::uint64_t memoryLimitBytes)
    : Device("CPU", id),
      m_threads(intraOpThreads > 0 ? intraOpThreads
                                   : std::max(1, static_cast<int>(std::thread::hardware_concurrency()))),
      m_allocator(std::make_unique<CpuAllocator>(
          memoryLimitBytes > 0 ? std::optional<std::int64_t>(static_cast<std::int64_t>(memoryLimitBytes))
                               : std::nullopt)),
      m_pool(std::make_unique<IntraOpThreadPool>(m_threads)),
      m_eigenDevice(std::make_unique<Eigen::ThreadPoolDevice>(m_pool.get(), m_threads))
{
}

CpuDevice::~CpuDevice() = default;

Allocator& CpuDevice::allocator()
{
    return *m_allocator;
}

} // namespace tstudio
