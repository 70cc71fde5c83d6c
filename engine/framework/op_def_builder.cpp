// OpDefBuilder: a parser for TensorFlow's attr and argument spec syntax, written from its documentation.
#include "framework/op_def_builder.h"

#include "core/ascii_text.h"
#include "framework/attr_value_parser.h"
#include "framework/data_type.h"
#include "framework/op_def_validation.h"

#include <span>
#include <string_view>

namespace tstudio {

using tensorflow::AttrValue;
using tensorflow::OpDef;

namespace {

// The shorthand type sets, with TensorFlow 1.11+'s members in dtype enum order (the order
// TensorFlow writes them into allowed_values; TensorFlow 1.3 and older wrote a different order).
constexpr DataType kNumberTypes[] = {tensorflow::DT_FLOAT,     tensorflow::DT_DOUBLE,     tensorflow::DT_INT32,
                                     tensorflow::DT_UINT8,     tensorflow::DT_INT16,      tensorflow::DT_INT8,
                                     tensorflow::DT_COMPLEX64, tensorflow::DT_INT64,      tensorflow::DT_QINT8,
                                     tensorflow::DT_QUINT8,    tensorflow::DT_QINT32,     tensorflow::DT_BFLOAT16,
                                     tensorflow::DT_UINT16,    tensorflow::DT_COMPLEX128, tensorflow::DT_HALF,
                                     tensorflow::DT_UINT32,    tensorflow::DT_UINT64};
constexpr DataType kRealNumberTypes[] = {tensorflow::DT_FLOAT, tensorflow::DT_DOUBLE,   tensorflow::DT_INT32,
                                         tensorflow::DT_UINT8, tensorflow::DT_INT16,    tensorflow::DT_INT8,
                                         tensorflow::DT_INT64, tensorflow::DT_BFLOAT16, tensorflow::DT_UINT16,
                                         tensorflow::DT_HALF,  tensorflow::DT_UINT32,   tensorflow::DT_UINT64};
constexpr DataType kQuantizedTypes[] = {tensorflow::DT_QINT8, tensorflow::DT_QUINT8, tensorflow::DT_QINT32,
                                        tensorflow::DT_QINT16, tensorflow::DT_QUINT16};

/// Adds the members of a shorthand set to `allowed`; false if `word` names none.
bool addShorthandSet(std::string_view word, AttrValue& allowed)
{
    std::span<const DataType> set;
    if (word == "numbertype" || word == "numerictype")
        set = kNumberTypes;
    else if (word == "realnumbertype" || word == "realnumerictype")
        set = kRealNumberTypes;
    else if (word == "quantizedtype")
        set = kQuantizedTypes;
    else
        return false;
    for (DataType dtype : set)
        allowed.mutable_list()->add_type(dtype);
    return true;
}

bool isLower(char c)
{
    return c >= 'a' && c <= 'z';
}

bool isLetter(char c)
{
    return isLower(c) || (c >= 'A' && c <= 'Z');
}

bool isWordChar(char c)
{
    return isLetter(c) || isAsciiDigit(c) || c == '_';
}

Status parseError(std::string reason)
{
    return invalidArgumentError(std::move(reason));
}

/// A read position in a spec string.
class Cursor {
public:
    explicit Cursor(std::string_view text) : m_text(text) {}

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return atEnd() ? '\0' : m_text[m_pos]; }
    std::string_view rest() const { return m_text.substr(m_pos); }

