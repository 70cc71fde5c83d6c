// AttrEditor: the node editor's form for the attrs of one node, one typed editor per attr, applying only valid values.
#include "node_editor/attr_editor.h"

#include "builder/tensor_proto_values.h"
#include "common/catalog_text.h"
#include "framework/allocator.h"
#include "framework/attr_value_parser.h"
#include "framework/data_type.h"
#include "framework/op_def_validation.h"
#include "framework/tensor.h"
#include "framework/tensor_shape.h"

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>

namespace tstudio::node_editor {

namespace {

using tensorflow::AttrValue;
using AttrDef = tensorflow::OpDef::AttrDef;

const char* const kInvalidStyle = "background-color: #fde2e2; border: 1px solid #c62828;";


/// The value dtypes a person may pick where an attr does not restrict them.
std::vector<DataType> allValueTypes()
{
    std::vector<DataType> types;
    for (int i = 1; i < kDataTypeRefOffset; ++i) {
        if (tensorflow::DataType_IsValid(i))
            types.push_back(static_cast<DataType>(i));
    }
    return types;
}

/// The dtypes the tensor dialog can write (makeTensorProto / makeStringTensorProto).
const std::vector<DataType>& tensorDialogTypes()
{
    static const std::vector<DataType> types = {tensorflow::DT_FLOAT,    tensorflow::DT_DOUBLE, tensorflow::DT_HALF,
                                                tensorflow::DT_BFLOAT16, tensorflow::DT_INT8,   tensorflow::DT_INT16,
                                                tensorflow::DT_INT32,    tensorflow::DT_INT64,  tensorflow::DT_UINT8,
                                                tensorflow::DT_UINT16,   tensorflow::DT_UINT32, tensorflow::DT_UINT64,
                                                tensorflow::DT_BOOL,     tensorflow::DT_STRING};
    return types;
}

bool sameValue(const AttrValue& a, const AttrValue& b)
{
    return google::protobuf::util::MessageDifferencer::Equals(a, b);
}

/// An InvalidArgument Status holding a translated message written by this editor (engine messages stay as
/// the engine words them).
Status guiError(const QString& message)
{
    return invalidArgumentError(message.toStdString());
}

QString tensorSummary(const tensorflow::TensorProto& tensor)
{
    return dtypeText(tensor.dtype()) + QLatin1Char(' ') + shapeText(tensor.tensor_shape());
}

} // namespace

// --- TensorEditDialog ----------------------------------------------------------------------------------------

TensorEditDialog::TensorEditDialog(QWidget* parent) : QDialog(parent)
{
    m_dtype = new QComboBox(this);
    m_dtype->setObjectName(QStringLiteral("dtypeCombo"));
    for (const DataType dtype : tensorDialogTypes())
        m_dtype->addItem(dtypeText(dtype), static_cast<int>(dtype));
    m_shape = new QLineEdit(QStringLiteral("[]"), this);
    m_shape->setObjectName(QStringLiteral("shapeEdit"));
    m_table = new QTableWidget(1, 1, this);
    m_table->setObjectName(QStringLiteral("valuesTable"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_status->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_dtypeLabel = new QLabel(this);
    m_shapeLabel = new QLabel(this);

    auto* form = new QFormLayout;
    form->addRow(m_dtypeLabel, m_dtype);
    form->addRow(m_shapeLabel, m_shape);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_table);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_dtype, &QComboBox::currentIndexChanged, this, [this] { revalidate(); });
    connect(m_shape, &QLineEdit::textChanged, this, [this] { reshapeTable(); });
    connect(m_table, &QTableWidget::itemChanged, this, [this] { revalidate(); });
    retranslateUi();
    reshapeTable();
}

TensorEditDialog::~TensorEditDialog() = default;

QString TensorEditDialog::statusText() const
{
    return m_status->text();
}

namespace {

/// The fully defined shape typed in `text`, or InvalidArgument with the reason.
Expected<TensorShape> parseDialogShape(const QString& text, int maxElements)
{
    Expected<AttrValue> parsed = parseAttrValue("shape", text.trimmed().toStdString());
    if (!parsed)
        return unexpected(parsed.error());
    Expected<TensorShape> shape = TensorShape::fromProto(parsed->shape());
    if (!shape)
        return shape;
    if (!shape->isFullyDefined())
        return unexpected(guiError(TensorEditDialog::tr("a constant needs a fully defined shape, not %1")
                                       .arg(QString::fromStdString(shape->toString()))));
    Expected<std::int64_t> elements = shape->numElements();
    if (!elements)
        return unexpected(elements.error());
    if (*elements > maxElements)
        return unexpected(guiError(TensorEditDialog::tr("shape %1 has %2 elements; at most %3 can be edited here")
                                       .arg(QString::fromStdString(shape->toString()))
                                       .arg(*elements)
                                       .arg(maxElements)));
    return shape;
}

/// Table geometry for a shape: the last dimension across, everything before it down.
std::pair<int, int> tableGeometry(const TensorShape& shape)
{
    if (shape.rank() == 0)
        return {1, 1};
    std::int64_t rows = 1;
    for (int d = 0; d + 1 < shape.rank(); ++d)
        rows *= shape.dim(d);
    return {static_cast<int>(rows), static_cast<int>(shape.dim(shape.rank() - 1))};
}

} // namespace

void TensorEditDialog::reshapeTable()
{
    Expected<TensorShape> shape = parseDialogShape(m_shape->text(), kMaxElements);
    if (shape) {
        QStringList flat;
        for (int r = 0; r < m_table->rowCount(); ++r)
            for (int c = 0; c < m_table->columnCount(); ++c)
                flat << (m_table->item(r, c) ? m_table->item(r, c)->text() : QString());
        const bool wasLoading = m_loading;
        m_loading = true;
        const auto [rows, columns] = tableGeometry(*shape);
        m_table->clearContents();
        m_table->setRowCount(rows);
        m_table->setColumnCount(columns);
        // Headers name TensorFlow's 0-based indices; a row is the index of the outer dimensions ("1, 0").
        QStringList columnLabels, rowLabels;
        for (int c = 0; c < columns; ++c)
            columnLabels << QString::number(c);
        for (int r = 0; r < rows; ++r) {
            QStringList index;
            for (int d = shape->rank() - 2, rest = r; d >= 0; rest /= static_cast<int>(shape->dim(d)), --d)
                index.prepend(QString::number(rest % shape->dim(d)));
            rowLabels << (index.isEmpty() ? QString() : index.join(QStringLiteral(", ")));
        }
        m_table->setHorizontalHeaderLabels(columnLabels);
        m_table->setVerticalHeaderLabels(rowLabels);
        for (int i = 0; i < rows * columns && i < flat.size(); ++i)
            m_table->setItem(i / columns, i % columns, new QTableWidgetItem(flat[i]));
        m_loading = wasLoading;
    }
    revalidate();
}

Expected<tensorflow::TensorProto> TensorEditDialog::tensor() const
{
    Expected<TensorShape> shape = parseDialogShape(m_shape->text(), kMaxElements);
    if (!shape)
        return unexpected(shape.error());
    const auto [rows, columns] = tableGeometry(*shape);
    if (m_table->rowCount() != rows || m_table->columnCount() != columns)
        return unexpected(guiError(tr("the table does not match the shape")));
    const auto dtype = static_cast<DataType>(m_dtype->currentData().toInt());
    QStringList cells;
    int filled = 0;
    for (int i = 0; i < rows * columns; ++i) {
        const QTableWidgetItem* item = m_table->item(i / columns, i % columns);
        cells << (item ? item->text() : QString());
        if (!cells.back().trimmed().isEmpty())
            ++filled;
    }
    if (dtype == tensorflow::DT_STRING) {
        std::vector<std::string> strings;
        for (const QString& cell : cells)
            strings.push_back(cell.toStdString());
        return makeStringTensorProto(*shape, strings);
    }
    const std::int64_t elements = rows * static_cast<std::int64_t>(columns);
    const bool broadcast = filled == 1 && elements > 1 && !cells.front().trimmed().isEmpty();
    if (filled != elements && !broadcast)
        return unexpected(guiError(tr("%1 values for %2 elements: fill every cell, or only the first to repeat it")
                                       .arg(filled)
                                       .arg(elements)));
    if (broadcast)
        cells = cells.mid(0, 1);
    const bool integral = isInteger(dtype) || dtype == tensorflow::DT_BOOL;
    std::vector<std::int64_t> ints;
    std::vector<double> doubles;
    for (int i = 0; i < cells.size(); ++i) {
        const QString cell = cells[i].trimmed();
        bool ok = false;
        if (dtype == tensorflow::DT_BOOL) {
            const QString lower = cell.toLower();
            ok = lower == QLatin1String("true") || lower == QLatin1String("false") || cell == QLatin1String("1") ||
                 cell == QLatin1String("0");
            ints.push_back(lower == QLatin1String("true") || cell == QLatin1String("1") ? 1 : 0);
        } else if (integral) {
            ints.push_back(cell.toLongLong(&ok));
        } else {
            doubles.push_back(cell.toDouble(&ok));
        }
        if (!ok)
            return unexpected(guiError(tr("value %1 '%2' is not a %3").arg(i + 1).arg(cell, dtypeText(dtype))));
    }
    return integral ? makeTensorProtoFromInts(dtype, *shape, ints) : makeTensorProto(dtype, *shape, doubles);
}

void TensorEditDialog::setTensor(const tensorflow::TensorProto& proto)
{
    m_loading = true;
    CpuAllocator allocator;
    Expected<Tensor> tensor = Tensor::fromProto(allocator, proto);
    QString problem;
    const auto& types = tensorDialogTypes();
    if (!tensor)
        problem = QString::fromStdString(tensor.error().message());
    else if (std::find(types.begin(), types.end(), tensor->dtype()) == types.end())
        problem = tr("Tensors of dtype %1 cannot be edited here.").arg(dtypeText(tensor->dtype()));
    else if (tensor->numElements() > kMaxElements)
        problem = tr("This tensor has %1 elements; at most %2 can be edited here.")
                      .arg(tensor->numElements())
                      .arg(kMaxElements);
    QStringList cells;
    if (problem.isEmpty()) {
        const auto dispatched = dispatchDataType(tensor->dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            for (const T& element : tensor->values<T>()) {
                if constexpr (std::is_same_v<T, std::string>)
                    cells << QString::fromStdString(element);
                else if constexpr (std::is_same_v<T, bool>)
                    cells << (element ? QStringLiteral("true") : QStringLiteral("false"));
                else if constexpr (std::is_integral_v<T>)
                    cells << QString::number(element);
                else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
                    cells << shortestText(element);
                else if constexpr (std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>)
                    cells << shortestText(static_cast<float>(element));
            }
        });
        if (!dispatched.isOk())
            problem = QString::fromStdString(dispatched.message());
    }
    // TensorFlow's broadcast form (one stored value for several elements) stays one value in the first cell.
    const int stored = proto.float_val_size() + proto.double_val_size() + proto.int_val_size() +
                       proto.int64_val_size() + proto.bool_val_size() + proto.half_val_size() +
                       proto.uint32_val_size() + proto.uint64_val_size();
    if (problem.isEmpty() && proto.tensor_content().empty() && stored == 1 && cells.size() > 1 &&
        tensor->dtype() != tensorflow::DT_STRING) {
        for (int i = 1; i < cells.size(); ++i)
            cells[i].clear();
    }
    if (!problem.isEmpty()) {
        m_dtype->setCurrentIndex(0);
        m_shape->setText(QStringLiteral("[]"));
        cells = {QString()};
    } else {
        m_dtype->setCurrentIndex(m_dtype->findData(static_cast<int>(tensor->dtype())));
        m_shape->setText(shapeText(proto.tensor_shape()));
    }
    m_table->clearContents();
    const int columns = std::max(1, m_table->columnCount());
    for (int i = 0; i < cells.size() && i / columns < m_table->rowCount(); ++i)
        m_table->setItem(i / columns, i % columns, new QTableWidgetItem(cells[i]));
    m_loading = false;
    revalidate();
    if (!problem.isEmpty())
        m_status->setText(problem);
}

