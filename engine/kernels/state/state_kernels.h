// The state family's registration functions, one per kernel file (register_state_kernels.cpp calls
// them), and the ref-variable kernels every device's registration builds on.
#pragma once

#include "core/status.h"
#include "framework/kernel_registry.h"
#include "kernels/state/dense_update_kernels.h"

namespace tstudio {

class DeviceCopy;
class KernelRegistry;

/// VariableV2, Variable, IsVariableInitialized, TemporaryVariable, DestroyTemporaryVariable, NoOp.
Status registerVariableKernels(KernelRegistry& registry);
/// Assign (any dtype), AssignAdd and AssignSub (TensorFlow's CPU number types).
Status registerAssignKernels(KernelRegistry& registry);

// The kernels as the CPU registers them, for other devices' registrations: the checks and error
// texts are the CPU's; copies go through `copier` and updates through `update` (both the device's,
// outliving the registry). The variable kernels never touch element data.

KernelFactory variableKernel();                 ///< VariableV2 and Variable
KernelFactory isVariableInitializedKernel();    ///< its bool output written on the host
KernelFactory temporaryVariableKernel();        ///< TemporaryVariable (zero-filled from the device's allocator)
KernelFactory destroyTemporaryVariableKernel(); ///< DestroyTemporaryVariable
KernelFactory assignKernel(const DeviceCopy& copier);
/// AssignAdd / AssignSub with `update` (the op and dtype it was registered for).
KernelFactory denseUpdateKernel(DenseUpdateFn update, const DeviceCopy& copier);

} // namespace tstudio
