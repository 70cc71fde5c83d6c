// Tests for the graph viewer's node properties panel: rows shown for real ops, links, unknown ops, groups, clearing.
#include "graph_viewer/node_properties_panel.h"
#include "graph_viewer/tensor_value_dialog.h"
#include "tensor_view/tensor_inspector.h"
#include "tensor_view/tensor_table_model.h"

#include "framework/op_registry.h"
#include "registries/register_all_ops.h"

#include <google/protobuf/text_format.h>

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

using namespace tstudio;
using namespace tstudio::graph_viewer;

namespace {

const char* const kGraph = R"pb(
node {
  name: "x" op: "Placeholder"
  attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: -1 } dim { size: 784 } } } }
}
node {
  name: "w" op: "Const"
  attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } dim { size: 4 } }
    float_val: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12.5] } } }
}
node {
  name: "small" op: "Const"
  attr { key: "dtype" value { type: DT_INT32 } }
  attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 2 } } int_val: [7, -3] } } }
}
node {
  name: "layer/mm" op: "MatMul" input: "x" input: "w:0" input: "^init" device: "/device:CPU:0"
  attr { key: "T" value { type: DT_FLOAT } }
  attr { key: "transpose_a" value { b: false } }
  attr { key: "transpose_b" value { b: true } }
  attr { key: "_output_shapes" value { list { shape { dim { size: -1 } dim { size: 3 } } } } }
  attr { key: "_class" value { list { s: "loc:@w" } } }
}
node {
  name: "v" op: "VariableV2"
  attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: 3 } dim { size: 4 } } } }
  attr { key: "container" value { s: "" } }
  attr { key: "shared_name" value { s: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" } }
}
node {
  name: "init" op: "Assign" input: "v" input: "w"
  attr { key: "T" value { type: DT_FLOAT } }
  attr { key: "use_locking" value { b: true } }
  attr { key: "validate_shape" value { b: true } }
}
node { name: "weird" op: "MyCustomOp" input: "layer/mm" input: "layer/mm:0" input: "ghost:2" }
)pb";

enum Node { kX, kW, kSmall, kMatMul, kV, kInit, kWeird };

/// The rows of a tree as "col0 | col1 | ..." strings, children indented by two spaces.
QStringList rows(const QTreeWidget* tree)
{
    QStringList result;
    std::function<void(const QTreeWidgetItem*, int)> add = [&](const QTreeWidgetItem* item, int depth) {
        QStringList cells;
        for (int c = 0; c < tree->columnCount(); ++c)
            cells << item->text(c);
        while (!cells.isEmpty() && cells.back().isEmpty())
            cells.removeLast();
        result << QString(depth * 2, ' ') + cells.join(QStringLiteral(" | "));
        for (int i = 0; i < item->childCount(); ++i)
            add(item->child(i), depth + 1);
    };
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        add(tree->topLevelItem(i), 0);
    return result;
}

} // namespace

class TestNodePropertiesPanel : public QObject {
    Q_OBJECT
private:
    OpRegistry m_ops;
    std::shared_ptr<tensorflow::GraphDef> m_graph = std::make_shared<tensorflow::GraphDef>();

    template <typename T> T* child(const NodePropertiesPanel& panel, const char* name)
    {
        T* widget = panel.findChild<T*>(QString::fromLatin1(name));
        if (!widget)
            qFatal("no child %s", name);
        return widget;
    }

