// detectCpuIsa: which of the per-instruction-set kernel builds (isa_unit_begin.h) this CPU can run.
#pragma once

namespace tstudio {

enum class CpuIsa {
    kBaseline, ///< x86-64's SSE2, or any other architecture
    kAvx2,     ///< AVX2 + FMA + F16C
    kAvx512,   ///< AVX-512 F/VL/DQ/BW + FMA (what the avx512 units are compiled for)
};

/// The best set this CPU and OS support (libgcc's checks include the OS saving the wide registers).
/// Computed once; thread-safe.
CpuIsa detectCpuIsa();

} // namespace tstudio
