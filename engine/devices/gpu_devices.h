// GPU devices and kernels for the engine: made by the CUDA backend, none in a build without it.
#pragma once

#include "core/expected.h"
#include "framework/device.h"
#include "proto/config.pb.h"

#include <memory>
#include <vector>

namespace tstudio {

class KernelRegistry;

/// One device per visible GPU (GPUOptions.visible_device_list, "" = all in the driver's order),
/// named GPU:0, GPU:1, ... in that order, each with a caching allocator whose size and growth
/// follow gpuMemoryBudget (per_process_gpu_memory_fraction, allow_growth). At most `maxCount`
/// devices (ConfigProto.device_count["GPU"]; negative: all). An empty list, not an error, when
/// the machine has no GPU or the build has no CUDA support; errors for bad options or a GPU that
/// fails to initialise, naming the GPU.
Expected<std::vector<std::unique_ptr<Device>>> createGpuDevices(const tensorflow::GPUOptions& options, int maxCount);

/// Registers the GPU kernels compiled into this build (none without CUDA). Registration needs no
/// GPU: the placer asks the registry which ops have GPU kernels.
Status registerGpuKernels(KernelRegistry& registry);

} // namespace tstudio
