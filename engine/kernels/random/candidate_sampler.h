// The CPU kernels of the candidate sampling ops (UniformCandidateSampler,
// LogUniformCandidateSampler, AllCandidateSampler, ComputeAccidentalHits), part of the random family.
#pragma once

#include "core/status.h"

namespace tstudio {

class KernelRegistry;

Status registerCandidateSamplerKernels(KernelRegistry& registry);

} // namespace tstudio
