// The checks every Scatter* kernel makes before writing: its indices within the variable's rows,
// and its updates' shape (ScatterAdd and the fused sparse Adam update share them).
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"

#include <cstdint>
#include <vector>

namespace tstudio {

/// The row numbers of `indices` (int32 or int64), each checked against [0, rows): InvalidArgument
/// "indices[3] = 1000 is not in [0, 1000)" for the first bad one, as TensorFlow's scatter kernels.
Expected<std::vector<std::int64_t>> checkedScatterIndices(const Tensor& indices, std::int64_t rows);

/// TensorFlow's scatter shape rule: updates.shape = indices.shape + params.shape[1:], or updates
/// is a scalar (every named element gets it). InvalidArgument with TensorFlow's text otherwise.
Status checkScatterUpdatesShape(const Tensor& params, const Tensor& indices, const Tensor& updates);

} // namespace tstudio
