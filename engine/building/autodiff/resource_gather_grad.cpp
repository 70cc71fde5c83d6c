// Gradients of the TensorFlow 2 resource ops: ResourceGather passes the gathered rows' gradient to
// the variable's handle. TensorFlow returns IndexedSlices(reshape(grad, [size(indices)] +
// shape[1:]), reshape(indices, [size(indices)]), shape) with shape = VariableShape(handle);
// TensorStudio has no VariableShape, so the shape is read from the value (ReadVariableOp, then
// Shape); the IndexedSlices are converted where a consumer needs a tensor (gradients.cpp).
#include "autodiff/resource_gather_grad.h"

#include "builder/array_ops_helpers.h"
#include "autodiff/gradient_context.h"
#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "framework/node_attrs.h"
#include "framework/op_registry.h"

namespace tstudio {
namespace {

using array_ops::ListElement;

Status resourceGatherGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(grad, ctx.grad());
    TSTUDIO_AD_TRY(dtype, attrType(ctx.node(), "dtype"));
    const Output& handle = ctx.input(0);
    const Output& indices = ctx.input(1);
    TSTUDIO_AD_TRY(value, py::genOp(b, "ReadVariableOp", {handle}, {{"dtype", attr::type(dtype)}}));
    TSTUDIO_AD_TRY(shape64, array_ops::shape(b, value, tensorflow::DT_INT64));
    TSTUDIO_AD_TRY(shape, py::cast(b, shape64, tensorflow::DT_INT32));
    TSTUDIO_AD_TRY(n, py::size(b, indices));
    TSTUDIO_AD_TRY(size, py::expandDims(b, n, 0));
    TSTUDIO_AD_TRY(tail, array_ops::stridedSlice1d(b, shape, ListElement{std::int64_t{1}}, std::nullopt));
    TSTUDIO_AD_TRY(valuesShape, array_ops::concat(b, {size, tail}, std::int64_t{0}));
    TSTUDIO_AD_TRY(values, py::reshape(b, grad, valuesShape));
    TSTUDIO_AD_TRY(flatIndices, py::reshape(b, indices, size));
    return ctx.setInputGradient(0, IndexedSlices{values, flatIndices, shape});
}

} // namespace

Status registerResourceGatherGradients(OpRegistry& registry)
{
    if (Status s = registry.setNotDifferentiable("DisableCopyOnRead"); !s.isOk())
        return s;
    return registry.setGradient("ResourceGather", resourceGatherGrad);
}

} // namespace tstudio
