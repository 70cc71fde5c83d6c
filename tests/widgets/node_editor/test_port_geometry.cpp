// Wiring a node never moves its ports (issue #51, point 7): a node's size and port positions stay the
// same when a connection is made or removed, and facts too long for the room kept for them are elided.
#include "document/document_commands.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_scene.h"
#include "node_editor/node_item.h"
#include "registries/default_registries.h"

#include <QFontMetricsF>
#include <QTest>
#include <QUndoStack>

#include <map>
#include <vector>

using namespace tstudio;
using namespace tstudio::node_editor;

namespace {

tensorflow::AttrValue shapeAttr(std::initializer_list<std::int64_t> dims)
{
    tensorflow::AttrValue v;
    for (auto d : dims)
        v.mutable_shape()->add_dim()->set_size(d);
    return v;
}

/// Everything about a node the mouse aims at: its bounds and every port's scene position.
struct Geometry {
    QRectF bounds;
    std::vector<QPointF> ports;
    bool operator==(const Geometry&) const = default;
};

Geometry geometryOf(const NodeItem& item)
{
    Geometry g{item.sceneBoundingRect(), {item.controlInPos(), item.controlOutPos()}};
    for (int i = 0; i < item.inputCount(); ++i)
        g.ports.push_back(item.inputPos(i));
    for (int i = 0; i < item.outputCount(); ++i)
        g.ports.push_back(item.outputPos(i));
    return g;
}

QString describe(const Geometry& g)
{
    QString text = QStringLiteral("bounds %1,%2 %3x%4; ports").arg(g.bounds.x()).arg(g.bounds.y()).arg(g.bounds.width()).arg(g.bounds.height());
    for (const QPointF& p : g.ports)
        text += QStringLiteral(" (%1,%2)").arg(p.x()).arg(p.y());
    return text;
}

} // namespace

