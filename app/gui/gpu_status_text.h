// gpuHeadline / gpuDetails: what the window says about the GPU, in words a person understands.
#pragma once

#include "devices/gpu_probe.h"

#include <QString>

namespace tstudio {

/// One sentence for the console and the status bar: "No NVIDIA GPU driver found — training runs on
/// the CPU", "GPU 0: NVIDIA H100 …", "An NVIDIA GPU is here but cannot be used — training runs on
/// the CPU". Translated.
QString gpuHeadline(const GpuProbeReport& report);

/// What the probe saw, for a tooltip or a details line: the CUDA, cuDNN or cuBLAS error (in the
/// engine's words), or the GPUs and their compute capabilities. Empty when there is nothing to add.
QString gpuDetails(const GpuProbeReport& report);

/// Whether the window should say so as a warning: a GPU is present but unusable (a failure, unlike
/// having none).
inline bool gpuIsBroken(const GpuProbeReport& report) { return !report.brokenReason.empty(); }

} // namespace tstudio