    void setUp(NodePropertiesPanel& panel)
    {
        panel.setGraph(m_graph, &m_ops, [this](int node, int output) {
            // What the graph viewer passes: the dtype and the inferred shape of the output.
            return QStringLiteral("desc(%1:%2)").arg(QString::fromStdString(m_graph->node(node).name())).arg(output);
        });
        panel.resize(420, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(registerAllOps(m_ops).isOk());
        QVERIFY(google::protobuf::TextFormat::ParseFromString(kGraph, m_graph.get()));
    }

    void matMulRows()
    {
        NodePropertiesPanel panel;
        setUp(panel);
        panel.showNode(kMatMul);
        QCOMPARE(panel.shownNode(), int(kMatMul));
        QCOMPARE(child<QLabel>(panel, "nameLabel")->text(), QStringLiteral("layer/mm"));
        QVERIFY(child<QLabel>(panel, "opLabel")->text().contains(QStringLiteral("MatMul")));
        QCOMPARE(child<QLabel>(panel, "categoryLabel")->text(), QStringLiteral("Math"));
        QCOMPARE(child<QLabel>(panel, "summaryLabel")->text(),
                 QString::fromStdString(m_ops.find("MatMul")->opDef.summary()));
        QVERIFY(child<QLabel>(panel, "deviceLabel")->text().contains(QStringLiteral("/device:CPU:0")));
        QVERIFY(child<QLabel>(panel, "placeholderLabel")->isHidden());

        // The OpDef's attr order, then the hidden attrs by name.
        auto* attributes = child<QTreeWidget>(panel, "attributesTree");
        QCOMPARE(rows(attributes), QStringList({"transpose_a | false", "transpose_b | true", "T | float32",
                                                "_class | [\"loc:@w\"]", "_output_shapes | [[?, 3]]"}));
        QCOMPARE(attributes->topLevelItem(2)->data(0, NodePropertiesPanel::kHiddenAttrRole).toBool(), false);
        QCOMPARE(attributes->topLevelItem(3)->data(0, NodePropertiesPanel::kHiddenAttrRole).toBool(), true);
        QVERIFY(attributes->topLevelItem(4)->foreground(0).color() !=
                attributes->topLevelItem(0)->foreground(0).color());

        QCOMPARE(rows(child<QTreeWidget>(panel, "inputsTree")),
                 QStringList({"x | a | desc(x:0)", "w:0 | b | desc(w:0)", "init | control"}));
        QCOMPARE(rows(child<QTreeWidget>(panel, "outputsTree")),
                 QStringList({":0 (product) | desc(layer/mm:0) \u2014 2 consumer(s)", "  weird | MyCustomOp",
                              "  weird | MyCustomOp"}));

        panel.setPlacedDevice(QStringLiteral("/job:localhost/replica:0/task:0/device:CPU:0"));
        QVERIFY(!child<QLabel>(panel, "placedDeviceLabel")->isHidden());
        QVERIFY(child<QLabel>(panel, "placedDeviceLabel")->text().contains(QStringLiteral("task:0/device:CPU:0")));
    }

    void clickingAnInputOrConsumerActivatesIt()
    {
        NodePropertiesPanel panel;
        setUp(panel);
        panel.showNode(kMatMul);
        QSignalSpy activated(&panel, &NodePropertiesPanel::nodeActivated);
        auto* inputs = child<QTreeWidget>(panel, "inputsTree");
        const QRect second = inputs->visualItemRect(inputs->topLevelItem(1));
        QVERIFY(second.isValid());
        QTest::mouseClick(inputs->viewport(), Qt::LeftButton, {}, second.center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toString(), QStringLiteral("w")); // the node, not "w:0"
        const QRect control = inputs->visualItemRect(inputs->topLevelItem(2));
        QTest::mouseClick(inputs->viewport(), Qt::LeftButton, {}, control.center());
        QCOMPARE(activated.count(), 2);
        QCOMPARE(activated.at(1).at(0).toString(), QStringLiteral("init"));

        auto* outputs = child<QTreeWidget>(panel, "outputsTree");
        const QRect consumer = outputs->visualItemRect(outputs->topLevelItem(0)->child(0));
        QTest::mouseClick(outputs->viewport(), Qt::LeftButton, {}, consumer.center());
        QCOMPARE(activated.count(), 3);
        QCOMPARE(activated.at(2).at(0).toString(), QStringLiteral("weird"));
        // The output row itself is not a link.
        QTest::mouseClick(outputs->viewport(), Qt::LeftButton, {},
                          outputs->visualItemRect(outputs->topLevelItem(0)).center());
        QCOMPARE(activated.count(), 3);
    }

    void constTensorPreview()
    {
        NodePropertiesPanel panel;
        setUp(panel);
        panel.showNode(kW);
        QCOMPARE(rows(child<QTreeWidget>(panel, "attributesTree")),
                 QStringList({"value | float32 [3, 4] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, \u2026]", "dtype | float32"}));
        QCOMPARE(rows(child<QTreeWidget>(panel, "inputsTree")), QStringList());
        QCOMPARE(
            rows(child<QTreeWidget>(panel, "outputsTree")),
            QStringList({":0 (output) | desc(w:0) \u2014 2 consumer(s)", "  layer/mm | MatMul", "  init | Assign"}));
        panel.showNode(kSmall);
        QCOMPARE(child<QTreeWidget>(panel, "attributesTree")->topLevelItem(0)->text(1),
                 QStringLiteral("int32 [2] = [7, -3]"));
    }

    void constValueSectionAndTable()
    {
        NodePropertiesPanel panel;
        setUp(panel);
        panel.showNode(kW);
        auto* value = child<QLabel>(panel, "valueLabel");
        auto* button = child<QPushButton>(panel, "showValuesButton");
        QVERIFY(value->isVisibleTo(&panel));
        QVERIFY(button->isVisibleTo(&panel));
        QCOMPARE(value->text(), QStringLiteral("float32 [3, 4] · 12 value(s)\n[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, \u2026]"));
        QVERIFY(value->textInteractionFlags() & Qt::TextSelectableByMouse);
        QVERIFY(value->wordWrap());

        // The whole tensor, read-only, in the debugger's inspector.
        TensorValueDialog* dialog = panel.showValues();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->windowTitle().contains(QStringLiteral("w")));
        const auto* cells = dialog->inspector()->tableModel();
        QCOMPARE(cells->rowCount(), 3);
        QCOMPARE(cells->columnCount(), 4);
        QCOMPARE(cells->index(2, 3).data().toString().toDouble(), 12.5);
        dialog->grab().save(QStringLiteral("/tmp/tensor_value_dialog.png")); // to look at
        for (QToolButton* b : dialog->findChildren<QToolButton*>())
            QVERIFY2(!b->isCheckable() || b->isHidden(), "a stored tensor has no Watch toggle");
        dialog->close();

        // Ops without a tensor attr have no Value section and nothing to show.
        panel.showNode(kMatMul);
        QVERIFY(!value->isVisibleTo(&panel));
        QVERIFY(!button->isVisibleTo(&panel));
        QVERIFY(panel.showValues() == nullptr);
    }

