// registerArrayCpuKernels: the array family's CPU kernels, group by group (explicit calls, no
// static initialisers).
#include "kernels/kernels.h"

#include "framework/kernel_registry.h"
#include "kernels/array/array_kernels_internal.h"
#include "kernels/array/mirror_pad_grad.h"

namespace tstudio {

Status registerArrayCpuKernels(KernelRegistry& registry)
{
    for (auto group : {array::registerSourceKernels, array::registerShapeKernels, array::registerTransposeKernels,
                       array::registerConcatKernels, array::registerSplitKernels, array::registerTileKernels,
                       array::registerPadKernels, array::registerReverseKernels, array::registerReverseSequenceKernels,
                       array::registerSliceKernels, array::registerGatherKernels, array::registerFillKernels,
                       array::registerBroadcastArgsKernels, array::registerStitchKernels,
                       array::registerDynamicPartitionKernels, array::registerWhereUniqueKernels,
                       array::registerScanKernels, array::registerDiagKernels, array::registerMirrorPadGradKernels}) {
        if (Status s = group(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
