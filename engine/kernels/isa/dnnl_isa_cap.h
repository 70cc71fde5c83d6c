// capDnnlIsa: oneDNN's own instruction-set choice held to the TSTUDIO_CPU_ISA cap.
#pragma once

namespace tstudio {

/// Where TSTUDIO_CPU_ISA caps the level (core/cpu_features.h), tells oneDNN the same cap before its
/// first primitive or GEMM (dnnl_set_max_cpu_isa: "baseline" and "sse4.2" become oneDNN's lowest
/// JIT level, SSE4.1; "avx", "avx2" theirs). Call before every first use of oneDNN; runs once,
/// thread-safe; does nothing without a cap or in a build without oneDNN.
void capDnnlIsa();

} // namespace tstudio
