// Registration of the sparse update ops (Scatter*, ResourceScatter*, SparseApply*,
// ResourceSparseApply*) that optimizers use for IndexedSlices gradients; register_all_ops.cpp calls it.
#pragma once

#include "core/status.h"

namespace tstudio {

class OpRegistry;

/// ScatterUpdate/Add/Sub/Mul/Div on ref variables and their ResourceScatter* forms (State), and
/// SparseApplyMomentum/Adagrad/RMSProp/CenteredRMSProp with their ResourceSparseApply* forms
/// (Training), as TensorFlow 1.15 defines them, with their shape functions.
Status registerSparseTrainingOps(OpRegistry& registry);

} // namespace tstudio
