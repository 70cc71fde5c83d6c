// makeTensorProto: TensorFlow's choice between tensor_content and the typed fields, and its value checks.
#include "builder/tensor_proto_values.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <type_traits>
#include <vector>

namespace tstudio {
namespace {

using tensorflow::DataType;

/// Python's repr of a float for messages: "0.5", "3e+10".
std::string numberText(double value)
{
    std::ostringstream out;
    out.precision(17);
    out << value;
    return out.str();
}

/// A number as given by the caller: exactly one of the two forms is used.
struct Number {
    double real = 0;
    std::int64_t integer = 0;
    bool isInteger = false;
};

template <typename Int> Expected<Int> toInteger(const Number& n, DataType dtype)
{
    if (n.isInteger) {
        if constexpr (std::is_unsigned_v<Int>) {
            if (n.integer < 0)
                return unexpected(invalidArgumentError("Can't convert " + std::to_string(n.integer) + " to " +
                                                       dataTypeName(dtype) + ": out of range"));
            if (static_cast<std::uint64_t>(n.integer) > std::numeric_limits<Int>::max())
                return unexpected(invalidArgumentError("Can't convert " + std::to_string(n.integer) + " to " +
                                                       dataTypeName(dtype) + ": out of range"));
        } else if (n.integer < std::numeric_limits<Int>::min() || n.integer > std::numeric_limits<Int>::max()) {
            return unexpected(invalidArgumentError("Can't convert " + std::to_string(n.integer) + " to " +
                                                   dataTypeName(dtype) + ": out of range"));
        }
        return static_cast<Int>(n.integer);
    }
    if (!std::isfinite(n.real) || std::floor(n.real) != n.real)
        return unexpected(
            invalidArgumentError("Expected " + dataTypeName(dtype) + ", got " + numberText(n.real) + " instead."));
    // Compare in long double so the limits of the 64-bit types are represented exactly.
    const long double v = n.real;
    if (v < static_cast<long double>(std::numeric_limits<Int>::min()) ||
        v > static_cast<long double>(std::numeric_limits<Int>::max()))
        return unexpected(invalidArgumentError("Can't convert " + numberText(n.real) + " to " + dataTypeName(dtype) +
                                               ": out of range"));
    return static_cast<Int>(n.real);
}

double toReal(const Number& n)
{
    return n.isInteger ? static_cast<double>(n.integer) : n.real;
}

template <typename T> void appendRaw(std::string* content, T value)
{
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    content->append(bytes, sizeof(T));
}

/// Writes one value, either raw (appended to `content`) or to the typed field.
Status writeValue(tensorflow::TensorProto* proto, DataType dtype, const Number& n, std::string* content)
{
#define TSTUDIO_INT_VALUE(Type, field)                                                                                 \
    {                                                                                                                  \
        auto v = toInteger<Type>(n, dtype);                                                                            \
        if (!v)                                                                                                        \
            return v.error();                                                                                          \
        if (content)                                                                                                   \
            appendRaw<Type>(content, *v);                                                                              \
        else                                                                                                           \
            proto->add_##field(*v);                                                                                    \
        return Status::ok();                                                                                           \
    }
    switch (dtype) {
    case tensorflow::DT_FLOAT: {
        const float v = static_cast<float>(toReal(n));
        if (content)
            appendRaw(content, v);
        else
            proto->add_float_val(v);
        return Status::ok();
    }
    case tensorflow::DT_DOUBLE: {
        const double v = toReal(n);
        if (content)
            appendRaw(content, v);
        else
            proto->add_double_val(v);
        return Status::ok();
    }
    case tensorflow::DT_HALF:
        proto->add_half_val(std::bit_cast<std::uint16_t>(Eigen::half(static_cast<float>(toReal(n)))));
        return Status::ok();
    case tensorflow::DT_BFLOAT16:
        proto->add_half_val(std::bit_cast<std::uint16_t>(Eigen::bfloat16(static_cast<float>(toReal(n)))));
        return Status::ok();
    case tensorflow::DT_INT32:
    case tensorflow::DT_QINT32: TSTUDIO_INT_VALUE(std::int32_t, int_val)
    case tensorflow::DT_INT16:
    case tensorflow::DT_QINT16: TSTUDIO_INT_VALUE(std::int16_t, int_val)
    case tensorflow::DT_INT8:
    case tensorflow::DT_QINT8: TSTUDIO_INT_VALUE(std::int8_t, int_val)
    case tensorflow::DT_UINT8:
    case tensorflow::DT_QUINT8: TSTUDIO_INT_VALUE(std::uint8_t, int_val)
    case tensorflow::DT_UINT16:
    case tensorflow::DT_QUINT16: TSTUDIO_INT_VALUE(std::uint16_t, int_val)
    case tensorflow::DT_INT64: TSTUDIO_INT_VALUE(std::int64_t, int64_val)
    case tensorflow::DT_UINT32: TSTUDIO_INT_VALUE(std::uint32_t, uint32_val)
    case tensorflow::DT_UINT64: TSTUDIO_INT_VALUE(std::uint64_t, uint64_val)
    case tensorflow::DT_BOOL: {
        auto v = toInteger<std::int64_t>(n, dtype);
        if (!v)
            return v.error();
        if (*v != 0 && *v != 1)
            return invalidArgumentError("Expected bool, got " + std::to_string(*v) + " instead.");
        proto->add_bool_val(*v != 0);
        return Status::ok();
    }
    default: break;
    }
#undef TSTUDIO_INT_VALUE
    if (isComplex(dtype))
        return unimplementedError("constants of " + dataTypeName(dtype) + " are not supported yet");
    return invalidArgumentError("Cannot make a numeric constant of dtype " + dataTypeName(dtype));
}

Expected<tensorflow::TensorProto> build(DataType dtype, const TensorShape& shape, const std::vector<Number>& values)
{
    if (isRefType(dtype) || dtype == tensorflow::DT_STRING)
        return unexpected(invalidArgumentError("Cannot make a numeric constant of dtype " + dataTypeName(dtype)));
    if (!shape.isFullyDefined())
        return unexpected(invalidArgumentError("A constant needs a fully defined shape, got " + shape.toString()));
    auto count = shape.numElements();
    if (!count)
        return unexpected(count.error());
    // An empty shape takes no values, whatever was given (TensorFlow makes an empty array).
    const auto given = *count == 0 ? std::int64_t{0} : static_cast<std::int64_t>(values.size());
    if (given > *count)
        return unexpected(invalidArgumentError("Too many elements provided. Needed at most " + std::to_string(*count) +
                                               ", but received " + std::to_string(given)));
    tensorflow::TensorProto proto;
    proto.set_dtype(dtype);
    *proto.mutable_tensor_shape() = shape.toProto();
    const bool raw = given == *count && makeTensorProtoUsesContent(dtype, *count);
    std::string content;
    for (std::int64_t i = 0; i < given; ++i) {
        const Number& n = values[static_cast<std::size_t>(i)];
        if (Status s = writeValue(&proto, dtype, n, raw ? &content : nullptr); !s.isOk())
            return unexpected(std::move(s));
    }
    if (raw)
        proto.set_tensor_content(std::move(content));
    return proto;
}

} // namespace

bool makeTensorProtoUsesContent(DataType dtype, std::int64_t elements)
{
    if (elements <= 1)
        return false;
    switch (dtype) {
    case tensorflow::DT_FLOAT:
    case tensorflow::DT_DOUBLE:
    case tensorflow::DT_INT32:
    case tensorflow::DT_UINT8:
    case tensorflow::DT_INT16:
    case tensorflow::DT_INT8:
    case tensorflow::DT_INT64:
    case tensorflow::DT_QINT8:
    case tensorflow::DT_QUINT8:
    case tensorflow::DT_QINT16:
    case tensorflow::DT_QUINT16:
    case tensorflow::DT_QINT32:
    case tensorflow::DT_UINT32:
    case tensorflow::DT_UINT64: return true;
    default: return false;
    }
}

Expected<tensorflow::TensorProto> makeTensorProto(DataType dtype, const TensorShape& shape,
                                                  std::span<const double> values)
{
    std::vector<Number> numbers;
    numbers.reserve(values.size());
    for (double v : values)
        numbers.push_back({v, 0, false});
    return build(dtype, shape, numbers);
}

Expected<tensorflow::TensorProto> makeTensorProtoFromInts(DataType dtype, const TensorShape& shape,
                                                          std::span<const std::int64_t> values)
{
    std::vector<Number> numbers;
    numbers.reserve(values.size());
    for (std::int64_t v : values)
        numbers.push_back({0, v, true});
    return build(dtype, shape, numbers);
}

Expected<tensorflow::TensorProto> makeStringTensorProto(const TensorShape& shape, std::span<const std::string> values)
{
    if (!shape.isFullyDefined())
        return unexpected(invalidArgumentError("A constant needs a fully defined shape, got " + shape.toString()));
    auto count = shape.numElements();
    if (!count)
        return unexpected(count.error());
    if (static_cast<std::int64_t>(values.size()) > *count)
        return unexpected(invalidArgumentError("Too many elements provided. Needed at most " + std::to_string(*count) +
                                               ", but received " + std::to_string(values.size())));
    tensorflow::TensorProto proto;
    proto.set_dtype(tensorflow::DT_STRING);
    *proto.mutable_tensor_shape() = shape.toProto();
    for (const std::string& v : values)
        proto.add_string_val(v);
    return proto;
}

} // namespace tstudio
