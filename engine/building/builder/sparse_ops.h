// The tf.sparse functions of TensorFlow 1.15 (sparse_ops.py, math_ops.py) on SparseTensors, with
// Python's node names: sparse_reshape, sparse_add, sparse_concat, sparse_slice, sparse_reorder,
// sparse_retain, sparse_tensor_to_dense, sparse_tensor_dense_matmul, sparse_fill_empty_rows, the
// sparse segment reductions and segment_sum.
#pragma once

#include "builder/sparse_tensor.h"
#include "core/expected.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace tstudio::sparse {

/// tf.sparse_reshape(sp_input, shape, name): `shape` cast to int64 ("Cast", none when it already is),
/// then in the scope `name` (default "SparseReshape") the SparseReshape named after the scope, the
/// Identity of the values ("<scope>/Identity") and, when the new shape is known while building and
/// the input's static shape is fully defined, the int64 Const "<scope>/Const" of the resolved shape
/// (else the op's output_shape). Errors as Python's: "At most one dimension can be inferred (-1).
/// Found: [-1, -1]", "Cannot reshape a tensor with 24 elements to shape [5, 5] (25 elements).".
Expected<SparseTensor> sparseReshape(GraphBuilder& b, const SparseTensor& sp, const Output& shape,
                                     std::string_view name = {});
/// The same with a Python list: the int32 Const "Cast/x" and its Cast "Cast" to int64.
Expected<SparseTensor> sparseReshape(GraphBuilder& b, const SparseTensor& sp, const std::vector<std::int64_t>& shape,
                                     std::string_view name = {});
/// The same with a list of int64 scalar tensors, auto-packed as Python packs it: the Pack "Cast/x".
Expected<SparseTensor> sparseReshape(GraphBuilder& b, const SparseTensor& sp, const std::vector<Output>& shapeParts,
                                     std::string_view name = {});

/// tf.sparse_add(a, b, threshold) of two SparseTensors: the Const "threshold" of the values' real
/// dtype and the SparseAdd "SparseAdd". The result's dense shape is the Const
/// "SparseTensor/dense_shape" when both static shapes are fully defined, else sum_shape.
/// InvalidArgument "Shapes [2,3] and [2,4] are incompatible" when the static shapes disagree.
Expected<SparseTensor> sparseAdd(GraphBuilder& b, const SparseTensor& a, const SparseTensor& other,
                                 double threshold = 0.0);
/// tf.sparse_add(sp, dense) (either order in Python): the SparseTensorDenseAdd "SparseTensorDenseAdd".
Expected<Output> sparseAdd(GraphBuilder& b, const SparseTensor& sp, const Output& dense);

/// tf.sparse_concat(axis, sp_inputs, name) without expand_nonconcat_dim: one input is returned as it
/// is; otherwise the SparseConcat (named `name`, default "SparseConcat"); when every input's dense
/// shape is known while building, the result's shape is the Const "Const" of the concatenated
/// shape. InvalidArgument for no inputs.
Expected<SparseTensor> sparseConcat(GraphBuilder& b, std::int64_t axis, const std::vector<SparseTensor>& inputs,
                                    std::string_view name = {});

/// tf.sparse_slice(sp_input, start, size, name): the int64 Consts "Const" and "Const_1" of start and
/// size, then the SparseSlice named after the scope `name` (default "SparseSlice").
Expected<SparseTensor> sparseSlice(GraphBuilder& b, const SparseTensor& sp, const std::vector<std::int64_t>& start,
                                   const std::vector<std::int64_t>& size, std::string_view name = {});

/// tf.sparse_reorder(sp_input, name): the SparseReorder (default "SparseReorder"); the dense shape is
/// "SparseTensor/dense_shape" when the static shape is fully defined, else an Identity "Identity".
Expected<SparseTensor> sparseReorder(GraphBuilder& b, const SparseTensor& sp, std::string_view name = {});

/// tf.sparse_retain(sp_input, to_retain): "Where", "Reshape/shape", "Reshape", the GatherV2s
/// "GatherV2" (indices) and "GatherV2_1" (values), and the Identity "Identity" of the dense shape.
/// InvalidArgument when to_retain is not a vector or its length disagrees with the values'.
Expected<SparseTensor> sparseRetain(GraphBuilder& b, const SparseTensor& sp, const Output& toRetain);

/// tf.sparse_tensor_to_dense(sp_input, default_value=0, validate_indices, name): the SparseToDense
/// (default "SparseToDense") of (indices, dense_shape, values) with "<name>/default_value".
Expected<Output> sparseTensorToDense(GraphBuilder& b, const SparseTensor& sp,
                                     const std::optional<Output>& defaultValue = std::nullopt,
                                     bool validateIndices = true, std::string_view name = {});

/// tf.sparse_tensor_dense_matmul(sp_a, b, adjoint_a, adjoint_b, name): in the scope `name` (default
/// "SparseTensorDenseMatMul") the op "SparseTensorDenseMatMul" (so
/// "SparseTensorDenseMatMul/SparseTensorDenseMatMul").
Expected<Output> sparseTensorDenseMatmul(GraphBuilder& b, const SparseTensor& spA, const Output& dense,
                                         bool adjointA = false, bool adjointB = false, std::string_view name = {});

/// tf.sparse_fill_empty_rows(sp_input, default_value, name): in the scope `name` (default
/// "SparseFillEmptyRows") the Const "Const" of default_value (values' dtype) and the op
/// "SparseFillEmptyRows". Returns the filled SparseTensor (same dense_shape) and empty_row_indicator.
Expected<std::pair<SparseTensor, Output>> sparseFillEmptyRows(GraphBuilder& b, const SparseTensor& sp,
                                                              double defaultValue, std::string_view name = {});

/// The combiners of the sparse segment reductions.
enum class SegmentReduction { kSum, kMean, kSqrtN };

/// math_ops.sparse_segment_sum / sparse_segment_mean / sparse_segment_sqrt_n(data, indices,
/// segment_ids, name, num_segments): SparseSegmentSum/Mean/SqrtN (with num_segments the
/// *WithNumSegments op), named `name` (default: the op type).
Expected<Output> sparseSegmentReduce(GraphBuilder& b, SegmentReduction reduction, const Output& data,
                                     const Output& indices, const Output& segmentIds,
                                     const std::optional<Output>& numSegments = std::nullopt,
                                     std::string_view name = {});

/// math_ops.segment_sum(data, segment_ids, name): "SegmentSum" (named `name`).
Expected<Output> segmentSum(GraphBuilder& b, const Output& data, const Output& segmentIds, std::string_view name = {});

} // namespace tstudio::sparse
