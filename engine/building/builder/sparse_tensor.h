// tf.SparseTensor of TensorFlow 1.15 in the building API: the (indices, values, dense_shape) triple,
// its static shape, tf.sparse_placeholder, and the Python slicing/gathering calls the sparse
// functions make (Tensor.__getitem__, array_ops.gather) with their node names.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace tstudio::sparse {

/// A SparseTensor as three tensors of a graph: indices int64 [N, rank], values [N] and dense_shape
/// int64 [rank]. A value type; it refers to the builder's nodes and does not keep the builder alive.
struct SparseTensor {
    Output indices;
    Output values;
    Output denseShape;

    /// The dtype of the values.
    DataType dtype() const { return values.baseDtype(); }
};

/// tf.SparseTensor(indices, values, dense_shape) of existing tensors: indices and dense_shape must be
/// int64 and of rank 2 / 1 where known, values of rank 1 (SparseTensor.__init__'s checks, worded
/// "Shape must be rank 2 but is rank 3 for SparseTensor indices"). No node is added.
Expected<SparseTensor> makeSparseTensor(const Output& indices, const Output& values, const Output& denseShape);
/// The same with a dense shape known while building: the int64 Const "SparseTensor/dense_shape"
/// (SparseTensor converts a Python list in its "SparseTensor" name scope).
Expected<SparseTensor> makeSparseTensor(GraphBuilder& b, const Output& indices, const Output& values,
                                        const std::vector<std::int64_t>& denseShape);

/// SparseTensor.get_shape(): the dense shape when dense_shape's value is known while building
/// (a Const), else rank dense_shape.shape[0] with unknown dims, else unknown.
TensorShape staticShape(const GraphBuilder& b, const SparseTensor& sp);

/// tf.sparse_placeholder(dtype, shape, name). With a name, the nodes are "<name>/shape" (a
/// Placeholder of int64 [rank], or for a fully defined `shape` the int64 Const holding it),
/// "<name>/values" ([?] of `dtype`) and "<name>/indices" (int64 [?, rank]); without one, Placeholders
/// named "Placeholder", "Placeholder_1", ... (and "Const" for a known shape), created in that order.
/// An unknown-rank `shape` leaves the rank unknown ([?] and [?, ?]).
Expected<SparseTensor> sparsePlaceholder(GraphBuilder& b, DataType dtype,
                                         const TensorShape& shape = TensorShape::unknown(), std::string_view name = {});

// --- The Python calls sparse code makes ------------------------------------------------------------

/// x[:, column] of a matrix (Tensor.__getitem__): "strided_slice/stack", "stack_1", "stack_2" (int32
/// [0, column], [0, column + 1], [1, 1]) and the StridedSlice "strided_slice" with begin_mask 1,
/// end_mask 1 and shrink_axis_mask 2.
Expected<Output> column(GraphBuilder& b, const Output& matrix, std::int64_t column);
/// x[i] of a vector: "strided_slice" with begin [i], end [i + 1], strides [1], shrink_axis_mask 1.
Expected<Output> element(GraphBuilder& b, const Output& vector, std::int64_t i);
/// array_ops.gather(params, indices) along axis 0: "GatherV2/axis" and the GatherV2 "GatherV2"
/// (named `name`).
Expected<Output> gather(GraphBuilder& b, const Output& params, const Output& indices,
                        std::string_view name = "GatherV2");
/// array_ops.transpose(x) of a matrix of known rank 2: "transpose/perm" ([1, 0]) and the Transpose
/// "transpose".
Expected<Output> transposeMatrix(GraphBuilder& b, const Output& x);

} // namespace tstudio::sparse