    void skipSpace()
    {
        while (!atEnd() && isAsciiSpace(m_text[m_pos]))
            ++m_pos;
    }
    /// Moves past `count` characters. Precondition: count <= rest().size().
    void skip(std::size_t count) { m_pos += count; }
    /// Consumes an optional '-' and a run of digits; empty if there are no digits.
    std::string_view integer()
    {
        const std::size_t start = m_pos;
        if (peek() == '-')
            ++m_pos;
        const std::size_t digits = m_pos;
        while (!atEnd() && isAsciiDigit(m_text[m_pos]))
            ++m_pos;
        if (m_pos == digits) {
            m_pos = start;
            return {};
        }
        return m_text.substr(start, m_pos - start);
    }
    /// Consumes `literal` if the text continues with it.
    bool consume(std::string_view literal)
    {
        if (!rest().starts_with(literal))
            return false;
        m_pos += literal.size();
        return true;
    }
    /// Consumes a run of [A-Za-z0-9_] (possibly empty).
    std::string_view word()
    {
        const std::size_t start = m_pos;
        while (!atEnd() && isWordChar(m_text[m_pos]))
            ++m_pos;
        return m_text.substr(start, m_pos - start);
    }
    /// Consumes "list(" (with optional spaces before the parenthesis) if it comes next.
    bool consumeListOpen()
    {
        Cursor probe = *this;
        if (probe.word() != "list")
            return false;
        probe.skipSpace();
        if (!probe.consume("("))
            return false;
        *this = probe;
        return true;
    }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
};

/// Parses "{float, double}" or "{'SAME', 'VALID'}" at the cursor into the attr's allowed values;
/// returns the base type it implies ("type" or "string").
Expected<std::string> parseAllowedSet(Cursor& cursor, OpDef::AttrDef& attr)
{
    cursor.consume("{");
    cursor.skipSpace();
    AttrValue& allowed = *attr.mutable_allowed_values();
    const bool strings = cursor.peek() == '\'' || cursor.peek() == '"';
    if (cursor.peek() == '}')
        return unexpected(parseError("empty set of allowed values '{}'"));
    while (true) {
        cursor.skipSpace();
        if (strings) {
            std::size_t length = 0;
            Expected<std::string> value = parseQuotedString(cursor.rest(), &length);
            if (!value)
                return unexpected(value.error());
            cursor.skip(length);
            allowed.mutable_list()->add_s(*value);
        } else {
            const std::string_view word = cursor.word();
            if (word.empty()) {
                return unexpected(parseError("expected a type name in the set of allowed types at '" +
                                             std::string(cursor.rest()) + "'"));
            }
            if (!addShorthandSet(word, allowed)) {
                Expected<AttrValue> dtype = parseAttrValue("type", word);
                if (!dtype)
                    return unexpected(dtype.error());
                allowed.mutable_list()->add_type(dtype->type());
            }
        }
        cursor.skipSpace();
        if (cursor.consume("}"))
            break;
        if (!cursor.consume(",")) {
            return unexpected(parseError(std::string("expected ',' or '}' after ") + (strings ? "a string" : "a type") +
                                         " in the set of allowed values, found '" + std::string(cursor.rest()) + "'"));
        }
        cursor.skipSpace();
        if (cursor.consume("}")) // a trailing comma, as TensorFlow allows
            break;
    }
    return std::string(strings ? "string" : "type");
}

/// Parses "<name>: <type> [>= <min>] [= <default>]".
Expected<OpDef::AttrDef> parseAttrSpec(std::string_view spec)
{
    OpDef::AttrDef attr;
    Cursor cursor(spec);
    cursor.skipSpace();
    const std::string_view name = cursor.word();
    if (name.empty() || !isLetter(name.front()))
        return unexpected(parseError("expected '<name>:' at the start, with a name starting with a letter"));
    attr.set_name(std::string(name));
    cursor.skipSpace();
    if (!cursor.consume(":"))
        return unexpected(parseError("expected ':' after the name '" + std::string(name) + "'"));
    cursor.skipSpace();

    const bool isList = cursor.consumeListOpen();
    cursor.skipSpace();
    std::string base;
    if (cursor.peek() == '{') {
        Expected<std::string> setBase = parseAllowedSet(cursor, attr);
        if (!setBase)
            return unexpected(setBase.error());
        base = *setBase;
    } else {
        const std::string_view word = cursor.word();
        if (word.empty())
            return unexpected(parseError("expected a type at '" + std::string(cursor.rest()) + "'"));
        if (word == "string" || word == "int" || word == "float" || word == "bool" || word == "type" ||
            word == "shape" || word == "tensor" || word == "func") {
            base = word;
        } else if (addShorthandSet(word, *attr.mutable_allowed_values())) {
            base = "type";
        } else {
            return unexpected(parseError("unknown type '" + std::string(word) + "'"));
        }
    }
    cursor.skipSpace();
    if (isList) {
        if (!cursor.consume(")"))
            return unexpected(parseError("expected ')' to close 'list(', found '" + std::string(cursor.rest()) + "'"));
        cursor.skipSpace();
    }
    attr.set_type(isList ? "list(" + base + ")" : base);

    if (cursor.consume(">=")) {
        if (!isList && base != "int") {
            return unexpected(
                parseError("a minimum ('>=') is allowed only for int and list attrs, not " + attr.type()));
        }
        cursor.skipSpace();
        const std::string_view found = cursor.rest();
        const std::string_view number = cursor.integer();
        Expected<AttrValue> minimum = parseAttrValue("int", number);
        if (number.empty() || !minimum)
            return unexpected(parseError("expected an integer after '>=', found '" + std::string(found) + "'"));
        attr.set_has_minimum(true);
        attr.set_minimum(minimum->i());
        cursor.skipSpace();
    }

    if (cursor.consume("=")) {
        const std::string_view text = trimAsciiSpace(cursor.rest());
        if (text.empty())
            return unexpected(parseError("missing default value after '='"));
        Expected<AttrValue> value = parseAttrValue(attr.type(), text);
        if (!value) {
            return unexpected(parseError("invalid default value '" + std::string(text) + "' for type " + attr.type() +
                                         ": " + value.error().message()));
        }
        *attr.mutable_default_value() = std::move(*value);
    } else if (!cursor.atEnd()) {
        return unexpected(parseError("unexpected '" + std::string(cursor.rest()) + "' after the type"));
    }
    return attr;
}

/// An input or output spec before its names are resolved against the attrs.
struct ArgSpec {
    std::string name;
    bool isRef = false;
    std::string numberAttr;
    std::string typeOrAttr;
};

bool isValidArgName(std::string_view name)
{
    if (name.empty() || !isLower(name.front()))
        return false;
    for (char c : name) {
        if (!isLower(c) && !isAsciiDigit(c) && c != '_')
            return false;
    }
    return true;
}

/// Parses "<name>: [Ref(] [<number> *] <type-or-attr> [)]".
Expected<ArgSpec> parseArgSpec(std::string_view spec)
{
    ArgSpec arg;
    Cursor cursor(spec);
    cursor.skipSpace();
    const std::string_view name = cursor.word();
    if (name.empty())
        return unexpected(parseError("expected '<name>:' at the start"));
    if (!isValidArgName(name)) {
        return unexpected(parseError("the name '" + std::string(name) +
                                     "' must start with a lower-case letter and have only lower-case letters, "
                                     "digits and '_'"));
    }
    arg.name = std::string(name);
    cursor.skipSpace();
    if (!cursor.consume(":"))
        return unexpected(parseError("expected ':' after the name '" + arg.name + "'"));
    cursor.skipSpace();

    std::string_view first = cursor.word();
    cursor.skipSpace();
    if (first == "Ref" && cursor.consume("(")) {
        arg.isRef = true;
        cursor.skipSpace();
        first = cursor.word();
        cursor.skipSpace();
    }
    if (first.empty() || !isLetter(first.front()))
        return unexpected(parseError("expected a type or an attr name at '" + std::string(cursor.rest()) + "'"));
    if (cursor.consume("*")) {
        cursor.skipSpace();
        const std::string_view second = cursor.word();
        if (second.empty() || !isLetter(second.front())) {
            return unexpected(
                parseError("expected a type or an attr name after '*', found '" + std::string(cursor.rest()) + "'"));
        }
        arg.numberAttr = std::string(first);
        arg.typeOrAttr = std::string(second);
        cursor.skipSpace();
    } else {
        arg.typeOrAttr = std::string(first);
    }
    if (arg.isRef) {
        if (!cursor.consume(")"))
            return unexpected(parseError("expected ')' to close 'Ref(', found '" + std::string(cursor.rest()) + "'"));
        cursor.skipSpace();
    }
    if (!cursor.atEnd())
        return unexpected(parseError("unexpected '" + std::string(cursor.rest()) + "' at the end"));
    return arg;
}

OpDef::AttrDef* findAttrMutable(OpDef& opDef, std::string_view name)
{
    for (OpDef::AttrDef& attr : *opDef.mutable_attr()) {
        if (attr.name() == name)
            return &attr;
    }
    return nullptr;
}

/// Resolves the names in `spec` against the attrs already in `opDef` and appends the argument.
Status addArg(OpDef& opDef, const ArgSpec& spec, bool isOutput)
{
    const std::string role = isOutput ? "output" : "input";
    const std::string where = role + " '" + spec.name + "' of op '" + opDef.name() + "'";
    OpDef::ArgDef& arg = isOutput ? *opDef.add_output_arg() : *opDef.add_input_arg();
    arg.set_name(spec.name);
    arg.set_is_ref(spec.isRef);

    if (!spec.numberAttr.empty()) {
        OpDef::AttrDef* number = findAttrMutable(opDef, spec.numberAttr);
        if (number == nullptr)
            return invalidArgumentError("Attr '" + spec.numberAttr + "' used by " + where + " is not declared");
        if (number->type() != "int") {
            return invalidArgumentError("Attr '" + spec.numberAttr + "' used as the length of " + where + " has type " +
                                        number->type() + ", expected int");
        }
        arg.set_number_attr(spec.numberAttr);
        // A length attr gets minimum 1 unless its spec says otherwise, as in TensorFlow.
        if (!number->has_minimum()) {
            number->set_has_minimum(true);
            number->set_minimum(1);
        }
    }

    if (Expected<DataType> dtype = dataTypeFromName(spec.typeOrAttr)) {
        if (isRefType(*dtype)) {
            return invalidArgumentError("Op '" + opDef.name() + "': " + role + " '" + spec.name +
                                        "' names the ref type '" + spec.typeOrAttr + "'; write 'Ref(" +
                                        dataTypeString(baseType(*dtype)) + ")' instead");
        }
        arg.set_type(*dtype);
        return Status::ok();
    }
    OpDef::AttrDef* typeAttr = findAttrMutable(opDef, spec.typeOrAttr);
    if (typeAttr == nullptr)
        return invalidArgumentError("Attr '" + spec.typeOrAttr + "' used by " + where + " is not declared");
    if (typeAttr->type() == "type") {
        arg.set_type_attr(spec.typeOrAttr);
    } else if (typeAttr->type() == "list(type)" && spec.numberAttr.empty()) {
        arg.set_type_list_attr(spec.typeOrAttr);
        if (!typeAttr->has_minimum()) {
            typeAttr->set_has_minimum(true);
            typeAttr->set_minimum(1);
        }
    } else if (typeAttr->type() == "list(type)") {
        return invalidArgumentError("Attr '" + spec.typeOrAttr + "' used as the type of " + where +
                                    " is a list(type) and cannot be repeated '" + spec.numberAttr + " *' times");
    } else {
        return invalidArgumentError("Attr '" + spec.typeOrAttr + "' used as the type of " + where + " has type " +
                                    typeAttr->type() + ", expected type or list(type)");
    }
    return Status::ok();
}

Status specError(const std::string& opName, std::string_view kind, const std::string& spec, const Status& reason)
{
    return invalidArgumentError("Op '" + opName + "': cannot parse " + std::string(kind) + " spec '" + spec +
                                "': " + reason.message());
}

} // namespace

