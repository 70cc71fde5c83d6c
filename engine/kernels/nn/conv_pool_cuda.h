// The GPU kernels of the convolution, pooling and batch-norm ops (CUDA builds only): one
// registration function per file, all called by registerConvPoolGpuKernels.
#pragma once

#include "core/status.h"
#include "framework/kernel_registry.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio::nn {

Status registerConv2DGpuKernels(KernelRegistry& registry);         ///< conv2d_cuda.cpp
Status registerPoolingGpuKernels(KernelRegistry& registry);        ///< pooling_cuda.cpp
Status registerFusedBatchNormGpuKernels(KernelRegistry& registry); ///< fused_batch_norm_cuda.cpp

/// A "GPU" KernelDef with "T" in `types` and the arguments kept in host memory.
inline KernelDef gpuKernelDef(std::string op, std::vector<DataType> types, std::vector<std::string> hostMemoryArgs = {})
{
    KernelDef def;
    def.op = std::move(op);
    def.deviceType = "GPU";
    def.typeConstraints.emplace_back("T", std::move(types));
    def.hostMemoryArgs = std::move(hostMemoryArgs);
    return def;
}

} // namespace tstudio::nn
