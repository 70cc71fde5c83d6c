// TensorFlow's list ops (core/ops/list_ops.cc): lists of tensors held by DT_VARIANT scalars, which
// TensorFlow 2 builds for tf.TensorArray, map_fn and while loops over lists, with TensorFlow's
// definitions (names, inputs in order, attrs and defaults) and shape functions.
//
// TensorFlow's shape functions also read and pass on the element shape and dtype of a list through
// the handle data of its variant tensor. This engine's shape inference has no such channel, so an
// element read from a list has the shape its op's element_shape input spells (unknown when that is
// -1), and the checks TensorFlow makes against handle data are left to the kernels.
#include "ops/op_families.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {
namespace {

using C = ShapeInferenceContext;

OpDefBuilder listOp(const char* name, std::string summary)
{
    OpDefBuilder builder(name);
    builder.summary(std::move(summary)).category(op_category::kArray);
    return builder;
}

/// Output 0 is a scalar (a list handle, a length).
Status scalarOutput(C& c)
{
    c.setOutput(0, TensorShape::scalar());
    return Status::ok();
}

/// The element shape an int32/int64 input spells: -1 for an unknown shape, else a vector of sizes
/// (TensorFlow's MakeShapeFromShapeTensorTreatScalarAsUnknownShape).
Expected<TensorShape> elementShapeInput(C& c, int input)
{
    return c.shapeFromShapeTensorTreatScalarAsUnknown(input);
}

/// EmptyTensorList, TensorListReserve, TensorListScatter: a list made with the element shape of
/// input `shapeInput`.
Status newListShape(C& c, int shapeInput)
{
    if (auto shape = elementShapeInput(c, shapeInput); !shape)
        return shape.error();
    return scalarOutput(c);
}

Status emptyTensorListShape(C& c)
{
    return newListShape(c, 0);
}

Status reserveShape(C& c)
{
    return newListShape(c, 0);
}

Status scatterShape(C& c)
{
    return newListShape(c, 2);
}

/// TensorListScatterV2: num_elements is a scalar.
Status scatterV2Shape(C& c)
{
    if (auto n = c.withRank(3, 0); !n)
        return n.error();
    return newListShape(c, 2);
}

/// TensorListPopBack: the list, and an element of unknown shape.
Status popBackShape(C& c)
{
    c.setOutput(0, TensorShape::scalar());
    c.setOutput(1, TensorShape::unknown());
    return Status::ok();
}

/// TensorListStack: [num_elements (unknown when -1)] + element_shape.
Status stackShape(C& c)
{
    auto element = elementShapeInput(c, 1);
    if (!element)
        return element.error();
    auto n = c.attrInt("num_elements");
    if (!n)
        return n.error();
    c.setOutput(0, TensorShape{*n == -1 ? -1 : *n}.concatenate(*element));
    return Status::ok();
}

/// TensorListConcat(V2): [?] + element_shape[1:] (unknown rank when the element rank is), lengths [?].
Status concatShapeFrom(C& c, const TensorShape& element)
{
    if (element.isUnknownRank()) {
        c.setOutput(0, TensorShape::unknown());
    } else {
        auto rest = C::subshape(element, 1);
        if (!rest)
            return rest.error();
        c.setOutput(0, TensorShape{-1}.concatenate(*rest));
    }
    c.setOutput(1, TensorShape{-1});
    return Status::ok();
}

Status concatShape(C& c)
{
    auto element = c.attrShape("element_shape");
    if (!element)
        return element.error();
    if (element->rank() == 0)
        return invalidArgumentError("element_shape must not be empty");
    return concatShapeFrom(c, *element);
}

Status concatV2Shape(C& c)
{
    auto element = elementShapeInput(c, 1);
    if (!element)
        return element.error();
    return concatShapeFrom(c, *element);
}

/// TensorListSplit: tensor at least a vector, lengths a vector, [?] + tensor.shape[1:] merged with
/// element_shape.
Status splitShape(C& c)
{
    auto tensor = c.withRankAtLeast(0, 1);
    if (!tensor)
        return tensor.error();
    if (auto lengths = c.withRank(2, 1); !lengths)
        return lengths.error();
    auto rows = C::subshape(*tensor, 1);
    if (!rows)
        return rows.error();
    auto element = elementShapeInput(c, 1);
    if (!element)
        return element.error();
    if (auto merged = TensorShape{-1}.concatenate(*rows).merge(*element); !merged)
        return merged.error();
    return scalarOutput(c);
}

/// TensorListFromTensor: tensor.shape[1:] merged with element_shape.
Status fromTensorShape(C& c)
{
    auto rows = C::subshape(c.input(0), 1);
    if (!rows)
        return rows.error();
    auto element = elementShapeInput(c, 1);
    if (!element)
        return element.error();
    if (auto merged = rows->merge(*element); !merged)
        return merged.error();
    return scalarOutput(c);
}

/// TensorListElementShape: not known without the list's handle data.
Status elementShapeShape(C& c)
{
    c.setOutput(0, TensorShape::unknown());
    return Status::ok();
}

/// TensorListGetItem: the element_shape input.
Status getItemShape(C& c)
{
    auto element = elementShapeInput(c, 2);
    if (!element)
        return element.error();
    c.setOutput(0, *element);
    return Status::ok();
}

/// TensorListResize: size is a scalar.
Status resizeShape(C& c)
{
    if (auto size = c.withRank(1, 0); !size)
        return size.error();
    return scalarOutput(c);
}

/// TensorListGather: indices.shape + element_shape.
Status gatherShape(C& c)
{
    auto element = elementShapeInput(c, 2);
    if (!element)
        return element.error();
    c.setOutput(0, c.input(1).concatenate(*element));
    return Status::ok();
}

/// TensorListScatterIntoExistingList: tensor at least a vector, indices a vector.
Status scatterIntoExistingListShape(C& c)
{
    if (auto tensor = c.withRankAtLeast(1, 1); !tensor)
        return tensor.error();
    if (auto indices = c.withRank(2, 1); !indices)
        return indices.error();
    return scalarOutput(c);
}

/// TensorListConcatLists: the two tensors of lists have one shape.
Status concatListsShape(C& c)
{
    auto merged = c.input(0).merge(c.input(1));
    if (!merged)
        return merged.error();
    c.setOutput(0, *merged);
    return Status::ok();
}

std::vector<OpDefBuilder> listOpDefinitions()
{
    std::vector<OpDefBuilder> ops;
    ops.push_back(std::move(listOp("EmptyTensorList", "A list with no elements, of element_dtype elements fitting "
                                                      "element_shape (-1: any shape), holding at most "
                                                      "max_num_elements of them (-1: no limit).")
                                .input("element_shape: shape_type")
                                .input("max_num_elements: int32")
                                .output("handle: variant")
                                .attr("element_dtype: type")
                                .attr("shape_type: {int32, int64}")));
    ops.push_back(std::move(listOp("TensorListPushBack", "The list with tensor appended.")
                                .input("input_handle: variant")
                                .input("tensor: element_dtype")
                                .output("output_handle: variant")
                                .attr("element_dtype: type")));
    ops.push_back(std::move(listOp("TensorListLength", "The number of elements of the list.")
                                .input("input_handle: variant")
                                .output("length: int32")));
    ops.push_back(std::move(listOp("TensorListPopBack",
                                   "The list without its last element, and that element (zeros of element_shape "
                                   "when it was never set).")
                                .input("input_handle: variant")
                                .input("element_shape: int32")
                                .output("output_handle: variant")
                                .output("tensor: element_dtype")
                                .attr("element_dtype: type")));
    ops.push_back(std::move(listOp("TensorListStack",
                                   "Every element of the list stacked along a new first dimension; elements never "
                                   "set are zeros of the element shape. num_elements, unless -1, is the length the "
                                   "list must have.")
                                .input("input_handle: variant")
                                .input("element_shape: int32")
                                .output("tensor: element_dtype")
                                .attr("element_dtype: type")
                                .attr("num_elements: int = -1")));
    ops.push_back(std::move(listOp("TensorListConcat",
                                   "Every element of the list concatenated along dimension 0, and the length of each "
                                   "along it.")
                                .input("input_handle: variant")
                                .output("tensor: element_dtype")
                                .output("lengths: int64")
                                .attr("element_dtype: type")
                                .attr("element_shape: shape = { unknown_rank: true }")));
    ops.push_back(std::move(
        listOp("TensorListConcatV2", "As TensorListConcat; elements never set take their length from leading_dims.")
            .input("input_handle: variant")
            .input("element_shape: shape_type")
            .input("leading_dims: int64")
            .output("tensor: element_dtype")
            .output("lengths: int64")
            .attr("element_dtype: type")
            .attr("shape_type: {int32, int64}")));
    ops.push_back(
        std::move(listOp("TensorListSplit", "A list of consecutive slices of tensor along dimension 0, slice i holding "
                                            "lengths[i] rows.")
                      .input("tensor: element_dtype")
                      .input("element_shape: shape_type")
                      .input("lengths: int64")
                      .output("output_handle: variant")
                      .attr("element_dtype: type")
                      .attr("shape_type: {int32, int64}")));
    ops.push_back(std::move(listOp("TensorListFromTensor", "A list whose elements are the rows of tensor.")
                                .input("tensor: element_dtype")
                                .input("element_shape: shape_type")
                                .output("output_handle: variant")
                                .attr("element_dtype: type")
                                .attr("shape_type: {int32, int64}")));
    ops.push_back(std::move(listOp("TensorListElementShape",
                                   "The element shape of the list: -1 when its rank is unknown, else a vector with "
                                   "-1 for unknown sizes.")
                                .input("input_handle: variant")
                                .output("element_shape: shape_type")
                                .attr("shape_type: {int32, int64}")));
    ops.push_back(std::move(listOp("TensorListReserve", "A list of num_elements elements, none of them set yet.")
                                .input("element_shape: shape_type")
                                .input("num_elements: int32")
                                .output("handle: variant")
                                .attr("element_dtype: type")
                                .attr("shape_type: {int32, int64}")));
    ops.push_back(
        std::move(listOp("TensorListGetItem", "The element at index (zeros of element_shape when it was never set).")
                      .input("input_handle: variant")
                      .input("index: int32")
                      .input("element_shape: int32")
                      .output("item: element_dtype")
                      .attr("element_dtype: type")));
    ops.push_back(
        std::move(listOp("TensorListResize", "The list cut to size elements, or grown with elements not set yet.")
                      .input("input_handle: variant")
                      .input("size: int32")
                      .output("output_handle: variant")));
    ops.push_back(std::move(listOp("TensorListSetItem",
                                   "The list with item at index; with resize_if_index_out_of_bounds an index past "
                                   "the end grows the list first.")
                                .input("input_handle: variant")
                                .input("index: int32")
                                .input("item: element_dtype")
                                .output("output_handle: variant")
                                .attr("element_dtype: type")
                                .attr("resize_if_index_out_of_bounds: bool = false")));
    ops.push_back(std::move(listOp("TensorListGather", "The elements at indices, stacked.")
                                .input("input_handle: variant")
                                .input("indices: int32")
                                .input("element_shape: int32")
                                .output("values: element_dtype")
                                .attr("element_dtype: type")));
    ops.push_back(std::move(
        listOp("TensorListScatter", "A list with row i of tensor at indices[i], as long as the largest index needs.")
            .input("tensor: element_dtype")
            .input("indices: int32")
            .input("element_shape: shape_type")
            .output("output_handle: variant")
            .attr("element_dtype: type")
            .attr("shape_type: {int32, int64}")));
    ops.push_back(std::move(listOp("TensorListScatterV2",
                                   "As TensorListScatter, the list at least num_elements long (-1: as long as the "
                                   "largest index needs).")
                                .input("tensor: element_dtype")
                                .input("indices: int32")
                                .input("element_shape: shape_type")
                                .input("num_elements: int32")
                                .output("output_handle: variant")
                                .attr("element_dtype: type")
                                .attr("shape_type: {int32, int64}")));
    ops.push_back(std::move(listOp("TensorListScatterIntoExistingList",
                                   "The list with row i of tensor at indices[i], grown when an index is past its end.")
                                .input("input_handle: variant")
                                .input("tensor: element_dtype")
                                .input("indices: int32")
                                .output("output_handle: variant")
                                .attr("element_dtype: type")));
    ops.push_back(std::move(listOp("TensorListConcatLists",
                                   "Position by position, the elements of the list in input_a followed by those of "
                                   "the list in input_b.")
                                .input("input_a: variant")
                                .input("input_b: variant")
                                .attr("element_dtype: type")
                                .output("output: variant")));
    return ops;
}

} // namespace

Status registerListOps(OpRegistry& registry)
{
    for (const OpDefBuilder& op : listOpDefinitions()) {
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;
    }
    const std::pair<const char*, ShapeFunction> shapes[] = {
        {"EmptyTensorList", emptyTensorListShape},
        {"TensorListPushBack", scalarOutput},
        {"TensorListLength", scalarOutput},
        {"TensorListPopBack", popBackShape},
        {"TensorListStack", stackShape},
        {"TensorListConcat", concatShape},
        {"TensorListConcatV2", concatV2Shape},
        {"TensorListSplit", splitShape},
        {"TensorListFromTensor", fromTensorShape},
        {"TensorListElementShape", elementShapeShape},
        {"TensorListReserve", reserveShape},
        {"TensorListGetItem", getItemShape},
        {"TensorListResize", resizeShape},
        {"TensorListSetItem", scalarOutput},
        {"TensorListGather", gatherShape},
        {"TensorListScatter", scatterShape},
        {"TensorListScatterV2", scatterV2Shape},
        {"TensorListScatterIntoExistingList", scatterIntoExistingListShape},
        {"TensorListConcatLists", concatListsShape},
    };
    for (const auto& [name, fn] : shapes) {
        if (Status s = registry.setShapeFunction(name, fn); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