void TensorEditDialog::revalidate()
{
    if (m_loading)
        return;
    Expected<tensorflow::TensorProto> result = tensor();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(result.has_value());
    if (result) {
        m_status->setText(
            tr("%1, %n element(s)", nullptr, static_cast<int>(m_table->rowCount() * m_table->columnCount()))
                .arg(tensorSummary(*result)));
        m_status->setStyleSheet(QString());
    } else {
        m_status->setText(QString::fromStdString(result.error().message()));
        m_status->setStyleSheet(QStringLiteral("color: #c62828;"));
    }
}

void TensorEditDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

void TensorEditDialog::retranslateUi()
{
    setWindowTitle(tr("Edit tensor"));
    m_dtypeLabel->setText(tr("Data type:"));
    m_shapeLabel->setText(tr("Shape:"));
    m_shape->setToolTip(tr("A fully defined shape such as [2, 3]; [] for a scalar"));
    m_table->setToolTip(tr("Row-major values; fill only the first cell to repeat one value"));
}

// --- AttrEditor ----------------------------------------------------------------------------------------------

struct AttrEditor::Row {
    AttrDef def;
    AttrValue value;
    bool hasValue = false;
    QLabel* label = nullptr;
    QWidget* editor = nullptr;
    QString error;
    bool updating = false;
};

