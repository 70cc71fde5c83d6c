// registerGpuKernels for the GPU plugin: every GPU kernel family, in one explicit list.
#include "devices/cuda/cuda_gpu_api.h"
#include "framework/kernel_registry.h"
#include "kernels/gpu_kernels.h"

namespace tstudio::cuda {

Status registerGpuKernels(KernelRegistry& registry)
{
    for (auto family : {registerMathGpuKernels, registerConvPoolGpuKernels, registerArrayGpuKernels,
                        registerRandomGpuKernels, registerStateGpuKernels, registerTrainingGpuKernels,
                        registerLinalgGpuKernels, registerReductionGpuKernels, registerSoftmaxGpuKernels}) {
        if (Status s = family(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio::cuda
