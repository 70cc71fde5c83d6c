// registerConvPoolGpuKernels: the GPU kernels of Conv2D and its backprops, the pooling ops and
// FusedBatchNorm with its gradients.
#include "kernels/gpu_kernels.h"
#include "kernels/nn/conv_pool_cuda.h"

namespace tstudio {

Status registerConvPoolGpuKernels(KernelRegistry& registry)
{
    for (auto group :
         {nn::registerConv2DGpuKernels, nn::registerPoolingGpuKernels, nn::registerFusedBatchNormGpuKernels}) {
        if (Status s = group(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
