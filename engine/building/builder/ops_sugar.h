// Typed helpers over GraphBuilder::op for the ops the builder itself and its users need most, named
// and shaped like the TensorFlow 1.x Python functions they stand for.
#pragma once

#include "builder/graph_builder.h"
#include "proto/tensor.pb.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tstudio::ops {

/// The first output of a just-created op; Internal "op 'x' has no outputs" for an op without any.
Expected<Output> firstOutput(Expected<Operation> op);

// Every helper adds its nodes under the current name scope of `b`; `name` is the Python default.
// Errors are GraphBuilder::op's (the node is not added).

// --- Sources -----------------------------------------------------------------------------------------

/// tf.constant from a ready TensorProto (see makeTensorProto for TensorFlow's layout).
Expected<Output> constant(GraphBuilder& b, const tensorflow::TensorProto& value, std::string_view name = "Const");
/// tf.constant(value, dtype): a scalar.
Expected<Output> constant(GraphBuilder& b, double value, DataType dtype = tensorflow::DT_FLOAT,
                          std::string_view name = "Const");
/// tf.constant(values, dtype, shape): row-major values (one value is broadcast).
Expected<Output> constant(GraphBuilder& b, const std::vector<double>& values, const TensorShape& shape,
                          DataType dtype = tensorflow::DT_FLOAT, std::string_view name = "Const");
/// tf.constant of integers (exact for int64).
Expected<Output> constantInts(GraphBuilder& b, const std::vector<std::int64_t>& values, const TensorShape& shape,
                              DataType dtype = tensorflow::DT_INT32, std::string_view name = "Const");
/// The int32 vector of a fully defined shape's dimensions (int64 when one is >= 2^31), named
/// "shape" as tensor_util.shape_tensor names it.
Expected<Output> shapeTensor(GraphBuilder& b, const TensorShape& shape, std::string_view name = "shape");
/// tf.placeholder(dtype, shape): shape unknown by default.
Expected<Output> placeholder(GraphBuilder& b, DataType dtype, const TensorShape& shape = TensorShape::unknown(),
                             std::string_view name = "Placeholder");
/// tf.zeros / tf.ones for a fully defined shape: a Const below 1000 elements, else Fill.
Expected<Output> zeros(GraphBuilder& b, const TensorShape& shape, DataType dtype = tensorflow::DT_FLOAT,
                       std::string_view name = "zeros");
Expected<Output> ones(GraphBuilder& b, const TensorShape& shape, DataType dtype = tensorflow::DT_FLOAT,
                      std::string_view name = "ones");
/// tf.fill(dims, value).
Expected<Output> fill(GraphBuilder& b, const Output& dims, const Output& value, std::string_view name = "Fill");
/// tf.range(start, limit, delta) of int32 scalars: "range/start", "range/limit", "range/delta", "range".
Expected<Output> range(GraphBuilder& b, std::int64_t start, std::int64_t limit, std::int64_t delta = 1,
                       std::string_view name = "range");

// --- Random (tf.random_normal, tf.truncated_normal, tf.random_uniform) ---------------------------------
// Each opens a scope named `name` holding "shape", the parameter constants and the random op, and
// returns the final Add named after the scope; seed and seed2 come from GraphBuilder::seedsFor.

Expected<Output> randomNormal(GraphBuilder& b, const TensorShape& shape, double mean = 0.0, double stddev = 1.0,
                              DataType dtype = tensorflow::DT_FLOAT, std::optional<std::int64_t> seed = {},
                              std::string_view name = "random_normal");
Expected<Output> truncatedNormal(GraphBuilder& b, const TensorShape& shape, double mean = 0.0, double stddev = 1.0,
                                 DataType dtype = tensorflow::DT_FLOAT, std::optional<std::int64_t> seed = {},
                                 std::string_view name = "truncated_normal");
/// For integer dtypes a single RandomUniformInt named after the scope; `maxval` is then required
/// ("Must specify maxval for integer dtype int32"); for floating dtypes it defaults to 1.
Expected<Output> randomUniform(GraphBuilder& b, const TensorShape& shape, double minval = 0.0,
                               std::optional<double> maxval = {}, DataType dtype = tensorflow::DT_FLOAT,
                               std::optional<std::int64_t> seed = {}, std::string_view name = "random_uniform");

// --- Element-wise and matrix math ------------------------------------------------------------------

Expected<Output> identity(GraphBuilder& b, const Output& x, std::string_view name = "Identity");
Expected<Output> add(GraphBuilder& b, const Output& x, const Output& y, std::string_view name = "Add");
Expected<Output> sub(GraphBuilder& b, const Output& x, const Output& y, std::string_view name = "Sub");
Expected<Output> mul(GraphBuilder& b, const Output& x, const Output& y, std::string_view name = "Mul");
Expected<Output> realDiv(GraphBuilder& b, const Output& x, const Output& y, std::string_view name = "RealDiv");
Expected<Output> square(GraphBuilder& b, const Output& x, std::string_view name = "Square");
Expected<Output> sqrt(GraphBuilder& b, const Output& x, std::string_view name = "Sqrt");
Expected<Output> relu(GraphBuilder& b, const Output& x, std::string_view name = "Relu");
Expected<Output> matMul(GraphBuilder& b, const Output& a, const Output& x, bool transposeA = false,
                        bool transposeB = false, std::string_view name = "MatMul");
/// tf.reduce_sum(x, axes): axes is an int32 tensor.
Expected<Output> sum(GraphBuilder& b, const Output& x, const Output& axes, bool keepDims = false,
                     std::string_view name = "Sum");
Expected<Output> reshape(GraphBuilder& b, const Output& x, const Output& shape, std::string_view name = "Reshape");
Expected<Output> transpose(GraphBuilder& b, const Output& x, const Output& perm, std::string_view name = "Transpose");
/// tf.one_hot(indices, depth, on_value, off_value) with scalars of `dtype`.
Expected<Output> oneHot(GraphBuilder& b, const Output& indices, std::int64_t depth, double onValue, double offValue,
                        DataType dtype = tensorflow::DT_FLOAT, std::string_view name = "one_hot");

// --- Control -----------------------------------------------------------------------------------------

Expected<Operation> noOp(GraphBuilder& b, std::string_view name = "NoOp");
/// tf.group(*ops): a NoOp named `name` with control inputs on `ops` in order. Ops on different
/// devices are first grouped per device (sorted by device name) into "<name>/NoOp", "<name>/NoOp_1",
/// ..., as TensorFlow does.
Expected<Operation> group(GraphBuilder& b, const std::vector<Operation>& ops, std::string_view name = "group_deps");

} // namespace tstudio::ops
