// Tests for the node editor's attr editor: each editor kind edited as a person would, exact AttrValues emitted, invalid
// text refused.
#include "node_editor/attr_editor.h"

#include "framework/op_registry.h"
#include "marking_translator.h"
#include "registries/register_all_ops.h"

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

#include <cstring>

using namespace tstudio;
using namespace tstudio::node_editor;
using tensorflow::AttrValue;

namespace {

AttrValue textProto(const char* text)
{
    AttrValue value;
    if (!google::protobuf::TextFormat::ParseFromString(text, &value))
        qFatal("bad AttrValue text in test: %s", text);
    return value;
}

/// True when the spy's only emission is (name, expected); prints both on mismatch.
bool emittedOnce(QSignalSpy& spy, const QString& name, const AttrValue& expected)
{
    if (spy.count() != 1) {
        qWarning("expected one attrEdited, got %d", static_cast<int>(spy.count()));
        return false;
    }
    const QList<QVariant> args = spy.takeFirst();
    const auto value = args.at(1).value<AttrValue>();
    if (args.at(0).toString() != name || !google::protobuf::util::MessageDifferencer::Equals(value, expected)) {
        qWarning("got %s = %s, expected %s = %s", qPrintable(args.at(0).toString()), value.ShortDebugString().c_str(),
                 qPrintable(name), expected.ShortDebugString().c_str());
        return false;
    }
    return true;
}

/// Replaces the text of a line edit by typing, then presses Enter.
void typeInto(QWidget* widget, const QString& text)
{
    auto* edit = qobject_cast<QLineEdit*>(widget);
    QVERIFY(edit);
    edit->selectAll();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

} // namespace

class TestAttrEditor : public QObject {
    Q_OBJECT
private:
    OpRegistry m_registry;
    const tensorflow::OpDef& opDef(const char* name) { return m_registry.find(name)->opDef; }

private slots:
    void initTestCase()
    {
        qRegisterMetaType<tensorflow::AttrValue>();
        QVERIFY(registerAllOps(m_registry).isOk());
    }

    void matMulBoolsAndTypeCombo()
    {
        AttrEditor editor;
        editor.setOpDef(opDef("MatMul"), {});
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        QCOMPARE(editor.attrNames(), (QStringList{"transpose_a", "transpose_b", "T"}));
        QSignalSpy spy(&editor, &AttrEditor::attrEdited);

        auto* transposeA = qobject_cast<QCheckBox*>(editor.editor("transpose_a"));
        QVERIFY(transposeA);
        QVERIFY(!transposeA->isChecked()); // the OpDef's default
        QTest::keyClick(transposeA, Qt::Key_Space);
        QVERIFY(emittedOnce(spy, "transpose_a", textProto("b: true")));

        auto* type = qobject_cast<QComboBox*>(editor.editor("T"));
        QVERIFY(type);
        // No value yet: a blank row, then the allowed types in the OpDef's order, by their Python names.
        QStringList items;
        for (int i = 0; i < type->count(); ++i)
            items << type->itemText(i);
        QCOMPARE(items, (QStringList{"", "bfloat16", "float16", "float32", "float64", "int32", "int64", "complex64",
                                     "complex128"}));
        type->setCurrentIndex(type->findText("float64"));
        QVERIFY(emittedOnce(spy, "T", textProto("type: DT_DOUBLE")));
        QCOMPARE(type->findText(QString()), -1); // the blank row is gone once a type is set
        type->setCurrentIndex(type->findText("float32"));
        QVERIFY(emittedOnce(spy, "T", textProto("type: DT_FLOAT")));

        // Programmatic updates emit nothing.
        editor.setValue("transpose_b", textProto("b: true"));
        QVERIFY(qobject_cast<QCheckBox*>(editor.editor("transpose_b"))->isChecked());
        editor.setValue("T", textProto("type: DT_INT32"));
        QCOMPARE(type->currentText(), QStringLiteral("int32"));
        QCOMPARE(spy.count(), 0);
        QCOMPARE(editor.value("T").type(), tensorflow::DT_INT32);
    }

