// Short constructors for the AttrValues passed to GraphBuilder::op, named after AttrValue's fields.
#pragma once

#include "framework/data_type.h"
#include "framework/tensor_shape.h"
#include "proto/attr_value.pb.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

/// The attrs of a node under construction, by name.
using AttrMap = std::map<std::string, tensorflow::AttrValue, std::less<>>;

namespace attr {

inline tensorflow::AttrValue i(std::int64_t value)
{
    tensorflow::AttrValue v;
    v.set_i(value);
    return v;
}
inline tensorflow::AttrValue f(float value)
{
    tensorflow::AttrValue v;
    v.set_f(value);
    return v;
}
inline tensorflow::AttrValue b(bool value)
{
    tensorflow::AttrValue v;
    v.set_b(value);
    return v;
}
inline tensorflow::AttrValue s(std::string_view value)
{
    tensorflow::AttrValue v;
    v.set_s(std::string(value));
    return v;
}
inline tensorflow::AttrValue type(DataType value)
{
    tensorflow::AttrValue v;
    v.set_type(value);
    return v;
}
inline tensorflow::AttrValue shape(const TensorShape& value)
{
    tensorflow::AttrValue v;
    *v.mutable_shape() = value.toProto();
    return v;
}
inline tensorflow::AttrValue tensor(const tensorflow::TensorProto& value)
{
    tensorflow::AttrValue v;
    *v.mutable_tensor() = value;
    return v;
}
inline tensorflow::AttrValue ints(const std::vector<std::int64_t>& values)
{
    tensorflow::AttrValue v;
    auto* list = v.mutable_list();
    for (std::int64_t x : values)
        list->add_i(x);
    return v;
}
inline tensorflow::AttrValue types(const std::vector<DataType>& values)
{
    tensorflow::AttrValue v;
    auto* list = v.mutable_list();
    for (DataType x : values)
        list->add_type(x);
    return v;
}
inline tensorflow::AttrValue strings(const std::vector<std::string>& values)
{
    tensorflow::AttrValue v;
    auto* list = v.mutable_list();
    for (const std::string& x : values)
        list->add_s(x);
    return v;
}

} // namespace attr
} // namespace tstudio
