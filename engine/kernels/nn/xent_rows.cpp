// xentRowKernels: the softmax cross-entropy row build for this CPU.
#include "kernels/nn/xent_rows.h"

#include "kernels/isa/cpu_isa.h"

namespace tstudio::nn {

const XentRowKernels& xentRowKernels()
{
    static const XentRowKernels& kernels = []() -> const XentRowKernels& {
        switch (detectCpuIsa()) {
        case CpuIsa::kAvx512: return xentRowKernelsAvx512();
        case CpuIsa::kAvx2: return xentRowKernelsAvx2();
        case CpuIsa::kBaseline: break;
        }
        return xentRowKernelsBaseline();
    }();
    return kernels;
}

} // namespace tstudio::nn