OpDefBuilder::OpDefBuilder(std::string opName)
{
    m_opDef.set_name(std::move(opName));
}

OpDefBuilder& OpDefBuilder::attr(std::string spec)
{
    m_attrSpecs.push_back(std::move(spec));
    return *this;
}

OpDefBuilder& OpDefBuilder::input(std::string spec)
{
    m_inputSpecs.push_back(std::move(spec));
    return *this;
}

OpDefBuilder& OpDefBuilder::output(std::string spec)
{
    m_outputSpecs.push_back(std::move(spec));
    return *this;
}

OpDefBuilder& OpDefBuilder::setIsStateful()
{
    m_opDef.set_is_stateful(true);
    return *this;
}

OpDefBuilder& OpDefBuilder::setIsCommutative()
{
    m_opDef.set_is_commutative(true);
    return *this;
}

OpDefBuilder& OpDefBuilder::setIsAggregate()
{
    m_opDef.set_is_aggregate(true);
    return *this;
}

OpDefBuilder& OpDefBuilder::setAllowsUninitializedInput()
{
    m_opDef.set_allows_uninitialized_input(true);
    return *this;
}

OpDefBuilder& OpDefBuilder::deprecated(int version, std::string explanation)
{
    m_opDef.mutable_deprecation()->set_version(version);
    m_opDef.mutable_deprecation()->set_explanation(std::move(explanation));
    return *this;
}

