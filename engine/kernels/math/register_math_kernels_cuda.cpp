// registerMathGpuKernels: every element-wise GPU kernel (math family: arithmetic, comparisons, unary
// ops, Cast, Select, AddN; NN family: activations and BiasAdd).
#define EIGEN_USE_THREADS
#include "kernels/gpu_kernels.h"
#include "kernels/math/cwise_kernels_cuda.h"

namespace tstudio {

Status registerMathGpuKernels(KernelRegistry& registry)
{
    using Register = Status (*)(KernelRegistry&);
    const Register groups[] = {
        math_kernels::registerBinaryGpuKernels, math_kernels::registerUnaryGpuKernels,
        math_kernels::registerCastGpuKernels,   math_kernels::registerSelectGpuKernels,
        math_kernels::registerAddNGpuKernels,   nn::registerActivationGpuKernels,
        nn::registerBiasAddGpuKernels,
    };
    for (Register group : groups) {
        if (Status status = group(registry); !status.isOk())
            return status;
    }
    return Status::ok();
}

} // namespace tstudio
