// AttrValue as text for the graph viewer's properties panel (see attr_value_text.h).
#include "graph_viewer/attr_value_text.h"

#include "framework/data_type.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <charconv>
#include <complex>
#include <string>
#include <type_traits>

namespace tstudio::graph_viewer {
namespace {

constexpr int kPreviewValues = 10;     ///< tensor values shown in an attribute
constexpr int kMaxStringChars = 60;    ///< string attrs longer than this are elided
constexpr int kMaxTooltipChars = 2000; ///< the tooltip's full value is cut here
const QString kEllipsis = QStringLiteral("\u2026");

QString shortestFloat(double value, bool single)
{
    char buffer[64];
    const auto result = single ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value))
                               : std::to_chars(buffer, buffer + sizeof buffer, value);
    return QString::fromLatin1(buffer, static_cast<int>(result.ptr - buffer));
}

/// Bytes as a double-quoted string: printable ASCII as is, UTF-8 decoded, other bytes as \xNN.
QString quotedBytes(const std::string& bytes)
{
    const QString decoded = QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size()));
    const bool validUtf8 = decoded.toUtf8() == QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
    QString text = QStringLiteral("\"");
    if (validUtf8) {
        for (QChar c : decoded) {
            if (c == '"' || c == '\\')
                text += '\\' + QString(c);
            else if (c == '\n')
                text += QStringLiteral("\\n");
            else if (c.isPrint() || c.unicode() > 127)
                text += c;
            else
                text += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QChar('0'));
        }
    } else {
        for (unsigned char c : bytes) {
            if (c >= 32 && c < 127 && c != '"' && c != '\\')
                text += QChar(c);
            else
                text += QStringLiteral("\\x%1").arg(c, 2, 16, QChar('0'));
        }
    }
    return text + '"';
}

} // namespace

QString elided(const QString& text, int maxChars)
{
    return text.size() <= maxChars ? text : text.left(maxChars - 1) + kEllipsis;
}

namespace {

template <typename T> QString elementText(const T& value)
{
    if constexpr (std::is_same_v<T, bool>)
        return value ? QStringLiteral("true") : QStringLiteral("false");
    else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>)
        return shortestFloat(static_cast<float>(value), true);
    else if constexpr (std::is_same_v<T, double>)
        return shortestFloat(value, false);
    else if constexpr (std::is_same_v<T, std::string>)
        return elided(quotedBytes(value), kMaxStringChars);
    else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
        const bool single = std::is_same_v<T, std::complex<float>>;
        const QString imag = shortestFloat(value.imag(), single);
        return '(' + shortestFloat(value.real(), single) + (imag.startsWith('-') ? QString() : QStringLiteral("+")) +
               imag + QStringLiteral("j)");
    } else
        return QString::number(value);
}

} // namespace

/// "float32 [2, 3] = [1, 2, 3, 4, 5, 6]": dtype, shape and the first values, "…" when there are more.
QString tensorText(const tensorflow::TensorProto& proto)
{
    QString head = dtypeText(proto.dtype()) + ' ' + shapeText(proto.tensor_shape());
    CpuAllocator allocator;
    auto tensor = Tensor::fromProto(allocator, proto);
    if (!tensor)
        return head + QStringLiteral(" (") + QString::fromStdString(tensor.error().message()) + ')';
    QStringList values;
    const Status status = dispatchDataType(detail::storageDataType(tensor->dtype()), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const auto all = tensor->template values<T>();
        const std::size_t shown = std::min<std::size_t>(all.size(), kPreviewValues);
        for (std::size_t i = 0; i < shown; ++i)
            values << elementText(all[i]);
    });
    if (!status.isOk())
        return head; // resource handles and the like: no preview
    if (tensor->numElements() > kPreviewValues)
        values << kEllipsis;
    if (tensor->rank() == 0 && values.size() == 1)
        return head + QStringLiteral(" = ") + values.front();
    return head + QStringLiteral(" = [") + values.join(QStringLiteral(", ")) + ']';
}

namespace {

QString funcText(const tensorflow::NameAttrList& func)
{
    return QString::fromStdString(func.name());
}

QString listText(const tensorflow::AttrValue::ListValue& list)
{
    QStringList items;
    for (const auto& s : list.s())
        items << elided(quotedBytes(s), kMaxStringChars);
    for (auto i : list.i())
        items << QString::number(i);
    for (float f : list.f())
        items << shortestFloat(f, true);
    for (bool b : list.b())
        items << (b ? QStringLiteral("true") : QStringLiteral("false"));
    for (int t : list.type())
        items << dtypeText(t);
    for (const auto& shape : list.shape())
        items << shapeText(shape);
    for (const auto& tensor : list.tensor())
        items << tensorText(tensor);
    for (const auto& func : list.func())
        items << funcText(func);
    return '[' + items.join(QStringLiteral(", ")) + ']';
}

} // namespace

QString attrText(const tensorflow::AttrValue& value)
{
    using V = tensorflow::AttrValue;
    switch (value.value_case()) {
    case V::kList: return listText(value.list());
    case V::kS: return elided(quotedBytes(value.s()), kMaxStringChars);
    case V::kI: return QString::number(value.i());
    case V::kF: return shortestFloat(value.f(), true);
    case V::kB: return value.b() ? QStringLiteral("true") : QStringLiteral("false");
    case V::kType: return dtypeText(value.type());
    case V::kShape: return shapeText(value.shape());
    case V::kTensor: return tensorText(value.tensor());
    case V::kPlaceholder: return '$' + QString::fromStdString(value.placeholder());
    case V::kFunc: return funcText(value.func());
    case V::VALUE_NOT_SET: break;
    }
    return QCoreApplication::translate("tstudio::graph_viewer::NodePropertiesPanel", "(not set)");
}

/// The full value for the tooltip: strings not elided.
QString attrToolTip(const tensorflow::AttrValue& value)
{
    QString text = value.value_case() == tensorflow::AttrValue::kS ? quotedBytes(value.s()) : attrText(value);
    return elided(text, kMaxTooltipChars);
}

} // namespace tstudio::graph_viewer
