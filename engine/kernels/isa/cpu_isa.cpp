// detectCpuIsa: GCC's __builtin_cpu_supports, once.
#include "kernels/isa/cpu_isa.h"

namespace tstudio {

namespace {

CpuIsa detect()
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("fma"))
        return CpuIsa::kAvx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"))
        return CpuIsa::kAvx2;
#endif
    return CpuIsa::kBaseline;
}

} // namespace

CpuIsa detectCpuIsa()
{
    static const CpuIsa isa = detect();
    return isa;
}

} // namespace tstudio