OpDefBuilder& OpDefBuilder::summary(std::string text)
{
    m_opDef.set_summary(std::move(text));
    return *this;
}

OpDefBuilder& OpDefBuilder::description(std::string text)
{
    m_opDef.set_description(std::move(text));
    return *this;
}

OpDefBuilder& OpDefBuilder::doc(std::string name, std::string text)
{
    m_docs.emplace_back(std::move(name), std::move(text));
    return *this;
}

OpDefBuilder& OpDefBuilder::category(std::string_view category)
{
    m_category = category;
    return *this;
}

Expected<OpRegistration> OpDefBuilder::finalize() const
{
    OpRegistration registration;
    OpDef& opDef = registration.opDef;
    opDef = m_opDef;
    registration.category = m_category;

    for (const std::string& spec : m_attrSpecs) {
        Expected<OpDef::AttrDef> attr = parseAttrSpec(spec);
        if (!attr)
            return unexpected(specError(opDef.name(), "attr", spec, attr.error()));
        *opDef.add_attr() = std::move(*attr);
    }
    for (const auto& [specs, isOutput] : {std::pair{&m_inputSpecs, false}, std::pair{&m_outputSpecs, true}}) {
        for (const std::string& spec : *specs) {
            Expected<ArgSpec> arg = parseArgSpec(spec);
            if (!arg)
                return unexpected(specError(opDef.name(), isOutput ? "output" : "input", spec, arg.error()));
            if (Status status = addArg(opDef, *arg, isOutput); !status.isOk())
                return unexpected(status);
        }
    }
    for (const auto& [name, text] : m_docs) {
        std::string* description = nullptr;
        for (auto& arg : *opDef.mutable_input_arg()) {
            if (!description && arg.name() == name)
                description = arg.mutable_description();
        }
        for (auto& arg : *opDef.mutable_output_arg()) {
            if (!description && arg.name() == name)
                description = arg.mutable_description();
        }
        for (auto& attr : *opDef.mutable_attr()) {
            if (!description && attr.name() == name)
                description = attr.mutable_description();
        }
        if (description == nullptr) {
            return unexpected(invalidArgumentError("Op '" + opDef.name() + "': doc() names '" + name +
                                                   "', which is not an input, output or attr"));
        }
        *description = text;
    }
    if (Status status = validateOpDef(opDef); !status.isOk())
        return unexpected(status);
    return registration;
}

} // namespace tstudio