class TestPortGeometry : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

    /// Every node's geometry, keyed by id.
    static std::map<DocNodeId, Geometry> snapshot(NodeEditor& editor)
    {
        std::map<DocNodeId, Geometry> all;
        for (DocNodeId id : editor.document()->nodes())
            all[id] = geometryOf(*editor.scene()->nodeItem(id));
        return all;
    }

    static void compare(NodeEditor& editor, const std::map<DocNodeId, Geometry>& before, const char* when)
    {
        for (const auto& [id, geometry] : snapshot(editor)) {
            const QString name = QString::fromStdString(editor.document()->node(id)->name);
            QVERIFY2(geometry == before.at(id), qPrintable(QStringLiteral("%1 %2: was %3, is %4")
                                                               .arg(name, QLatin1String(when), describe(before.at(id)), describe(geometry))));
        }
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    /// Layer nodes: Input -> Dense -> loss, wired one connection at a time, then unwired; after each
    /// step live feedback runs (it brings the dtypes and shapes the labels show).
    void wiringLayersKeepsEveryPortInPlace()
    {
        NodeEditor editor(m_registries.get());
        GraphDocument* doc = editor.document();
        const DocNodeId x = editor.addNode("layer:Input", QPointF(0, 0));
        const DocNodeId y = editor.addNode("layer:Input", QPointF(0, 200));
        const DocNodeId dense = editor.addNode("layer:Dense", QPointF(300, 0));
        const DocNodeId loss = editor.addNode("layer:SparseSoftmaxCrossEntropy", QPointF(600, 0));
        QVERIFY(x && y && dense && loss);
        doc->undoStack()->push(SetAttrCommand::create(doc, x, "shape", shapeAttr({-1, 784}))->release());
        tensorflow::AttrValue int64;
        int64.set_type(tensorflow::DT_INT64);
        doc->undoStack()->push(SetAttrCommand::create(doc, y, "dtype", int64)->release());
        doc->undoStack()->push(SetAttrCommand::create(doc, y, "shape", shapeAttr({-1}))->release());
        editor.refreshFeedback();
        const auto unwired = snapshot(editor);
        NodeItem* denseItem = editor.scene()->nodeItem(dense);
        QCOMPARE(denseItem->portLabel(0, true), QStringLiteral("output"));

        const std::vector<Connection> wires{{x, 0, dense, 0}, {y, 0, loss, 0}, {dense, 0, loss, 1}};
        for (const Connection& c : wires) {
            QCOMPARE(editor.scene()->connectPorts(c.from, c.output, c.to, c.slot), QString());
            compare(editor, unwired, "right after connecting");
            editor.refreshFeedback();
            compare(editor, unwired, "with the connection's live feedback");
        }
        // The wiring did bring longer labels: without the room kept for them, the nodes would widen.
        QCOMPARE(denseItem->portLabel(0, false), QStringLiteral("inputs: float32"));
        QCOMPARE(denseItem->portLabel(0, true), QStringLiteral("output: float32 [?,10]"));
        QCOMPARE(editor.scene()->nodeItem(loss)->portLabel(1, false), QStringLiteral("logits: float32"));
        // Every label fits where it is drawn, as drawn: whole, as these are short.
        for (DocNodeId id : {x, y, dense, loss}) {
            NodeItem* item = editor.scene()->nodeItem(id);
            for (bool output : {false, true})
                for (int port = 0; port < (output ? item->outputCount() : item->inputCount()); ++port)
                    QCOMPARE(item->shownPortLabel(port, output), item->portLabel(port, output));
        }

        // Removed again, one by one, the last first (undo) and the first by a disconnect.
        doc->undoStack()->undo();
        editor.refreshFeedback();
        compare(editor, unwired, "after undoing a connection");
        auto disconnect = DisconnectCommand::create(doc, wires.front());
        QVERIFY(disconnect);
        doc->undoStack()->push(disconnect->release());
        compare(editor, unwired, "right after disconnecting");
        editor.refreshFeedback();
        compare(editor, unwired, "after disconnecting, with live feedback");
        QCOMPARE(denseItem->portLabel(0, false), QStringLiteral("inputs"));
    }

    /// Raw ops: an input's dtype comes from its source (a variable's float32_ref), and a long shape
    /// reaches a node through the wire; neither moves a port, and the long one is elided on the
    /// canvas with the whole text in the port's tooltip.
    void longFactsAreElidedNotWidened()
    {
        NodeEditor editor(m_registries.get());
        GraphDocument* doc = editor.document();
        const DocNodeId input = editor.addNode("layer:Input", QPointF(0, 0));
        const DocNodeId relu = editor.addNode("layer:Relu", QPointF(300, 0));
        const DocNodeId variable = editor.addNode("op:VariableV2", QPointF(0, 300));
        const DocNodeId read = editor.addNode("op:Identity", QPointF(300, 300));
        QVERIFY(input && relu && variable && read);
        doc->undoStack()->push(SetAttrCommand::create(doc, input, "shape", shapeAttr({-1, 224, 224, 3, 123456789}))->release());
        tensorflow::AttrValue f32;
        f32.set_type(tensorflow::DT_FLOAT);
        doc->undoStack()->push(SetAttrCommand::create(doc, variable, "dtype", f32)->release());
        doc->undoStack()->push(SetAttrCommand::create(doc, variable, "shape", shapeAttr({784, 10}))->release());
        editor.refreshFeedback();
        // A node whose facts follow its own attrs is as wide as its labels (issue #25): nothing cut.
        NodeItem* inputItem = editor.scene()->nodeItem(input);
        const QString inputLabel = QStringLiteral("output: float32 [?,224,224,3,123456789]");
        QCOMPARE(inputItem->portLabel(0, true), inputLabel);
        QCOMPARE(inputItem->shownPortLabel(0, true), inputLabel);
        const QFontMetricsF metrics(NodeItem::portFont());
        QVERIFY(metrics.horizontalAdvance(inputLabel) <= inputItem->portLabelRect(0, true).width());
        const auto unwired = snapshot(editor);

        QCOMPARE(editor.scene()->connectPorts(input, 0, relu, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(variable, 0, read, 0), QString());
        editor.refreshFeedback();
        compare(editor, unwired, "wired, with live feedback");

        NodeItem* reluItem = editor.scene()->nodeItem(relu);
        QVERIFY2(reluItem->problem().isEmpty(), qPrintable(reluItem->problem()));
        QCOMPARE(reluItem->portLabel(0, true), inputLabel);
        const QString shown = reluItem->shownPortLabel(0, true);
        QVERIFY2(shown.startsWith(QStringLiteral("output: float32 [?,")) && shown.endsWith(QChar(0x2026)), qPrintable(shown));
        QVERIFY(metrics.horizontalAdvance(shown) <= reluItem->portLabelRect(0, true).width());
        QVERIFY(reluItem->body().contains(reluItem->portLabelRect(0, true)));
        QVERIFY(reluItem->portToolTip(0, true).startsWith(inputLabel));
        NodeItem* readItem = editor.scene()->nodeItem(read);
        QCOMPARE(readItem->portLabel(0, false), QStringLiteral("input: float32_ref"));
        QVERIFY(metrics.horizontalAdvance(readItem->shownPortLabel(0, false)) <= readItem->portLabelRect(0, false).width());
        // Labels on one row never run into each other, elided or not.
        for (NodeItem* item : {reluItem, readItem})
            QVERIFY(!item->portLabelRect(0, false).intersects(item->portLabelRect(0, true)));

        doc->undoStack()->undo();
        doc->undoStack()->undo();
        editor.refreshFeedback();
        compare(editor, unwired, "unwired again");
    }
};

QTEST_MAIN(TestPortGeometry)
#include "test_port_geometry.moc"
