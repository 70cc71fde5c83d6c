// registerNnCpuKernels: the NN family's CPU kernels, group by group (explicit calls, no static
// initialisers).
#include "kernels/kernels.h"

#include "framework/kernel_registry.h"
#include "kernels/nn/depthwise_conv2d.h"
#include "kernels/nn/nn_kernels_internal.h"

namespace tstudio {

Status registerNnCpuKernels(KernelRegistry& registry)
{
    for (auto group :
         {nn::registerActivationKernels, nn::registerSoftmaxKernels, nn::registerBiasKernels, nn::registerConvKernels,
          nn::registerPoolingKernels, nn::registerBatchNormKernels, nn::registerLrnKernels, nn::registerLossKernels,
          nn::registerInTopKKernels, nn::registerDepthwiseConvKernels, nn::registerMaxPoolGradGradKernels,
          nn::registerFusedConvKernels}) {
        if (Status s = group(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
