// The GPU plugin's interface: CUDA builds put the CUDA devices, kernels, probe and CUPTI recorder in
// a module of their own (libtstudio-gpu.so) that the programs open at run time, so that they start
// and run on the CPU where CUDA's libraries are not installed (a packaged TensorStudio does not
// depend on them) and use the GPU where they are. The plugin is built from the same sources as the
// program that opens it and resolves the engine's symbols in that program: the table carries its
// layout's version and the project version, and a plugin of another version is refused.
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

/// Raised when the table's layout changes.
inline constexpr int kGpuPluginAbiVersion = 1;

/// What the plugin answers; each entry implements the engine function of the same name
/// (gpu_probe.h, gpu_devices.h, gpu_activity.h).
struct GpuPluginApi {
    int abiVersion = 0;
    const char* version = nullptr; ///< TSTUDIO_VERSION_STRING (core/version.h) of the plugin's build
    GpuProbeReport (*probeGpus)() = nullptr;
    Status (*runGpuSelfTest)(int ordinal) = nullptr;
    Expected<std::vector<std::unique_ptr<Device>>> (*createGpuDevices)(const tensorflow::GPUOptions& options,
                                                                      int maxCount) = nullptr;
    Status (*registerGpuKernels)(KernelRegistry& registry) = nullptr;
    Expected<std::unique_ptr<GpuActivityRecorder>> (*startGpuActivity)(GpuActivityOptions options) = nullptr;
    /// GpuActivityTag's constructor and destructor: push returns whether it pushed.
    bool (*pushGpuActivityTag)(std::uint64_t tag) = nullptr;
    void (*popGpuActivityTag)() = nullptr;
};

/// The plugin's one exported symbol: extern "C" const GpuPluginApi* tstudio_gpu_plugin().
inline constexpr const char* kGpuPluginEntry = "tstudio_gpu_plugin";
/// Its file name, in lib/tensorstudio beside the programs' bin (installed) or build folder.
inline constexpr const char* kGpuPluginFileName = "libtstudio-gpu.so";

} // namespace tstudio
