// The state family's gradient registrations, as TensorFlow 1.15 makes them: Assign, AssignAdd and
// AssignSub are not differentiable (state_grad.py), nor is VarIsInitializedOp
// (resource_variable_ops.py), and a ReadVariableOp passes its gradient to the variable's handle.
// TensorFlow registers nothing for the other variable ops (VariableV2, VarHandleOp, the
// Assign*VariableOp, ...): they have no float input a gradient could reach, so they stay unregistered.
#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "framework/op_registry.h"

namespace tstudio {
namespace {

/// _ReadGrad: the gradient of the value read (dense or IndexedSlices) is the gradient of the handle.
Status readVariableGrad(GradientContext& ctx)
{
    if (const auto& slices = ctx.outputIndexedSlices(0))
        return ctx.setInputGradient(0, *slices);
    auto grad = ctx.grad();
    if (!grad)
        return grad.error();
    return ctx.setInputGradient(0, *grad);
}

} // namespace

Status registerStateGradients(OpRegistry& registry)
{
    for (const char* name : {"Assign", "AssignAdd", "AssignSub", "VarIsInitializedOp"}) {
        if (Status s = registry.setNotDifferentiable(name); !s.isOk())
            return s;
    }
    return registry.setGradient("ReadVariableOp", readVariableGrad);
}

} // namespace tstudio
