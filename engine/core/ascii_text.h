// Character classes and trimming of ASCII text, independent of the C locale: what the engine's
// small text parsers (attr values, op signatures, breakpoints, CSV fields, numbers) share.
#pragma once

#include <string_view>

namespace tstudio {

/// '0'..'9'.
constexpr bool isAsciiDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// The white space of the C locale's isspace: ' ', '\t', '\n', '\v', '\f', '\r'.
constexpr bool isAsciiSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/// `text` without the ASCII white space at either end.
constexpr std::string_view trimAsciiSpace(std::string_view text)
{
    while (!text.empty() && isAsciiSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isAsciiSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

} // namespace tstudio
