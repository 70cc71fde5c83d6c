// The GPU plugin's implementations of the engine's GPU functions (gpu_plugin_api.h): the CUDA probe,
// devices, kernels and CUPTI recorder. In namespace tstudio::cuda so that they never bind to the
// engine's functions of the same names in the program that opens the plugin (which forward here).
#pragma once

#include "core/expected.h"
#include "devices/gpu_activity.h"
#include "devices/gpu_probe.h"
#include "framework/device.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tensorflow {
class GPUOptions;
}

namespace tstudio {
class KernelRegistry;
}

namespace tstudio::cuda {

GpuProbeReport probeGpus();
Status runGpuSelfTest(int ordinal);
Expected<std::vector<std::unique_ptr<Device>>> createGpuDevices(const tensorflow::GPUOptions& options, int maxCount);
Status registerGpuKernels(KernelRegistry& registry);
Expected<std::unique_ptr<GpuActivityRecorder>> startGpuActivity(GpuActivityOptions options);
bool pushGpuActivityTag(std::uint64_t tag);
void popGpuActivityTag();

} // namespace tstudio::cuda
