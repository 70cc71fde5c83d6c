// Shape inference over a whole graph (TensorFlow's ShapeRefiner as used on import): every node's
// registered shape function, in topological order, with known values of small constant
// subgraphs propagated so that Reshape(x, Const) and friends get exact shapes.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "framework/tensor.h"
#include "framework/tensor_shape.h"
#include "graph/graph.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {

class Allocator;
class OpRegistry;
struct OpRegistration;

/// What is known about one output before running: its dtype, its (possibly partial) shape and,
/// for constant subgraphs, its value.
struct InferredOutput {
    DataType dtype = tensorflow::DT_INVALID;
    TensorShape shape;             ///< unknown rank when nothing is known
    std::optional<Tensor> value;   ///< set when the output is a known constant
    /// For 1-D int32/int64 outputs that hold a shape known in part (Shape of a partially known
    /// tensor, Pack of known and unknown sizes, their ConcatV2 and StridedSlice): that shape, with
    /// unknown entries for the parts not known. Unknown rank when nothing is known.
    TensorShape valueAsShape;
};

/// Computes a node's outputs from the values of all its data inputs (TensorFlow evaluates small
/// constant subgraphs with its kernels in the same way). Returns nullopt when it cannot or will
/// not (no kernel, an error in the kernel); the refiner then keeps the shape function's result.
using ConstantEvaluator =
    std::function<std::optional<std::vector<Tensor>>(const tensorflow::NodeDef& node, const std::vector<Tensor>& inputs)>;

struct ShapeRefinerOptions {
    /// Optional; without it only Const, Shape, ShapeN, Size and Rank values are known.
    ConstantEvaluator evaluator;
    /// Shapes to assume for some outputs instead of what their node says ("x-input:0" -> [1,784]),
    /// e.g. to see a graph for one batch size. Each must be compatible with the inferred shape.
    std::map<std::string, TensorShape> assumedShapes;
    /// Inputs and outputs above this many elements are never evaluated or kept as values.
    std::int64_t maxConstantElements = 1 << 16;
    /// How many function calls deep this graph is (0 for a graph itself; the refiner sets it when
    /// it refines a called function's body, see function/function_shapes.h).
    int functionDepth = 0;
};

/// A shape function's failure at one node, in TensorFlow's form: "Shape must be rank 2 but is
/// rank 1 for 'MatMul' (op: 'MatMul') with input shapes: [3], [3,4]."
struct NodeShapeError {
    NodeId node = -1;
    Status status;
};

/// The result: an InferredOutput per node output. Values share buffers with the allocator given
/// to inferGraphShapes, which must outlive this object.
class GraphShapes {
public:
    const std::vector<InferredOutput>& outputs(NodeId node) const { return m_outputs.at(static_cast<std::size_t>(node)); }
    /// The output "node:index" / "node", or nullptr when there is no such node or output.
    const InferredOutput* find(const Graph& graph, std::string_view tensorName) const;
    /// Nodes whose shape function failed or could not be run, in topological order. Their
    /// outputs are unknown and inference went on past them.
    const std::vector<NodeShapeError>& errors() const { return m_errors; }
    /// OK, or the first error (what TensorFlow's importer would have stopped at).
    Status status() const { return m_errors.empty() ? Status::ok() : m_errors.front().status; }

private:
    friend Expected<GraphShapes> inferGraphShapes(const Graph&, const OpRegistry&, Allocator&,
                                                  const ShapeRefinerOptions&);
    std::vector<std::vector<InferredOutput>> m_outputs;
    std::vector<NodeShapeError> m_errors;
};

/// One node's step of inferGraphShapes, for callers that infer node by node as they build a graph
/// (GraphBuilder): `registration`'s shape function run with the inputs' shapes, known values and
/// partial shape tensors, then what is known of the outputs' values: a Const's value (up to
/// options.maxConstantElements), the shape facts of Shape/ShapeN/Size/Rank of known shapes, the
/// evaluator's result when every data input's value is known, and the partial shape held by a
/// 1-D int32/int64 output (TensorFlow's ConstantPartialShape: Shape, Pack, ConcatV2, StridedSlice).
/// `node` must have its OpDef defaults filled in and be valid for `registration.opDef`. `inputs`
/// has one entry per data input (control inputs excluded), nullptr for an input not known yet (a
/// NextIteration back edge). Values share buffers with `allocator`. options.assumedShapes is not
/// applied here (inferGraphShapes applies it by tensor name).
/// Errors: the shape function's, in TensorFlow's form ("Shape must be rank 2 but is rank 1 for
/// 'MatMul' (op: 'MatMul') with input shapes: [3], [3,4]."); Unimplemented "node 'x': op 'Foo' has
/// no shape function"; InvalidArgument when `inputs` does not match the node's data inputs, and the
/// node's dtype errors.
Expected<std::vector<InferredOutput>> inferNodeOutputs(const tensorflow::NodeDef& node,
                                                       const OpRegistration& registration,
                                                       const std::vector<const InferredOutput*>& inputs,
                                                       Allocator& allocator, const ShapeRefinerOptions& options = {});

/// Runs every node's shape function in `graph`'s topological order (inferNodeOutputs per node). Inputs along NextIteration
/// back edges count as unknown. Attrs the NodeDefs leave out are read from their OpDef defaults.
/// Function calls of the graph's library (a node whose op is a library function, PartitionedCall and
/// StatefulPartitionedCall) are seen through: their outputs are what refining the function's body
/// with the call's inputs gives (inferFunctionCallOutputs); If/StatelessIf and While/StatelessWhile
/// likewise see through their functions (inferFunctionalControlFlowOutputs); when that fails, the
/// failure is one of errors() and the node's outputs are unknown.
/// Per-node failures (an unregistered op, an invalid NodeDef, a shape function's error) are
/// collected in GraphShapes::errors(); an error is returned only for an `assumedShapes` entry
/// that names no output or contradicts the graph.
Expected<GraphShapes> inferGraphShapes(const Graph& graph, const OpRegistry& ops, Allocator& allocator,
                                       const ShapeRefinerOptions& options = {});

} // namespace tstudio
