// registerRandomCpuKernels: TensorFlow's Philox-based random ops on the CPU, the candidate samplers
// included.
#include "kernels/kernels.h"
#include "kernels/random/candidate_sampler.h"
#include "kernels/random/multinomial.h"
#include "kernels/random/random_op_cpu.h"

#include "framework/kernel_registry.h"

namespace tstudio {

Status registerRandomCpuKernels(KernelRegistry& registry)
{
    if (Status s = registerRandomSamplerKernels(registry); !s.isOk())
        return s;
    if (Status s = random::registerMultinomialKernels(registry); !s.isOk())
        return s;
    if (Status s = registerCandidateSamplerKernels(registry); !s.isOk())
        return s;
    return registerRandomShuffleKernels(registry);
}

} // namespace tstudio
