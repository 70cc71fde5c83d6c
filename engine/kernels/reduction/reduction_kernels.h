// Registration functions of the reduction family's files (internal; register_reduction_kernels.cpp calls them).
#pragma once

#include "core/status.h"

namespace tstudio {

class KernelRegistry;

namespace reduction {

Status registerSumCpuKernels(KernelRegistry& registry);
Status registerMeanCpuKernels(KernelRegistry& registry);
Status registerProdCpuKernels(KernelRegistry& registry);
Status registerMaxCpuKernels(KernelRegistry& registry);
Status registerMinCpuKernels(KernelRegistry& registry);
Status registerAllAnyCpuKernels(KernelRegistry& registry);
Status registerArgMinMaxCpuKernels(KernelRegistry& registry);
Status registerRangeCpuKernels(KernelRegistry& registry);
/// Range on GPU devices as TensorFlow 1.15 registers it: the CPU kernel, every argument in host
/// memory (a shape computation that keeps the shape ops around it on the GPU).
Status registerRangeHostKernelsOnGpu(KernelRegistry& registry);

} // namespace reduction
} // namespace tstudio
