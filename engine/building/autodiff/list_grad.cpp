// Gradients of TensorFlow's list ops as its list_ops.py builds them: the gradient of a list is a
// list of the gradients of its elements, so each op's gradient is the list op that undoes it
// (Stack <-> FromTensor, GetItem <-> SetItem, PushBack <-> PopBack, Gather <-> Scatter, Concat <->
// Split). The ops that only make lists from shapes or ask about them are not differentiable.
// Repeats on purpose: the three TensorList gradients have one shape and differ in the ops, as in TensorFlow's
// list_ops.py.
#include "autodiff/list_grad.h"

#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "builder/attr_values.h"
#include "framework/node_attrs.h"
#include "framework/op_registry.h"

#include <optional>
#include <string_view>
#include <vector>

namespace tstudio {
namespace {

/// list_ops._build_element_shape of a static shape: -1 for an unknown rank, else its sizes with -1
/// for unknown ones (an empty int32 vector for a scalar).
Expected<Output> buildElementShape(GraphBuilder& b, const TensorShape& shape)
{
    if (shape.isUnknownRank())
        return py::constant(b, -1, tensorflow::DT_INT32);
    return py::intVector(b, std::vector<std::int64_t>(shape.dims().begin(), shape.dims().end()));
}

/// array_ops.slice(array_ops.shape(t), [1], [-1]): t's shape without its first dimension.
Expected<Output> shapeWithoutFirst(GraphBuilder& b, const Output& t)
{
    TSTUDIO_AD_TRY(shape, py::shape(b, t));
    TSTUDIO_AD_TRY(begin, py::intVector(b, {1}, "Slice/begin"));
    TSTUDIO_AD_TRY(size, py::intVector(b, {-1}, "Slice/size"));
    return py::genOp(b, "Slice", {shape, begin, size});
}

/// gen_list_ops.tensor_list_element_shape(list, shape_type=int32).
Expected<Output> elementShapeOf(GraphBuilder& b, const Output& list)
{
    return py::genOp(b, "TensorListElementShape", {list}, {{"shape_type", attr::type(tensorflow::DT_INT32)}});
}

/// gen_list_ops.tensor_list_length(list).
Expected<Output> lengthOf(GraphBuilder& b, const Output& list)
{
    return py::genOp(b, "TensorListLength", {list});
}

/// list_ops.empty_tensor_list(element_shape, element_dtype) with no element limit.
Expected<Output> emptyList(GraphBuilder& b, const Output& elementShape, DataType dtype)
{
    TSTUDIO_AD_TRY(noLimit, py::constant(b, -1, tensorflow::DT_INT32, "EmptyTensorList/max_num_elements"));
    return py::genOp(b, "EmptyTensorList", {elementShape, noLimit}, {{"element_dtype", attr::type(dtype)}});
}

AttrMap elementDtype(DataType dtype)
{
    return {{"element_dtype", attr::type(dtype)}};
}

/// Stack(list, element_shape) -> tensor: the list of the gradient's rows.
Status stackGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(dtensor, ctx.grad());
    const TensorShape rows =
        dtensor.shape().isUnknownRank() || dtensor.shape().rank() == 0
            ? TensorShape::unknown()
            : TensorShape(std::vector<std::int64_t>(dtensor.shape().dims().begin() + 1, dtensor.shape().dims().end()));
    TSTUDIO_AD_TRY(shape, buildElementShape(b, rows));
    TSTUDIO_AD_TRY(list, py::genOp(b, "TensorListFromTensor", {dtensor, shape}));
    return ctx.setInputGradient(0, list);
}

/// FromTensor(tensor, element_shape) -> list: the gradient list stacked (an empty list of the
/// forward list's element shape when no gradient arrives).
Status fromTensorGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    const Output& t = ctx.input(0);
    std::optional<Output> dlist = ctx.outputGradient(0);
    if (!dlist) {
        TSTUDIO_AD_TRY(shape, elementShapeOf(b, ctx.output(0)));
        TSTUDIO_AD_TRY(empty, emptyList(b, shape, t.baseDtype()));
        dlist = empty;
    }
    const std::int64_t numElements = t.shape().rank() >= 1 && t.shape().dim(0) >= 0 ? t.shape().dim(0) : -1;
    TSTUDIO_AD_TRY(shape, shapeWithoutFirst(b, t));
    AttrMap attrs = elementDtype(t.baseDtype());
    attrs["num_elements"] = attr::i(numElements);
    TSTUDIO_AD_TRY(stacked, py::genOp(b, "TensorListStack", {*dlist, shape}, attrs));
    return ctx.setInputGradient(0, stacked);
}

