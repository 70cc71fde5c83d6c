// GPU discovery at run time: what CUDA support was compiled in and which GPUs the driver reports.
#pragma once

#include "core/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tstudio {

struct GpuDeviceInfo {
    int ordinal = 0;
    std::string name;
    int computeMajor = 0;
    int computeMinor = 0;
    std::uint64_t totalMemoryBytes = 0;
    int multiprocessorCount = 0;
    std::string pciBusId;
};

/// The answer of probeGpus(). Versions are empty strings where unknown.
struct GpuProbeReport {
    bool compiledIn = false;             ///< engine_cuda was built and linked
    std::string compiledCudaVersion;     ///< toolkit used at build time, e.g. "13.0"
    std::string compiledArchitectures;   ///< e.g. "90-real;90-virtual"
    std::string runtimeVersion;          ///< cudaRuntimeGetVersion, e.g. "13.0"
    std::string driverVersion;           ///< highest CUDA version the driver supports; empty without a driver
    std::string cudnnVersion;            ///< cudnnGetVersion at run time, e.g. "9.19.0"
    std::string cublasVersion;           ///< cublasGetProperty at run time
    /// The GPUs that can be used; empty when there is none (unavailableReason) or it is broken (brokenReason).
    std::vector<GpuDeviceInfo> devices;
    /// Why there is no GPU, in the normal states: "no GPU support compiled in", "no NVIDIA GPU or
    /// driver on this machine (CUDA reports cudaErrorInsufficientDriver)". Empty when `devices` is
    /// not, and when brokenReason is set. Having no GPU is a normal state, not a failure.
    std::string unavailableReason;
    /// Why an NVIDIA GPU or driver that is present cannot be used: what was seen and the CUDA,
    /// cuDNN or cuBLAS error (see classifyGpuProbe). A failure, not a normal state; `devices` is
    /// then empty, so that nothing is placed on the GPU. Empty otherwise.
    std::string brokenReason;
    /// Set with unavailableReason when CUDA_VISIBLE_DEVICES hides every GPU (the GPUs may be there).
    bool hiddenByVisibleDevices = false;
};

/// Why no GPU can be used, for messages: unavailableReason, or "GPU present but unusable: " and
/// brokenReason; "" when `devices` lists a GPU.
inline std::string gpuUnusableText(const GpuProbeReport& report)
{
    if (!report.brokenReason.empty())
        return "GPU present but unusable: " + report.brokenReason;
    return report.unavailableReason;
}

/// Asks the CUDA runtime for its versions and devices and, where it finds any, creates and destroys a
/// cuDNN and a cuBLAS handle on GPU 0 (which starts the CUDA context there); the operating system
/// says whether an NVIDIA GPU or driver is present when CUDA finds none. Cheap after the first
/// call; thread-safe.
GpuProbeReport probeGpus();

/// Launches a small kernel on GPU `ordinal` and checks its results, proving that the code compiled
/// into this build runs on that GPU. Unavailable when no GPU or no CUDA support; FailedPrecondition
/// with gpuUnusableText when the GPU is present but unusable; Internal on a wrong result; the CUDA
/// error text otherwise (e.g. no kernel image for this architecture).
Status runGpuSelfTest(int ordinal);

} // namespace tstudio
