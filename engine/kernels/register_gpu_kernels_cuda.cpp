// registerGpuKernels for CUDA builds: every GPU kernel family, in one explicit list.
#include "devices/gpu_devices.h"
#include "framework/kernel_registry.h"
#include "kernels/gpu_kernels.h"

namespace tstudio {

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

} // namespace tstudio
