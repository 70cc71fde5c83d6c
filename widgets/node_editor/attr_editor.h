// AttrEditor: the node editor's form for the attrs of one node, one typed editor per attr, applying only valid values.
#pragma once

#include "common/attr_text.h" // layerParam, attrValueText, parseAttrText
#include "core/expected.h"
#include "proto/attr_value.pb.h"
#include "proto/op_def.pb.h"
#include "proto/tensor.pb.h"

#include <QDialog>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <google/protobuf/map.h>

#include <string>
#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QTableWidget;
class QDialogButtonBox;

namespace tstudio::node_editor {

/// The attrs of a node as NodeDef::attr holds them.
using AttrMap = google::protobuf::Map<std::string, tensorflow::AttrValue>;

/// A small dialog editing a constant tensor: dtype, a fully defined shape and the values in a table (rows are
/// the outer dimensions flattened, columns the last dimension; one cell for a scalar). Every cell must hold a
/// value, or only the first (TensorFlow's broadcast form: one value fills the tensor). The result is laid out
/// as TensorFlow's make_tensor_proto lays it out (makeTensorProto). At most kMaxElements elements are edited
/// here. OK is enabled only while the content is valid; the reason shows in the "statusLabel" otherwise.
/// Object names: "dtypeCombo", "shapeEdit", "valuesTable", "statusLabel".
class TensorEditDialog : public QDialog {
    Q_OBJECT
public:
    static constexpr int kMaxElements = 4096;

    explicit TensorEditDialog(QWidget* parent = nullptr);
    ~TensorEditDialog() override;

    /// Loads `tensor` (a broadcast or content form is expanded into the cells). A tensor the table cannot
    /// show (too many elements, unsupported dtype) loads as a float scalar and says why in the status.
    void setTensor(const tensorflow::TensorProto& tensor);
    /// The tensor described by the current content, or InvalidArgument with the reason shown in the status.
    Expected<tensorflow::TensorProto> tensor() const;

    QComboBox* dtypeCombo() const { return m_dtype; }
    QLineEdit* shapeEdit() const { return m_shape; }
    QTableWidget* valuesTable() const { return m_table; }
    QString statusText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void reshapeTable();
    void revalidate();
    void retranslateUi();

    QComboBox* m_dtype = nullptr;
    QLineEdit* m_shape = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_dtypeLabel = nullptr;
    QLabel* m_shapeLabel = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    bool m_loading = false;
};

/// Edits the attrs of one node: one row per attr (names starting with '_' skipped), with an editor by type:
///   int: spin box bounded below by the AttrDef's minimum; float: line edit; bool: check box;
///   string: line edit, or a combo box of the allowed values; type: combo box of the allowed dtypes (all
///   value dtypes when unrestricted) shown as "float32"; shape, list(...): line edit ("[?, 784]",
///   "[1, 2, 2, 1]"); tensor: a button opening TensorEditDialog; func: line edit of the function's name.
/// Line edits apply on Enter or focus loss. Text that does not parse or validate (validateAttrValue: minimum,
/// allowed values) is marked red with the reason as the editor's tooltip and is not applied. Valid edits that
/// change the value emit attrEdited; nothing else does (setting values programmatically emits nothing).
///
/// Each editor's object name is "attr_<name>"; the row label's tooltip is the attr's type and description, the
/// description in the UI language (opCatalogText for an op's attrs, layerCatalogText for a layer's params).
/// GUI thread only.
class AttrEditor : public QWidget {
    Q_OBJECT
public:
    explicit AttrEditor(QWidget* parent = nullptr);
    ~AttrEditor() override;

    /// Shows the attrs of `opDef` with `values` (a missing value shows the AttrDef's default, or empty).
    void setOpDef(const tensorflow::OpDef& opDef, const AttrMap& values);
    /// Shows a layer node's parameters (see layerParam) with `values`.
    void setParams(std::vector<tensorflow::OpDef::AttrDef> params, const AttrMap& values);
    /// Removes every row (and shows no "no attributes" note: no node is shown).
    void clear();

    /// Updates the shown value of attr `name` (after an undo, say) without emitting; clears its error mark.
    void setValue(const QString& name, const tensorflow::AttrValue& value);
    /// The value currently applied for `name` (empty when unset or unknown).
    tensorflow::AttrValue value(const QString& name) const;

    /// The attrs shown, in order.
    QStringList attrNames() const;
    /// The editor widget of attr `name`, or nullptr.
    QWidget* editor(const QString& name) const;
    /// Why the text in `name`'s editor is not applied; empty when it is valid.
    QString error(const QString& name) const;

    /// Opens the tensor dialog for tensor attr `name` (what its button does); the dialog is a child of this
    /// editor and applies on accept. Returns the dialog, or nullptr when `name` is not a tensor attr.
    TensorEditDialog* editTensor(const QString& name);

signals:
    /// A valid edit changed attr `name` to `value`.
    void attrEdited(const QString& name, const tensorflow::AttrValue& value);

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Row;
    void rebuild(const AttrMap& values);
    QWidget* makeEditor(Row& row);
    void showValue(Row& row);
    void applyText(const QString& name, const QString& text);
    void apply(const QString& name, const tensorflow::AttrValue& value);
    void markError(Row& row, const QString& reason);
    void retranslateUi();
    QString labelToolTip(const Row& row) const;

    std::vector<tensorflow::OpDef::AttrDef> m_attrs;
    /// Whether m_attrs are a layer's params (docs in context "tstudio::layers") rather than an op's attrs.
    bool m_layerParams = false;
    std::vector<Row> m_rows;
    QFormLayout* m_form = nullptr;
    QLabel* m_emptyLabel = nullptr;
};

} // namespace tstudio::node_editor
