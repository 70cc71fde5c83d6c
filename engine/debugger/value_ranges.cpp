// ValueRanges: parsing and formatting tfdbg's `pt -r` intervals and counting tensor elements inside them.
#include "debugger/value_ranges.h"

#include "core/ascii_text.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <span>

namespace tstudio::debugger {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

bool isWordChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isAsciiDigit(c) || c == '_';
}

/// Python-like: integers without ".0" ("-1"), infinities as "inf", others as the shortest text
/// that reads back exactly.
std::string formatNumber(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    if (v == std::trunc(v) && std::fabs(v) < 1e16)
        return std::to_string(static_cast<std::int64_t>(v));
    char buffer[64];
    const auto [ptr, error] = std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::general);
    return error == std::errc() ? std::string(buffer, ptr) : std::to_string(v);
}

/// Reads "[a, b]" or "[[a, b], ...]"; columns in messages are 1-based.
class RangesParser {
public:
    explicit RangesParser(std::string_view text) : m_text(text) {}

    Expected<ValueRanges> parse()
    {
        ValueRanges result;
        skipSpaces();
        if (atEnd())
            return result; // tfdbg treats an empty range string as no ranges
        if (peek() != '[')
            return fail("expected '['");
        const std::size_t open = m_pos;
        skipSpaces(1);
        if (!atEnd() && peek() == ']') { // "[]": a list of no intervals
            skipSpaces(1);
            return finish(result);
        }
        if (!atEnd() && peek() == '[') {
            while (true) {
                auto range = parseInterval();
                if (!range)
                    return unexpected(range.error());
                result.ranges.push_back(*range);
                skipSpaces();
                if (!atEnd() && peek() == ']')
                    break;
                if (atEnd() || peek() != ',')
                    return fail("expected ',' or ']'");
                skipSpaces(1);
                if (!atEnd() && peek() == ']') // Python allows a trailing comma in a list
                    break;
                if (atEnd() || peek() != '[')
                    return fail("expected '[' to start an interval");
            }
            skipSpaces(1);
            return finish(result);
        }
        // A single interval: its '[' is the one already read.
        m_pos = open;
        auto range = parseInterval();
        if (!range)
            return unexpected(range.error());
        result.ranges.push_back(*range);
        skipSpaces();
        return finish(result);
    }

private:
    Expected<ValueRanges> finish(const ValueRanges& result)
    {
        skipSpaces();
        if (!atEnd())
            return fail("expected nothing after the closing ']'");
        return result;
    }

    /// "[a, b]" at m_pos (which is on the '[').
    Expected<ValueRange> parseInterval()
    {
        const std::size_t open = m_pos;
        skipSpaces(1);
        auto low = parseNumber();
        if (!low)
            return unexpected(low.error());
        skipSpaces();
        if (atEnd() || peek() != ',')
            return fail("expected ',' between the two ends of an interval");
        skipSpaces(1);
        auto high = parseNumber();
        if (!high)
            return unexpected(high.error());
        skipSpaces();
        if (!atEnd() && peek() == ',')
            skipSpaces(1);
        if (atEnd() || peek() != ']')
            return fail("expected ']' after the two ends of an interval");
        ++m_pos;
        if (*low > *high) {
            return failAt(open, "the interval's low end " + formatNumber(*low) + " is above its high end " +
                                    formatNumber(*high));
        }
        return ValueRange{*low, *high};
    }

    /// A Python number literal with an optional sign: "1", "-2.5", ".5", "1e-3", "inf", "-inf".
    Expected<double> parseNumber()
    {
        const std::size_t start = m_pos;
        bool negative = false;
        if (!atEnd() && (peek() == '+' || peek() == '-')) {
            negative = peek() == '-';
            skipSpaces(1);
        }
        const std::size_t begin = m_pos;
        if (m_text.substr(m_pos, 3) == "inf" && !followedByName(m_pos + 3)) {
            m_pos += 3;
            return negative ? -kInfinity : kInfinity;
        }
        if (m_text.substr(m_pos, 3) == "nan" && !followedByName(m_pos + 3))
            return failAt(start, "expected a number (NaN cannot bound an interval)");
        std::size_t end = m_pos;
        std::size_t integerDigits = 0, fractionDigits = 0;
        while (end < m_text.size() && isAsciiDigit(m_text[end]))
            ++end, ++integerDigits;
        if (end < m_text.size() && m_text[end] == '.') {
            ++end;
            while (end < m_text.size() && isAsciiDigit(m_text[end]))
                ++end, ++fractionDigits;
        }
        if (integerDigits + fractionDigits == 0)
            return failAt(begin, "expected a number");
        const std::size_t mantissaEnd = end;
        if (end < m_text.size() && (m_text[end] == 'e' || m_text[end] == 'E')) {
            std::size_t e = end + 1;
            if (e < m_text.size() && (m_text[e] == '+' || m_text[e] == '-'))
                ++e;
            if (e >= m_text.size() || !isAsciiDigit(m_text[e]))
                return failAt(begin, "expected a number");
            while (e < m_text.size() && isAsciiDigit(m_text[e]))
                ++e;
            end = e;
        }
        if (followedByName(end))
            return failAt(begin, "expected a number");
        const std::string_view token = m_text.substr(begin, end - begin);
        double value = 0;
        const auto [ptr, error] = std::from_chars(token.data(), token.data() + token.size(), value);
        if (ptr != token.data() + token.size())
            return failAt(begin, "expected a number");
        if (error == std::errc::result_out_of_range)
            value = overflows(token, mantissaEnd - begin) ? kInfinity : 0.0; // as Python's float literals
        m_pos = end;
        return negative ? -value : value;
    }

