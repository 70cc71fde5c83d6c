// The shape checks and batch broadcasting of BatchMatMul and BatchMatMulV2, shared by their CPU and GPU kernels.
#pragma once

#include "core/expected.h"
#include "framework/tensor_shape.h"

#include <cstdint>
#include <vector>

namespace tstudio::linalg {

/// TensorFlow's MatMulBCast: the batch dimensions (all but the last two) broadcast as NumPy's.
struct BatchBroadcast {
    std::vector<std::int64_t> outputDims; ///< the output's batch dimensions
    std::vector<std::int64_t> xDims;      ///< x's batch dimensions, padded with leading 1s to outputDims' rank
    std::vector<std::int64_t> yDims;      ///< the same for y
    std::int64_t batch = 1;               ///< the product of outputDims
    std::int64_t xBatch = 1;              ///< matrices in x
    std::int64_t yBatch = 1;              ///< matrices in y
    std::vector<std::int64_t> xIndex;     ///< x's matrix for each output matrix
    std::vector<std::int64_t> yIndex;     ///< y's matrix for each output matrix
};

/// A batched product out[b] = op(x[xIndex[b]]) * op(y[yIndex[b]]), each [m, k] x [k, n] -> [m, n]
/// after adj_x / adj_y (adjoint = transpose + conjugate for complex types).
struct BatchMatMulShape {
    BatchBroadcast bcast;
    std::int64_t m = 0;
    std::int64_t k = 0;
    std::int64_t n = 0;
    TensorShape output;
};

/// TensorFlow's checks and error texts: BatchMatMul (v2 = false) wants equal ranks >= 2 and equal
/// batch dimensions; BatchMatMulV2 (v2 = true) ranks >= 2 and broadcastable batch dimensions; both
/// want op(x)'s columns to equal op(y)'s rows. InvalidArgument otherwise.
Expected<BatchMatMulShape> batchMatMulShape(const TensorShape& x, const TensorShape& y, bool adjX, bool adjY, bool v2);

} // namespace tstudio::linalg
