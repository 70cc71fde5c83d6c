// GPU memory budget from GPUOptions (TensorFlow 1.15's arithmetic) and the visible_device_list mapping.
#pragma once

#include "core/expected.h"
#include "proto/config.pb.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {

/// How much of one GPU its BFC allocator may take, and whether it takes it all at once.
struct GpuMemoryBudget {
    std::uint64_t limitBytes = 0; ///< the allocator's memory limit
    bool allowGrowth = false;     ///< GPUOptions.allow_growth: regions on demand instead of one up front
};

/// The memory TensorFlow 1.15 leaves to the system (CUDA context, cuDNN, display) when
/// per_process_gpu_memory_fraction is 0: 225 MiB when less than 2 GiB is free, otherwise the
/// larger of 300 MiB and 5% of the free memory (optimised builds; TF doubles it in debug builds).
std::uint64_t gpuSystemMemoryReserve(std::uint64_t freeBytes);

/// The budget of one GPU with `totalBytes` of memory of which `freeBytes` are free now
/// (cudaMemGetInfo), as TensorFlow 1.15 computes it:
/// - per_process_gpu_memory_fraction > 0: limit = fraction * total, truncated to whole bytes;
/// - 0 (the default): limit = free - gpuSystemMemoryReserve(free), or all the free memory when
///   that is no more than the reserve.
/// Errors: InvalidArgument for a negative or NaN fraction, for a fraction above 1 and for
/// experimental.use_unified_memory (TF serves both with unified memory, which we never use);
/// ResourceExhausted when the limit comes to
/// less than 256 bytes (nothing could ever be allocated), naming the free and total MiB. The
/// caller prefixes the device name (Status::withContext).
Expected<GpuMemoryBudget> gpuMemoryBudget(const tensorflow::GPUOptions& options, std::uint64_t totalBytes,
                                          std::uint64_t freeBytes);

/// GPUOptions.visible_device_list as TensorFlow reads it: "" = all `physicalCount` GPUs in order;
/// otherwise comma-separated CUDA ordinals giving the order of TF's GPU:0, GPU:1, ... (spaces
/// around an entry are allowed). Errors (InvalidArgument, TensorFlow's texts):
/// "Could not parse entry in 'visible_device_list': 'x'. visible_device_list = 0,x",
/// "'visible_device_list' listed an invalid GPU id '3' but visible device count is 2",
/// "visible_device_list contained a duplicate entry: 0,0".
Expected<std::vector<int>> visibleGpuOrdinals(const std::string& visibleDeviceList, int physicalCount);

/// One TensorFlow GPU device to create: the CUDA ordinal it runs on and, for a virtual device with
/// a memory_limit_mb entry, its fixed memory limit (nullopt: gpuMemoryBudget decides, as for a GPU
/// used whole).
struct GpuDevicePlan {
    int ordinal = 0;
    std::optional<std::uint64_t> memoryLimitBytes;
};

/// The GPU devices TensorFlow 1.15 makes from the visible GPUs `visibleOrdinals` (visibleGpuOrdinals'
/// result, in TF GPU order), at most `maxCount` physical GPUs (device_count["GPU"]; negative: all):
///  - without GPUOptions.experimental.virtual_devices: one device per GPU;
///  - with it (TF's virtual_device_configuration): entry i describes the i-th visible GPU; each of its
///    memory_limit_mb values makes one device of that many MiB (truncated to whole bytes) on that
///    GPU, an entry without values one device using the GPU whole; devices are numbered GPU:0, GPU:1,
///    ... in that order, so several TF devices can share one physical GPU.
/// Errors in TensorFlow's words: InvalidArgument "It's invalid to set per_process_gpu_memory_fraction
/// when virtual_devices is set."; Unknown "Not enough GPUs to create virtual devices. num_gpus_to_use:
/// 1 #virtual_devices: 2"; InvalidArgument "The number of GPUs in visible_device_list doesn't match
/// the number of elements in the virtual_devices list. #GPUs in visible_device_list: 2
/// virtual_devices.size(): 1"; Unknown "The number of valid GPUs doesn't match the number of elements
/// in the virtual_devices list. #valid GPUs: 2 virtual_devices.size(): 1" (several GPUs, no
/// visible_device_list); and ours, InvalidArgument "GPUOptions.experimental.virtual_devices[0]
/// .memory_limit_mb[1] must be a positive number of MiB, got -5".
Expected<std::vector<GpuDevicePlan>> planGpuDevices(const tensorflow::GPUOptions& options,
                                                    const std::vector<int>& visibleOrdinals, int maxCount);

} // namespace tstudio