    /// For a literal out of double's range: true when it is too large (Python makes it inf), false
    /// when too small (Python makes it 0).
    static bool overflows(std::string_view token, std::size_t mantissaLength)
    {
        // Decimal exponent of the first non-zero digit, from the mantissa and the written exponent.
        const std::string_view mantissa = token.substr(0, mantissaLength);
        std::int64_t exponent = 0;
        const std::size_t point = mantissa.find('.');
        const std::string_view integer = mantissa.substr(0, point);
        const std::size_t firstNonZero = integer.find_first_not_of('0');
        if (firstNonZero != std::string_view::npos) {
            exponent = static_cast<std::int64_t>(integer.size() - firstNonZero) - 1;
        } else if (point != std::string_view::npos) {
            const std::string_view fraction = mantissa.substr(point + 1);
            exponent = -static_cast<std::int64_t>(fraction.find_first_not_of('0')) - 1;
        }
        if (mantissaLength < token.size()) {
            std::size_t i = mantissaLength + 1;
            const bool negative = token[i] == '-';
            if (token[i] == '+' || token[i] == '-')
                ++i;
            std::int64_t written = 0;
            for (; i < token.size() && written < 1'000'000'000; ++i)
                written = written * 10 + (token[i] - '0');
            exponent += negative ? -written : written;
        }
        return exponent > 0;
    }

    bool followedByName(std::size_t pos) const
    {
        return pos < m_text.size() && (isWordChar(m_text[pos]) || m_text[pos] == '.');
    }

    /// Skips `n` characters, then spaces.
    void skipSpaces(std::size_t n = 0)
    {
        m_pos += n;
        while (!atEnd() && (peek() == ' ' || peek() == '\t'))
            ++m_pos;
    }

    char peek() const { return m_text[m_pos]; }
    bool atEnd() const { return m_pos >= m_text.size(); }

    tl::unexpected<Status> fail(std::string_view expected) const { return failAt(m_pos, std::string(expected)); }

    tl::unexpected<Status> failAt(std::size_t pos, const std::string& what) const
    {
        return unexpected(invalidArgumentError("value ranges '" + std::string(m_text) + "': " + what + " at column " +
                                               std::to_string(pos + 1)));
    }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
};

/// Counts for float32, float16 and bfloat16 as NumPy (and so tfdbg) compares such an array with a
/// Python float: the bound is first rounded to the element type, so "[0, 0.1]" holds the float32
/// value printed as 0.1. The comparison is done in float. (Rounding the bounds in place as doubles,
/// `r.high = double(float(r.high))` over the ranges, is miscompiled by GCC 12.2's SLP vectorizer at
/// -O2: the rounding is dropped.)
template <typename T> std::int64_t countNarrowFloats(std::span<const T> values, const ValueRanges& ranges)
{
    struct Bounds {
        float low, high;
    };
    std::vector<Bounds> bounds;
    for (const ValueRange& r : ranges.ranges) {
        bounds.push_back({static_cast<float>(static_cast<T>(static_cast<float>(r.low))),
                          static_cast<float>(static_cast<T>(static_cast<float>(r.high)))});
    }
    std::int64_t count = 0;
    for (const T& element : values) {
        const float v = static_cast<float>(element);
        for (const Bounds& b : bounds) {
            if (v >= b.low && v <= b.high) {
                ++count;
                break;
            }
        }
    }
    return count;
}

using CountableTypes = TypeList<Eigen::half, Eigen::bfloat16, float, double, std::int8_t, std::int16_t, std::int32_t,
                                std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, bool>;

} // namespace

bool ValueRanges::contains(double v) const
{
    for (const ValueRange& range : ranges) {
        if (range.contains(v))
            return true;
    }
    return false;
}

Expected<ValueRanges> parseValueRanges(std::string_view text)
{
    return RangesParser(text).parse();
}

std::string formatValueRanges(const ValueRanges& ranges)
{
    auto interval = [](const ValueRange& r) { return "[" + formatNumber(r.low) + ", " + formatNumber(r.high) + "]"; };
    if (ranges.ranges.size() == 1)
        return interval(ranges.ranges.front());
    std::string text = "[";
    for (std::size_t i = 0; i < ranges.ranges.size(); ++i)
        text += (i > 0 ? ", " : "") + interval(ranges.ranges[i]);
    return text + "]";
}

Expected<std::int64_t> countInRanges(const Tensor& tensor, const ValueRanges& ranges)
{
    const DataType dtype = tensor.dtype();
    if (!tensor.isInitialized())
        return unexpected(failedPreconditionError("cannot count values of an uninitialized " + dataTypeName(dtype) +
                                                  " tensor: it holds no value yet"));
    const bool supported = isFloating(dtype) || isInteger(dtype) || isQuantized(dtype) || dtype == tensorflow::DT_BOOL;
    if (!supported)
        return unexpected(invalidArgumentError("value ranges apply to real numbers and bools, not to " +
                                               dataTypeName(dtype) + " tensors"));
    std::int64_t count = 0;
    const Status status = dispatchDataType<CountableTypes>(detail::storageDataType(dtype), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, Eigen::half> ||
                      std::is_same_v<T, Eigen::bfloat16>) {
            count = countNarrowFloats(tensor.values<T>(), ranges);
        } else {
            for (const T& value : tensor.values<T>()) {
                if (ranges.contains(static_cast<double>(value)))
                    ++count;
            }
        }
    });
    if (!status.isOk())
        return unexpected(status);
    return count;
}

} // namespace tstudio::debugger
