// DataType: TensorFlow's dtype enum (generated from types.proto) with sizes, names and the C++ type map.
#pragma once

#include "core/expected.h"
#include "proto/types.pb.h"

#include <Eigen/Core>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tstudio {

/// THE dtype type of the engine: the protobuf enum, so values are TensorFlow's numbers
/// (DT_FLOAT = 1, ..., DT_FLOAT_REF = 101) and travel through protos without conversion.
/// proto3 enums are open: a DataType read from a file may hold a number with no enumerator.
using DataType = tensorflow::DataType;

/// A reference dtype is its value dtype plus this offset (DT_FLOAT_REF = DT_FLOAT + 100).
inline constexpr int kDataTypeRefOffset = 100;

/// Bytes per element in a tensor buffer (and in TensorProto.tensor_content): 4 for float32,
/// 2 for half and bfloat16, 8 for complex64, 1 for bool, ... A ref dtype answers as its value
/// dtype. 0 for DT_INVALID, DT_STRING, DT_RESOURCE, DT_VARIANT and numbers with no enumerator.
std::size_t dataTypeSize(DataType dtype);

/// TensorFlow's Python name (`tf.float32.name`): "float32", "float64", "float16", "bfloat16",
/// "int32", "bool", "string", "complex64", "resource", ...; ref dtypes add "_ref"
/// ("float32_ref"). DT_INVALID is "invalid"; a number with no enumerator is
/// "unknown dtype enum (N)".
std::string dataTypeName(DataType dtype);

/// TensorFlow's C++ name (`DataTypeString`), used in TF's debug strings and error messages:
/// "float", "double", "half", "int32", ...; ref dtypes add "_ref"; DT_INVALID is "INVALID".
std::string dataTypeString(DataType dtype);

/// Parses a dtype name: Python names ("float32", "float16_ref"), C++ names ("float", "double",
/// "half") and enumerator names ("DT_FLOAT", "DT_FLOAT_REF"). InvalidArgument for anything else,
/// including "invalid" and "DT_INVALID".
Expected<DataType> dataTypeFromName(std::string_view name);

namespace detail {
/// isRefType for values above kDataTypeRefOffset: whether the value names a known ref dtype.
bool isKnownRefType(DataType dtype);
} // namespace detail

/// True for DT_*_REF values (101..133). Inline: the executor asks it for every input and output.
inline bool isRefType(DataType dtype)
{
    return static_cast<int>(dtype) > kDataTypeRefOffset && detail::isKnownRefType(dtype);
}
/// The value dtype of a ref dtype; other dtypes unchanged.
inline DataType baseType(DataType dtype)
{
    const int value = static_cast<int>(dtype);
    return value > kDataTypeRefOffset ? static_cast<DataType>(value - kDataTypeRefOffset) : dtype;
}
/// The ref dtype of a value dtype; ref dtypes and DT_INVALID unchanged.
DataType makeRefType(DataType dtype);

// Classification, as TensorFlow's DataTypeIsFloating / DataTypeIsInteger. These look at the exact
// value: a ref dtype is none of them (call baseType first).
/// float16, bfloat16, float32, float64.
bool isFloating(DataType dtype);
/// int8/16/32/64 and uint8/16/32/64 (not bool, not the quantized types).
bool isInteger(DataType dtype);
/// complex64, complex128.
bool isComplex(DataType dtype);
/// qint8, quint8, qint16, quint16, qint32.
bool isQuantized(DataType dtype);
/// Floating, integer, complex or quantized; not bool, string, resource or variant.
bool isNumeric(DataType dtype);

// --- The C++ type of each dtype -----------------------------------------------------------------

/// `DataTypeOf<T>::value` is the dtype of C++ type T; no definition for unmapped types, so a
/// wrong T fails to compile. Quantized dtypes have no C++ type of their own.
template <typename T>
struct DataTypeOf;

#define TSTUDIO_MAP_DATA_TYPE(CppType, Enum)                                                                          \
    template <>                                                                                                       \
    struct DataTypeOf<CppType> {                                                                                      \
        static constexpr DataType value = tensorflow::Enum;                                                           \
    }
