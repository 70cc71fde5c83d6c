// Tensor elements as NumPy prints scalars (see tensor_value_text.h).
#include "tensor_view/tensor_value_text.h"

#include "core/bytes_text.h"

#include <charconv>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

namespace tstudio::debugger_ui {

namespace {

/// A finite non-zero magnitude as its shortest round-trip digits d1 d2 ... and the power of ten of d1.
struct Digits {
    std::string digits;
    int exponent = 0;
};

/// Splits "d.ddde[+-]x" (printf's or to_chars' scientific form) into digits and exponent.
Digits splitScientific(std::string_view text)
{
    Digits out;
    const auto e = text.find('e');
    for (char c : text.substr(0, e))
        if (c != '.')
            out.digits += c;
    std::from_chars(text.data() + e + 1 + (text[e + 1] == '+' ? 1 : 0), text.data() + text.size(), out.exponent);
    while (out.digits.size() > 1 && out.digits.back() == '0')
        out.digits.pop_back();
    return out;
}

/// Shortest digits of a positive float or double: to_chars finds them exactly.
template <typename T>
Digits shortestDigits(T magnitude)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, magnitude, std::chars_format::scientific);
    return splitScientific(std::string_view(buffer, static_cast<std::size_t>(result.ptr - buffer)));
}

/// Shortest digits of a positive half or bfloat16: the first precision whose correctly rounded decimal
/// reads back as the same value (printf rounds to the nearest, so that decimal is also the closest).
template <typename T>
Digits shortestNarrowDigits(T magnitude)
{
    const double exact = static_cast<double>(static_cast<float>(magnitude));
    char buffer[64];
    for (int precision = 1; precision <= 9; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*e", precision - 1, exact);
        const double back = std::strtod(buffer, nullptr);
        if (static_cast<float>(T(static_cast<float>(back))) == static_cast<float>(magnitude))
            return splitScientific(buffer);
    }
    return shortestDigits(static_cast<float>(magnitude));
}

/// NumPy's layout of a finite non-zero magnitude: positional inside [1e-4, 1e16), else scientific.
std::string layOut(const Digits& d, double magnitude, bool integralDotZero)
{
    if (magnitude < 1e-4 || magnitude >= 1e16) {
        std::string out(1, d.digits[0]);
        if (d.digits.size() > 1)
            out += "." + d.digits.substr(1);
        const int e = std::abs(d.exponent);
        out += d.exponent < 0 ? "e-" : "e+";
        if (e < 10)
            out += '0';
        return out + std::to_string(e);
    }
    if (d.exponent < 0)
        return "0." + std::string(static_cast<std::size_t>(-d.exponent - 1), '0') + d.digits;
    const auto intDigits = static_cast<std::size_t>(d.exponent) + 1;
    std::string integer = d.digits.substr(0, std::min(intDigits, d.digits.size()));
    integer.resize(intDigits, '0');
    const std::string fraction = d.digits.size() > intDigits ? d.digits.substr(intDigits) : std::string();
    if (!fraction.empty())
        return integer + "." + fraction;
    return integralDotZero ? integer + ".0" : integer;
}

/// The whole text of one floating value of type T (digits found by `digitsOf`).
template <typename T, typename DigitsOf>
std::string floatText(T value, DigitsOf digitsOf, bool integralDotZero = true)
{
    double wide = 0;
    if constexpr (std::is_same_v<T, double>)
        wide = value;
    else
        wide = static_cast<double>(static_cast<float>(value));
    if (std::isnan(wide))
        return "nan";
    const std::string sign = std::signbit(wide) ? "-" : "";
    if (std::isinf(wide))
        return sign + "inf";
    if (wide == 0)
        return sign + (integralDotZero ? "0.0" : "0");
    const T magnitude = std::signbit(wide) ? T(-value) : value;
    return sign + layOut(digitsOf(magnitude), std::abs(wide), integralDotZero);
}

std::string doubleText(double v, bool dotZero = true)
{
    return floatText(v, [](double m) { return shortestDigits(m); }, dotZero);
}
std::string floatOnlyText(float v, bool dotZero = true)
{
    return floatText(v, [](float m) { return shortestDigits(m); }, dotZero);
}

/// Python's repr of a complex number whose parts print with `part` (no ".0" on integral parts).
template <typename Part>
std::string complexText(double re, double im, Part part)
{
    std::string imag = part(im) + "j";
    if (re == 0 && !std::signbit(re))
        return imag;
    if (imag[0] != '-')
        imag = "+" + imag;
    return "(" + part(re) + imag + ")";
}

} // namespace

