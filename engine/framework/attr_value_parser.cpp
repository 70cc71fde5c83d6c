// Parses attr values from text: the defaults in op specs and, later, values typed into the node editor.
#include "framework/attr_value_parser.h"

#include "core/ascii_text.h"
#include "framework/data_type.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <cctype>
#include <charconv>

namespace tstudio {

using tensorflow::AttrValue;

namespace {

Status parseError(std::string reason)
{
    return invalidArgumentError(std::move(reason));
}

/// Parses the quoted string at the start of `text`; `length` receives the characters it took.
Expected<std::string> parseQuoted(std::string_view text, std::size_t& length)
{
    const char quote = text.empty() ? '\0' : text.front();
    if (quote != '\'' && quote != '"')
        return unexpected(parseError("expected a quoted string at '" + std::string(text) + "'"));
    std::size_t pos = 1;
    const auto more = [&] { return pos < text.size(); };
    std::string out;
    while (true) {
        if (!more())
            return unexpected(parseError("unterminated string"));
        const char c = text[pos++];
        if (c == quote) {
            length = pos;
            return out;
        }
        if (c != '\\') {
            out += c;
            continue;
        }
        if (!more())
            return unexpected(parseError("unterminated string"));
        const char e = text[pos++];
        switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'v': out += '\v'; break;
        case '\\':
        case '\'':
        case '"':
        case '?': out += e; break;
        case 'x': {
            int value = 0;
            int digits = 0;
            while (digits < 2 && more() && std::isxdigit(static_cast<unsigned char>(text[pos]))) {
                const char h = text[pos++];
                value = value * 16 + (isAsciiDigit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
                ++digits;
            }
            if (digits == 0)
                return unexpected(parseError("\\x with no hex digits in a string"));
            out += static_cast<char>(value);
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                int value = e - '0';
                for (int i = 0; i < 2 && more() && text[pos] >= '0' && text[pos] <= '7'; ++i)
                    value = value * 8 + (text[pos++] - '0');
                out += static_cast<char>(value);
                break;
            }
            return unexpected(parseError(std::string("unknown escape '\\") + e + "' in a string"));
        }
    }
}

Expected<std::int64_t> parseInt(std::string_view text)
{
    text = trimAsciiSpace(text);
    if (text.starts_with('+'))
        text.remove_prefix(1);
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return unexpected(parseError("'" + std::string(text) + "' is not an int"));
    return value;
}

/// Parses as protobuf's text format does for a float field: as a double, then rounded to float.
Expected<float> parseFloat(std::string_view text)
{
    text = trimAsciiSpace(text);
    std::string_view digits = text;
    if (digits.starts_with('+'))
        digits.remove_prefix(1);
    double value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
        return unexpected(parseError("'" + std::string(text) + "' is not a float"));
    return static_cast<float>(value);
}

/// Keeps the first text-format error for the message.
class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
public:
    // Positions are left out: they count from inside the braces, which would only mislead.
    void AddError(int, google::protobuf::io::ColumnNumber, const std::string& message) override
    {
        if (m_first.empty())
            m_first = message;
    }
    const std::string& first() const { return m_first; }

private:
    std::string m_first;
};

/// Parses `{ ... }` (or `< ... >`) as the text format of `message`.
Status parseTextMessage(std::string_view text, google::protobuf::Message& message)
{
    text = trimAsciiSpace(text);
    const bool braces = text.starts_with('{') && text.ends_with('}');
    const bool angles = text.starts_with('<') && text.ends_with('>');
    if (text.size() < 2 || !(braces || angles)) {
        return parseError("expected a text-format " + message.GetDescriptor()->name() + " in '{ }', found '" +
                          std::string(text) + "'");
    }
    FirstErrorCollector errors;
    google::protobuf::TextFormat::Parser parser;
    // Protobuf's text parser has no nesting limit of its own: a typed or pasted value nested
    // 100,000 deep would exhaust the stack. io/proto_parse.h's limit for files, without including io/.
    constexpr int kMaxNesting = 1000;
    parser.SetRecursionLimit(kMaxNesting);
    parser.RecordErrorsTo(&errors);
    if (!parser.ParseFromString(std::string(text.substr(1, text.size() - 2)), &message))
        return parseError("invalid text-format " + message.GetDescriptor()->name() + ": " + errors.first());
    return Status::ok();
}

Expected<DataType> parseDataType(std::string_view text)
{
    text = trimAsciiSpace(text);
    Expected<DataType> dtype = dataTypeFromName(text);
    if (!dtype)
        return unexpected(parseError("unknown type '" + std::string(text) + "'"));
    if (isRefType(*dtype))
        return unexpected(parseError("ref type '" + std::string(text) + "' is not allowed here"));
    return dtype;
}

/// Splits the inside of "[a, b, c]" at top-level commas (not inside brackets, braces or quotes).
Expected<std::vector<std::string_view>> splitList(std::string_view text)
{
    text = trimAsciiSpace(text);
    if (text.size() < 2 || text.front() != '[' || text.back() != ']')
        return unexpected(parseError("expected a list in '[ ]', found '" + std::string(text) + "'"));
    const std::string_view inner = trimAsciiSpace(text.substr(1, text.size() - 2));
    std::vector<std::string_view> items;
    if (inner.empty())
        return items;
    int depth = 0;
    char quote = '\0';
    std::size_t start = 0;
    for (std::size_t i = 0; i < inner.size(); ++i) {
        const char c = inner[i];
        if (quote != '\0') {
            if (c == '\\')
                ++i;
            else if (c == quote)
                quote = '\0';
            continue;
        }
        if (c == '\'' || c == '"')
            quote = c;
        else if (c == '[' || c == '{' || c == '<')
            ++depth;
        else if (c == ']' || c == '}' || c == '>')
            --depth;
        else if (c == ',' && depth == 0) {
            items.push_back(trimAsciiSpace(inner.substr(start, i - start)));
            start = i + 1;
        }
    }
    items.push_back(trimAsciiSpace(inner.substr(start)));
    for (std::string_view item : items) {
        if (item.empty())
            return unexpected(parseError("empty element in list '" + std::string(text) + "'"));
    }
    return items;
}

Status parseShape(std::string_view text, tensorflow::TensorShapeProto& shape)
{
    text = trimAsciiSpace(text);
    if (text == "<unknown>") {
        shape.set_unknown_rank(true);
        return Status::ok();
    }
    if (text.starts_with('{'))
        return parseTextMessage(text, shape);
    Expected<std::vector<std::string_view>> dims = splitList(text);
    if (!dims)
        return parseError("expected a shape like [2, -1], [] or <unknown>, found '" + std::string(text) + "'");
    for (std::string_view dim : *dims) {
        std::int64_t size = -1;
        if (dim != "?") {
            Expected<std::int64_t> parsed = parseInt(dim);
            if (!parsed || *parsed < -1) {
                return parseError("invalid dimension '" + std::string(dim) +
                                  "' in a shape (expected a size >= 0, or -1 or ? when unknown)");
            }
            size = *parsed;
        }
        shape.add_dim()->set_size(size);
    }
    return Status::ok();
}

/// Parses one value of base type `base` ("int", "shape", ...) into the matching field of `out`.
Status parseScalar(std::string_view base, std::string_view text, AttrValue& out)
{
    text = trimAsciiSpace(text);
    if (base == "int") {
        Expected<std::int64_t> value = parseInt(text);
        if (!value)
            return value.error();
        out.set_i(*value);
    } else if (base == "float") {
        Expected<float> value = parseFloat(text);
        if (!value)
            return value.error();
        out.set_f(*value);
    } else if (base == "bool") {
        if (text == "true" || text == "True")
            out.set_b(true);
        else if (text == "false" || text == "False")
            out.set_b(false);
        else
            return parseError("'" + std::string(text) + "' is not a bool (true or false)");
    } else if (base == "string") {
        std::size_t length = 0;
        Expected<std::string> value = parseQuoted(text, length);
        if (!value)
            return value.error();
        if (length != text.size())
            return parseError("unexpected '" + std::string(text.substr(length)) + "' after a string");
        out.set_s(*value);
    } else if (base == "type") {
        Expected<DataType> value = parseDataType(text);
        if (!value)
            return value.error();
        out.set_type(*value);
    } else if (base == "shape") {
        return parseShape(text, *out.mutable_shape());
    } else if (base == "tensor") {
        return parseTextMessage(text, *out.mutable_tensor());
    } else if (base == "func") {
        return parseTextMessage(text, *out.mutable_func());
    } else {
        return parseError("unknown attr type '" + std::string(base) + "'");
    }
    return Status::ok();
}

/// Moves the scalar in `item` (parsed as `base`) onto the end of `list`.
void appendToList(std::string_view base, AttrValue& item, AttrValue::ListValue& list)
{
    if (base == "int")
        list.add_i(item.i());
    else if (base == "float")
        list.add_f(item.f());
    else if (base == "bool")
        list.add_b(item.b());
    else if (base == "string")
        list.add_s(item.s());
    else if (base == "type")
        list.add_type(item.type());
    else if (base == "shape")
        list.add_shape()->Swap(item.mutable_shape());
    else if (base == "tensor")
        list.add_tensor()->Swap(item.mutable_tensor());
    else if (base == "func")
        list.add_func()->Swap(item.mutable_func());
}

} // namespace

Expected<AttrValue> parseAttrValue(std::string_view type, std::string_view text)
{
    AttrValue value;
    if (type.starts_with("list(") && type.ends_with(")")) {
        const std::string_view base = type.substr(5, type.size() - 6);
        Expected<std::vector<std::string_view>> items = splitList(text);
        if (!items)
            return unexpected(items.error());
        AttrValue::ListValue& list = *value.mutable_list(); // set even when empty, as TensorFlow does
        for (std::string_view item : *items) {
            AttrValue element;
            if (Status status = parseScalar(base, item, element); !status.isOk())
                return unexpected(status);
            appendToList(base, element, list);
        }
        return value;
    }
    if (Status status = parseScalar(type, text, value); !status.isOk())
        return unexpected(status);
    return value;
}

Expected<std::string> parseQuotedString(std::string_view text, std::size_t* length)
{
    std::size_t taken = 0;
    Expected<std::string> value = parseQuoted(text, taken);
    if (value && length != nullptr)
        *length = taken;
    return value;
}

} // namespace tstudio
