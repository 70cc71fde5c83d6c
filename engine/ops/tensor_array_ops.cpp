// The TensorArray ops of TensorFlow 1.15's data_flow_ops (TensorArrayV3, TensorArrayGradV3,
// TensorArrayGradWithShape, TensorArrayWriteV3, TensorArrayReadV3, TensorArrayGatherV3,
// TensorArrayScatterV3, TensorArrayConcatV3, TensorArraySplitV3, TensorArraySizeV3,
// TensorArrayCloseV3): the per-step arrays of tensors that tf.TensorArray, tf.while_loop bodies and
// dynamic_rnn write into and read from, with TensorFlow's definitions and shape functions.
//
// TensorFlow's shape functions say the handle is a vector of 2 (the string pair of TensorArrayV2),
// although the kernels output a scalar resource; both are kept as TensorFlow has them. TensorFlow
// also passes the element shape along with the handle (handle shapes and types); this engine's
// shape inference has no such channel, so a read is of unknown shape here and the building API
// sets the shape it knows (tf.TensorArray's set_shape).
#include "ops/ops.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"

#include <string>
#include <utility>
#include <vector>

namespace tstudio {
namespace {

using C = ShapeInferenceContext;

OpDefBuilder tensorArrayOp(const char* name, std::string summary)
{
    OpDefBuilder builder(name);
    builder.summary(std::move(summary)).category(op_category::kState);
    return builder;
}

/// The handle input 0 must be a vector of 2 (TensorFlow's WithRank(1) + WithValue(dim 0, 2)).
Status checkHandle(C& c)
{
    auto handle = c.withRank(0, 1);
    if (!handle)
        return handle.error();
    if (auto two = C::withValue(handle->dim(0), 2); !two)
        return two.error();
    return Status::ok();
}

/// Inputs that must be scalars (indices, flows).
Status checkScalars(C& c, std::initializer_list<int> inputs)
{
    for (int i : inputs) {
        if (auto s = c.withRank(i, 0); !s)
            return s.error();
    }
    return Status::ok();
}

/// TensorArrayV3: size is a scalar; handle [2], flow [].
Status createShape(C& c)
{
    if (auto s = c.withRank(0, 0); !s)
        return s.error();
    c.setOutput(0, TensorShape{2});
    c.setOutput(1, TensorShape::scalar());
    return Status::ok();
}

/// TensorArrayGradV3 / TensorArrayGradWithShape: grad handle [2], flow [].
Status gradShape(C& c)
{
    if (Status s = checkHandle(c); !s.isOk())
        return s;
    c.setOutput(0, TensorShape{2});
    c.setOutput(1, TensorShape::scalar());
    return Status::ok();
}

/// TensorArrayWriteV3 (handle, index, value, flow_in): the flow out is a scalar.
Status writeShape(C& c)
{
    if (Status s = checkHandle(c); !s.isOk())
        return s;
    if (Status s = checkScalars(c, {1, 3}); !s.isOk())
        return s;
    c.setOutput(0, TensorShape::scalar());
    return Status::ok();
}

/// TensorArrayReadV3 (handle, index, flow_in): the element's shape is not known here.
Status readShape(C& c)
{
    if (Status s = checkHandle(c); !s.isOk())
        return s;
    if (Status s = checkScalars(c, {1, 2}); !s.isOk())
        return s;
    c.setOutput(0, TensorShape::unknown());
    return Status::ok();
}

/// TensorArrayGatherV3 (handle, indices, flow_in): [len(indices)] + element_shape.
Status gatherShape(C& c)
{
    if (Status s = checkHandle(c); !s.isOk())
        return s;
    auto indices = c.withRank(1, 1);
    if (!indices)
        return indices.error();
    if (Status s = checkScalars(c, {2}); !s.isOk())
        return s;
    auto element = c.attrShape("element_shape");
    if (!element)
        return element.error();
    c.setOutput(0, indices->concatenate(*element));
    return Status::ok();
}

/// TensorArrayScatterV3 (handle, indices, value, flow_in): value's first dimension is len(indices).
Status scatterShape(C& c)
{
    if (Status s = checkHandle(c); !s.isOk())
        return s;
    auto indices = c.withRank(1, 1);
    if (!indices)
        return indices.error();
    if (Status s = checkScalars(c, {3}); !s.isOk())
        return s;
    if (auto merged = C::mergePrefix(c.input(2), *indices); !merged)
        return merged.error();
    c.setOutput(0, TensorShape::scalar());
    return Status::ok();
}

/// TensorArrayConcatV3 (handle, flow_in): the value of unknown shape, the lengths a vector.
Status concatShape(C& c)
{
    if (Status s = checkHandle(c); !s.isOk())
        return s;
    if (Status s = checkScalars(c, {1}); !s.isOk())
        return s;
    c.setOutput(0, TensorShape::unknown());
    c.setOutput(1, TensorShape{-1});
    return Status::ok();
}

/// TensorArraySplitV3 (handle, value, lengths, flow_in): lengths a vector, the flow out a scalar.
Status splitShape(C& c)
{
    if (Status s = checkHandle(c); !s.isOk())
        return s;
    if (auto lengths = c.withRank(2, 1); !lengths)
        return lengths.error();
    if (Status s = checkScalars(c, {3}); !s.isOk())
        return s;
    c.setOutput(0, TensorShape::scalar());
    return Status::ok();
}

/// TensorArraySizeV3 (handle, flow_in): a scalar.
Status sizeShape(C& c)
{
    if (Status s = checkHandle(c); !s.isOk())
        return s;
    c.setOutput(0, TensorShape::scalar());
    return Status::ok();
}

/// TensorArrayCloseV3 (handle): no outputs.
Status closeShape(C& c)
{
    return checkHandle(c);
}

std::vector<OpDefBuilder> tensorArrayOpDefinitions()
{
    std::vector<OpDefBuilder> ops;
    {
        OpDefBuilder op = tensorArrayOp(
            "TensorArrayV3",
            "An array of tensors of one dtype for one step: written once per index, read (and, with "
            "clear_after_read, freed) by index; with dynamic_size writes past the end grow it. Outputs the "
            "array's handle and a flow scalar that orders the ops using it.");
        op.input("size: int32")
            .output("handle: resource")
            .output("flow: float")
            .attr("dtype: type")
            .attr("element_shape: shape = { unknown_rank: true }")
            .attr("dynamic_size: bool = false")
            .attr("clear_after_read: bool = true")
            .attr("identical_element_shapes: bool = false")
            .attr("tensor_array_name: string = ''")
            .setIsStateful();
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = tensorArrayOp(
            "TensorArrayGradV3",
            "The gradient array of a TensorArray for one gradient computation (source), made on first use: "
            "same size and element shapes, and writes to one index add up.");
        op.input("handle: resource")
            .input("flow_in: float")
            .output("grad_handle: resource")
            .output("flow_out: float")
            .attr("source: string")
            .setIsStateful();
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = tensorArrayOp(
            "TensorArrayGradWithShape",
            "As TensorArrayGradV3, with shape_to_prepend put before every element shape of the gradient array.");
        op.input("handle: resource")
            .input("flow_in: float")
            .input("shape_to_prepend: int32")
            .output("grad_handle: resource")
            .output("flow_out: float")
            .attr("source: string")
            .setIsStateful();
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = tensorArrayOp("TensorArrayWriteV3", "Writes value at index of the TensorArray.");
        op.input("handle: resource")
            .input("index: int32")
            .input("value: T")
            .input("flow_in: float")
            .output("flow_out: float")
            .attr("T: type");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = tensorArrayOp("TensorArrayReadV3", "Reads the element at index of the TensorArray.");
        op.input("handle: resource")
            .input("index: int32")
            .input("flow_in: float")
            .output("value: dtype")
            .attr("dtype: type");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op =
            tensorArrayOp("TensorArrayGatherV3", "The elements at indices, stacked along a new dimension 0.");
        op.input("handle: resource")
            .input("indices: int32")
            .input("flow_in: float")
            .output("value: dtype")
            .attr("dtype: type")
            .attr("element_shape: shape = { unknown_rank: true }");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op =
            tensorArrayOp("TensorArrayScatterV3", "Writes the slices of value along dimension 0 at indices.");
        op.input("handle: resource")
            .input("indices: int32")
            .input("value: T")
            .input("flow_in: float")
            .output("flow_out: float")
            .attr("T: type");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op =
            tensorArrayOp("TensorArrayConcatV3",
                          "Every element concatenated along dimension 0, and the length of each along that dimension.");
        op.input("handle: resource")
            .input("flow_in: float")
            .output("value: dtype")
            .output("lengths: int64")
            .attr("dtype: type")
            .attr("element_shape_except0: shape = { unknown_rank: true }");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = tensorArrayOp("TensorArraySplitV3",
                                        "Cuts value along dimension 0 into pieces of the given lengths, one per "
                                        "element.");
        op.input("handle: resource")
            .input("value: T")
            .input("lengths: int64")
            .input("flow_in: float")
            .output("flow_out: float")
            .attr("T: type");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = tensorArrayOp("TensorArraySizeV3", "The current size of the TensorArray.");
        op.input("handle: resource").input("flow_in: float").output("size: int32");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op =
            tensorArrayOp("TensorArrayCloseV3", "Frees the elements of the TensorArray; later uses of it fail.");
        op.input("handle: resource");
        ops.push_back(std::move(op));
    }
    return ops;
}

} // namespace

Status registerTensorArrayOps(OpRegistry& registry)
{
    for (const OpDefBuilder& op : tensorArrayOpDefinitions()) {
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;
    }
    const std::pair<const char*, ShapeFunction> shapes[] = {
        {"TensorArrayV3", createShape},          {"TensorArrayGradV3", gradShape},
        {"TensorArrayGradWithShape", gradShape}, {"TensorArrayWriteV3", writeShape},
        {"TensorArrayReadV3", readShape},        {"TensorArrayGatherV3", gatherShape},
        {"TensorArrayScatterV3", scatterShape},  {"TensorArrayConcatV3", concatShape},
        {"TensorArraySplitV3", splitShape},      {"TensorArraySizeV3", sizeShape},
        {"TensorArrayCloseV3", closeShape}};
    for (const auto& [name, fn] : shapes) {
        if (Status s = registry.setShapeFunction(name, fn); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
