// Finding and opening the GPU plugin (gpu_plugin_api.h) once per process.
#pragma once

#include "devices/gpu_plugin_api.h"

#include <string>

namespace tstudio {

/// The plugin's table, opened on the first call (thread-safe): TSTUDIO_GPU_PLUGIN when set (a file),
/// else lib/tensorstudio/libtstudio-gpu.so in the folder above the running program's (the installed
/// layout, /usr/bin and /usr/lib/tensorstudio, which the build tree repeats: build/app and
/// build/tests beside build/lib/tensorstudio). Null when there is none or it cannot be opened; `why`
/// (when given) then says which file was looked for and what dlopen said, e.g. that libcublas.so.13 is
/// not installed.
const GpuPluginApi* gpuPlugin(std::string* why = nullptr);

/// Where gpuPlugin looks, whether or not the file exists.
std::string gpuPluginPath();

} // namespace tstudio
