// CPU kernels of the ResourceApply* optimizer ops: the resource form (apply_forms.h) of the kernels in
// apply_ops.h with the CPU's update functions, so the checks and updates are the Apply* ops'.
#define EIGEN_USE_THREADS

#include "kernels/training/apply_forms.h"
#include "kernels/training/apply_op_cpu.h"
#include "kernels/training/resource_apply_kernels.h"

namespace tstudio {

namespace {

template <typename T> using CpuResourceApplyKernel = training::ResourceApplyKernel<T, training::CpuApplyDevice>;

} // namespace

Status registerResourceApplyKernels(KernelRegistry& registry)
{
    return training::addApplyKernels<CpuResourceApplyKernel>(registry, "CPU", "ResourceApply",
                                                             /*variablesInHostMemory=*/true);
}

} // namespace tstudio
