// JSON text that any bytes can go into: strings that are not UTF-8 (a DT_STRING value, a serialized
// proto, a path) become their Python bytes literal instead of making nlohmann::json throw.
#pragma once

#include "core/bytes_text.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tstudio {

/// `value` with every string and object key that is not valid UTF-8 replaced by its Python bytes
/// literal (b'\x0a\x03...', as TensorFlow's Python tools print such a value); valid UTF-8 is kept
/// as it is. Works for nlohmann::json and nlohmann::ordered_json.
template <typename Json>
Json withBytesAsText(Json value)
{
    if (value.is_string()) {
        auto& text = value.template get_ref<std::string&>();
        if (!isValidUtf8(text))
            text = pythonBytesLiteral(text);
        return value;
    }
    if (value.is_array()) {
        for (auto& element : value)
            element = withBytesAsText(std::move(element));
        return value;
    }
    if (value.is_object()) {
        Json out = Json::object();
        for (auto& [key, element] : value.items())
            out[utf8OrBytesLiteral(key)] = withBytesAsText(std::move(element));
        return out;
    }
    return value;
}

/// value.dump(indent) for any bytes in its strings (see withBytesAsText); never throws.
template <typename Json>
std::string jsonText(const Json& value, int indent = -1)
{
    return withBytesAsText(value).dump(indent, ' ', false, Json::error_handler_t::replace);
}

} // namespace tstudio
