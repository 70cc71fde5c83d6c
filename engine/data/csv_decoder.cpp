// decodeCsv: field splitting with TensorFlow's quoting rules, then typed conversion per column.
#include "data/csv_decoder.h"

#include "core/ascii_text.h"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <limits>

namespace tstudio::data {
namespace {

namespace tf = tensorflow;

template <typename Int> bool parseInt(std::string_view text, Int* out)
{
    text = trimAsciiSpace(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (text.empty() || text.front() == '+')
        return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
    return ec == std::errc() && end == text.data() + text.size();
}

template <typename Real> bool parseReal(std::string_view text, Real* out)
{
    const std::string s(trimAsciiSpace(text));
    if (s.empty())
        return false;
    char* end = nullptr;
    errno = 0;
    const Real v = std::is_same_v<Real, float> ? std::strtof(s.c_str(), &end) : std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size())
        return false;
    *out = v;
    return true;
}

/// Splits one record into the selected fields (all when `select` is empty).
Status splitRecord(std::string_view in, const CsvOptions& o, std::vector<std::string>* fields)
{
    const std::size_t n = in.size();
    const std::vector<int>& select = o.selectCols;
    std::size_t at = 0;
    int column = 0;
    std::size_t selected = 0;
    auto wanted = [&] { return select.empty() || (selected < select.size() && select[selected] == column); };
    while (at < n) {
        if (in[at] == '\n' || in[at] == '\r') {
            ++at;
            continue;
        }
        const bool include = wanted();
        std::string field;
        if (o.useQuoteDelim && in[at] == '"') {
            ++at;
            bool closed = false;
            while (at < n) {
                if (in[at] != '"') {
                    field += in[at++];
                    continue;
                }
                if (at + 1 == n || in[at + 1] == o.fieldDelim) {
                    closed = true;
                    at += 2;
                    break;
                }
                if (in[at + 1] != '"')
                    return invalidArgumentError("Quote inside a string has to be escaped by another quote");
                field += '"';
                at += 2;
            }
            if (!closed)
                return invalidArgumentError("Quoted field has to end with quote followed by delim or end");
        } else {
            while (at < n && in[at] != o.fieldDelim) {
                if ((o.useQuoteDelim && in[at] == '"') || in[at] == '\n' || in[at] == '\r')
                    return invalidArgumentError("Unquoted fields cannot have quotes/CRLFs inside");
                field += in[at++];
            }
            ++at; // past the delimiter (or the end)
        }
        if (include) {
            fields->push_back(std::move(field));
            ++selected;
            if (!select.empty() && selected == select.size())
                return Status::ok();
        }
        ++column;
    }
    // A record ending in the delimiter has an empty last field.
    if (n > 0 && in[n - 1] == o.fieldDelim && wanted())
        fields->emplace_back();
    return Status::ok();
}

} // namespace

Expected<std::vector<Tensor>> decodeCsv(std::span<const std::string> records, const std::vector<Tensor>& defaults,
                                        Allocator& allocator, const CsvOptions& options)
{
    if (!options.selectCols.empty()) {
        if (options.selectCols.size() != defaults.size())
            return unexpected(invalidArgumentError("Length of select_cols and record_defaults do not match."));
        for (std::size_t i = 0; i < options.selectCols.size(); ++i) {
            if (options.selectCols[i] < 0)
                return unexpected(invalidArgumentError("select_cols contains negative values."));
            if (i > 0 && options.selectCols[i] <= options.selectCols[i - 1])
                return unexpected(invalidArgumentError("select_cols is not strictly increasing."));
        }
    }
    const auto count = static_cast<std::int64_t>(records.size());
    std::vector<Tensor> outputs;
    for (std::size_t f = 0; f < defaults.size(); ++f) {
        const DataType dtype = defaults[f].dtype();
        if (dtype != tf::DT_INT32 && dtype != tf::DT_INT64 && dtype != tf::DT_FLOAT && dtype != tf::DT_DOUBLE &&
            dtype != tf::DT_STRING)
            return unexpected(invalidArgumentError("csv: data type " + dataTypeString(dtype) +
                                                   " not supported in field " + std::to_string(f)));
        if (defaults[f].numElements() > 1)
            return unexpected(invalidArgumentError("Shape of a default must be a length-0 or length-1 vector, or a "
                                                   "scalar: record_defaults[" +
                                                   std::to_string(f) + "] has " +
                                                   std::to_string(defaults[f].numElements()) + " elements"));
        auto t = Tensor::allocate(allocator, dtype, TensorShape{count});
        if (!t)
            return unexpected(t.error());
        outputs.push_back(*t);
    }

    std::vector<std::string> fields;
    for (std::int64_t r = 0; r < count; ++r) {
        fields.clear();
        if (Status s = splitRecord(records[static_cast<std::size_t>(r)], options, &fields); !s.isOk())
            return unexpected(s);
        if (fields.size() != defaults.size())
            return unexpected(invalidArgumentError("Expect " + std::to_string(defaults.size()) + " fields but have " +
                                                   std::to_string(fields.size()) + " in record " + std::to_string(r)));
        const auto row = static_cast<std::size_t>(r);
        for (std::size_t f = 0; f < fields.size(); ++f) {
            const std::string& text = fields[f];
            Tensor& out = outputs[f];
            const Tensor& def = defaults[f];
            if (text.empty() || text == options.naValue) {
                if (def.numElements() != 1)
                    return unexpected(invalidArgumentError("Field " + std::to_string(f) +
                                                           " is required but missing in record " + std::to_string(r) +
                                                           "!"));
                Status s = dispatchDataType<TypeList<std::int32_t, std::int64_t, float, double, std::string>>(
                    out.dtype(), [&](auto tag) {
                        using T = typename decltype(tag)::type;
                        out.values<T>()[row] = def.values<T>()[0];
                    });
                if (!s.isOk())
                    return unexpected(s);
                continue;
            }
            auto invalid = [&](const char* type) {
                return unexpected(invalidArgumentError("Field " + std::to_string(f) + " in record " +
                                                       std::to_string(r) + " is not a valid " + type + ": " + text));
            };
            switch (out.dtype()) {
            case tf::DT_INT32:
                if (!parseInt(text, &out.values<std::int32_t>()[row]))
                    return invalid("int32");
                break;
            case tf::DT_INT64:
                if (!parseInt(text, &out.values<std::int64_t>()[row]))
                    return invalid("int64");
                break;
            case tf::DT_FLOAT:
                if (!parseReal(text, &out.values<float>()[row]))
                    return invalid("float");
                break;
            case tf::DT_DOUBLE:
                if (!parseReal(text, &out.values<double>()[row]))
                    return invalid("double");
                break;
            default: out.strings()[row] = text; break;
            }
        }
    }
    return outputs;
}

} // namespace tstudio::data
