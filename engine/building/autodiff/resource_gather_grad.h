// The gradient registrations of ResourceGather and DisableCopyOnRead (gradients_registry.cpp calls it).
#pragma once

#include "core/status.h"

namespace tstudio {

class OpRegistry;

/// ResourceGather: the gradient of the gathered rows goes to the variable's handle as IndexedSlices
/// (TensorFlow's _GatherGrad for ResourceGather);
/// DisableCopyOnRead: not differentiable.
Status registerResourceGatherGradients(OpRegistry& registry);

} // namespace tstudio
