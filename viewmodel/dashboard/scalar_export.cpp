// TensorBoard's scalar downloads: Python float repr, CSV and JSON text.
#include "scalar_export.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

namespace tstudio::dashboard {

std::string pythonFloatRepr(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    // The shortest round-trip digits (as Python's repr), taken in scientific form and laid out
    // the way Python lays them out.
    std::array<char, 64> buf{};
    const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::scientific);
    const std::string sci(buf.data(), res.ptr);
    const std::size_t ePos = sci.find('e');
    std::string mantissa = sci.substr(0, ePos);
    const int exponent = std::stoi(sci.substr(ePos + 1));
    const bool negative = !mantissa.empty() && mantissa[0] == '-';
    if (negative)
        mantissa.erase(0, 1);
    std::string digits;
    for (char c : mantissa)
        if (c != '.')
            digits.push_back(c);
    std::string out = negative ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
        out += digits.substr(0, 1);
        if (digits.size() > 1)
            out += "." + digits.substr(1);
        out += exponent < 0 ? "e-" : "e+";
        const std::string e = std::to_string(std::abs(exponent));
        out += (e.size() < 2 ? "0" : "") + e;
        return out;
    }
    if (exponent < 0)
        return out + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    const auto intLen = static_cast<std::size_t>(exponent + 1);
    if (digits.size() <= intLen)
        return out + digits + std::string(intLen - digits.size(), '0') + ".0";
    return out + digits.substr(0, intLen) + "." + digits.substr(intLen);
}

namespace {

std::string jsonFloat(double v)
{
    if (std::isnan(v))
        return "\"NaN\"";
    if (std::isinf(v))
        return v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    return pythonFloatRepr(v);
}

} // namespace

std::string scalarsCsv(std::span<const events::ScalarSample> samples)
{
    std::string out = "Wall time,Step,Value\r\n";
    out.reserve(out.size() + samples.size() * 48);
    for (const events::ScalarSample& s : samples) {
        out += pythonFloatRepr(s.wallTime);
        out += ',';
        out += std::to_string(s.step);
        out += ',';
        out += pythonFloatRepr(s.value);
        out += "\r\n";
    }
    return out;
}

std::string scalarsJson(std::span<const events::ScalarSample> samples)
{
    std::string out = "[";
    out.reserve(samples.size() * 48 + 2);
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (i)
            out += ", ";
        out += '[';
        out += jsonFloat(samples[i].wallTime);
        out += ", ";
        out += std::to_string(samples[i].step);
        out += ", ";
        out += jsonFloat(samples[i].value);
        out += ']';
    }
    return out + "]";
}

namespace {

/// A CSV field as Python's csv module writes it (QUOTE_MINIMAL).
std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

/// A JSON string as json.dumps(ensure_ascii=False) writes it: the quote, the backslash and the
/// short escapes (\b \f \n \r \t) escaped, other control characters as \u00XX, UTF-8 kept.
std::string jsonString(const std::string& text)
{
    std::string out = "\"";
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
            out += '\\';
            out += c == '\n' ? 'n' : c == '\r' ? 'r' : c == '\t' ? 't' : c == '\b' ? 'b' : 'f';
        } else if (c < 0x20) {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\u%04x", c);
            out += escape;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

} // namespace

std::string allScalarsCsv(std::span<const RunTagScalars> series)
{
    std::string out = "run,tag,wall_time,step,value\r\n";
    for (const RunTagScalars& s : series) {
        const std::string prefix = csvField(s.run) + "," + csvField(s.tag) + ",";
        for (const events::ScalarSample& sample : s.samples)
            out += prefix + pythonFloatRepr(sample.wallTime) + "," + std::to_string(sample.step) + "," +
                   pythonFloatRepr(sample.value) + "\r\n";
    }
    return out;
}

std::string allScalarsJson(std::span<const RunTagScalars> series)
{
    // Runs in first-seen order, each with its tags in the order given.
    std::vector<std::string> runs;
    for (const RunTagScalars& s : series)
        if (std::find(runs.begin(), runs.end(), s.run) == runs.end())
            runs.push_back(s.run);
    std::string out = "{";
    for (std::size_t r = 0; r < runs.size(); ++r) {
        out += (r ? ", " : "") + jsonString(runs[r]) + ": {";
        bool first = true;
        for (const RunTagScalars& s : series)
            if (s.run == runs[r]) {
                out += (first ? "" : ", ") + jsonString(s.tag) + ": " + scalarsJson(s.samples);
                first = false;
            }
        out += "}";
    }
    return out + "}";
}

} // namespace tstudio::dashboard