// registerStateCpuKernels: ref variables, resource variables (with ResourceGather), their assignment and
// their Scatter* updates on the CPU.
#include "kernels/kernels.h"
#include "kernels/state/resource_gather_kernels.h"
#include "kernels/state/resource_variable_kernels.h"
#include "kernels/state/scatter_kernels.h"
#include "kernels/state/state_kernels.h"

#include "framework/kernel_registry.h"

namespace tstudio {

Status registerStateCpuKernels(KernelRegistry& registry)
{
    if (Status s = registerVariableKernels(registry); !s.isOk())
        return s;
    if (Status s = registerResourceVariableKernels(registry); !s.isOk())
        return s;
    if (Status s = registerResourceGatherKernels(registry); !s.isOk())
        return s;
    if (Status s = registerScatterKernels(registry); !s.isOk())
        return s;
    return registerAssignKernels(registry);
}

} // namespace tstudio