    void conv2DListsAndStringChoices()
    {
        AttrEditor editor;
        google::protobuf::Map<std::string, AttrValue> values;
        values["T"] = textProto("type: DT_FLOAT");
        editor.setOpDef(opDef("Conv2D"), values);
        QCOMPARE(editor.attrNames(), (QStringList{"T", "strides", "use_cudnn_on_gpu", "padding", "explicit_paddings",
                                                  "data_format", "dilations"}));
        QSignalSpy spy(&editor, &AttrEditor::attrEdited);

        QCOMPARE(qobject_cast<QLineEdit*>(editor.editor("dilations"))->text(), QStringLiteral("[1, 1, 1, 1]"));
        QCOMPARE(qobject_cast<QLineEdit*>(editor.editor("explicit_paddings"))->text(), QStringLiteral("[]"));
        QCOMPARE(qobject_cast<QLineEdit*>(editor.editor("strides"))->text(), QString()); // no default

        typeInto(editor.editor("strides"), "[1, 2, 2, 1]");
        QVERIFY(emittedOnce(spy, "strides", textProto("list { i: [1, 2, 2, 1] }")));
        typeInto(editor.editor("dilations"), "1, 2, 2, 1"); // brackets may be left out
        QVERIFY(emittedOnce(spy, "dilations", textProto("list { i: [1, 2, 2, 1] }")));
        // Same value again: nothing to apply.
        typeInto(editor.editor("dilations"), "[1, 2, 2, 1]");
        QCOMPARE(spy.count(), 0);

        // Invalid text: marked, explained, not applied.
        typeInto(editor.editor("strides"), "[1, x, 1]");
        QCOMPARE(spy.count(), 0);
        const QString reason = editor.error("strides");
        QVERIFY(!reason.isEmpty());
        QCOMPARE(editor.editor("strides")->toolTip(), reason);
        QVERIFY(editor.editor("strides")->styleSheet().contains(QStringLiteral("#c62828")));
        QCOMPARE(editor.value("strides").list().i_size(), 4); // the last valid value stays applied
        typeInto(editor.editor("strides"), "[1, 1, 1, 1]");
        QVERIFY(emittedOnce(spy, "strides", textProto("list { i: [1, 1, 1, 1] }")));
        QVERIFY(editor.error("strides").isEmpty());
        QVERIFY(editor.editor("strides")->styleSheet().isEmpty());

        auto* padding = qobject_cast<QComboBox*>(editor.editor("padding"));
        QVERIFY(padding);
        QCOMPARE(padding->currentText(), QString()); // no default: blank until chosen
        padding->setCurrentIndex(padding->findText("VALID"));
        QVERIFY(emittedOnce(spy, "padding", textProto("s: 'VALID'")));
        auto* format = qobject_cast<QComboBox*>(editor.editor("data_format"));
        QCOMPARE(format->count(), 2);
        QCOMPARE(format->currentText(), QStringLiteral("NHWC"));
        format->setCurrentIndex(format->findText("NCHW"));
        QVERIFY(emittedOnce(spy, "data_format", textProto("s: 'NCHW'")));

        // The type combo offers Conv2D's types only.
        auto* type = qobject_cast<QComboBox*>(editor.editor("T"));
        QCOMPARE(type->count(), 4);
        QCOMPARE(type->currentText(), QStringLiteral("float32"));
        QCOMPARE(type->findText("int32"), -1);
    }

    void concatV2IntMinimum()
    {
        AttrEditor editor;
        editor.setOpDef(opDef("ConcatV2"), {});
        QSignalSpy spy(&editor, &AttrEditor::attrEdited);
        auto* n = qobject_cast<QSpinBox*>(editor.editor("N"));
        QVERIFY(n);
        QCOMPARE(n->minimum(), 2); // N: int >= 2
        n->selectAll();
        QTest::keyClicks(n, "5");
        QTest::keyClick(n, Qt::Key_Return);
        QVERIFY(emittedOnce(spy, "N", textProto("i: 5")));
        n->selectAll();
        QTest::keyClicks(n, "1"); // below the minimum: the spin box refuses it
        QTest::keyClick(n, Qt::Key_Return);
        QCOMPARE(spy.count(), 0);
        QCOMPARE(editor.value("N").i(), 5);

        auto* tidx = qobject_cast<QComboBox*>(editor.editor("Tidx"));
        QCOMPARE(tidx->currentText(), QStringLiteral("int32"));
        QCOMPARE(tidx->count(), 2);
        tidx->setCurrentIndex(tidx->findText("int64"));
        QVERIFY(emittedOnce(spy, "Tidx", textProto("type: DT_INT64")));

        // A value below the minimum read from a file is shown as an error, not silently fixed.
        editor.setValue("N", textProto("i: 1"));
        QVERIFY(editor.error("N").contains(QStringLiteral("must be at least minimum 2")));
    }

