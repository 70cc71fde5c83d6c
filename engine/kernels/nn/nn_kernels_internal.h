// The groups of the NN CPU kernel family, each registered by its *_cpu.cpp file and all called
// from registerNnCpuKernels (register_nn_kernels.cpp).
#pragma once

#include "core/status.h"

namespace tstudio {
class KernelRegistry;
}

namespace tstudio::nn {

Status registerActivationKernels(KernelRegistry& registry); ///< Relu ... Softsign and their *Grad ops
Status registerSoftmaxKernels(KernelRegistry& registry);    ///< Softmax, LogSoftmax
Status registerBiasKernels(KernelRegistry& registry);       ///< BiasAdd, BiasAddV1, BiasAddGrad
Status registerConvKernels(KernelRegistry& registry);       ///< Conv2D, Conv2DBackpropInput, Conv2DBackpropFilter
Status registerPoolingKernels(KernelRegistry& registry);    ///< MaxPool, AvgPool, MaxPoolGrad, AvgPoolGrad
Status registerBatchNormKernels(KernelRegistry& registry);  ///< FusedBatchNorm(V2, V3) and their gradients
Status registerLrnKernels(KernelRegistry& registry);        ///< LRN, LRNGrad
Status registerLossKernels(KernelRegistry& registry);       ///< (Sparse)SoftmaxCrossEntropyWithLogits, L2Loss
Status registerInTopKKernels(KernelRegistry& registry);     ///< InTopK, InTopKV2

/// _FusedConv2D (fused_conv2d_cpu.cpp).
Status registerFusedConvKernels(KernelRegistry& registry);

/// MaxPoolGradGrad (max_pool_grad_grad_cpu.cpp).
Status registerMaxPoolGradGradKernels(KernelRegistry& registry);

} // namespace tstudio::nn
