// CPU kernels of the dense Apply* optimizer ops on ref variables: the ref form (apply_forms.h) of the
// kernels in apply_ops.h with the CPU's update functions.
#define EIGEN_USE_THREADS

#include "kernels/training/apply_forms.h"
#include "kernels/training/apply_op_cpu.h"
#include "kernels/training/training_kernels.h"

namespace tstudio {

namespace {

template <typename T> using CpuRefApplyKernel = training::RefApplyKernel<T, training::CpuApplyDevice>;

} // namespace

Status registerApplyKernels(KernelRegistry& registry)
{
    return training::addApplyKernels<CpuRefApplyKernel>(registry, "CPU", "Apply", /*variablesInHostMemory=*/false);
}

} // namespace tstudio
