// capDnnlIsa: dnnl_set_max_cpu_isa from the TSTUDIO_CPU_ISA cap, once.
#include "kernels/isa/dnnl_isa_cap.h"

#include "core/cpu_features.h"
#include "core/log.h"

#ifdef TSTUDIO_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#include <mutex>

namespace tstudio {

void capDnnlIsa()
{
#ifdef TSTUDIO_HAVE_DNNL
    static std::once_flag once;
    std::call_once(once, [] {
        dnnl_cpu_isa_t isa = dnnl_cpu_isa_all;
        switch (cpuLevelCap()) {
        case CpuLevel::kBaseline:
        case CpuLevel::kSse42: isa = dnnl_cpu_isa_sse41; break;
        case CpuLevel::kAvx: isa = dnnl_cpu_isa_avx; break;
        case CpuLevel::kAvx2: isa = dnnl_cpu_isa_avx2; break;
        case CpuLevel::kAvx512: return;
        }
        if (dnnl_set_max_cpu_isa(isa) != dnnl_success)
            logWarning("cpu", "oneDNN refused the instruction-set cap of TSTUDIO_CPU_ISA (it had already generated "
                              "code); its kernels use what the CPU has");
    });
#endif
}

} // namespace tstudio