    void longTextIsReadableAndCopyable()
    {
        NodePropertiesPanel panel;
        setUp(panel);
        panel.resize(220, 700); // narrower than the shared_name attr and the output description
        panel.showNode(kV);
        auto* attributes = child<QTreeWidget>(panel, "attributesTree");
        QTreeWidgetItem* shared = nullptr;
        for (int i = 0; i < attributes->topLevelItemCount(); ++i)
            if (attributes->topLevelItem(i)->text(0) == QStringLiteral("shared_name"))
                shared = attributes->topLevelItem(i);
        QVERIFY(shared);
        // Elided in the cell, in full in the tooltip (strings up to 2000 characters).
        QVERIFY(shared->toolTip(1).contains(QString(90, QLatin1Char('a'))));
        // Every cell of every tree carries its text as tooltip, so an elided one can be read.
        for (const char* name : {"attributesTree", "outputsTree"}) {
            auto* tree = child<QTreeWidget>(panel, name);
            for (QTreeWidgetItemIterator it(tree); *it; ++it)
                for (int c = 0; c < tree->columnCount(); ++c)
                    if (!(*it)->text(c).isEmpty())
                        QVERIFY2(!(*it)->toolTip(c).isEmpty(), qPrintable(name + QStringLiteral(": ") + (*it)->text(c)));
        }
        // Rows are selectable and Ctrl+C copies the selected row in full.
        QCOMPARE(attributes->selectionMode(), QAbstractItemView::SingleSelection);
        attributes->setCurrentItem(shared);
        attributes->setFocus();
        QApplication::clipboard()->clear();
        QTest::keyClick(attributes, Qt::Key_C, Qt::ControlModifier);
        const QString copied = QApplication::clipboard()->text();
        QVERIFY2(copied.startsWith(QStringLiteral("shared_name\t\"aaaa")), qPrintable(copied));
        QVERIFY(copied.contains(QString(90, QLatin1Char('a'))));
        // The op line wraps rather than clips.
        QVERIFY(child<QLabel>(panel, "opLabel")->wordWrap());
    }

    void placeholderVariableAndAssign()
    {
        NodePropertiesPanel panel;
        setUp(panel);
        panel.showNode(kX);
        QCOMPARE(rows(child<QTreeWidget>(panel, "attributesTree")),
                 QStringList({"dtype | float32", "shape | [?, 784]"}));
        QCOMPARE(child<QLabel>(panel, "deviceLabel")->text(), QStringLiteral("Requested device: any"));

        panel.showNode(kV);
        auto* attributes = child<QTreeWidget>(panel, "attributesTree");
        const QList<QTreeWidgetItem*> shared = attributes->findItems(QStringLiteral("shared_name"), Qt::MatchExactly);
        QCOMPARE(shared.size(), 1);
        QCOMPARE(shared[0]->text(1).size(), 60);
        QVERIFY(shared[0]->text(1).startsWith(QStringLiteral("\"aaaa")));
        QVERIFY(shared[0]->text(1).endsWith(QStringLiteral("\u2026")));
        QCOMPARE(shared[0]->toolTip(1), '"' + QString(92, 'a') + '"'); // the whole value
        QCOMPARE(attributes->findItems(QStringLiteral("container"), Qt::MatchExactly)[0]->text(1),
                 QStringLiteral("\"\""));

        panel.showNode(kInit);
        QCOMPARE(rows(child<QTreeWidget>(panel, "inputsTree")),
                 QStringList({"v | ref | desc(v:0)", "w | value | desc(w:0)"}));
        QCOMPARE(child<QTreeWidget>(panel, "attributesTree")->topLevelItem(0)->text(0), QStringLiteral("T"));
        QCOMPARE(rows(child<QTreeWidget>(panel, "outputsTree")),
                 QStringList({":0 (output_ref) | desc(init:0) \u2014 0 consumer(s)", "control | 1 consumer(s)",
                              "  layer/mm | MatMul"}));
    }