AttrEditor::AttrEditor(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_emptyLabel = new QLabel(this);
    m_emptyLabel->setObjectName(QStringLiteral("emptyLabel"));
    layout->addLayout(m_form);
    layout->addWidget(m_emptyLabel);
    layout->addStretch(1);
    m_emptyLabel->hide(); // until a node with no attrs is shown
    retranslateUi();
}

AttrEditor::~AttrEditor() = default;

void AttrEditor::setOpDef(const tensorflow::OpDef& opDef, const AttrMap& values)
{
    m_attrs.assign(opDef.attr().begin(), opDef.attr().end());
    m_layerParams = false;
    rebuild(values);
}

void AttrEditor::setParams(std::vector<tensorflow::OpDef::AttrDef> params, const AttrMap& values)
{
    m_attrs = std::move(params);
    m_layerParams = true;
    rebuild(values);
}

void AttrEditor::clear()
{
    m_attrs.clear();
    rebuild({});
    m_emptyLabel->hide(); // no node shown: "This node has no attributes" would speak of none
}

void AttrEditor::rebuild(const AttrMap& values)
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_rows.clear();
    m_rows.reserve(m_attrs.size());
    for (const AttrDef& def : m_attrs) {
        if (def.name().starts_with('_'))
            continue;
        Row& row = m_rows.emplace_back();
        row.def = def;
        if (const auto it = values.find(def.name()); it != values.end()) {
            row.value = it->second;
            row.hasValue = true;
        } else if (def.has_default_value()) {
            row.value = def.default_value();
            row.hasValue = true;
        }
    }
    for (Row& row : m_rows) {
        row.label = new QLabel(QString::fromStdString(row.def.name()), this);
        row.label->setToolTip(labelToolTip(row));
        row.editor = makeEditor(row);
        row.editor->setObjectName(QStringLiteral("attr_") + QString::fromStdString(row.def.name()));
        showValue(row);
        m_form->addRow(row.label, row.editor);
    }
    m_emptyLabel->setVisible(m_rows.empty());
}

