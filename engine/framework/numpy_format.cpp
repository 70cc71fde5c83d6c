// NumPy's array printing (str(ndarray), NumPy >= 1.14 defaults) for tensors. Written from NumPy's
// documented behaviour and checked against NumPy's own output (tools/golden/numpy_print.py).
#include "framework/numpy_format.h"

#include "core/bytes_text.h"

#include <Eigen/Core>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

namespace tstudio {
namespace {

// --- Decimal digits of one floating value ----------------------------------------------------------

/// A decimal number d1.d2d3... x 10^exponent (digits without leading zeros, except "0" for zero).
struct Decimal {
    bool negative = false;
    std::string digits;
    int exponent = 0;
};

/// Parses "-1.2345e-05" (printf / to_chars scientific notation).
Decimal parseScientific(std::string_view text)
{
    Decimal d;
    if (!text.empty() && text.front() == '-') {
        d.negative = true;
        text.remove_prefix(1);
    }
    const std::size_t e = text.find_first_of("eE");
    for (char c : text.substr(0, e))
        if (c != '.')
            d.digits += c;
    d.exponent = e == std::string_view::npos ? 0 : std::atoi(std::string(text.substr(e + 1)).c_str());
    return d;
}

template <typename T> double asDouble(T value)
{
    if constexpr (std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>)
        return static_cast<double>(static_cast<float>(value));
    else
        return static_cast<double>(value);
}

/// The shortest digits that read back as `value` in its own type (Dragon4's "unique" digits).
template <typename T> Decimal shortestDigits(T value)
{
    char buffer[64];
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
        return parseScientific(std::string_view(buffer, static_cast<std::size_t>(result.ptr - buffer)));
    } else {
        // half and bfloat16: the fewest significant digits whose value rounds back to `value`.
        const double v = asDouble(value);
        for (int digits = 1; digits < 17; ++digits) {
            std::snprintf(buffer, sizeof buffer, "%.*e", digits - 1, v);
            if (T(static_cast<float>(std::strtod(buffer, nullptr))) == value)
                return parseScientific(buffer);
        }
        std::snprintf(buffer, sizeof buffer, "%.16e", v);
        return parseScientific(buffer);
    }
}

std::string trimTrailingZeros(std::string s)
{
    while (!s.empty() && s.back() == '0')
        s.pop_back();
    return s;
}

/// A value in positional notation: integer digits and fraction digits (no trailing zeros).
struct Positional {
    bool negative = false;
    std::string integer;
    std::string fraction;
};

/// Dragon4 positional, unique digits: the shortest digits, cut to at most `precision` fraction
/// digits (< 0: no limit) by rounding the exact value (ties to even, as printf).
template <typename T> Positional positional(T value, int precision)
{
    const Decimal d = shortestDigits(value);
    Positional p;
    p.negative = std::signbit(asDouble(value));
    const int n = static_cast<int>(d.digits.size());
    if (precision >= 0 && n - 1 - d.exponent > precision) {
        char buffer[512];
        std::snprintf(buffer, sizeof buffer, "%.*f", precision, std::abs(asDouble(value)));
        const std::string_view text(buffer);
        const std::size_t dot = text.find('.');
        p.integer = std::string(text.substr(0, dot));
        p.fraction = dot == std::string_view::npos ? "" : trimTrailingZeros(std::string(text.substr(dot + 1)));
        return p;
    }
    if (d.exponent >= 0) {
        p.integer = d.digits.substr(0, std::min<std::size_t>(d.digits.size(), std::size_t(d.exponent) + 1));
        p.integer.append(static_cast<std::size_t>(std::max(0, d.exponent + 1 - n)), '0');
        if (n > d.exponent + 1)
            p.fraction = d.digits.substr(static_cast<std::size_t>(d.exponent) + 1);
    } else {
        p.integer = "0";
        p.fraction = std::string(static_cast<std::size_t>(-d.exponent - 1), '0') + d.digits;
    }
    p.fraction = trimTrailingZeros(p.fraction);
    return p;
}

/// A value in scientific notation: one digit, fraction digits (no trailing zeros), exponent.
struct Scientific {
    bool negative = false;
    char first = '0';
    std::string fraction;
    int exponent = 0;
};

/// Dragon4 scientific, unique digits, cut to at most `precision` fraction digits (< 0: no limit).
template <typename T> Scientific scientific(T value, int precision)
{
    Decimal d = shortestDigits(value);
    if (precision >= 0 && static_cast<int>(d.digits.size()) - 1 > precision) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.*e", precision, std::abs(asDouble(value)));
        d = parseScientific(buffer);
    }
    Scientific s;
    s.negative = std::signbit(asDouble(value));
    s.first = d.digits.empty() ? '0' : d.digits.front();
    s.fraction = trimTrailingZeros(d.digits.size() > 1 ? d.digits.substr(1) : std::string());
    s.exponent = d.exponent;
    return s;
}