    void constTensorDialog()
    {
        AttrEditor editor;
        editor.setOpDef(opDef("Const"), {});
        QSignalSpy spy(&editor, &AttrEditor::attrEdited);

        auto* dtype = qobject_cast<QComboBox*>(editor.editor("dtype"));
        QVERIFY(dtype->findText("float32") >= 0);
        QVERIFY(dtype->findText("string") >= 0);
        QCOMPARE(dtype->findText("float32_ref"), -1);
        dtype->setCurrentIndex(dtype->findText("int32"));
        QVERIFY(emittedOnce(spy, "dtype", textProto("type: DT_INT32")));

        auto* button = qobject_cast<QPushButton*>(editor.editor("value"));
        QVERIFY(button);
        QPointer<TensorEditDialog> dialog = editor.editTensor("value");
        QVERIFY(dialog);
        dialog->dtypeCombo()->setCurrentIndex(dialog->dtypeCombo()->findText("float32"));
        dialog->shapeEdit()->setText("[2, 3]");
        QTableWidget* table = dialog->valuesTable();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->columnCount(), 3);
        const float values[] = {1.0f, 2.5f, -3.0f, 4.0f, 0.125f, 6.0f};
        for (int i = 0; i < 5; ++i)
            table->setItem(i / 3, i % 3, new QTableWidgetItem(QString::number(values[i])));
        // Five values for six elements: refused, with the count in the reason.
        QVERIFY(!dialog->tensor().has_value());
        QVERIFY2(dialog->statusText().contains(QStringLiteral("5 values for 6 elements")),
                 qPrintable(dialog->statusText()));
        QVERIFY(!dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
        table->setItem(1, 2, new QTableWidgetItem("6"));
        QVERIFY(dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
        dialog->accept();

        AttrValue expected;
        auto* tensor = expected.mutable_tensor();
        tensor->set_dtype(tensorflow::DT_FLOAT);
        tensor->mutable_tensor_shape()->add_dim()->set_size(2);
        tensor->mutable_tensor_shape()->add_dim()->set_size(3);
        std::string content(sizeof values, '\0');
        std::memcpy(content.data(), values, sizeof values); // little-endian host, as TensorFlow writes
        tensor->set_tensor_content(content);
        QVERIFY(emittedOnce(spy, "value", expected));
        QCOMPARE(button->text(), QStringLiteral("float32 [2, 3]"));

        // Reopened, the dialog shows the tensor; one value in the first cell is TensorFlow's broadcast form.
        dialog = editor.editTensor("value");
        QCOMPARE(dialog->shapeEdit()->text(), QStringLiteral("[2, 3]"));
        QCOMPARE(dialog->valuesTable()->item(0, 1)->text(), QStringLiteral("2.5"));
        QCOMPARE(dialog->valuesTable()->item(1, 1)->text(), QStringLiteral("0.125"));
        for (int i = 1; i < 6; ++i)
            dialog->valuesTable()->setItem(i / 3, i % 3, new QTableWidgetItem(QString()));
        dialog->valuesTable()->setItem(0, 0, new QTableWidgetItem("0.5"));
        dialog->accept();
        QVERIFY(emittedOnce(spy, "value",
                            textProto("tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { size: 3 } } "
                                      "float_val: 0.5 }")));
        dialog = editor.editTensor("value");
        QCOMPARE(dialog->valuesTable()->item(0, 0)->text(), QStringLiteral("0.5"));
        QVERIFY(!dialog->valuesTable()->item(0, 1) || dialog->valuesTable()->item(0, 1)->text().isEmpty());

        // Integer dtypes refuse fractions; cancelling emits nothing.
        dialog->dtypeCombo()->setCurrentIndex(dialog->dtypeCombo()->findText("int32"));
        QVERIFY(!dialog->tensor().has_value());
        QVERIFY2(dialog->statusText().contains(QStringLiteral("'0.5' is not a int32")),
                 qPrintable(dialog->statusText()));
        dialog->shapeEdit()->setText("[2, ?]");
        QVERIFY(dialog->statusText().contains(QStringLiteral("fully defined")));
        dialog->reject();
        QCOMPARE(spy.count(), 0);

        // A scalar int32.
        dialog = editor.editTensor("value");
        dialog->dtypeCombo()->setCurrentIndex(dialog->dtypeCombo()->findText("int32"));
        dialog->shapeEdit()->setText("[]");
        QCOMPARE(dialog->valuesTable()->rowCount() * dialog->valuesTable()->columnCount(), 1);
        dialog->valuesTable()->setItem(0, 0, new QTableWidgetItem("-7"));
        dialog->accept();
        QVERIFY(emittedOnce(spy, "value", textProto("tensor { dtype: DT_INT32 tensor_shape {} int_val: -7 }")));
    }

    void layerParamsShapeFloatFuncAndLists()
    {
        std::vector<tensorflow::OpDef::AttrDef> params = {
            layerParam("shape", "shape", textProto("shape { unknown_rank: true }"), "Input shape."),
            layerParam("rate", "float", textProto("f: 0.5"), "Fraction dropped."),
            layerParam("name", "string", textProto("s: 'dense'"), "Scope name."),
            layerParam("activation", "string", textProto("s: 'relu'"), "Activation.", {"linear", "relu", "softmax"}),
            layerParam("body", "func", AttrValue(), "A function."),
            layerParam("types", "list(type)", textProto("list {}"), "Output types."),
            layerParam("shapes", "list(shape)", textProto("list {}"), "Output shapes."),
        };
        AttrEditor editor;
        editor.setParams(params, {});
        QSignalSpy spy(&editor, &AttrEditor::attrEdited);

        QCOMPARE(qobject_cast<QLineEdit*>(editor.editor("shape"))->text(), QStringLiteral("<unknown>"));
        typeInto(editor.editor("shape"), "[?, 784]");
        QVERIFY(emittedOnce(spy, "shape", textProto("shape { dim { size: -1 } dim { size: 784 } }")));
        QCOMPARE(attrValueText("shape", editor.value("shape")), QStringLiteral("[?, 784]"));
        typeInto(editor.editor("shape"), "?");
        QVERIFY(emittedOnce(spy, "shape", textProto("shape { unknown_rank: true }")));
        typeInto(editor.editor("shape"), "[?, -5]");
        QCOMPARE(spy.count(), 0);
        QVERIFY(!editor.error("shape").isEmpty());

        QCOMPARE(qobject_cast<QLineEdit*>(editor.editor("rate"))->text(), QStringLiteral("0.5"));
        typeInto(editor.editor("rate"), "1e-4");
        QVERIFY(emittedOnce(spy, "rate", textProto("f: 1e-4")));
        QCOMPARE(qobject_cast<QLineEdit*>(editor.editor("rate"))->text(), QStringLiteral("1e-4"));
        typeInto(editor.editor("rate"), "half");
        QCOMPARE(spy.count(), 0);
        QVERIFY(!editor.error("rate").isEmpty());
        QCOMPARE(editor.editor("rate")->toolTip(), editor.error("rate"));

        typeInto(editor.editor("name"), "my layer's");
        QVERIFY(emittedOnce(spy, "name", textProto("s: \"my layer's\"")));

        auto* activation = qobject_cast<QComboBox*>(editor.editor("activation"));
        QCOMPARE(activation->currentText(), QStringLiteral("relu"));
        activation->setCurrentIndex(activation->findText("softmax"));
        QVERIFY(emittedOnce(spy, "activation", textProto("s: 'softmax'")));

        typeInto(editor.editor("body"), "");
        QCOMPARE(spy.count(), 0);
        QVERIFY(editor.error("body").contains(QStringLiteral("function name")));
        typeInto(editor.editor("body"), "cond_fn");
        QVERIFY(emittedOnce(spy, "body", textProto("func { name: 'cond_fn' }")));

        typeInto(editor.editor("types"), "[float32, int64]");
        QVERIFY(emittedOnce(spy, "types", textProto("list { type: [DT_FLOAT, DT_INT64] }")));
        typeInto(editor.editor("types"), "[float32, flot]");
        QCOMPARE(spy.count(), 0);
        QVERIFY(editor.error("types").contains(QStringLiteral("flot")));

        typeInto(editor.editor("shapes"), "[[?, 784], []]");
        QVERIFY(
            emittedOnce(spy, "shapes", textProto("list { shape { dim { size: -1 } dim { size: 784 } } shape {} }")));
        QCOMPARE(attrValueText("list(shape)", editor.value("shapes")), QStringLiteral("[[?, 784], []]"));
    }

    /// A row label's tooltip shows the description in the UI language: a layer's param docs through the context
    /// "tstudio::layers", an op's attr descriptions through "tstudio::ops", following a language change.
    void descriptionsFollowTheLanguage()
    {
        const auto labelTip = [](const AttrEditor& editor, const QString& name) {
            for (const QLabel* label : editor.findChildren<QLabel*>())
                if (label->text() == name)
                    return label->toolTip();
            return QString();
        };
        AttrEditor layer;
        layer.setParams({layerParam("units", "int", textProto("i: 1"), "Output size.")}, {});
        AttrEditor op;
        op.setOpDef(opDef("RestoreV2"), {});
        const QString dtypesDoc = QStringLiteral("The dtypes the N tensors must have in the checkpoint.");
        QVERIFY2(labelTip(layer, "units").contains(QStringLiteral("<p>Output size.</p>")),
                 qPrintable(labelTip(layer, "units")));
        QVERIFY2(labelTip(op, "dtypes").contains(dtypesDoc), qPrintable(labelTip(op, "dtypes")));

        testing::MarkingTranslator layers("tstudio::layers");
        testing::MarkingTranslator ops("tstudio::ops");
        QCoreApplication::installTranslator(&layers);
        QCoreApplication::installTranslator(&ops);
        QCoreApplication::processEvents(); // the LanguageChange events
        QVERIFY2(labelTip(layer, "units").contains(QStringLiteral("<p>[zh] Output size.</p>")),
                 qPrintable(labelTip(layer, "units")));
        QVERIFY2(labelTip(op, "dtypes").contains(QStringLiteral("[zh] ") + dtypesDoc),
                 qPrintable(labelTip(op, "dtypes")));
        QCoreApplication::removeTranslator(&layers);
        QCoreApplication::removeTranslator(&ops);
        QCoreApplication::processEvents();
        QVERIFY2(!labelTip(layer, "units").contains(QStringLiteral("[zh]")), qPrintable(labelTip(layer, "units")));
        QVERIFY2(!labelTip(op, "dtypes").contains(QStringLiteral("[zh]")), qPrintable(labelTip(op, "dtypes")));
    }

    /// "This node has no attributes to edit." speaks of a shown node: not after clear() (nothing selected).
    void emptyNoteOnlyForANodeWithoutAttrs()
    {
        AttrEditor editor;
        auto* note = editor.findChild<QLabel*>(QStringLiteral("emptyLabel"));
        QVERIFY(note);
        QVERIFY(!note->isVisibleTo(&editor));
        editor.setParams({}, {});
        QVERIFY(note->isVisibleTo(&editor));
        editor.clear();
        QVERIFY(!note->isVisibleTo(&editor));
        editor.setOpDef(opDef("MatMul"), {});
        QVERIFY(!note->isVisibleTo(&editor));
    }

    void textRoundTrips()
    {
        QCOMPARE(attrValueText("list(string)", textProto("list { s: ['a', \"it's\"] }")),
                 QStringLiteral("['a', 'it\\'s']"));
        QCOMPARE(attrValueText("list(float)", textProto("list { f: [0.1, 2] }")), QStringLiteral("[0.1, 2]"));
        QCOMPARE(attrValueText("type", textProto("type: DT_HALF")), QStringLiteral("float16"));
        const auto attr = layerParam("x", "list(string)", AttrValue(), "");
        const auto parsed = parseAttrText(attr, "['a', 'it\\'s']");
        QVERIFY(parsed.has_value());
        QCOMPARE(parsed->list().s(1), std::string("it's"));
    }
};

QTEST_MAIN(TestAttrEditor)
#include "test_attr_editor.moc"