QString formatDouble(double value)
{
    return QString::fromStdString(doubleText(value));
}

QString formatFloat(float value)
{
    return QString::fromStdString(floatOnlyText(value));
}

QString formatHalf(Eigen::half value)
{
    return QString::fromStdString(floatText(value, [](Eigen::half m) { return shortestNarrowDigits(m); }));
}

QString formatBFloat16(Eigen::bfloat16 value)
{
    return QString::fromStdString(floatText(value, [](Eigen::bfloat16 m) { return shortestNarrowDigits(m); }));
}

QString formatBytesLiteral(std::string_view bytes)
{
    return QString::fromStdString(pythonBytesLiteral(bytes));
}

QString formatElement(const Tensor& tensor, std::int64_t index, int maxStringChars)
{
    if (!tensor.isInitialized() || index < 0 || index >= tensor.numElements())
        return {};
    const DataType dtype = baseType(tensor.dtype());
    if (dtype == tensorflow::DT_RESOURCE || dtype == tensorflow::DT_VARIANT)
        return QStringLiteral("<%1>").arg(QString::fromStdString(dataTypeName(dtype)));
    if (dtype == tensorflow::DT_STRING) {
        const QString text = formatBytesLiteral(tensor.strings()[static_cast<std::size_t>(index)]);
        return text.size() > maxStringChars ? text.left(maxStringChars) + QChar(0x2026) : text;
    }
    const std::byte* base = tensor.tensorData().data();
    const auto at = [&](auto tag) {
        using T = typename decltype(tag)::type;
        return reinterpret_cast<const T*>(base)[index];
    };
    switch (detail::storageDataType(dtype)) {
    case tensorflow::DT_FLOAT: return formatFloat(at(TypeTag<float>{}));
    case tensorflow::DT_DOUBLE: return formatDouble(at(TypeTag<double>{}));
    case tensorflow::DT_HALF: return formatHalf(at(TypeTag<Eigen::half>{}));
    case tensorflow::DT_BFLOAT16: return formatBFloat16(at(TypeTag<Eigen::bfloat16>{}));
    case tensorflow::DT_BOOL: return at(TypeTag<bool>{}) ? QStringLiteral("True") : QStringLiteral("False");
    case tensorflow::DT_INT8: return QString::number(at(TypeTag<std::int8_t>{}));
    case tensorflow::DT_INT16: return QString::number(at(TypeTag<std::int16_t>{}));
    case tensorflow::DT_INT32: return QString::number(at(TypeTag<std::int32_t>{}));
    case tensorflow::DT_INT64: return QString::number(static_cast<qint64>(at(TypeTag<std::int64_t>{})));
    case tensorflow::DT_UINT8: return QString::number(at(TypeTag<std::uint8_t>{}));
    case tensorflow::DT_UINT16: return QString::number(at(TypeTag<std::uint16_t>{}));
    case tensorflow::DT_UINT32: return QString::number(at(TypeTag<std::uint32_t>{}));
    case tensorflow::DT_UINT64: return QString::number(static_cast<quint64>(at(TypeTag<std::uint64_t>{})));
    case tensorflow::DT_COMPLEX64: {
        const auto c = at(TypeTag<std::complex<float>>{});
        return QString::fromStdString(complexText(c.real(), c.imag(), [](double part) {
            return floatOnlyText(static_cast<float>(part), false);
        }));
    }
    case tensorflow::DT_COMPLEX128: {
        const auto c = at(TypeTag<std::complex<double>>{});
        return QString::fromStdString(complexText(c.real(), c.imag(), [](double part) { return doubleText(part, false); }));
    }
    default: return QStringLiteral("<%1>").arg(QString::fromStdString(dataTypeName(dtype)));
    }
}

QString formatValueAs(double value, DataType dtype)
{
    dtype = baseType(dtype);
    switch (detail::storageDataType(dtype)) {
    case tensorflow::DT_FLOAT: return formatFloat(static_cast<float>(value));
    case tensorflow::DT_HALF: return formatHalf(Eigen::half(static_cast<float>(value)));
    case tensorflow::DT_BFLOAT16: return formatBFloat16(Eigen::bfloat16(static_cast<float>(value)));
    default: break;
    }
    const bool integral = isInteger(detail::storageDataType(dtype)) || dtype == tensorflow::DT_BOOL;
    if (integral && std::isfinite(value) && value == std::floor(value) && std::abs(value) < 9.2e18)
        return QString::number(static_cast<qint64>(value));
    return formatDouble(value);
}

} // namespace tstudio::debugger_ui
