// The registration function of the resource-variable kernels (register_state_kernels.cpp calls it),
// and the kernels every device's registration builds on.
#pragma once

#include "core/status.h"
#include "framework/kernel_registry.h"
#include "kernels/state/dense_update_kernels.h"

namespace tstudio {

class DeviceCopy;
class KernelRegistry;

/// VarHandleOp, ReadVariableOp, AssignVariableOp, AssignAddVariableOp, AssignSubVariableOp,
/// VarIsInitializedOp and DestroyResourceOp on the CPU.
Status registerResourceVariableKernels(KernelRegistry& registry);

// The kernels as the CPU registers them, for other devices' registrations (handles always in host
// memory; values copied by `copier` and updated by `update`, the device's).

KernelFactory varHandleKernel();
KernelFactory readVariableKernel();     ///< shares the variable's buffer
KernelFactory varIsInitializedKernel(); ///< its bool output written on the host
KernelFactory destroyResourceKernel();
KernelFactory assignVariableKernel(const DeviceCopy& copier);
/// AssignAddVariableOp / AssignSubVariableOp with `update`.
KernelFactory assignUpdateVariableKernel(DenseUpdateFn update, const DeviceCopy& copier);

} // namespace tstudio
