// xentRowKernels: the softmax cross-entropy row build for this CPU.
#include "kernels/nn/xent_rows.h"

#include "kernels/isa/cpu_isa.h"

namespace tstudio::nn {

const XentRowKernels& xentRowKernels()
{
    static const XentRowKernels& kernels =
        kernelsForCpu(&xentRowKernelsAvx512, &xentRowKernelsAvx2, &xentRowKernelsBaseline);
    return kernels;
}

} // namespace tstudio::nn