/// GetItem(list, index, element_shape) -> item: a list as long as the forward one holding the
/// gradient at index, nothing elsewhere.
Status getItemGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(ditem, ctx.grad());
    TSTUDIO_AD_TRY(size, lengthOf(b, ctx.input(0)));
    TSTUDIO_AD_TRY(shape, elementShapeOf(b, ctx.input(0)));
    TSTUDIO_AD_TRY(reserved, py::genOp(b, "TensorListReserve", {shape, size}, elementDtype(ditem.baseDtype())));
    TSTUDIO_AD_TRY(list, py::genOp(b, "TensorListSetItem", {reserved, ctx.input(1), ditem}));
    return ctx.setInputGradient(0, list);
}

/// SetItem(list, index, item) -> list: the item's gradient is read at index, and the list's
/// gradient has zeros there (cut back to the forward length when the op grew the list).
Status setItemGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(dlist, ctx.grad());
    const Output& index = ctx.input(1);
    const Output& item = ctx.input(2);
    TSTUDIO_AD_TRY(zeros, py::zerosLike(b, item));
    TSTUDIO_AD_TRY(listGrad, py::genOp(b, "TensorListSetItem", {dlist, index, zeros}));
    TSTUDIO_AD_TRY(itemShape, py::shape(b, item));
    TSTUDIO_AD_TRY(itemGrad,
                   py::genOp(b, "TensorListGetItem", {dlist, index, itemShape}, elementDtype(item.baseDtype())));
    auto resize = attrBool(ctx.node(), "resize_if_index_out_of_bounds");
    if (resize && *resize) {
        TSTUDIO_AD_TRY(size, lengthOf(b, ctx.input(0)));
        TSTUDIO_AD_TRY(cut, py::genOp(b, "TensorListResize", {listGrad, size}));
        listGrad = cut;
    }
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, listGrad));
    return ctx.setInputGradient(2, itemGrad);
}

/// PushBack(list, tensor) -> list: PopBack of the gradient gives both gradients.
Status pushBackGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(dresult, ctx.grad());
    TSTUDIO_AD_TRY(shape, py::shape(b, ctx.input(1)));
    TSTUDIO_AD_TRY(popped, b.op("TensorListPopBack", {dresult, shape}, elementDtype(ctx.input(1).baseDtype()),
                                "TensorListPopBack"));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, popped.output(0)));
    return ctx.setInputGradient(1, popped.output(1));
}

/// PopBack(list, element_shape) -> (list, tensor): the element's gradient pushed back onto the
/// list's (an empty list, or zeros, for an output without one).
Status popBackGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    std::optional<Output> dlist = ctx.outputGradient(0);
    std::optional<Output> delement = ctx.outputGradient(1);
    if (!delement) {
        TSTUDIO_AD_TRY(zeros, py::zerosLike(b, ctx.output(1)));
        delement = zeros;
    }
    if (!dlist) {
        TSTUDIO_AD_TRY(shape, elementShapeOf(b, ctx.output(0)));
        TSTUDIO_AD_TRY(empty, emptyList(b, shape, delement->baseDtype()));
        dlist = empty;
    }
    TSTUDIO_AD_TRY(pushed, py::genOp(b, "TensorListPushBack", {*dlist, *delement}));
    return ctx.setInputGradient(0, pushed);
}

/// Concat / ConcatV2(list, ...) -> (tensor, lengths): the gradient split by the forward lengths.
Status concatGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(dtensor, ctx.grad(0));
    TSTUDIO_AD_TRY(shape, elementShapeOf(b, ctx.input(0)));
    TSTUDIO_AD_TRY(list, py::genOp(b, "TensorListSplit", {dtensor, shape, ctx.output(1)}));
    return ctx.setInputGradient(0, list);
}

/// Split(tensor, element_shape, lengths) -> list: the gradient list concatenated, unset elements
/// taking their lengths from the forward lengths.
Status splitGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(dlist, ctx.grad());
    const Output& tensor = ctx.input(0);
    TSTUDIO_AD_TRY(rest, shapeWithoutFirst(b, tensor));
    TSTUDIO_AD_TRY(unknownFirst, py::intVector(b, {-1}, "concat/values_0"));
    TSTUDIO_AD_TRY(axis, py::constant(b, 0, tensorflow::DT_INT32, "concat/axis"));
    TSTUDIO_AD_TRY(shape, py::genOp(b, "ConcatV2", {std::vector<Output>{unknownFirst, rest}, axis}, {}, "concat"));
    TSTUDIO_AD_TRY(concatenated, b.op("TensorListConcatV2", {dlist, shape, ctx.input(2)},
                                      elementDtype(tensor.baseDtype()), "TensorListConcatV2"));
    return ctx.setInputGradient(0, concatenated.output(0));
}

