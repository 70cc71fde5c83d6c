// OpDef well-formedness and AttrValue-against-AttrDef checks, following TensorFlow's op_def_util rules.
#include "framework/op_def_validation.h"

#include "core/ascii_text.h"
#include "framework/data_type.h"

#include <set>
#include <string>

namespace tstudio {

using tensorflow::AttrValue;
using tensorflow::OpDef;

namespace {

/// The AttrDef base types; a list type is "list(<base>)".
constexpr std::string_view kAttrBaseTypes[] = {"string", "int", "float", "bool", "type", "shape", "tensor", "func"};

bool isLetter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/// [A-Z][A-Za-z0-9_]*, possibly several joined by '>' (TensorFlow's namespaced op names).
bool isValidOpName(std::string_view name)
{
    std::size_t i = 0;
    while (true) {
        if (i >= name.size() || !(name[i] >= 'A' && name[i] <= 'Z'))
            return false;
        ++i;
        while (i < name.size() && (isLetter(name[i]) || isAsciiDigit(name[i]) || name[i] == '_'))
            ++i;
        if (i == name.size())
            return true;
        if (name[i] != '>')
            return false;
        ++i;
    }
}

/// [A-Za-z][A-Za-z0-9_]*
bool isValidAttrName(std::string_view name)
{
    if (name.empty() || !isLetter(name[0]))
        return false;
    for (char c : name) {
        if (!isLetter(c) && !isAsciiDigit(c) && c != '_')
            return false;
    }
    return true;
}

/// Splits "list(int)" into ("int", true) and "int" into ("int", false); false if the base type
/// is not one of kAttrBaseTypes.
bool splitAttrType(std::string_view type, std::string_view& base, bool& isList)
{
    isList = type.starts_with("list(") && type.ends_with(")");
    base = isList ? type.substr(5, type.size() - 6) : type;
    for (std::string_view known : kAttrBaseTypes) {
        if (base == known)
            return true;
    }
    return false;
}

int listLength(const AttrValue::ListValue& list, std::string_view base)
{
    if (base == "string")
        return list.s_size();
    if (base == "int")
        return list.i_size();
    if (base == "float")
        return list.f_size();
    if (base == "bool")
        return list.b_size();
    if (base == "type")
        return list.type_size();
    if (base == "shape")
        return list.shape_size();
    if (base == "tensor")
        return list.tensor_size();
    if (base == "func")
        return list.func_size();
    return -1;
}

Status checkDataType(int value)
{
    if (!tensorflow::DataType_IsValid(value))
        return invalidArgumentError("AttrValue has invalid DataType enum: " + std::to_string(value));
    const auto dtype = static_cast<DataType>(value);
    if (isRefType(dtype))
        return invalidArgumentError("AttrValue must not have reference type value of " + dataTypeString(dtype));
    if (dtype == tensorflow::DT_INVALID)
        return invalidArgumentError("AttrValue has invalid DataType");
    return Status::ok();
}

/// TensorFlow's AttrValueHasType: the value holds exactly the kind `type` names. An empty list
/// fits every list type (proto3 cannot tell an empty list(int) from an empty list(float)).
Status attrValueHasType(const AttrValue& value, std::string_view type)
{
    std::string_view base;
    bool isList = false;
    if (!splitAttrType(type, base, isList))
        return invalidArgumentError("unknown attr type '" + std::string(type) + "'");

    if (value.value_case() == AttrValue::kPlaceholder)
        return invalidArgumentError("AttrValue had value with unexpected type 'placeholder'");

    int kindsSet = 0;
    if (value.has_list()) {
        for (std::string_view kind : kAttrBaseTypes) {
            if (listLength(value.list(), kind) > 0) {
                if (!isList || kind != base) {
                    return invalidArgumentError("AttrValue had value with type 'list(" + std::string(kind) +
                                                ")' when '" + std::string(type) + "' expected");
                }
                ++kindsSet;
            }
        }
        if (kindsSet == 0 && isList)
            kindsSet = 1; // an empty list
    } else {
        std::string_view kind;
        switch (value.value_case()) {
        case AttrValue::kS: kind = "string"; break;
        case AttrValue::kI: kind = "int"; break;
        case AttrValue::kF: kind = "float"; break;
        case AttrValue::kB: kind = "bool"; break;
        case AttrValue::kType: kind = "type"; break;
        case AttrValue::kShape: kind = "shape"; break;
        case AttrValue::kTensor: kind = "tensor"; break;
        case AttrValue::kFunc: kind = "func"; break;
        default: break;
        }
        if (!kind.empty()) {
            if (isList || kind != base) {
                return invalidArgumentError("AttrValue had value with type '" + std::string(kind) + "' when '" +
                                            std::string(type) + "' expected");
            }
            ++kindsSet;
        } else if (isList) {
            kindsSet = 1; // proto3 drops an empty list on some writers (GraphDef version <= 4)
        }
    }
    if (kindsSet == 0)
        return invalidArgumentError("AttrValue missing value with expected type '" + std::string(type) + "'");

    if (type == "type")
        return checkDataType(value.type());
    if (type == "list(type)") {
        for (int dtype : value.list().type()) {
            if (Status status = checkDataType(dtype); !status.isOk())
                return status;
        }
    }
    return Status::ok();
}

Status allowedType(int value, const OpDef::AttrDef& attr)
{
    std::string allowed;
    for (int candidate : attr.allowed_values().list().type()) {
        if (candidate == value)
            return Status::ok();
        if (!allowed.empty())
            allowed += ", ";
        allowed += dataTypeString(static_cast<DataType>(candidate));
    }
    return invalidArgumentError("Value for attr '" + attr.name() + "' of " +
                                dataTypeString(static_cast<DataType>(value)) +
                                " is not in the list of allowed values: " + allowed);
}

Status allowedString(const std::string& value, const OpDef::AttrDef& attr)
{
    std::string allowed;
    for (const std::string& candidate : attr.allowed_values().list().s()) {
        if (candidate == value)
            return Status::ok();
        if (!allowed.empty())
            allowed += ", ";
        allowed += "\"" + candidate + "\"";
    }
    return invalidArgumentError("Value for attr '" + attr.name() + "' of \"" + value +
                                "\" is not in the list of allowed values: " + allowed);
}

Status opError(const OpDef& opDef, const std::string& message)
{
    return invalidArgumentError("Op '" + opDef.name() + "': " + message);
}

Status validateArg(const OpDef& opDef, const OpDef::ArgDef& arg, bool isOutput, std::set<std::string>& names)
{
    const std::string what = std::string(isOutput ? "output '" : "input '") + arg.name() + "'";
    if (arg.name().empty())
        return opError(opDef, std::string(isOutput ? "an output" : "an input") + " has no name");
    if (!names.insert(arg.name()).second)
        return opError(opDef, "duplicate name '" + arg.name() + "'");

    const int typeFields = (arg.type() != tensorflow::DT_INVALID ? 1 : 0) + (arg.type_attr().empty() ? 0 : 1) +
                           (arg.type_list_attr().empty() ? 0 : 1);
    if (typeFields != 1) {
        return opError(opDef, what + " must have exactly one of a dtype, a type attr or a type list attr, but has " +
                                  std::to_string(typeFields));
    }
    if (!arg.number_attr().empty()) {
        const OpDef::AttrDef* number = findAttr(opDef, arg.number_attr());
        if (number == nullptr)
            return opError(opDef,
                           what + " uses attr '" + arg.number_attr() + "' as its length, but it is not declared");
        if (number->type() != "int") {
            return opError(opDef, what + " uses attr '" + arg.number_attr() + "' as its length, but '" +
                                      arg.number_attr() + "' has type " + number->type() + ", expected int");
        }
        if (!number->has_minimum() || number->minimum() < 0) {
            return opError(opDef,
                           what + " uses attr '" + arg.number_attr() + "' as its length, which needs a minimum >= 0");
        }
        if (!arg.type_list_attr().empty())
            return opError(opDef, what + " cannot have both a length attr and a type list attr");
    }
    if (!arg.type_attr().empty()) {
        const OpDef::AttrDef* typeAttr = findAttr(opDef, arg.type_attr());
        if (typeAttr == nullptr)
            return opError(opDef, what + " uses attr '" + arg.type_attr() + "' as its type, but it is not declared");
        if (typeAttr->type() != "type") {
            return opError(opDef, what + " uses attr '" + arg.type_attr() + "' as its type, but '" + arg.type_attr() +
                                      "' has type " + typeAttr->type() + ", expected type");
        }
    } else if (!arg.type_list_attr().empty()) {
        const OpDef::AttrDef* listAttr = findAttr(opDef, arg.type_list_attr());
        if (listAttr == nullptr) {
            return opError(opDef,
                           what + " uses attr '" + arg.type_list_attr() + "' as its types, but it is not declared");
        }
        if (listAttr->type() != "list(type)") {
            return opError(opDef, what + " uses attr '" + arg.type_list_attr() + "' as its types, but '" +
                                      arg.type_list_attr() + "' has type " + listAttr->type() +
                                      ", expected list(type)");
        }
    } else {
        if (!tensorflow::DataType_IsValid(arg.type()))
            return opError(opDef, what + " has invalid DataType enum " + std::to_string(arg.type()));
        if (isRefType(arg.type())) {
            return opError(opDef, what + " has ref type " + dataTypeString(arg.type()) + "; write 'Ref(" +
                                      dataTypeString(baseType(arg.type())) + ")' instead");
        }
    }
    return Status::ok();
}

} // namespace

const OpDef::AttrDef* findAttr(const OpDef& opDef, std::string_view name)
{
    for (const OpDef::AttrDef& attr : opDef.attr()) {
        if (attr.name() == name)
            return &attr;
    }
    return nullptr;
}

Status validateAttrValue(const AttrValue& value, const OpDef::AttrDef& attr)
{
    if (Status status = attrValueHasType(value, attr.type()); !status.isOk())
        return {status.code(), status.message() + " for attr '" + attr.name() + "'"};

    std::string_view base;
    bool isList = false;
    splitAttrType(attr.type(), base, isList);

    if (attr.has_minimum()) {
        if (attr.type() == "int") {
            if (value.i() < attr.minimum()) {
                return invalidArgumentError("Value for attr '" + attr.name() + "' of " + std::to_string(value.i()) +
                                            " must be at least minimum " + std::to_string(attr.minimum()));
            }
        } else if (isList) {
            const int length = listLength(value.list(), base);
            if (length < attr.minimum()) {
                return invalidArgumentError("Length for attr '" + attr.name() + "' of " + std::to_string(length) +
                                            " must be at least minimum " + std::to_string(attr.minimum()));
            }
        }
    }

    if (attr.has_allowed_values()) {
        if (attr.type() == "type")
            return allowedType(value.type(), attr);
        if (attr.type() == "list(type)") {
            for (int dtype : value.list().type()) {
                if (Status status = allowedType(dtype, attr); !status.isOk())
                    return status;
            }
        } else if (attr.type() == "string") {
            return allowedString(value.s(), attr);
        } else if (attr.type() == "list(string)") {
            for (const std::string& s : value.list().s()) {
                if (Status status = allowedString(s, attr); !status.isOk())
                    return status;
            }
        } else {
            return unimplementedError("Support for allowed_values not implemented for type " + attr.type());
        }
    }
    return Status::ok();
}

Status validateOpDef(const OpDef& opDef)
{
    if (opDef.name().empty())
        return invalidArgumentError("an op has an empty name");
    // Internal ops ("_Recv", "_Arg") are exempt from the CamelCase rule, as in TensorFlow.
    if (!opDef.name().starts_with("_") && !isValidOpName(opDef.name()))
        return opError(opDef,
                       "invalid op name (expected CamelCase: an upper-case letter, then letters, digits or '_')");

    std::set<std::string> names;
    for (const OpDef::AttrDef& attr : opDef.attr()) {
        const std::string what = "attr '" + attr.name() + "'";
        if (!isValidAttrName(attr.name()))
            return opError(opDef, "invalid attr name '" + attr.name() + "'");
        if (!names.insert(attr.name()).second)
            return opError(opDef, "duplicate name '" + attr.name() + "'");
        if (dataTypeFromName(attr.name()))
            return opError(opDef, "attr '" + attr.name() + "' cannot have a name that is also a dtype name");

        std::string_view base;
        bool isList = false;
        if (!splitAttrType(attr.type(), base, isList))
            return opError(opDef, what + " has unknown type '" + attr.type() + "'");

        if (attr.has_minimum()) {
            if (attr.type() != "int" && !isList)
                return opError(opDef, what + " has a minimum, but minimums exist only for int and list attrs");
            if (isList && attr.minimum() < 0) {
                return opError(opDef, what + " with a list type must have a non-negative minimum, not " +
                                          std::to_string(attr.minimum()));
            }
        } else if (attr.minimum() != 0) {
            return opError(opDef, what + " has has_minimum = false but minimum " + std::to_string(attr.minimum()));
        }

        if (attr.has_allowed_values()) {
            if (base != "type" && base != "string")
                return opError(opDef, what + " of type " + attr.type() + " cannot have allowed values");
            const std::string listType = "list(" + std::string(base) + ")";
            if (Status status = attrValueHasType(attr.allowed_values(), listType); !status.isOk())
                return opError(opDef, "allowed values of " + what + ": " + status.message());
        }

        if (attr.has_default_value()) {
            if (Status status = validateAttrValue(attr.default_value(), attr); !status.isOk())
                return opError(opDef, "default value of " + what + " is invalid: " + status.message());
        }
    }
    for (const OpDef::ArgDef& arg : opDef.input_arg()) {
        if (Status status = validateArg(opDef, arg, false, names); !status.isOk())
            return status;
    }
    for (const OpDef::ArgDef& arg : opDef.output_arg()) {
        if (Status status = validateArg(opDef, arg, true, names); !status.isOk())
            return status;
    }
    return Status::ok();
}

} // namespace tstudio
