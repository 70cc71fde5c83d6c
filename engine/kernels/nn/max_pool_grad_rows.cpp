// maxPoolGradRowKernels: MaxPoolGrad's disjoint-window float loop built for this CPU.
#include "kernels/nn/max_pool_grad_rows.h"

#include "kernels/isa/cpu_isa.h"

namespace tstudio::nn {

const MaxPoolGradRowKernels& maxPoolGradRowKernels()
{
    static const MaxPoolGradRowKernels& kernels =
        kernelsForCpu(&maxPoolGradRowKernelsAvx512, &maxPoolGradRowKernelsAvx2, &maxPoolGradRowKernelsBaseline);
    return kernels;
}

} // namespace tstudio::nn