/// Resize(list, size) -> list: the gradient resized back to the forward list's length.
Status resizeGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(dlist, ctx.grad());
    TSTUDIO_AD_TRY(size, lengthOf(b, ctx.input(0)));
    TSTUDIO_AD_TRY(list, py::genOp(b, "TensorListResize", {dlist, size}));
    return ctx.setInputGradient(0, list);
}

/// Gather(list, indices, element_shape) -> values: the gradient's rows scattered into a list as
/// long as the forward one.
Status gatherGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(dtensor, ctx.grad());
    TSTUDIO_AD_TRY(shape, elementShapeOf(b, ctx.input(0)));
    TSTUDIO_AD_TRY(size, lengthOf(b, ctx.input(0)));
    TSTUDIO_AD_TRY(reserved, py::genOp(b, "TensorListReserve", {shape, size}, elementDtype(dtensor.baseDtype())));
    TSTUDIO_AD_TRY(list, py::genOp(b, "TensorListScatterIntoExistingList", {reserved, dtensor, ctx.input(1)}));
    return ctx.setInputGradient(0, list);
}

/// Scatter / ScatterV2(tensor, indices, element_shape, ...) -> list: the gradient gathered at indices.
Status scatterGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(dlist, ctx.grad());
    const Output& tensor = ctx.input(0);
    TSTUDIO_AD_TRY(shape, shapeWithoutFirst(b, tensor));
    TSTUDIO_AD_TRY(dtensor,
                   py::genOp(b, "TensorListGather", {dlist, ctx.input(1), shape}, elementDtype(tensor.baseDtype())));
    return ctx.setInputGradient(0, dtensor);
}

/// ScatterIntoExistingList(list, tensor, indices) -> list: tensor's gradient is gathered at
/// indices, and the list's gradient has zeros there.
Status scatterIntoExistingListGrad(GradientContext& ctx)
{
    GraphBuilder& b = ctx.builder();
    TSTUDIO_AD_TRY(dlist, ctx.grad());
    const Output& tensor = ctx.input(1);
    const Output& indices = ctx.input(2);
    TSTUDIO_AD_TRY(shape, shapeWithoutFirst(b, tensor));
    TSTUDIO_AD_TRY(dtensor,
                   py::genOp(b, "TensorListGather", {dlist, indices, shape}, elementDtype(tensor.baseDtype())));
    TSTUDIO_AD_TRY(zeros, py::zerosLike(b, tensor));
    TSTUDIO_AD_TRY(list, py::genOp(b, "TensorListScatterIntoExistingList", {dlist, zeros, indices}));
    TSTUDIO_AD_CHECK(ctx.setInputGradient(0, list));
    return ctx.setInputGradient(1, dtensor);
}

} // namespace

Status registerListGradients(OpRegistry& registry)
{
    // TensorFlow registers the last three as not differentiable; EmptyTensorList and
    // TensorListReserve it leaves unregistered, and their inputs are sizes and shapes only.
    static constexpr std::string_view kNotDifferentiable[] = {
        "TensorListConcatLists", "TensorListElementShape", "TensorListLength", "EmptyTensorList", "TensorListReserve"};
    return registerGradientTables(registry,
                                  {{{"TensorListStack", stackGrad},
                                    {"TensorListFromTensor", fromTensorGrad},
                                    {"TensorListGetItem", getItemGrad},
                                    {"TensorListSetItem", setItemGrad},
                                    {"TensorListPushBack", pushBackGrad},
                                    {"TensorListPopBack", popBackGrad},
                                    {"TensorListConcat", concatGrad},
                                    {"TensorListConcatV2", concatGrad},
                                    {"TensorListSplit", splitGrad},
                                    {"TensorListResize", resizeGrad},
                                    {"TensorListGather", gatherGrad},
                                    {"TensorListScatter", scatterGrad},
                                    {"TensorListScatterV2", scatterGrad},
                                    {"TensorListScatterIntoExistingList", scatterIntoExistingListGrad}}},
                                  kNotDifferentiable);
}

} // namespace tstudio
