// createGpuDevices for CUDA builds: one CudaDevice per visible GPU (or per virtual device of one, as
// planGpuDevices lays them out), sized by gpuMemoryBudget or the virtual device's memory limit.
#include "devices/cuda/cuda_device.h"
#include "devices/cuda/cuda_error.h"
#include "devices/cuda/cuda_gpu_api.h"
#include "devices/gpu_memory_budget.h"
#include "devices/gpu_probe.h"

#include <string>

namespace tstudio::cuda {

Expected<std::vector<std::unique_ptr<Device>>> createGpuDevices(const tensorflow::GPUOptions& options, int maxCount)
{
    std::vector<std::unique_ptr<Device>> devices;
    if (maxCount == 0) // a CPU-only session does not even start the CUDA runtime
        return devices;
    const GpuProbeReport report = probeGpus();
    if (report.devices.empty())
        return devices;
    auto ordinals = visibleGpuOrdinals(options.visible_device_list(), static_cast<int>(report.devices.size()));
    if (!ordinals)
        return unexpected(ordinals.error());
    auto plans = planGpuDevices(options, *ordinals, maxCount);
    if (!plans)
        return unexpected(plans.error());
    for (const GpuDevicePlan& plan : *plans) {
        const int ordinal = plan.ordinal;
        const int id = static_cast<int>(devices.size());
        const std::string gpu = "GPU:" + std::to_string(id) + " (CUDA device " + std::to_string(ordinal) + ", " +
                                report.devices[static_cast<std::size_t>(ordinal)].name + ")";
        if (Status s = cudaStatus(cudaSetDevice(ordinal), "cudaSetDevice"); !s.isOk())
            return unexpected(s.withContext(gpu));
        std::size_t freeBytes = 0, totalBytes = 0;
        if (Status s = cudaStatus(cudaMemGetInfo(&freeBytes, &totalBytes), "cudaMemGetInfo"); !s.isOk())
            return unexpected(s.withContext(gpu));
        auto budget = gpuMemoryBudget(options, totalBytes, freeBytes);
        if (!budget)
            return unexpected(budget.error().withContext(gpu));
        // A virtual device takes its own slice. TensorFlow checks no sum of slices against the free
        // memory either: an allocator that cannot reserve its slice fails at its first allocation.
        if (plan.memoryLimitBytes)
            budget->limitBytes = *plan.memoryLimitBytes;
        CudaDeviceOptions deviceOptions;
        deviceOptions.id = id;
        deviceOptions.ordinal = ordinal;
        deviceOptions.memoryLimit = budget->limitBytes;
        deviceOptions.allowGrowth = budget->allowGrowth;
        auto device = CudaDevice::create(deviceOptions);
        if (!device)
            return unexpected(device.error());
        devices.push_back(std::move(*device));
    }
    return devices;
}

} // namespace tstudio::cuda