QWidget* AttrEditor::makeEditor(Row& row)
{
    const std::string& type = row.def.type();
    const QString name = QString::fromStdString(row.def.name());
    if (type == "int") {
        auto* spin = new QSpinBox(this);
        const std::int64_t minimum =
            row.def.has_minimum() ? std::max<std::int64_t>(row.def.minimum(), INT_MIN) : INT_MIN;
        spin->setRange(static_cast<int>(std::min<std::int64_t>(minimum, INT_MAX)), INT_MAX);
        spin->setKeyboardTracking(false);
        connect(spin, &QSpinBox::valueChanged, this, [this, name, spin](int v) {
            if (spin->property("updating").toBool())
                return;
            AttrValue value;
            value.set_i(v);
            apply(name, value);
        });
        return spin;
    }
    if (type == "bool") {
        auto* check = new QCheckBox(this);
        connect(check, &QCheckBox::toggled, this, [this, name, check](bool on) {
            if (check->property("updating").toBool())
                return;
            AttrValue value;
            value.set_b(on);
            apply(name, value);
        });
        return check;
    }
    const bool choices = type == "string" && row.def.allowed_values().list().s_size() > 0;
    if (type == "type" || choices) {
        auto* combo = new QComboBox(this);
        if (choices) {
            for (const std::string& s : row.def.allowed_values().list().s())
                combo->addItem(QString::fromStdString(s), QString::fromStdString(s));
        } else {
            std::vector<DataType> types;
            for (const int t : row.def.allowed_values().list().type())
                types.push_back(static_cast<DataType>(t));
            if (types.empty())
                types = allValueTypes();
            for (const DataType t : types)
                combo->addItem(dtypeText(t), static_cast<int>(t));
        }
        connect(combo, &QComboBox::currentIndexChanged, this, [this, name, combo, choices](int index) {
            if (combo->property("updating").toBool() || index < 0)
                return;
            const QVariant data = combo->itemData(index);
            if (!data.isValid())
                return;
            AttrValue value;
            if (choices)
                value.set_s(data.toString().toStdString());
            else
                value.set_type(static_cast<DataType>(data.toInt()));
            apply(name, value);
        });
        return combo;
    }
    if (type == "tensor") {
        auto* button = new QPushButton(this);
        connect(button, &QPushButton::clicked, this, [this, name] { editTensor(name); });
        return button;
    }
    auto* edit = new QLineEdit(this);
    const AttrDef def = row.def;
    connect(edit, &QLineEdit::textEdited, this, [this, name, def](const QString& text) {
        for (Row& r : m_rows) {
            if (r.def.name() == def.name()) {
                Expected<AttrValue> parsed = parseAttrText(def, text);
                markError(r, parsed ? QString() : QString::fromStdString(parsed.error().message()));
            }
        }
    });
    connect(edit, &QLineEdit::editingFinished, this, [this, name, edit] { applyText(name, edit->text()); });
    return edit;
}

