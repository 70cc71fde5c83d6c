// TensorFlow's number grammar checked by hand (double-conversion's rules for floats, safe_strto*'s
// for integers); the decimal value itself comes from the C library's correctly rounded strtod_l /
// strtof_l in the "C" locale, so a GUI locale with a decimal comma changes nothing.
#include "kernels/parsing/number_parsing.h"

#include "core/ascii_text.h"

#include <clocale>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <locale.h>
#include <string>

namespace tstudio::parsing {
namespace {

/// double-conversion's and isspace's white space in the "C" locale.
bool isHexDigit(char c)
{
    return isAsciiDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool equalsIgnoringCase(std::string_view text, std::string_view lower)
{
    if (text.size() != lower.size())
        return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
        if (c != lower[i])
            return false;
    }
    return true;
}

/// A decimal number: digits, optional '.' and digits (a digit on at least one side), optional
/// exponent with at least one digit; nothing else.
bool isDecimal(std::string_view s)
{
    std::size_t i = 0;
    std::size_t digits = 0;
    while (i < s.size() && isAsciiDigit(s[i]))
        ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && isAsciiDigit(s[i]))
            ++i, ++digits;
    }
    if (digits == 0)
        return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
        std::size_t exponentDigits = 0;
        while (i < s.size() && isAsciiDigit(s[i]))
            ++i, ++exponentDigits;
        if (exponentDigits == 0)
            return false;
    }
    return i == s.size();
}

locale_t cLocale()
{
    static const locale_t locale = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr));
    return locale;
}

template <typename T> T convert(const std::string& text)
{
    if constexpr (std::is_same_v<T, float>)
        return strtof_l(text.c_str(), nullptr, cLocale());
    else
        return strtod_l(text.c_str(), nullptr, cLocale());
}

/// TensorFlow's kFastToBufferSize: safe_strtof/safe_strtod refuse text this long or longer.
constexpr std::size_t kFastToBufferSize = 32;

template <typename T> bool parseReal(std::string_view text, T* value)
{
    if (text.empty() || text.size() >= kFastToBufferSize)
        return false;
    std::size_t begin = 0;
    std::size_t end = text.size();
    while (begin < end && isAsciiSpace(text[begin]))
        ++begin;
    if (begin == end) { // spaces only: double-conversion's empty-string value
        *value = T(0);
        return true;
    }
    while (end > begin && isAsciiSpace(text[end - 1]))
        --end;
    bool negative = false;
    if (text[begin] == '+' || text[begin] == '-') {
        negative = text[begin] == '-';
        ++begin;
    }
    const std::string_view body = text.substr(begin, end - begin); // no sign, no surrounding spaces
    if (body.empty())
        return false;
    if (equalsIgnoringCase(body, "inf")) {
        *value = negative ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
        return true;
    }
    if (equalsIgnoringCase(body, "nan")) {
        *value = std::copysign(std::numeric_limits<T>::quiet_NaN(), negative ? T(-1) : T(1));
        return true;
    }
    const std::string sign = negative ? "-" : "";
    if (body.size() >= 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
        const std::string_view digits = body.substr(2);
        if (digits.empty())
            return false;
        for (char c : digits)
            if (!isHexDigit(c))
                return false;
        *value = convert<T>(sign + "0x" + std::string(digits));
        return true;
    }
    if (!isDecimal(body))
        return false;
    *value = convert<T>(sign + std::string(body));
    return true;
}

/// safe_strto64's and safe_strto32's shape: spaces, optional '-', digits, spaces; each digit
/// checked against the limit before it is added.
template <typename Int> bool parseInteger(std::string_view text, Int* value)
{
    std::size_t i = 0;
    while (i < text.size() && isAsciiSpace(text[i]))
        ++i;
    const bool negative = i < text.size() && text[i] == '-';
    if (negative)
        ++i;
    if (i == text.size() || !isAsciiDigit(text[i]))
        return false;
    Int result = 0;
    for (; i < text.size() && isAsciiDigit(text[i]); ++i) {
        const Int digit = static_cast<Int>(text[i] - '0');
        if (!negative) {
            if ((std::numeric_limits<Int>::max() - digit) / 10 < result)
                return false;
            result = static_cast<Int>(result * 10 + digit);
        } else {
            if ((std::numeric_limits<Int>::min() + digit) / 10 > result)
                return false;
            result = static_cast<Int>(result * 10 - digit);
        }
    }
    while (i < text.size() && isAsciiSpace(text[i]))
        ++i;
    if (i != text.size())
        return false;
    *value = result;
    return true;
}

} // namespace

bool parseFloat(std::string_view text, float* value)
{
    return parseReal(text, value);
}

bool parseDouble(std::string_view text, double* value)
{
    return parseReal(text, value);
}

bool parseInt32(std::string_view text, std::int32_t* value)
{
    return parseInteger(text, value);
}

bool parseInt64(std::string_view text, std::int64_t* value)
{
    return parseInteger(text, value);
}

} // namespace tstudio::parsing
