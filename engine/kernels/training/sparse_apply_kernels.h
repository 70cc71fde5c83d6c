// The registration function of the CPU kernels of SparseApply* and ResourceSparseApply*
// (register_training_kernels.cpp calls it).
#pragma once

#include "core/status.h"

namespace tstudio {

class KernelRegistry;

/// SparseApplyMomentum, SparseApplyAdagrad, SparseApplyRMSProp, SparseApplyCenteredRMSProp and
/// their ResourceSparseApply* forms for half, float and double with int32 or int64 indices.
Status registerSparseApplyKernels(KernelRegistry& registry);

} // namespace tstudio
