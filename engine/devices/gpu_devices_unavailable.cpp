// GPU devices and kernels for builds without CUDA: there are none.
#include "devices/gpu_devices.h"

namespace tstudio {

Expected<std::vector<std::unique_ptr<Device>>> createGpuDevices(const tensorflow::GPUOptions&, int)
{
    return std::vector<std::unique_ptr<Device>>{};
}

Status registerGpuKernels(KernelRegistry&)
{
    return Status::ok();
}

} // namespace tstudio
