// IndexedSlices and Gradient: the sparse gradient form of TensorFlow 1.15 (tf.IndexedSlices) that
// the gradients of Gather, GatherV2 (axis 0) and ResourceGather produce, and its dense conversion.
#pragma once

#include "builder/output.h"
#include "core/expected.h"

#include <optional>
#include <variant>
#include <vector>

namespace tstudio {

class GraphBuilder;

/// tf.IndexedSlices(values, indices, dense_shape): the dense tensor it stands for has shape
/// `denseShape` (an int32 or int64 vector) and row `indices[i]` holds the sum of every `values[i]`
/// naming it; rows not named are zero. values: [N, d1, ...]; indices: [N] (int32 or int64).
/// Indices may repeat and need not be sorted.
struct IndexedSlices {
    Output values;
    Output indices;
    std::optional<Output> denseShape;

    DataType dtype() const { return values.dtype(); }
};

/// A gradient as tf.gradients returns it: a dense tensor or IndexedSlices.
class Gradient {
public:
    Gradient(Output dense) : m_value(std::move(dense)) {}        // NOLINT(google-explicit-constructor)
    Gradient(IndexedSlices sparse) : m_value(std::move(sparse)) {} // NOLINT(google-explicit-constructor)

    bool isSparse() const { return std::holds_alternative<IndexedSlices>(m_value); }
    /// Precondition: !isSparse().
    const Output& dense() const { return std::get<Output>(m_value); }
    /// Precondition: isSparse().
    const IndexedSlices& sparse() const { return std::get<IndexedSlices>(m_value); }
    /// The dtype of the tensor or of the slices' values.
    DataType dtype() const { return isSparse() ? sparse().values.dtype() : dense().dtype(); }

private:
    std::variant<Output, IndexedSlices> m_value;
};

/// ops._IndexedSlicesToTensor: UnsortedSegmentSum(values, indices, dense_shape[0]) (the
/// StridedSlice "strided_slice" of dense_shape, then the UnsortedSegmentSum "UnsortedSegmentSum"),
/// in the builder's current name scope. InvalidArgument when the slices carry no dense_shape
/// (TensorFlow's "Tensor conversion requested for IndexedSlices without dense_shape").
Expected<Output> indexedSlicesToTensor(GraphBuilder& b, const IndexedSlices& slices);

/// The gradient as a tensor: itself when dense, indexedSlicesToTensor otherwise.
Expected<Output> toDenseGradient(GraphBuilder& b, const Gradient& g);

/// gradients_util._AggregateIndexedSlicesGradients for gradients of which at least one is
/// IndexedSlices: every dense one becomes IndexedSlices(t, range(shape(t)[0]), shape(t))
/// (math_ops._as_indexed_slices_list; int32 indices cast to int64 where the kinds mix), then the
/// values and the indices are concatenated along axis 0 ("concat", "concat_1") with the first
/// slices' dense_shape. One gradient is returned as it is.
Expected<Gradient> aggregateIndexedSlicesGradients(GraphBuilder& b, const std::vector<Gradient>& grads);

} // namespace tstudio
