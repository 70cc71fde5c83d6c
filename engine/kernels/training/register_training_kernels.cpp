// registerTrainingCpuKernels: the Apply* and SparseApply* optimizer updates on ref and resource
// variables, on the CPU.
#include "kernels/kernels.h"
#include "kernels/training/resource_apply_kernels.h"
#include "kernels/training/sparse_apply_kernels.h"
#include "kernels/training/training_kernels.h"

#include "framework/kernel_registry.h"

namespace tstudio {

Status registerTrainingCpuKernels(KernelRegistry& registry)
{
    if (Status s = registerApplyKernels(registry); !s.isOk())
        return s;
    if (Status s = registerResourceApplyKernels(registry); !s.isOk())
        return s;
    return registerSparseApplyKernels(registry);
}

} // namespace tstudio