    void unknownOp()
    {
        NodePropertiesPanel panel;
        setUp(panel);
        panel.showNode(kWeird);
        QCOMPARE(child<QLabel>(panel, "summaryLabel")->text(), QStringLiteral("Op not registered in this engine"));
        QVERIFY(child<QLabel>(panel, "categoryLabel")->isHidden());
        QVERIFY(child<QLabel>(panel, "descriptionLabel")->isHidden());
        QCOMPARE(rows(child<QTreeWidget>(panel, "inputsTree")),
                 QStringList({"layer/mm | #0 | desc(layer/mm:0)", "layer/mm:0 | #1 | desc(layer/mm:0)",
                              "ghost:2 | #2 | not in the graph"}));
        // A source missing from the graph is no link.
        auto* inputs = child<QTreeWidget>(panel, "inputsTree");
        QCOMPARE(inputs->topLevelItem(0)->data(0, NodePropertiesPanel::kNodeNameRole).toString(),
                 QStringLiteral("layer/mm"));
        QVERIFY(inputs->topLevelItem(2)->data(0, NodePropertiesPanel::kNodeNameRole).toString().isEmpty());

        // Without a registry every op is unknown.
        NodePropertiesPanel bare;
        bare.setGraph(m_graph, nullptr, {});
        bare.showNode(kMatMul);
        QCOMPARE(child<QLabel>(bare, "summaryLabel")->text(), QStringLiteral("Op not registered in this engine"));
        QCOMPARE(rows(child<QTreeWidget>(bare, "inputsTree")), QStringList({"x | #0", "w:0 | #1", "init | control"}));
        // Outputs come from _output_shapes and consumers then.
        QCOMPARE(rows(child<QTreeWidget>(bare, "outputsTree")),
                 QStringList({":0 | 2 consumer(s)", "  weird | MyCustomOp", "  weird | MyCustomOp"}));
    }

    void copyName()
    {
        NodePropertiesPanel panel;
        setUp(panel);
        panel.showNode(kMatMul);
        QSignalSpy copied(&panel, &NodePropertiesPanel::copyNameRequested);
        QTest::mouseClick(child<QToolButton>(panel, "copyNameButton"), Qt::LeftButton);
        QCOMPARE(copied.count(), 1);
        QCOMPARE(copied.at(0).at(0).toString(), QStringLiteral("layer/mm"));
    }

    void groupAndClearing()
    {
        NodePropertiesPanel panel;
        setUp(panel);
        QVERIFY(!child<QLabel>(panel, "placeholderLabel")->isHidden());
        QCOMPARE(child<QLabel>(panel, "placeholderLabel")->text(),
                 QStringLiteral("Select a node to see its properties"));

        panel.showGroup(QStringLiteral("layer"), 5, {{"MatMul", 1}, {"Add", 3}, {"Relu", 1}}, {{"/device:CPU:0", 4}});
        QCOMPARE(panel.shownNode(), -1);
        QCOMPARE(child<QLabel>(panel, "nameLabel")->text(), QStringLiteral("layer"));
        QCOMPARE(child<QLabel>(panel, "summaryLabel")->text(), QStringLiteral("5 op(s) inside"));
        QVERIFY(child<QTreeWidget>(panel, "attributesTree")->isHidden());
        QCOMPARE(rows(child<QTreeWidget>(panel, "groupTree")),
                 QStringList({"Operations | 3", "  Add | 3", "  MatMul | 1", "  Relu | 1", "Devices | 1",
                              "  /device:CPU:0 | 4"}));

        panel.showNode(kMatMul);
        QVERIFY(child<QTreeWidget>(panel, "groupTree")->isHidden());
        QVERIFY(!child<QTreeWidget>(panel, "attributesTree")->isHidden());
        panel.showNode(-1);
        QCOMPARE(panel.shownNode(), -1);
        QVERIFY(!child<QLabel>(panel, "placeholderLabel")->isHidden());
        QCOMPARE(child<QTreeWidget>(panel, "attributesTree")->topLevelItemCount(), 0);
        panel.showNode(m_graph->node_size()); // out of range clears too
        QVERIFY(!child<QLabel>(panel, "placeholderLabel")->isHidden());
    }
};

QTEST_MAIN(TestNodePropertiesPanel)
#include "test_node_properties_panel.moc"
