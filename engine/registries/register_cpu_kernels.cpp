// registerCpuKernels: every CPU kernel family, in one explicit list (no static initialisers).
#include "kernels/kernels.h"

#include "distributed/horovod_ops.h"
#include "framework/kernel_registry.h"
#include "kernels/data_flow/accumulator_kernels.h"

namespace tstudio {

Status registerCpuKernels(KernelRegistry& registry)
{
    for (auto family : {registerMathCpuKernels, registerLinalgCpuKernels, registerReductionCpuKernels,
                        registerArrayCpuKernels, registerNnCpuKernels, registerStateCpuKernels,
                        registerControlFlowCpuKernels, registerRandomCpuKernels, registerTrainingCpuKernels,
                        registerIoCpuKernels, registerLoggingCpuKernels,
                        registerSummaryCpuKernels, registerDataFlowCpuKernels, registerImageCpuKernels,
                        registerSparseCpuKernels, registerParsingCpuKernels, registerQueueCpuKernels,
                        registerReaderCpuKernels, registerFunctionCpuKernels, registerDatasetCpuKernels,
                        registerTensorListCpuKernels,
                        registerTensorArrayCpuKernels, registerAccumulatorCpuKernels, registerHorovodCpuKernels,
                        registerStringCpuKernels,
                        registerLookupCpuKernels, registerHashBucketCpuKernels}) {
        if (Status s = family(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