void AttrEditor::showValue(Row& row)
{
    const std::string& type = row.def.type();
    row.editor->setProperty("updating", true);
    if (auto* spin = qobject_cast<QSpinBox*>(row.editor)) {
        spin->setValue(static_cast<int>(std::clamp<std::int64_t>(row.value.i(), INT_MIN, INT_MAX)));
    } else if (auto* check = qobject_cast<QCheckBox*>(row.editor)) {
        check->setChecked(row.value.b());
    } else if (auto* combo = qobject_cast<QComboBox*>(row.editor)) {
        const QVariant key = type == "type" ? QVariant(static_cast<int>(row.value.type()))
                                            : QVariant(QString::fromStdString(row.value.s()));
        int index = row.hasValue ? combo->findData(key) : -1;
        if (index < 0 && row.hasValue) {
            // A value outside the choices (read from a file) is shown as it is; validation marks it.
            combo->addItem(type == "type" ? dtypeText(row.value.type()) : QString::fromStdString(row.value.s()), key);
            index = combo->count() - 1;
        }
        if (index < 0) {
            combo->insertItem(0, QString());
            index = 0;
        }
        combo->setCurrentIndex(index);
    } else if (auto* button = qobject_cast<QPushButton*>(row.editor)) {
        button->setText(row.value.has_tensor() ? tensorSummary(row.value.tensor()) : tr("(none)"));
        QString tip;
        if (row.value.has_tensor()) {
            CpuAllocator allocator;
            Expected<Tensor> tensor = Tensor::fromProto(allocator, row.value.tensor());
            tip = tensor ? QString::fromStdString(tensor->debugString(12))
                         : QString::fromStdString(tensor.error().message());
        }
        button->setProperty("valueToolTip", tip);
    } else if (auto* edit = qobject_cast<QLineEdit*>(row.editor)) {
        edit->setText(row.hasValue ? attrValueText(type, row.value) : QString());
    }
    row.editor->setProperty("updating", false);
    markError(row, QString());
    if (row.hasValue && row.value.value_case() != AttrValue::VALUE_NOT_SET) {
        if (Status status = validateAttrValue(row.value, row.def); !status.isOk())
            markError(row, QString::fromStdString(status.message()));
    }
}

void AttrEditor::markError(Row& row, const QString& reason)
{
    row.error = reason;
    row.editor->setProperty("attrError", reason);
    row.editor->setStyleSheet(reason.isEmpty() ? QString() : QString::fromLatin1(kInvalidStyle));
    const QString normal = row.editor->property("valueToolTip").toString();
    row.editor->setToolTip(reason.isEmpty() ? normal : reason);
}

