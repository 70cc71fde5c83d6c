// TensorProtos for Const nodes written the way TensorFlow's Python make_tensor_proto writes them.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"
#include "framework/tensor_shape.h"
#include "proto/tensor.pb.h"

#include <cstdint>
#include <span>
#include <string>

namespace tstudio {

/// Whether make_tensor_proto writes all `elements` of a `dtype` tensor as tensor_content bytes:
/// more than one element and a dtype with a raw form (float, double, the integers, the quantized
/// types); otherwise the values go element by element to the dtype's typed field.
bool makeTensorProtoUsesContent(DataType dtype, std::int64_t elements);

/// The TensorProto of a constant of `dtype` and `shape` (fully defined) holding `values` in
/// row-major order, laid out as TensorFlow 1.x's make_tensor_proto lays it out, so a Const built
/// here is byte-identical to one written by TensorFlow:
///  - as many values as elements, more than one element, and a dtype with a raw form (float,
///    double, the integers, the quantized types): the values go to tensor_content, little-endian;
///  - otherwise the given values go to the dtype's typed field (float_val, double_val, int_val,
///    int64_val, bool_val, half_val holding half/bfloat16 bit patterns, uint32_val, uint64_val).
///    Fewer values than elements is TensorFlow's broadcast form: readers repeat the last value
///    (one value fills the tensor, as tf.constant(0.0, shape=[500]) does); no values mean zeros.
/// Values are Python numbers: for integer and bool dtypes each must be integral and in range.
/// InvalidArgument for a shape that is not fully defined, "Too many elements provided. Needed at
/// most 6, but received 8" (TensorFlow's words), "Expected int32, got 0.5 instead.", a value out of
/// the dtype's range, or a dtype without numbers (string, resource, variant, refs); Unimplemented
/// for complex dtypes.
Expected<tensorflow::TensorProto> makeTensorProto(DataType dtype, const TensorShape& shape,
                                                  std::span<const double> values);
/// The same for integer values (exact for int64 beyond 2^53); floating dtypes convert them.
Expected<tensorflow::TensorProto> makeTensorProtoFromInts(DataType dtype, const TensorShape& shape,
                                                          std::span<const std::int64_t> values);
/// A DT_STRING constant: the values always go to string_val.
Expected<tensorflow::TensorProto> makeStringTensorProto(const TensorShape& shape, std::span<const std::string> values);

} // namespace tstudio
