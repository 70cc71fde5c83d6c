// GPU kernel families (CUDA builds only): each registers its kernels for device type "GPU".
#pragma once

#include "core/status.h"

namespace tstudio {

class KernelRegistry;

// One function per family, in kernels/<family>/register_<family>_kernels_cuda.cpp; all called by
// registerGpuKernels (devices/gpu_devices.h) from kernels/register_gpu_kernels_cuda.cpp.
Status registerMathGpuKernels(KernelRegistry& registry);  ///< element-wise, Cast, Select, AddN, activations, BiasAdd
Status registerConvPoolGpuKernels(KernelRegistry& registry); ///< Conv2D(+backprops), pooling, FusedBatchNorm(+grads)
Status registerArrayGpuKernels(KernelRegistry& registry);  ///< Identity, Reshape, Shape, Concat, Slice, Gather, Fill, ...
Status registerRandomGpuKernels(KernelRegistry& registry); ///< RandomUniform, (Truncated)Normal, RandomUniformInt
Status registerStateGpuKernels(KernelRegistry& registry);  ///< VariableV2, Assign(Add/Sub), resource variables
Status registerTrainingGpuKernels(KernelRegistry& registry); ///< Apply* and ResourceApply* optimizers
Status registerLinalgGpuKernels(KernelRegistry& registry);    ///< MatMul, BatchMatMul, BatchMatMulV2 (cuBLAS)
Status registerReductionGpuKernels(KernelRegistry& registry); ///< Sum, Mean, Prod, Max, Min, All, Any, ArgMax, ArgMin
Status registerSoftmaxGpuKernels(KernelRegistry& registry);   ///< (Log)Softmax, (Sparse)SoftmaxXent..., BiasAddGrad

} // namespace tstudio
