// The registration function of the CPU kernels of Scatter* and ResourceScatter*
// (register_state_kernels.cpp calls it).
#pragma once

#include "core/status.h"

namespace tstudio {

class KernelRegistry;

/// ScatterUpdate/Add/Sub/Mul/Div and ResourceScatterUpdate/Add/Sub/Mul/Div for half, float, double,
/// int32 and int64 with int32 or int64 indices, on the CPU.
Status registerScatterKernels(KernelRegistry& registry);

} // namespace tstudio
