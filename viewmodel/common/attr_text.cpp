// How an attr value is written and read back in the editor's line editors.
#include "common/attr_text.h"

#include "framework/attr_value_parser.h"
#include "framework/op_def_validation.h"
#include "framework/data_type.h"

#include <google/protobuf/text_format.h>

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

#include <charconv>

namespace tstudio {

namespace {

using tensorflow::AttrValue;
using AttrDef = tensorflow::OpDef::AttrDef;

/// parseAttrText's messages show under the attr editor's fields, in its translation context.
Status editorError(const QString& message)
{
    return invalidArgumentError(message.toStdString());
}

template <typename T> QString shortestNumber(T value)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QString::fromLatin1(buffer, static_cast<int>(result.ptr - buffer));
}

QString quoted(const std::string& text)
{
    QString out = QStringLiteral("'");
    for (const unsigned char c : text) {
        if (c == '\'' || c == '\\')
            out += QStringLiteral("\\") + QLatin1Char(static_cast<char>(c));
        else if (c < 0x20 || c >= 0x7f)
            out += QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0'));
        else
            out += QLatin1Char(static_cast<char>(c));
    }
    return out + QLatin1Char('\'');
}

QString messageText(const google::protobuf::Message& message)
{
    google::protobuf::TextFormat::Printer printer;
    printer.SetSingleLineMode(true);
    std::string text;
    printer.PrintToString(message, &text);
    return QStringLiteral("{ ") + QString::fromStdString(text).trimmed() + QStringLiteral(" }");
}

bool isListType(const std::string& type)
{
    return type.starts_with("list(");
}

} // namespace

QString dtypeText(int dtype)
{
    return QString::fromStdString(dataTypeName(static_cast<DataType>(dtype)));
}

/// "[?, 784]", "[]" for a scalar, "<unknown>" for an unknown rank (TensorFlow's word).
QString shapeText(const tensorflow::TensorShapeProto& shape)
{
    if (shape.unknown_rank())
        return QStringLiteral("<unknown>");
    QStringList dims;
    for (const auto& dim : shape.dim())
        dims << (dim.size() < 0 ? QStringLiteral("?") : QString::number(dim.size()));
    return '[' + dims.join(QStringLiteral(", ")) + ']';
}

QString shortestText(float value)
{
    return shortestNumber(value);
}

QString shortestText(double value)
{
    return shortestNumber(value);
}

tensorflow::OpDef::AttrDef layerParam(const std::string& name, const std::string& type,
                                      const tensorflow::AttrValue& defaultValue, const std::string& doc,
                                      const std::vector<std::string>& choices)
{
    AttrDef attr;
    attr.set_name(name);
    attr.set_type(type);
    if (defaultValue.value_case() != AttrValue::VALUE_NOT_SET)
        *attr.mutable_default_value() = defaultValue;
    attr.set_description(doc);
    if (!choices.empty()) {
        auto* list = attr.mutable_allowed_values()->mutable_list();
        for (const std::string& choice : choices)
            list->add_s(choice);
    }
    return attr;
}

QString attrValueText(const std::string& type, const tensorflow::AttrValue& value)
{
    if (type == "int")
        return QString::number(value.i());
    if (type == "float")
        return shortestText(value.f());
    if (type == "bool")
        return value.b() ? QStringLiteral("true") : QStringLiteral("false");
    if (type == "string")
        return QString::fromStdString(value.s());
    if (type == "type")
        return value.value_case() == AttrValue::kType ? dtypeText(value.type()) : QString();
    if (type == "shape")
        return value.has_shape() ? shapeText(value.shape()) : QString();
    if (type == "tensor")
        return value.has_tensor() ? messageText(value.tensor()) : QString();
    if (type == "func")
        return QString::fromStdString(value.func().name());
    if (!isListType(type) || value.value_case() != AttrValue::kList)
        return QString();
    const auto& list = value.list();
    QStringList items;
    if (type == "list(int)")
        for (const auto i : list.i())
            items << QString::number(i);
    else if (type == "list(float)")
        for (const float f : list.f())
            items << shortestText(f);
    else if (type == "list(bool)")
        for (const bool b : list.b())
            items << (b ? QStringLiteral("true") : QStringLiteral("false"));
    else if (type == "list(string)")
        for (const auto& s : list.s())
            items << quoted(s);
    else if (type == "list(type)")
        for (const int t : list.type())
            items << dtypeText(t);
    else if (type == "list(shape)")
        for (const auto& shape : list.shape())
            items << shapeText(shape);
    else if (type == "list(tensor)")
        for (const auto& tensor : list.tensor())
            items << messageText(tensor);
    else if (type == "list(func)")
        for (const auto& func : list.func())
            items << messageText(func);
    return QLatin1Char('[') + items.join(QStringLiteral(", ")) + QLatin1Char(']');
}

Expected<tensorflow::AttrValue> parseAttrText(const tensorflow::OpDef::AttrDef& attr, const QString& text)
{
    const std::string& type = attr.type();
    QString trimmed = text.trimmed();
    AttrValue value;
    if (type == "string") {
        value.set_s(text.toStdString());
    } else if (type == "func" && !trimmed.startsWith(QLatin1Char('{'))) {
        if (trimmed.isEmpty())
            return unexpected(editorError(
                QCoreApplication::translate("tstudio::node_editor::AttrEditor", "a function name is required")));
        if (trimmed.contains(QRegularExpression(QStringLiteral("\\s"))))
            return unexpected(editorError(
                QCoreApplication::translate("tstudio::node_editor::AttrEditor", "'%1' is not a function name")
                    .arg(trimmed)));
        value.mutable_func()->set_name(trimmed.toStdString());
    } else {
        if (type == "shape" && trimmed == QLatin1String("?"))
            trimmed = QStringLiteral("<unknown>");
        if (isListType(type) && !trimmed.startsWith(QLatin1Char('[')))
            trimmed = QLatin1Char('[') + trimmed + QLatin1Char(']');
        Expected<AttrValue> parsed = parseAttrValue(type, trimmed.toStdString());
        if (!parsed)
            return unexpected(parsed.error());
        value = std::move(*parsed);
    }
    if (Status status = validateAttrValue(value, attr); !status.isOk())
        return unexpected(status);
    return value;
}

} // namespace tstudio
