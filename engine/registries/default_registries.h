// The registries a program normally runs with: every op and every CPU kernel.
#pragma once

#include "core/expected.h"
#include "framework/kernel_registry.h"
#include "framework/op_registry.h"

#include <memory>

namespace tstudio {

struct Registries {
    OpRegistry ops;
    KernelRegistry kernels;
};

/// A fresh pair of registries filled by registerAllOps and registerCpuKernels. Programs make one
/// at start-up and share it (read-only) with every Session.
Expected<std::unique_ptr<Registries>> makeDefaultRegistries();

} // namespace tstudio
