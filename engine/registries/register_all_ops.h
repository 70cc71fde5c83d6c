// registerAllOps: fills an OpRegistry with every op TensorStudio defines.
#pragma once

#include "core/status.h"
#include "ops/op_families.h"

namespace tstudio {

class OpRegistry;

/// Registers every op family (ops/ops.h, ops/op_families.h). The first error is returned.
Status registerAllOps(OpRegistry& registry);

} // namespace tstudio
