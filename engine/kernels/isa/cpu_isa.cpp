// detectCpuIsa: the per-instruction-set build for this CPU's level (core/cpu_features.h), once.
#include "kernels/isa/cpu_isa.h"

#include "core/cpu_features.h"

namespace tstudio {

CpuIsa detectCpuIsa()
{
    static const CpuIsa isa = cpuHasLevel(CpuLevel::kAvx512) ? CpuIsa::kAvx512
                              : cpuHasLevel(CpuLevel::kAvx2) ? CpuIsa::kAvx2
                                                             : CpuIsa::kBaseline;
    return isa;
}

} // namespace tstudio
