// The tf.* calls the RNN cells and drivers make (array_ops.concat, split, nn.bias_add, clip_by_value,
// ...), with TensorFlow 1.15's node names; shared by rnn_cell.cpp, lstm_cell.cpp,
// rnn_cell_wrappers.cpp and rnn.cpp.
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::nn::rnn_detail {

/// array_ops.concat(values, axis): "concat/axis" and the ConcatV2 "concat" (one value: an Identity).
Expected<Output> concat(GraphBuilder& b, const std::vector<Output>& values, std::int64_t axis,
                        std::string_view name = "concat");
/// array_ops.split(x, num, axis): "split/split_dim" and the Split "split"; its `num` outputs.
Expected<std::vector<Output>> split(GraphBuilder& b, const Output& x, std::int64_t num, std::int64_t axis);
/// array_ops.split(x, num, axis tensor): the Split "split" on an existing int32 axis.
Expected<std::vector<Output>> split(GraphBuilder& b, const Output& x, std::int64_t num, const Output& axis);
/// array_ops.slice(x, begin, size): "Slice/begin", "Slice/size", "Slice".
Expected<Output> slice(GraphBuilder& b, const Output& x, const std::vector<std::int64_t>& begin,
                       const std::vector<std::int64_t>& size);
/// nn.bias_add(x, bias): "BiasAdd".
Expected<Output> biasAdd(GraphBuilder& b, const Output& x, const Output& bias);
/// math_ops.matmul(a, x): "MatMul".
Expected<Output> matmul(GraphBuilder& b, const Output& a, const Output& x);
/// concat([x, h], 1) . kernel + bias, the cells' affine map: "concat/axis", "concat", "MatMul",
/// "BiasAdd".
Expected<Output> linear(GraphBuilder& b, const Output& x, const Output& h, const Output& kernel, const Output& bias);
/// A unary generated op named after its type ("Sigmoid", "Tanh").
Expected<Output> unary(GraphBuilder& b, std::string_view type, const Output& x);
/// A binary generated op named after its type ("Add", "Mul").
Expected<Output> binaryOp(GraphBuilder& b, std::string_view type, const Output& x, const Output& y);
/// clip_ops.clip_by_value(x, -limit, limit): under "clip_by_value", "Minimum" then the Maximum
/// "clip_by_value".
Expected<Output> clipByValue(GraphBuilder& b, const Output& x, double limit);
/// "Input 0 of layer <layer> is incompatible with the layer: expected ndim=2, found ndim=3. Full
/// shape received: [2, 3, 4]" unless `inputs` is a matrix; "... the last dimension of the inputs
/// must be known" and "RNN cell only supports floating point inputs, but saw dtype: int32" likewise.
Status checkCellInputs(const std::string& layer, const Output& inputs);
/// Tensor.set_shape: merges `shape` into t's inferred shape and returns t as the builder now sees it.
Expected<Output> withShape(GraphBuilder& b, const Output& t, const TensorShape& shape);

/// rnn._transpose_batch_time: x (rank >= 2) with its first two axes swapped ("transpose").
Expected<Output> transposeBatchTime(GraphBuilder& b, const Output& x);

/// A shape as TensorFlow's messages print it in lists: "[2, ?, 4]", "<unknown>".
std::string shapeList(const TensorShape& shape);

} // namespace tstudio::nn::rnn_detail
