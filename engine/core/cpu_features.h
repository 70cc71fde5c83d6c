// cpuHasLevel: which optional x86-64 instruction sets the engine's hand-written and per-ISA
// kernels may use, as this CPU reports them, capped by the TSTUDIO_CPU_ISA environment switch.
#pragma once

#include <string>

namespace tstudio {

/// The instruction-set levels the engine's kernels choose between, in order: each includes the
/// ones before it.
enum class CpuLevel {
    kBaseline, ///< x86-64's SSE2 (or any other architecture): the portable code paths
    kSse42,    ///< + SSSE3 and SSE4.2 (byte shuffles of ReverseV2, the CRC32C instruction)
    kAvx,      ///< + AVX (ResizeBilinear's 8-float rows)
    kAvx2,     ///< + AVX2, FMA and F16C (the avx2 builds of the GEMM tiles and xent rows)
    kAvx512,   ///< + AVX-512 F/VL/DQ/BW (the avx512 builds)
};

/// True when this CPU and OS support `level` and TSTUDIO_CPU_ISA does not cap it away.
/// Computed once; thread-safe.
bool cpuHasLevel(CpuLevel level);

/// The highest level this process uses: what the CPU supports, capped by TSTUDIO_CPU_ISA.
CpuLevel cpuLevel();

/// The level TSTUDIO_CPU_ISA asks for ("baseline", "sse4.2", "avx", "avx2" or "avx512"; unset or
/// empty: no cap). The switch lets one machine run every code path a weaker CPU would take (CTest
/// runs the kernel tests again under each cap). An unknown value is reported once on stderr and
/// ignored; a cap above what the CPU has changes nothing.
CpuLevel cpuLevelCap();

/// "baseline", "sse4.2", "avx", "avx2" or "avx512".
std::string cpuLevelName(CpuLevel level);

} // namespace tstudio
