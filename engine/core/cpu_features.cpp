// cpuHasLevel: the compiler's __builtin_cpu_supports (and CPUID for F16C), capped by TSTUDIO_CPU_ISA.
#include "core/cpu_features.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

namespace tstudio {

namespace {

constexpr std::array<std::string_view, 5> kNames = {"baseline", "sse4.2", "avx", "avx2", "avx512"};

#if defined(__x86_64__) && defined(__GNUC__)
/// F16C from CPUID leaf 1 (clang 14's __builtin_cpu_supports does not know "f16c"; GCC's does).
bool hasF16c()
{
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
}
#endif

CpuLevel detect()
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("ssse3") || !__builtin_cpu_supports("sse4.2"))
        return CpuLevel::kBaseline;
    // libgcc's "avx" also checks that the OS saves the YMM registers (XGETBV), and its avx512
    // checks the ZMM state.
    if (!__builtin_cpu_supports("avx"))
        return CpuLevel::kSse42;
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma") || !hasF16c())
        return CpuLevel::kAvx;
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512vl") ||
        !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("avx512bw"))
        return CpuLevel::kAvx2;
    return CpuLevel::kAvx512;
#else
    return CpuLevel::kBaseline;
#endif
}

CpuLevel readCap()
{
    const char* value = std::getenv("TSTUDIO_CPU_ISA");
    if (!value || !*value)
        return CpuLevel::kAvx512;
    for (std::size_t i = 0; i < kNames.size(); ++i)
        if (kNames[i] == value)
            return static_cast<CpuLevel>(i);
    std::fprintf(stderr,
                 "warning: TSTUDIO_CPU_ISA='%s' is not one of baseline, sse4.2, avx, avx2, avx512; ignored\n", value);
    return CpuLevel::kAvx512;
}

} // namespace

CpuLevel cpuLevelCap()
{
    static const CpuLevel cap = readCap();
    return cap;
}

CpuLevel cpuLevel()
{
    static const CpuLevel level = [] {
        const CpuLevel detected = detect();
        const CpuLevel cap = cpuLevelCap();
        return static_cast<int>(cap) < static_cast<int>(detected) ? cap : detected;
    }();
    return level;
}

bool cpuHasLevel(CpuLevel level)
{
    return static_cast<int>(level) <= static_cast<int>(cpuLevel());
}

std::string cpuLevelName(CpuLevel level)
{
    return std::string(kNames[static_cast<std::size_t>(level)]);
}

} // namespace tstudio
