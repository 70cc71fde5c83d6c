// makeDefaultRegistries: the explicit registration of everything the engine knows.
#include "registries/default_registries.h"

#include "autodiff/gradients_registry.h"
#include "devices/gpu_devices.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

namespace tstudio {

Expected<std::unique_ptr<Registries>> makeDefaultRegistries()
{
    auto registries = std::make_unique<Registries>();
    if (Status s = registerAllOps(registries->ops); !s.isOk())
        return unexpected(s.withContext("registering ops"));
    if (Status s = registerAllGradients(registries->ops); !s.isOk())
        return unexpected(s.withContext("registering gradients"));
    if (Status s = registerCpuKernels(registries->kernels); !s.isOk())
        return unexpected(s.withContext("registering CPU kernels"));
    if (Status s = registerGpuKernels(registries->kernels); !s.isOk())
        return unexpected(s.withContext("registering GPU kernels"));
    return registries;
}

} // namespace tstudio
