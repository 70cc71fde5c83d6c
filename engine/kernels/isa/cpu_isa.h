// detectCpuIsa: which of the per-instruction-set kernel builds (isa_unit_begin.h) this CPU can run.
#pragma once

namespace tstudio {

enum class CpuIsa {
    kBaseline, ///< x86-64's SSE2, or any other architecture
    kAvx2,     ///< AVX2 + FMA + F16C
    kAvx512,   ///< AVX-512 F/VL/DQ/BW + FMA (what the avx512 units are compiled for)
};

/// The best set this CPU and OS support (libgcc's checks include the OS saving the wide registers),
/// capped by TSTUDIO_CPU_ISA (core/cpu_features.h). Computed once; thread-safe.
CpuIsa detectCpuIsa();

/// The kernels of the best build this CPU runs, given each build's accessor (the
/// <name>Avx512/<name>Avx2/<name>Baseline functions of a per-instruction-set unit).
template <typename Kernels>
const Kernels& kernelsForCpu(const Kernels& (*avx512)(), const Kernels& (*avx2)(), const Kernels& (*baseline)())
{
    switch (detectCpuIsa()) {
    case CpuIsa::kAvx512: return avx512();
    case CpuIsa::kAvx2: return avx2();
    case CpuIsa::kBaseline: break;
    }
    return baseline();
}

} // namespace tstudio
