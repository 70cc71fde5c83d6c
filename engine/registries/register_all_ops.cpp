// registerAllOps: every op family, in one explicit list (no static initialisers).
#include "registries/register_all_ops.h"

#include "distributed/horovod_ops.h"
#include "framework/op_registry.h"
#include "ops/accumulator_ops.h"
#include "ops/ops.h"
#include "ops/resource_gather_ops.h"
#include "ops/sparse_training_ops.h"

namespace tstudio {

Status registerAllOps(OpRegistry& registry)
{
    for (auto family : {registerMathOps, registerArrayOps, registerNnOps, registerStateOps, registerControlFlowOps,
                        registerRandomOps, registerCandidateSamplingOps, registerTrainingOps, registerIoOps,
                        registerLinalgOps,
                        registerSegmentOps, registerMirrorPadGradOps, registerLoggingOps,
                        registerSummaryOps, registerDataFlowOps, registerImageOps, registerImageCodecOps,
                        registerImageAdjustOps, registerSparseOps,
                        registerParsingOps, registerQueueOps, registerReaderOps, registerFunctionOps,
                        registerDatasetOps, registerResourceGatherOps, registerSparseTrainingOps,
                        registerListOps,
                        registerTensorArrayOps, registerAccumulatorOps, registerHorovodOps,
                        registerStringOps,
                        registerLookupOps, registerHashBucketOps}) {
        if (Status s = family(registry); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
