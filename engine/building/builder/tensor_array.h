// TensorArray: tf.TensorArray of TensorFlow 1.15 (its graph implementation, _GraphTensorArray) for
// graphs under construction: an array of tensors threaded through a float "flow" so that the ops
// using it run in order, inside tf.while_loop bodies as well as outside.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tstudio {

/// The keyword arguments of tf.TensorArray (TensorFlow 1.15).
struct TensorArrayOptions {
    /// Writes past the end grow the array.
    bool dynamicSize = false;
    /// A read frees the element; reading it again is an error.
    bool clearAfterRead = true;
    /// The name the kernel gives the array (default: the node's name).
    std::string tensorArrayName;
    /// Every element has the same shape: the element shape known so far is refined by each write
    /// (and TensorArrayV3's identical_element_shapes makes the kernel check it when running).
    bool inferShape = true;
    /// The elements' (partial) shape; unknown rank by default.
    TensorShape elementShape;
    /// The name scope of the TensorArrayV3 node, made unique.
    std::string name = "TensorArray";
};

/// One state of a TensorArray: the resource handle, the flow that orders its ops, and the element
/// shape known so far. As in TensorFlow the object is functional: write, scatter, unstack and split
/// return a new TensorArray with the new flow, and the old one still reads the state before them.
/// Copies made from one another (write results, withFlow) share the element shape they learn from
/// writes, as Python's TensorArrays built with build_ta_with_new_flow share theirs, so the shape
/// written inside a while loop body is known to the stack() after the loop.
///
/// In a tf.while_loop, pass flow() as a loop var and rebuild the array in the body with
/// withFlow(loop var) (what tf.while_loop does for a TensorArray loop var); the handle, made outside,
/// enters the loop by itself. Read `Output::shape()` of what read/gather/concat return for the shape
/// the element shape gives (Tensor.set_shape of the Python API).
///
/// Every method adds its nodes to `b` under the current name scope with the node names of the
/// Python API ("TensorArrayReadV3", "TensorArrayWrite/TensorArrayWriteV3",
/// "TensorArrayStack/TensorArrayGatherV3", ...); errors are GraphBuilder::op's unless said otherwise.
/// Not synchronised (like the builder); cheap to copy.
class TensorArray {
public:
    /// tf.TensorArray(dtype, size, ...): a TensorArrayV3 node (size an int32 scalar).
    static Expected<TensorArray> create(GraphBuilder& b, DataType dtype, const Output& size,
                                        const TensorArrayOptions& options = {});
    /// The same with a constant size ("<name>/size").
    static Expected<TensorArray> create(GraphBuilder& b, DataType dtype, std::int32_t size,
                                        const TensorArrayOptions& options = {});
    /// tf.TensorArray(dtype, handle=, flow=): an existing array (a gradient function's view of the
    /// array a forward op used). The element shape is unknown.
    static TensorArray fromHandle(DataType dtype, Output handle, Output flow, bool inferShape = true);

    DataType dtype() const { return m_dtype; }
    const Output& handle() const { return m_handle; }
    const Output& flow() const { return m_flow; }
    /// The element shape known so far (shared with the copies this one was made from or gave).
    const TensorShape& elementShape() const { return *m_elementShape; }

    /// build_ta_with_new_flow: this array with `flow` (a while loop var of the body, an Exit).
    TensorArray withFlow(Output flow) const;
    /// TensorArray.identity(): the flow through an Identity.
    Expected<TensorArray> identity(GraphBuilder& b) const;

    /// read(index): TensorArrayReadV3, shaped by the element shape.
    Expected<Output> read(GraphBuilder& b, const Output& index) const;
    Expected<Output> read(GraphBuilder& b, std::int32_t index) const;
    /// write(index, value) under "TensorArrayWrite": the array with the write's flow.
    /// InvalidArgument while building for a dtype other than the array's ("TensorArray dtype is
    /// float32 but Op is trying to write dtype int32") and for a value shape that does not fit the
    /// element shape known so far ("Inconsistent shapes: saw [3] but expected [2]").
    Expected<TensorArray> write(GraphBuilder& b, const Output& index, const Output& value) const;
    Expected<TensorArray> write(GraphBuilder& b, std::int32_t index, const Output& value) const;
    /// gather(indices): TensorArrayGatherV3 of an int32 vector, [len] + element shape.
    Expected<Output> gather(GraphBuilder& b, const Output& indices) const;
    /// stack(): gather(range(0, size())) under "TensorArrayStack".
    Expected<Output> stack(GraphBuilder& b) const;
    /// scatter(indices, value) under "TensorArrayScatter": value[k] written at indices[k].
    Expected<TensorArray> scatter(GraphBuilder& b, const Output& indices, const Output& value) const;
    /// unstack(value) under "TensorArrayUnstack": scatter(range(0, shape(value)[0]), value).
    Expected<TensorArray> unstack(GraphBuilder& b, const Output& value) const;
    /// concat(): TensorArrayConcatV3's value, [?] + element_shape[1:].
    Expected<Output> concat(GraphBuilder& b) const;
    /// split(value, lengths) under "TensorArraySplit" (lengths cast to int64 when int32).
    Expected<TensorArray> split(GraphBuilder& b, const Output& value, const Output& lengths) const;
    /// size(): TensorArraySizeV3.
    Expected<Output> size(GraphBuilder& b) const;
    /// close(): TensorArrayCloseV3.
    Expected<Operation> close(GraphBuilder& b) const;
    /// grad(source, flow) under "TensorArrayGrad": TensorArrayGradV3 for the gradient computation
    /// `source` ("gradients", "gradients_1", ...) and the flow "gradient_flow" that waits for it; the
    /// gradient array shares this array's element shape. `flow` (what TensorArrayGradV3 waits for)
    /// defaults to this array's flow.
    Expected<TensorArray> grad(GraphBuilder& b, const std::string& source,
                               const std::optional<Output>& flow = std::nullopt) const;

private:
    TensorArray(DataType dtype, Output handle, Output flow, std::shared_ptr<TensorShape> elementShape, bool inferShape);
    /// The TensorArrayV3 node, named after `scope`.
    static Expected<TensorArray> create(GraphBuilder& b, DataType dtype, const Output& size,
                                        const TensorArrayOptions& options, const ScopeGuard& scope);
    /// _check_element_shape: `shape` (of an element of `value`) must fit the element shape
    /// ("Inconsistent shapes: saw [3] but expected [2]", naming the array and the value), which it
    /// refines when inferShape.
    Status checkElementShape(const TensorShape& shape, const Output& value) const;
    Status checkDtype(const Output& value) const;

    DataType m_dtype = tensorflow::DT_FLOAT;
    Output m_handle;
    Output m_flow;
    std::shared_ptr<TensorShape> m_elementShape;
    bool m_inferShape = true;
};

} // namespace tstudio
