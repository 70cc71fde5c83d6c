// Device: a place where kernels run, with its allocator and (on CPU) Eigen's thread pool.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"

#include <string>

namespace Eigen {
struct ThreadPoolDevice;
}

namespace tstudio {

class Tensor;

/// One compute device, named as TensorFlow names it. Devices are created by the engine (the
/// CPU devices from ConfigProto.device_count, the GPU devices by the CUDA backend) and live as
/// long as the sessions that use them. Thread-safe: kernels on many threads share a device.
class Device {
public:
    virtual ~Device() = default;

    /// Full name, e.g. "/job:localhost/replica:0/task:0/device:CPU:0".
    const std::string& name() const { return m_name; }
    /// "CPU" or "GPU".
    const std::string& type() const { return m_type; }
    int id() const { return m_id; }

    /// Memory for tensors placed on this device; its statistics feed the profiler.
    virtual Allocator& allocator() = 0;
    /// Memory on the host that this device's kernels may use for host-side arguments.
    virtual Allocator& hostAllocator() { return allocator(); }
    /// Eigen's multi-threaded CPU evaluator, or nullptr on devices that are not CPUs.
    virtual const Eigen::ThreadPoolDevice* eigenCpuDevice() const { return nullptr; }

    /// The driver's number for this device (a GPU's CUDA ordinal, which visible_device_list may make
    /// differ from id()); -1 for devices the driver does not know (CPUs).
    virtual int driverOrdinal() const { return -1; }

    /// Whether tensors in allocator() can be read by the host directly (CPU devices).
    bool hostMemory() { return allocator().hostAccessible(); }
    /// `host` (a tensor in host memory) copied into this device's memory. The copy is ordered
    /// before every kernel later queued on this device; the caller may drop `host` at once.
    /// CPU devices: a deep copy into allocator(). Strings and resources stay on the host:
    /// InvalidArgument for them on devices without host memory.
    virtual Expected<Tensor> copyFromHost(const Tensor& host);
    /// A copy of `tensor` (in this device's memory) in host memory from `hostAllocator`, complete
    /// when this returns (it waits for the kernels that produce `tensor`). CPU devices: a deep copy.
    virtual Expected<Tensor> copyToHost(const Tensor& tensor, Allocator& hostAllocator);
    /// Waits until every kernel and copy queued on the device has finished; the first error of
    /// that asynchronous work, if any. CPU devices: nothing to wait for.
    virtual Status synchronize() { return Status::ok(); }

protected:
    Device(std::string type, int id);

private:
    std::string m_type;
    int m_id;
    std::string m_name;
};

} // namespace tstudio