void AttrEditor::applyText(const QString& name, const QString& text)
{
    for (Row& row : m_rows) {
        if (QString::fromStdString(row.def.name()) != name)
            continue;
        Expected<AttrValue> parsed = parseAttrText(row.def, text);
        if (!parsed) {
            markError(row, QString::fromStdString(parsed.error().message()));
            return;
        }
        // Renaming a function keeps the attrs it is instantiated with.
        if (row.def.type() == "func" && row.value.has_func() && parsed->func().attr().empty())
            *parsed->mutable_func()->mutable_attr() = row.value.func().attr();
        apply(name, *parsed);
        return;
    }
}

void AttrEditor::apply(const QString& name, const tensorflow::AttrValue& value)
{
    for (Row& row : m_rows) {
        if (QString::fromStdString(row.def.name()) != name)
            continue;
        if (Status status = validateAttrValue(value, row.def); !status.isOk()) {
            markError(row, QString::fromStdString(status.message()));
            return;
        }
        markError(row, QString());
        if (row.hasValue && sameValue(row.value, value))
            return;
        row.value = value;
        row.hasValue = true;
        if (auto* combo = qobject_cast<QComboBox*>(row.editor); combo && !combo->itemData(0).isValid()) {
            combo->setProperty("updating", true);
            combo->removeItem(0); // the blank "not set" row is no longer needed
            combo->setProperty("updating", false);
        }
        if (row.def.type() == "tensor")
            showValue(row);
        emit attrEdited(name, value);
        return;
    }
}

void AttrEditor::setValue(const QString& name, const tensorflow::AttrValue& value)
{
    for (Row& row : m_rows) {
        if (QString::fromStdString(row.def.name()) == name) {
            row.value = value;
            row.hasValue = value.value_case() != AttrValue::VALUE_NOT_SET;
            showValue(row);
        }
    }
}

tensorflow::AttrValue AttrEditor::value(const QString& name) const
{
    for (const Row& row : m_rows)
        if (QString::fromStdString(row.def.name()) == name && row.hasValue)
            return row.value;
    return {};
}

QStringList AttrEditor::attrNames() const
{
    QStringList names;
    for (const Row& row : m_rows)
        names << QString::fromStdString(row.def.name());
    return names;
}

QWidget* AttrEditor::editor(const QString& name) const
{
    for (const Row& row : m_rows)
        if (QString::fromStdString(row.def.name()) == name)
            return row.editor;
    return nullptr;
}

QString AttrEditor::error(const QString& name) const
{
    for (const Row& row : m_rows)
        if (QString::fromStdString(row.def.name()) == name)
            return row.error;
    return {};
}

TensorEditDialog* AttrEditor::editTensor(const QString& name)
{
    for (Row& row : m_rows) {
        if (QString::fromStdString(row.def.name()) != name || row.def.type() != "tensor")
            continue;
        auto* dialog = new TensorEditDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        if (row.value.has_tensor())
            dialog->setTensor(row.value.tensor());
        connect(dialog, &QDialog::accepted, this, [this, name, dialog] {
            Expected<tensorflow::TensorProto> tensor = dialog->tensor();
            if (!tensor)
                return;
            AttrValue value;
            *value.mutable_tensor() = std::move(*tensor);
            apply(name, value);
        });
        dialog->open();
        return dialog;
    }
    return nullptr;
}

void AttrEditor::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

QString AttrEditor::labelToolTip(const Row& row) const
{
    QString tip = QStringLiteral("<qt><b>%1</b>: %2")
                      .arg(QString::fromStdString(row.def.name()).toHtmlEscaped(),
                           QString::fromStdString(row.def.type()).toHtmlEscaped());
    const QString description =
        m_layerParams ? layerCatalogText(row.def.description()) : opCatalogText(row.def.description());
    if (!description.isEmpty())
        tip += QStringLiteral("<p>%1</p>").arg(description.toHtmlEscaped());
    return tip + QStringLiteral("</qt>");
}

void AttrEditor::retranslateUi()
{
    m_emptyLabel->setText(tr("This node has no attributes to edit."));
    for (Row& row : m_rows) {
        if (row.label)
            row.label->setToolTip(labelToolTip(row));
        if (auto* button = qobject_cast<QPushButton*>(row.editor); button && !row.value.has_tensor())
            button->setText(tr("(none)"));
    }
}

} // namespace tstudio::node_editor
