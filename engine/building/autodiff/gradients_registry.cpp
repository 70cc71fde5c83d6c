// registerAllGradients: the explicit list of gradient families.
#include "autodiff/gradients_registry.h"
#include "autodiff/list_grad.h"
#include "autodiff/resource_gather_grad.h"
#include "autodiff/symbolic_gradient_body.h"
#include "framework/op_registry.h"

namespace tstudio {

Status registerGradientTables(OpRegistry& registry, std::initializer_list<GradientTable> tables,
                              std::span<const std::string_view> notDifferentiable)
{
    for (const GradientTable& table : tables) {
        for (const auto& [name, function] : table) {
            if (Status s = registry.setGradient(name, function); !s.isOk())
                return s;
        }
    }
    for (std::string_view name : notDifferentiable) {
        if (Status s = registry.setNotDifferentiable(name); !s.isOk())
            return s;
    }
    return Status::ok();
}

Status registerAllGradients(OpRegistry& registry)
{
    for (auto family : {registerCoreGradients, registerMathGradients, registerArrayGradients, registerNnGradients,
                        registerProdGradients, registerControlFlowGradients, registerStateGradients,
                        registerRandomGradients, registerIoGradients, registerOpsWithoutGradients,
                        registerLinalgGradients, registerNnSecondOrderGradients, registerImageGradients,
                        registerFunctionGradients, registerResourceGatherGradients,
                        registerTensorArrayGradients, registerSparseGradients, registerListGradients,
                        registerHorovodGradients}) {
        if (Status s = family(registry); !s.isOk())
            return s;
    }
    registry.setSymbolicGradientBody(differentiateFunctionBody);
    return Status::ok();
}

} // namespace tstudio
