// The io family's gradient registrations, as TensorFlow 1.15 makes them: StringJoin is not
// differentiable (string_ops.py). TensorFlow registers nothing for SaveV2, RestoreV2,
// MergeV2Checkpoints, ShardedFilename and ShardedFilespec (no float input): they stay unregistered.
#include "autodiff/gradients_registry.h"
#include "framework/op_registry.h"

namespace tstudio {

Status registerIoGradients(OpRegistry& registry)
{
    return registry.setNotDifferentiable("StringJoin");
}

} // namespace tstudio
