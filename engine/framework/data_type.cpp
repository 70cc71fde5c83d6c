// DataType: sizes, TensorFlow's Python and C++ names, parsing and classification.
#include "framework/data_type.h"

#include <array>

namespace tstudio {

using namespace tensorflow;

namespace {

struct DataTypeInfo {
    DataType dtype;
    std::size_t size;          // bytes per element, 0 when not a fixed-size element
    std::string_view python;   // tf.DType.name
    std::string_view cpp;      // DataTypeString
};

// Sizes from formats.md §1.1; names from TensorFlow's dtypes.py and types.cc.
constexpr std::array kInfo{
    DataTypeInfo{DT_FLOAT, 4, "float32", "float"},
    DataTypeInfo{DT_DOUBLE, 8, "float64", "double"},
    DataTypeInfo{DT_INT32, 4, "int32", "int32"},
    DataTypeInfo{DT_UINT8, 1, "uint8", "uint8"},
    DataTypeInfo{DT_INT16, 2, "int16", "int16"},
    DataTypeInfo{DT_INT8, 1, "int8", "int8"},
    DataTypeInfo{DT_STRING, 0, "string", "string"},
    DataTypeInfo{DT_COMPLEX64, 8, "complex64", "complex64"},
    DataTypeInfo{DT_INT64, 8, "int64", "int64"},
    DataTypeInfo{DT_BOOL, 1, "bool", "bool"},
    DataTypeInfo{DT_QINT8, 1, "qint8", "qint8"},
    DataTypeInfo{DT_QUINT8, 1, "quint8", "quint8"},
    DataTypeInfo{DT_QINT32, 4, "qint32", "qint32"},
    DataTypeInfo{DT_BFLOAT16, 2, "bfloat16", "bfloat16"},
    DataTypeInfo{DT_QINT16, 2, "qint16", "qint16"},
    DataTypeInfo{DT_QUINT16, 2, "quint16", "quint16"},
    DataTypeInfo{DT_UINT16, 2, "uint16", "uint16"},
    DataTypeInfo{DT_COMPLEX128, 16, "complex128", "complex128"},
    DataTypeInfo{DT_HALF, 2, "float16", "half"},
    DataTypeInfo{DT_RESOURCE, 0, "resource", "resource"},
    DataTypeInfo{DT_VARIANT, 0, "variant", "variant"},
    DataTypeInfo{DT_UINT32, 4, "uint32", "uint32"},
    DataTypeInfo{DT_UINT64, 8, "uint64", "uint64"},
    // The 8-bit floats and small integers are stored one element per byte.
    DataTypeInfo{DT_FLOAT8_E5M2, 1, "float8_e5m2", "float8_e5m2"},
    DataTypeInfo{DT_FLOAT8_E4M3FN, 1, "float8_e4m3fn", "float8_e4m3fn"},
    DataTypeInfo{DT_FLOAT8_E4M3FNUZ, 1, "float8_e4m3fnuz", "float8_e4m3fnuz"},
    DataTypeInfo{DT_FLOAT8_E4M3B11FNUZ, 1, "float8_e4m3b11fnuz", "float8_e4m3b11fnuz"},
    DataTypeInfo{DT_FLOAT8_E5M2FNUZ, 1, "float8_e5m2fnuz", "float8_e5m2fnuz"},
    DataTypeInfo{DT_INT4, 1, "int4", "int4"},
    DataTypeInfo{DT_UINT4, 1, "uint4", "uint4"},
    DataTypeInfo{DT_INT2, 1, "int2", "int2"},
    DataTypeInfo{DT_UINT2, 1, "uint2", "uint2"},
    DataTypeInfo{DT_FLOAT4_E2M1FN, 1, "float4_e2m1fn", "float4_e2m1fn"},
};

const DataTypeInfo* findInfo(DataType dtype)
{
    for (const DataTypeInfo& info : kInfo) {
        if (info.dtype == dtype)
            return &info;
    }
    return nullptr;
}

std::string unknownEnumName(DataType dtype)
{
    return "unknown dtype enum (" + std::to_string(static_cast<int>(dtype)) + ")";
}

constexpr std::string_view kRefSuffix = "_ref";

} // namespace

bool detail::isKnownRefType(DataType dtype)
{
    return static_cast<int>(dtype) > kDataTypeRefOffset && findInfo(baseType(dtype)) != nullptr;
}

DataType makeRefType(DataType dtype)
{
    const int value = static_cast<int>(dtype);
    if (dtype == DT_INVALID || value > kDataTypeRefOffset)
        return dtype;
    return static_cast<DataType>(value + kDataTypeRefOffset);
}

std::size_t dataTypeSize(DataType dtype)
{
    const DataTypeInfo* info = findInfo(baseType(dtype));
    return info ? info->size : 0;
}

std::string dataTypeName(DataType dtype)
{
    if (dtype == DT_INVALID)
        return "invalid";
    const DataTypeInfo* info = findInfo(baseType(dtype));
    if (!info)
        return unknownEnumName(dtype);
    std::string name(info->python);
    if (isRefType(dtype))
        name += kRefSuffix;
    return name;
}

std::string dataTypeString(DataType dtype)
{
    if (dtype == DT_INVALID)
        return "INVALID";
    const DataTypeInfo* info = findInfo(baseType(dtype));
    if (!info)
        return unknownEnumName(dtype);
    std::string name(info->cpp);
    if (isRefType(dtype))
        name += kRefSuffix;
    return name;
}

Expected<DataType> dataTypeFromName(std::string_view name)
{
    // Enumerator names, with protobuf's own table: "DT_FLOAT", "DT_FLOAT_REF".
    if (name.starts_with("DT_")) {
        DataType parsed = DT_INVALID;
        if (DataType_Parse(std::string(name), &parsed) && parsed != DT_INVALID)
            return parsed;
        return unexpected(invalidArgumentError("unknown dtype name '" + std::string(name) + "'"));
    }
    std::string_view base = name;
    const bool ref = base.ends_with(kRefSuffix);
    if (ref)
        base.remove_suffix(kRefSuffix.size());
    for (const DataTypeInfo& info : kInfo) {
        if (base == info.python || base == info.cpp)
            return ref ? makeRefType(info.dtype) : info.dtype;
    }
    return unexpected(invalidArgumentError("unknown dtype name '" + std::string(name) + "'"));
}

bool isFloating(DataType dtype)
{
    return dtype == DT_HALF || dtype == DT_BFLOAT16 || dtype == DT_FLOAT || dtype == DT_DOUBLE;
}

bool isInteger(DataType dtype)
{
    switch (dtype) {
    case DT_INT8:
    case DT_INT16:
    case DT_INT32:
    case DT_INT64:
    case DT_UINT8:
    case DT_UINT16:
    case DT_UINT32:
    case DT_UINT64: return true;
    default: return false;
    }
}

bool isComplex(DataType dtype)
{
    return dtype == DT_COMPLEX64 || dtype == DT_COMPLEX128;
}

bool isQuantized(DataType dtype)
{
    switch (dtype) {
    case DT_QINT8:
    case DT_QUINT8:
    case DT_QINT16:
    case DT_QUINT16:
    case DT_QINT32: return true;
    default: return false;
    }
}

bool isNumeric(DataType dtype)
{
    return isFloating(dtype) || isInteger(dtype) || isComplex(dtype) || isQuantized(dtype);
}

} // namespace tstudio
