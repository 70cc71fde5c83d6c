// registerTensorArrayCpuKernels: the tensor_array family's CPU kernels (TensorFlow 1.15's TensorArray ops).
#include "kernels/kernels.h"
#include "kernels/tensor_array/tensor_array_kernels.h"

namespace tstudio {

Status registerTensorArrayCpuKernels(KernelRegistry& registry)
{
    for (auto part : {registerTensorArrayCreationKernels, registerTensorArrayAccessKernels})
        if (Status s = part(registry); !s.isOk())
            return s;
    return Status::ok();
}

} // namespace tstudio