TSTUDIO_MAP_DATA_TYPE(float, DT_FLOAT);
TSTUDIO_MAP_DATA_TYPE(double, DT_DOUBLE);
TSTUDIO_MAP_DATA_TYPE(Eigen::half, DT_HALF);
TSTUDIO_MAP_DATA_TYPE(Eigen::bfloat16, DT_BFLOAT16);
TSTUDIO_MAP_DATA_TYPE(std::int8_t, DT_INT8);
TSTUDIO_MAP_DATA_TYPE(std::int16_t, DT_INT16);
TSTUDIO_MAP_DATA_TYPE(std::int32_t, DT_INT32);
TSTUDIO_MAP_DATA_TYPE(std::int64_t, DT_INT64);
TSTUDIO_MAP_DATA_TYPE(std::uint8_t, DT_UINT8);
TSTUDIO_MAP_DATA_TYPE(std::uint16_t, DT_UINT16);
TSTUDIO_MAP_DATA_TYPE(std::uint32_t, DT_UINT32);
TSTUDIO_MAP_DATA_TYPE(std::uint64_t, DT_UINT64);
TSTUDIO_MAP_DATA_TYPE(bool, DT_BOOL);
TSTUDIO_MAP_DATA_TYPE(std::string, DT_STRING);
TSTUDIO_MAP_DATA_TYPE(std::complex<float>, DT_COMPLEX64);
TSTUDIO_MAP_DATA_TYPE(std::complex<double>, DT_COMPLEX128);
#undef TSTUDIO_MAP_DATA_TYPE

template <typename T>
inline constexpr DataType kDataTypeOf = DataTypeOf<T>::value;

/// A type carried as a value, so a generic lambda can receive it: `[](auto tag) { using T =
/// typename decltype(tag)::type; ... }`.
template <typename T>
struct TypeTag {
    using type = T;
};

/// A list of C++ types for dispatchDataType.
template <typename... Ts>
struct TypeList {};

/// Every C++ type with a dtype (the 16 mapped above).
using AllTypes = TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int8_t, std::int16_t, std::int32_t,
                          std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, bool, std::string,
                          std::complex<float>, std::complex<double>>;
/// Every mapped type except std::string: the types whose elements are plain bytes.
using PodTypes = TypeList<float, double, Eigen::half, Eigen::bfloat16, std::int8_t, std::int16_t, std::int32_t,
                          std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, bool,
                          std::complex<float>, std::complex<double>>;
/// half, bfloat16, float, double.
using FloatingTypes = TypeList<Eigen::half, Eigen::bfloat16, float, double>;
/// Floating and integer types (TensorFlow's "realnumbertypes" without the quantized ones).
using RealNumberTypes = TypeList<Eigen::half, Eigen::bfloat16, float, double, std::int8_t, std::int16_t, std::int32_t,
                                 std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;

namespace detail {
template <typename T, typename Visitor>
Status invokeWithType(Visitor& visitor)
{
    using Result = std::invoke_result_t<Visitor&, TypeTag<T>>;
    if constexpr (std::is_void_v<Result>) {
        visitor(TypeTag<T>{});
        return Status::ok();
    } else {
        static_assert(std::is_convertible_v<Result, Status>, "a dispatchDataType visitor returns void or Status");
        return visitor(TypeTag<T>{});
    }
}

template <typename... Ts>
std::string typeListNames(TypeList<Ts...>)
{
    std::string names;
    ((names += (names.empty() ? "" : ", ") + dataTypeName(kDataTypeOf<Ts>)), ...);
    return names;
}

template <typename Visitor, typename... Ts>
Status dispatchOver(DataType dtype, Visitor& visitor, TypeList<Ts...> list)
{
    Status status;
    const bool matched = ((kDataTypeOf<Ts> == dtype ? (status = invokeWithType<Ts>(visitor), true) : false) || ...);
    if (!matched) {
        return unimplementedError("dtype " + dataTypeName(dtype) + " is not supported here (supported: " +
                                  typeListNames(list) + ")");
    }
    return status;
}
} // namespace detail

/// Calls `visitor(TypeTag<T>{})` with the C++ type T of `dtype`, choosing among the types of
/// `List` (all mapped types by default), like a `switch` over dtypes. The visitor returns void
/// (then the result is ok) or Status (passed through). A dtype outside `List` (a ref dtype,
/// quantized, resource, variant, ...) gives Unimplemented naming the dtype and the supported
/// ones; the visitor is not called then.
template <typename List = AllTypes, typename Visitor>
Status dispatchDataType(DataType dtype, Visitor&& visitor)
{
    return detail::dispatchOver(dtype, visitor, List{});
}

} // namespace tstudio
