// registerStateGpuKernels: ref and resource variables on the GPU. The kernels are the CPU's classes
// built on the GPU's copies and add/sub updates (gpuCopy, GpuDenseUpdate), so their checks and
// words are the CPU's; a variable's value lives in GPU memory from its first assignment. The
// dtypes and host-memory arguments are TensorFlow 1.15's GPU registrations.
#include "framework/kernel_registry.h"
#include "kernels/gpu_kernels.h"
#include "kernels/state/dense_update_kernels.h"
#include "kernels/state/resource_variable_kernels.h"
#include "kernels/state/state_kernels.h"
#include "kernels/state/state_kernels_cuda.h"

#include <complex>
#include <string>
#include <vector>

namespace tstudio {

namespace {

using tensorflow::DT_BOOL;
using tensorflow::DT_COMPLEX128;
using tensorflow::DT_COMPLEX64;
using tensorflow::DT_DOUBLE;
using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT64;
using tensorflow::DT_UINT32;

/// TF_CALL_GPU_ALL_TYPES, int64 and uint32: the dtypes of the ref variables and Assign on the GPU.
const std::vector<DataType> kVariableTypes = {DT_HALF,      DT_FLOAT,      DT_DOUBLE, DT_BOOL,
                                              DT_COMPLEX64, DT_COMPLEX128, DT_INT64,  DT_UINT32};
/// TF_CALL_GPU_ALL_TYPES and int64: the dtypes of the resource variables on the GPU.
const std::vector<DataType> kResourceTypes = {DT_HALF,      DT_FLOAT,      DT_DOUBLE, DT_BOOL,
                                              DT_COMPLEX64, DT_COMPLEX128, DT_INT64};
/// TF_CALL_GPU_NUMBER_TYPES and int64: the add/sub updates.
using GpuUpdateTypes = TypeList<Eigen::half, float, double, std::int64_t>;

Status registerRefVariableKernels(KernelRegistry& registry)
{
    const std::vector<std::pair<KernelDef, KernelFactory>> kernels = {
        {KernelDef{"VariableV2", "GPU", {{"dtype", kVariableTypes}}, {}}, variableKernel()},
        {KernelDef{"Variable", "GPU", {{"dtype", kVariableTypes}}, {}}, variableKernel()},
        {KernelDef{"TemporaryVariable", "GPU", {{"dtype", kVariableTypes}}, {}}, temporaryVariableKernel()},
        {KernelDef{"DestroyTemporaryVariable", "GPU", {{"T", kVariableTypes}}, {}}, destroyTemporaryVariableKernel()},
        {KernelDef{"IsVariableInitialized", "GPU", {{"dtype", kVariableTypes}}, {"is_initialized"}},
         isVariableInitializedKernel()},
        {KernelDef{"Assign", "GPU", {{"T", kVariableTypes}}, {}}, assignKernel(gpuCopy())},
    };
    for (const auto& [def, factory] : kernels) {
        if (Status s = registry.registerKernel(def, factory); !s.isOk())
            return s;
    }
    return addDenseUpdateKernels<GpuDenseUpdate>(
        registry, "GPU", "AssignAdd", "AssignSub", "T", {},
        [](DenseUpdateFn update) { return denseUpdateKernel(update, gpuCopy()); }, GpuUpdateTypes{});
}

Status registerResourceKernels(KernelRegistry& registry)
{
    const std::vector<std::pair<KernelDef, KernelFactory>> kernels = {
        {KernelDef{"VarHandleOp", "GPU", {{"dtype", kResourceTypes}}, {"resource"}}, varHandleKernel()},
        {KernelDef{"ReadVariableOp", "GPU", {{"dtype", kResourceTypes}}, {"resource"}}, readVariableKernel()},
        {KernelDef{"AssignVariableOp", "GPU", {{"dtype", kResourceTypes}}, {"resource"}},
         assignVariableKernel(gpuCopy())},
        {KernelDef{"VarIsInitializedOp", "GPU", {}, {"resource", "is_initialized"}}, varIsInitializedKernel()},
        {KernelDef{"DestroyResourceOp", "GPU", {}, {"resource"}}, destroyResourceKernel()},
    };
    for (const auto& [def, factory] : kernels) {
        if (Status s = registry.registerKernel(def, factory); !s.isOk())
            return s;
    }
    return addDenseUpdateKernels<GpuDenseUpdate>(
        registry, "GPU", "AssignAddVariableOp", "AssignSubVariableOp", "dtype", {"resource"},
        [](DenseUpdateFn update) { return assignUpdateVariableKernel(update, gpuCopy()); }, GpuUpdateTypes{});
}

} // namespace

Status registerStateGpuKernels(KernelRegistry& registry)
{
    if (Status s = registerRefVariableKernels(registry); !s.isOk())
        return s;
    return registerResourceKernels(registry);
}

} // namespace tstudio
