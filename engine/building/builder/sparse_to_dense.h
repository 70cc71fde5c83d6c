// tf.sparse_to_dense of TensorFlow 1.15 (sparse_ops.py): the SparseToDense op with its node names.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <optional>
#include <string_view>

namespace tstudio::sparse {

/// tf.sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0,
/// validate_indices=True, name): the op "SparseToDense" (named `name`). Without `defaultValue`
/// the scalar 0 of the values' dtype is made as the Const "<name>/default_value", as the op wrapper
/// converts a Python number. Indices and output_shape are int32 or int64 (the same dtype);
/// sparse_values a scalar or a vector of one value per index. Errors are the op's (shape function
/// and validation); bad indices fail when the op runs.
Expected<Output> sparseToDense(GraphBuilder& b, const Output& sparseIndices, const Output& outputShape,
                               const Output& sparseValues, const std::optional<Output>& defaultValue = std::nullopt,
                               bool validateIndices = true, std::string_view name = "SparseToDense");

} // namespace tstudio::sparse
