// cpuHasLevel: GCC's __builtin_cpu_supports, capped by TSTUDIO_CPU_ISA.
#include "core/cpu_features.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace tstudio {

namespace {

constexpr std::array<std::string_view, 5> kNames = {"baseline", "sse4.2", "avx", "avx2", "avx512"};

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
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma") || !__builtin_cpu_supports("f16c"))
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