std::string signText(bool negative, bool plus)
{
    return negative ? "-" : plus ? "+" : "";
}

std::string padLeft(std::string s, std::size_t width)
{
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string exponentText(int exponent, int digits)
{
    std::string e = std::to_string(std::abs(exponent));
    if (static_cast<int>(e.size()) < std::max(digits, 2))
        e.insert(0, static_cast<std::size_t>(std::max(digits, 2)) - e.size(), '0');
    return (exponent < 0 ? "e-" : "e+") + e;
}

// --- Element formats (NumPy's FloatingFormat, IntegerFormat, BoolFormat, ...) ------------------------

constexpr int kPrecision = 8;

/// NumPy's FloatingFormat with floatmode "maxprec": the notation and the paddings are chosen from
/// all values shown, then every value is printed with them.
template <typename T> class FloatFormat {
public:
    FloatFormat(const std::vector<T>& shown, bool plusSign) : m_plus(plusSign)
    {
        std::vector<T> finite;
        bool anyNonFinite = false, negativeInfinity = false;
        for (T v : shown) {
            const double d = asDouble(v);
            if (std::isfinite(d)) {
                finite.push_back(v);
            } else {
                anyNonFinite = true;
                negativeInfinity = negativeInfinity || (std::isinf(d) && d < 0);
            }
        }
        // Scientific when the largest magnitude is >= 1e8, the smallest < 1e-4 (both compared as
        // doubles), or their ratio (computed in T, as NumPy divides the two scalars) > 1000.
        bool anyNonZero = false;
        T maxAbs = T(0), minAbs = T(0);
        for (T v : finite) {
            if (asDouble(v) == 0)
                continue;
            const T a = T(std::abs(asDouble(v)));
            if (!anyNonZero || asDouble(a) > asDouble(maxAbs))
                maxAbs = a;
            if (!anyNonZero || asDouble(a) < asDouble(minAbs))
                minAbs = a;
            anyNonZero = true;
        }
        if (anyNonZero)
            m_exp = asDouble(maxAbs) >= 1e8 || asDouble(minAbs) < 1e-4 || asDouble(T(maxAbs / minAbs)) > 1000.0;

        if (finite.empty()) {
            m_padLeft = m_padRight = 0;
        } else if (m_exp) {
            std::size_t intWidth = 0, fractionDigits = 0, exponentDigits = 0;
            for (T v : finite) {
                const Scientific s = scientific(v, kPrecision);
                intWidth = std::max(intWidth, signText(s.negative, m_plus).size() + 1);
                fractionDigits = std::max(fractionDigits, s.fraction.size());
                exponentDigits =
                    std::max(exponentDigits, std::max<std::size_t>(2, std::to_string(std::abs(s.exponent)).size()));
            }
            m_precision = static_cast<int>(fractionDigits);
            m_expDigits = static_cast<int>(exponentDigits);
            m_padLeft = static_cast<int>(intWidth);
            m_padRight = m_expDigits + 2 + m_precision;
        } else {
            std::size_t intWidth = 0, fractionDigits = 0;
            for (T v : finite) {
                const Positional p = positional(v, kPrecision);
                intWidth = std::max(intWidth, signText(p.negative, m_plus).size() + p.integer.size());
                fractionDigits = std::max(fractionDigits, p.fraction.size());
            }
            m_padLeft = static_cast<int>(intWidth);
            m_padRight = static_cast<int>(fractionDigits);
        }
        if (anyNonFinite) {
            const int infWidth = 3 + ((m_plus || negativeInfinity) ? 1 : 0);
            const int offset = m_padRight + 1;
            m_padLeft = std::max({m_padLeft, 3 - offset, infWidth - offset});
        }
    }

    std::string operator()(T value) const
    {
        const double d = asDouble(value);
        if (!std::isfinite(d)) {
            const std::string text = std::isnan(d) ? (m_plus ? "+nan" : "nan")
                                     : d < 0       ? "-inf"
                                     : m_plus      ? "+inf"
                                                   : "inf";
            return padLeft(text, static_cast<std::size_t>(m_padLeft + m_padRight + 1));
        }
        if (m_exp) {
            Scientific s = scientific(value, m_precision);
            // Fewer unique digits than the common precision: NumPy prints further digits of the
            // exact value (min_digits), the last one rounded.
            if (static_cast<int>(s.fraction.size()) < m_precision) {
                char buffer[64];
                std::snprintf(buffer, sizeof buffer, "%.*e", m_precision, std::abs(d));
                const Decimal exact = parseScientific(buffer);
                s.first = exact.digits.front();
                s.fraction = exact.digits.substr(1);
                s.exponent = exact.exponent;
            }
            const std::string& fraction = s.fraction;
            return padLeft(signText(s.negative, m_plus) + s.first, static_cast<std::size_t>(m_padLeft)) + "." +
                   fraction + exponentText(s.exponent, m_expDigits);
        }
        const Positional p = positional(value, kPrecision);
        std::string text =
            padLeft(signText(p.negative, m_plus) + p.integer, static_cast<std::size_t>(m_padLeft)) + "." + p.fraction;
        text.append(static_cast<std::size_t>(std::max(0, m_padRight - static_cast<int>(p.fraction.size()))), ' ');
        return text;
    }

private:
    bool m_plus = false;
    bool m_exp = false;
    int m_padLeft = 0;
    int m_padRight = 0;
    int m_precision = kPrecision;
    int m_expDigits = 2;
};

/// A NumPy float scalar's str: positional for 0 and 1e-4 <= |x| < 1e16 ("3.5", "0.0"), scientific
/// otherwise ("1e-05", "1.5e+16"), all unique digits. `bare` drops the ".0" (complex parts).
template <typename T> std::string floatScalarText(T value, bool bare = false)
{
    const double d = asDouble(value);
    if (std::isnan(d))
        return "nan";
    if (std::isinf(d))
        return d < 0 ? "-inf" : "inf";
    const double a = std::abs(d);
    if (a == 0 || (a >= 1e-4 && a < 1e16)) {
        const Positional p = positional(value, -1);
        const std::string fraction = p.fraction.empty() ? (bare ? "" : "0") : p.fraction;
        return signText(p.negative, false) + p.integer + (fraction.empty() ? "" : "." + fraction);
    }
    const Scientific s = scientific(value, -1);
    return signText(s.negative, false) + s.first + (s.fraction.empty() ? "" : "." + s.fraction) +
           exponentText(s.exponent, 2);
}

using ElementText = std::function<std::string(std::int64_t flatIndex)>;

template <typename T> ElementText floatElements(const Tensor& tensor, const std::vector<std::int64_t>& shown)
{
    const auto values = tensor.values<T>();
    std::vector<T> sample;
    for (std::int64_t i : shown)
        sample.push_back(values[static_cast<std::size_t>(i)]);
    auto format = std::make_shared<FloatFormat<T>>(sample, false);
    return [values, format](std::int64_t i) { return (*format)(values[static_cast<std::size_t>(i)]); };
}

template <typename T> ElementText complexElements(const Tensor& tensor, const std::vector<std::int64_t>& shown)
{
    const auto values = tensor.values<std::complex<T>>();
    std::vector<T> re, im;
    for (std::int64_t i : shown) {
        re.push_back(values[static_cast<std::size_t>(i)].real());
        im.push_back(values[static_cast<std::size_t>(i)].imag());
    }
    auto real = std::make_shared<FloatFormat<T>>(re, false);
    auto imag = std::make_shared<FloatFormat<T>>(im, true);
    return [values, real, imag](std::int64_t i) {
        const std::complex<T> v = values[static_cast<std::size_t>(i)];
        std::string imagText = (*imag)(v.imag());
        // The "j" goes before the padding spaces of the imaginary part.
        const std::size_t end = imagText.find_last_not_of(' ') + 1;
        imagText.insert(end, "j");
        return (*real)(v.real()) + imagText;
    };
}

template <typename T> ElementText integerElements(const Tensor& tensor, const std::vector<std::int64_t>& shown)
{
    const auto values = tensor.values<T>();
    std::size_t width = 0;
    for (std::int64_t i : shown)
        width = std::max(width, std::to_string(values[static_cast<std::size_t>(i)]).size());
    return
        [values, width](std::int64_t i) { return padLeft(std::to_string(values[static_cast<std::size_t>(i)]), width); };
}

Expected<ElementText> elementText(const Tensor& tensor, const std::vector<std::int64_t>& shown)
{
    switch (tensor.dtype()) {
    case tensorflow::DT_FLOAT: return floatElements<float>(tensor, shown);
    case tensorflow::DT_DOUBLE: return floatElements<double>(tensor, shown);
    case tensorflow::DT_HALF: return floatElements<Eigen::half>(tensor, shown);
    case tensorflow::DT_BFLOAT16: return floatElements<Eigen::bfloat16>(tensor, shown);
    case tensorflow::DT_COMPLEX64: return complexElements<float>(tensor, shown);
    case tensorflow::DT_COMPLEX128: return complexElements<double>(tensor, shown);
    case tensorflow::DT_INT8:
    case tensorflow::DT_QINT8: return integerElements<std::int8_t>(tensor, shown);
    case tensorflow::DT_INT16:
    case tensorflow::DT_QINT16: return integerElements<std::int16_t>(tensor, shown);
    case tensorflow::DT_INT32:
    case tensorflow::DT_QINT32: return integerElements<std::int32_t>(tensor, shown);
    case tensorflow::DT_INT64: return integerElements<std::int64_t>(tensor, shown);
    case tensorflow::DT_UINT8:
    case tensorflow::DT_QUINT8: return integerElements<std::uint8_t>(tensor, shown);
    case tensorflow::DT_UINT16:
    case tensorflow::DT_QUINT16: return integerElements<std::uint16_t>(tensor, shown);
    case tensorflow::DT_UINT32: return integerElements<std::uint32_t>(tensor, shown);
    case tensorflow::DT_UINT64: return integerElements<std::uint64_t>(tensor, shown);
    case tensorflow::DT_BOOL: {
        const auto values = tensor.values<bool>();
        return ElementText(
            [values](std::int64_t i) { return std::string(values[static_cast<std::size_t>(i)] ? " True" : "False"); });
    }
    case tensorflow::DT_STRING: {
        const auto values = tensor.values<std::string>();
        return ElementText([values](std::int64_t i) { return pythonBytesLiteral(values[static_cast<std::size_t>(i)]); });
    }
    default: return unexpected(unimplementedError("cannot print values of dtype " + dataTypeString(tensor.dtype())));
    }
}

/// A 0-d tensor as NumPy prints the scalar.
Expected<std::string> scalarText(const Tensor& tensor)
{
    switch (tensor.dtype()) {
    case tensorflow::DT_FLOAT: return floatScalarText(tensor.values<float>()[0]);
    case tensorflow::DT_DOUBLE: return floatScalarText(tensor.values<double>()[0]);
    case tensorflow::DT_HALF: return floatScalarText(tensor.values<Eigen::half>()[0]);
    case tensorflow::DT_BFLOAT16: return floatScalarText(tensor.values<Eigen::bfloat16>()[0]);
    case tensorflow::DT_BOOL: return std::string(tensor.values<bool>()[0] ? "True" : "False");
    case tensorflow::DT_COMPLEX64:
    case tensorflow::DT_COMPLEX128: {
        const auto v = tensor.dtype() == tensorflow::DT_COMPLEX64
                           ? std::complex<double>(tensor.values<std::complex<float>>()[0])
                           : tensor.values<std::complex<double>>()[0];
        // Python's complex repr: "(re+imj)", or "imj" when the real part is +0.
        std::string imag = tensor.dtype() == tensorflow::DT_COMPLEX64 ? floatScalarText(float(v.imag()), true)
                                                                      : floatScalarText(v.imag(), true);
        if (imag.front() != '-')
            imag.insert(0, "+");
        if (v.real() == 0 && !std::signbit(v.real()))
            return imag.substr(imag.front() == '+' ? 1 : 0) + "j";
        const std::string real = tensor.dtype() == tensorflow::DT_COMPLEX64 ? floatScalarText(float(v.real()), true)
                                                                            : floatScalarText(v.real(), true);
        return "(" + real + imag + "j)";
    }
    default: {
        auto text = elementText(tensor, {0});
        if (!text)
            return unexpected(text.error());
        std::string s = (*text)(0);
        return s.substr(s.find_first_not_of(' '));
    }
    }
}

// --- Layout (NumPy's _formatArray) --------------------------------------------------------------------

class ArrayPrinter {
public:
    ArrayPrinter(const Tensor& tensor, const NumpyPrintOptions& options, bool summarise)
        : m_dims(tensor.shape().dims().begin(), tensor.shape().dims().end()), m_options(options), m_summarise(summarise)
    {
        m_strides.assign(m_dims.size(), 1);
        for (int axis = static_cast<int>(m_dims.size()) - 2; axis >= 0; --axis)
            m_strides[static_cast<std::size_t>(axis)] =
                m_strides[static_cast<std::size_t>(axis) + 1] * m_dims[static_cast<std::size_t>(axis) + 1];
    }

    /// The flat indices of the elements shown (all of them unless summarised).
    std::vector<std::int64_t> shownIndices() const
    {
        std::vector<std::int64_t> out;
        collect(0, 0, out);
        return out;
    }

    std::string print(const ElementText& element)
    {
        m_element = &element;
        return recurse(0, 0, " ", m_options.lineWidth);
    }

private:
    std::vector<std::int64_t> keptAlong(std::size_t axis) const
    {
        const std::int64_t n = m_dims[axis];
        const std::int64_t edge = m_options.edgeItems;
        std::vector<std::int64_t> kept;
        for (std::int64_t i = 0; i < n; ++i)
            if (!(m_summarise && 2 * edge < n) || i < edge || i >= n - edge)
                kept.push_back(i);
        return kept;
    }

    void collect(std::size_t axis, std::int64_t offset, std::vector<std::int64_t>& out) const
    {
        if (axis == m_dims.size()) {
            out.push_back(offset);
            return;
        }
        for (std::int64_t i : keptAlong(axis))
            collect(axis + 1, offset + i * m_strides[axis], out);
    }

    static void extendLine(std::string& s, std::string& line, const std::string& word, std::size_t width,
                           const std::string& nextLinePrefix)
    {
        const bool wrap = line.size() + word.size() > width && line.size() > nextLinePrefix.size();
        if (wrap) {
            s += line.substr(0, line.find_last_not_of(" \n") + 1) + "\n";
            line = nextLinePrefix;
        }
        line += word;
    }

    std::string recurse(std::size_t axis, std::int64_t offset, const std::string& hanging, int width)
    {
        if (axis == m_dims.size())
            return (*m_element)(offset);
        const std::string nextHanging = hanging + " ";
        const int nextWidth = width - 1;
        const std::int64_t n = m_dims[axis];
        const std::int64_t edge = m_options.edgeItems;
        const bool summary = m_summarise && 2 * edge < n;
        const std::int64_t leading = summary ? edge : 0;
        const std::int64_t trailing = summary ? edge : n;
        const std::int64_t stride = m_strides[axis];
        std::string s;
        if (axis + 1 == m_dims.size()) {
            const auto elemWidth = static_cast<std::size_t>(width - 1);
            std::string line = hanging;
            for (std::int64_t i = 0; i < leading; ++i) {
                extendLine(s, line, recurse(axis + 1, offset + i * stride, nextHanging, nextWidth), elemWidth, hanging);
                line += " ";
            }
            if (summary) {
                extendLine(s, line, "...", elemWidth, hanging);
                line += " ";
            }
            for (std::int64_t i = trailing; i > 1; --i) {
                extendLine(s, line, recurse(axis + 1, offset + (n - i) * stride, nextHanging, nextWidth), elemWidth,
                           hanging);
                line += " ";
            }
            extendLine(s, line, recurse(axis + 1, offset + (n - 1) * stride, nextHanging, nextWidth), elemWidth,
                       hanging);
            s += line;
        } else {
            const std::string lineSeparator(static_cast<std::size_t>(m_dims.size() - axis - 1), '\n');
            for (std::int64_t i = 0; i < leading; ++i)
                s += hanging + recurse(axis + 1, offset + i * stride, nextHanging, nextWidth) + lineSeparator;
            if (summary)
                s += hanging + "..." + lineSeparator;
            for (std::int64_t i = trailing; i > 1; --i)
                s += hanging + recurse(axis + 1, offset + (n - i) * stride, nextHanging, nextWidth) + lineSeparator;
            s += hanging + recurse(axis + 1, offset + (n - 1) * stride, nextHanging, nextWidth);
        }
        return "[" + s.substr(hanging.size()) + "]";
    }

    std::vector<std::int64_t> m_dims;
    std::vector<std::int64_t> m_strides;
    NumpyPrintOptions m_options;
    bool m_summarise = false;
    const ElementText* m_element = nullptr;
};

} // namespace

Expected<std::string> formatLikeNumpy(const Tensor& tensor, const NumpyPrintOptions& options)
{
    if (!tensor.isInitialized())
        return unexpected(failedPreconditionError("the tensor holds no value"));
    if (tensor.rank() == 0)
        return scalarText(tensor);
    if (tensor.numElements() == 0)
        return std::string("[]");
    ArrayPrinter printer(tensor, options, tensor.numElements() > options.threshold);
    auto element = elementText(tensor, printer.shownIndices());
    if (!element)
        return unexpected(element.error());
    return printer.print(*element);
}

} // namespace tstudio
