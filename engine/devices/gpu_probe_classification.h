// classifyGpuProbe: no GPU (a normal state), a usable GPU, or a GPU that CUDA cannot use, from what the probe saw.
#pragma once

// Header-only so that it is in every build of the engine, with CUDA or without, and its test needs no GPU.

#include <optional>
#include <string>
#include <string_view>

namespace tstudio {

/// What the GPU probe saw. The CUDA facts come from the CUDA runtime; the NVIDIA facts come from the
/// operating system (PCI bus, /proc, /dev) and so hold whether or not CUDA works.
struct GpuProbeFacts {
    /// cudaGetDeviceCount's error, e.g. "cudaErrorInsufficientDriver" and "CUDA driver version is
    /// insufficient for CUDA runtime version"; both empty when it succeeded.
    std::string countErrorName;
    std::string countErrorText;
    /// Devices cudaGetDeviceCount reported; 0 when it failed.
    int deviceCount = 0;
    /// The first failure of using a counted device (its properties, a cuDNN or cuBLAS handle on it),
    /// e.g. "GPU 0 (NVIDIA H100): cudnnCreate failed: CUDNN_STATUS_...". Empty when all worked.
    std::string deviceError;
    /// PCI address of an NVIDIA display or 3D controller, e.g. "0000:01:00.0"; empty when none.
    std::string nvidiaPciDevice;
    /// A file that shows an NVIDIA driver, e.g. "/proc/driver/nvidia/version"; empty when none.
    std::string nvidiaDriverPath;
    /// CUDA_VISIBLE_DEVICES where it is set (even to "").
    std::optional<std::string> cudaVisibleDevices;
    /// The highest CUDA version the driver supports and the runtime's version ("12.2", "13.0"),
    /// empty where unknown: they explain cudaErrorInsufficientDriver.
    std::string driverCudaVersion;
    std::string runtimeCudaVersion;
};

enum class GpuVerdict {
    kNoGpu,  ///< no NVIDIA GPU or driver here, or CUDA_VISIBLE_DEVICES hides them: a normal state
    kUsable, ///< CUDA counts devices and every check on them passed
    kBroken, ///< an NVIDIA GPU or driver is here but CUDA, cuDNN or cuBLAS cannot use it: a failure
};

struct GpuClassification {
    GpuVerdict verdict = GpuVerdict::kNoGpu;
    /// kNoGpu: why there is none; kBroken: what is present and the error that names why it is
    /// unusable; kUsable: "".
    std::string message;
};

namespace detail {

/// Whether CUDA_VISIBLE_DEVICES makes no device visible. CUDA reads the comma-separated list up to
/// its first entry that names no device, so the list hides everything when its first entry is
/// neither an index nor a UUID ("GPU-...", "MIG-..."): "", "-1", "none".
inline bool hidesEveryGpu(std::string_view list)
{
    const std::string_view first = list.substr(0, list.find(','));
    if (first.starts_with("GPU-") || first.starts_with("MIG-"))
        return false;
    if (first.empty())
        return true;
    for (const char c : first)
        if (c < '0' || c > '9')
            return true;
    return false;
}

/// "an NVIDIA GPU is on the PCI bus at 0000:01:00.0 and an NVIDIA driver is loaded (/dev/nvidia0)".
inline std::string whatIsPresent(const GpuProbeFacts& facts)
{
    std::string text;
    if (!facts.nvidiaPciDevice.empty())
        text = "an NVIDIA GPU is on the PCI bus at " + facts.nvidiaPciDevice;
    if (!facts.nvidiaDriverPath.empty())
        text +=
            (text.empty() ? "" : " and ") + std::string("an NVIDIA driver is loaded (") + facts.nvidiaDriverPath + ")";
    return text;
}

} // namespace detail

/// The verdict on `facts`. A failed or empty device count is a normal state only where nothing
/// NVIDIA is present (or CUDA_VISIBLE_DEVICES hides every device); with an NVIDIA GPU or driver
/// present it is a failure whose message names the CUDA error. Counted devices are usable unless
/// `deviceError` says otherwise. Pure: reads nothing but `facts`.
inline GpuClassification classifyGpuProbe(const GpuProbeFacts& facts)
{
    const bool counted = facts.countErrorName.empty() && facts.deviceCount > 0;
    if (counted && facts.deviceError.empty())
        return {GpuVerdict::kUsable, {}};
    if (counted) {
        const std::string gpus = std::to_string(facts.deviceCount) + (facts.deviceCount == 1 ? " GPU" : " GPUs");
        return {GpuVerdict::kBroken, "CUDA finds " + gpus + " but cannot use " +
                                         (facts.deviceCount == 1 ? "it: " : "them: ") + facts.deviceError};
    }
    const std::string cudaSays =
        facts.countErrorName.empty() ? "CUDA finds no device" : "CUDA reports " + facts.countErrorName;
    if (facts.cudaVisibleDevices && detail::hidesEveryGpu(*facts.cudaVisibleDevices))
        return {GpuVerdict::kNoGpu,
                "CUDA_VISIBLE_DEVICES='" + *facts.cudaVisibleDevices + "' hides every GPU (" + cudaSays + ")"};
    const std::string present = detail::whatIsPresent(facts);
    if (present.empty())
        return {GpuVerdict::kNoGpu, "no NVIDIA GPU or driver on this machine (" + cudaSays + ")"};

    std::string message = present + " but CUDA cannot use it: ";
    message += facts.countErrorName.empty()
                   ? "cudaGetDeviceCount finds no device"
                   : facts.countErrorName + (facts.countErrorText.empty() ? "" : ": " + facts.countErrorText);
    if (facts.countErrorName == "cudaErrorInsufficientDriver" && facts.nvidiaDriverPath.empty())
        message += " (no NVIDIA driver is loaded)";
    else if (facts.countErrorName == "cudaErrorInsufficientDriver" && !facts.driverCudaVersion.empty() &&
             !facts.runtimeCudaVersion.empty())
        message += " (the driver supports CUDA " + facts.driverCudaVersion + ", this build's runtime is CUDA " +
                   facts.runtimeCudaVersion + ")";
    if (facts.cudaVisibleDevices)
        message += " (CUDA_VISIBLE_DEVICES='" + *facts.cudaVisibleDevices + "')";
    return {GpuVerdict::kBroken, message};
}

} // namespace tstudio
