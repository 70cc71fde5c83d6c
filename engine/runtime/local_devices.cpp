// localPlacementDevices: the CPU, then the GPUs the probe finds.
#include "runtime/local_devices.h"

#include "devices/gpu_probe.h"
#include "framework/device_name.h"

namespace tstudio {

std::vector<PlacementDevice> localPlacementDevices()
{
    std::vector<PlacementDevice> devices{{localDeviceName("CPU", 0), "CPU"}};
    const GpuProbeReport probe = probeGpus();
    for (std::size_t i = 0; i < probe.devices.size(); ++i)
        devices.push_back({localDeviceName("GPU", static_cast<int>(i)), "GPU"});
    return devices;
}

} // namespace tstudio
