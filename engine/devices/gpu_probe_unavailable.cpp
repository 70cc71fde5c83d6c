// GPU probe for builds without CUDA: reports that no GPU support was compiled in.
#include "devices/gpu_probe.h"

namespace tstudio {

GpuProbeReport probeGpus()
{
    // Not even an NVIDIA GPU that is present is broken for this build, which could never use it:
    // brokenReason stays empty and the OS is not asked.
    GpuProbeReport report;
    report.unavailableReason = "no GPU support compiled in";
    return report;
}

Status runGpuSelfTest(int)
{
    return unavailableError("no GPU support compiled in");
}

} // namespace tstudio
