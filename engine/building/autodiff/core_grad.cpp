// The gradients the autodiff core relies on: Identity passes the gradient through (so the gradient
// of a variable's read reaches the variable), StopGradient stops it, PreventGradient refuses it.
// Snapshot (an Identity that copies) passes it through too, where TensorFlow 1.15 has no gradient.
// Both pass IndexedSlices through unchanged.
#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "framework/node_attrs.h"
#include "framework/op_registry.h"

namespace tstudio {
namespace {

Status identityGrad(GradientContext& ctx)
{
    if (const auto& slices = ctx.outputIndexedSlices(0))
        return ctx.setInputGradient(0, *slices); // _IdGrad returns an IndexedSlices as it is
    auto grad = ctx.grad();
    if (!grad)
        return grad.error();
    return ctx.setInputGradient(0, *grad);
}

/// TensorFlow raises LookupError("Gradient explicitly disabled. Reason: <message>").
Status preventGradientGrad(GradientContext& ctx)
{
    auto message = attrString(ctx.node(), "message");
    return notFoundError("Gradient explicitly disabled. Reason: " + (message ? *message : std::string()));
}

} // namespace

Status registerCoreGradients(OpRegistry& registry)
{
    if (Status s = registry.setGradient("Identity", identityGrad); !s.isOk())
        return s;
    if (Status s = registry.setGradient("Snapshot", identityGrad); !s.isOk())
        return s;
    if (Status s = registry.setGradient("PreventGradient", preventGradientGrad); !s.isOk())
        return s;
    return registry.setNotDifferentiable("StopGradient");
}

} // namespace tstudio
