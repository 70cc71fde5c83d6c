// Tests for the node editor tab: adding and wiring nodes, live shapes and problems, the scene mirroring the
// document through random edits with undo and redo, and saving a graph the engine reads back.
#include "document/document_commands.h"
#include "io/formats/graph_def_io.h"
#include "node_editor/connection_item.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_scene.h"
#include "node_editor/evaluate_dialog.h"
#include "node_editor/node_evaluation.h"
#include "node_editor/node_item.h"
#include "framework/allocator.h"
#include "registries/default_registries.h"

#include "../../support/model_test_support.h"

#include <QFontMetricsF>
#include <QGraphicsSceneHoverEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <random>
#include <set>

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

class TestNodeEditor : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

    /// Every document node has exactly one item and every connection one item, and nothing else.
    static bool sceneMirrorsDocument(const NodeEditor& editor)
    {
        const GraphDocument& doc = *editor.document();
        std::size_t nodeItems = 0;
        for (QGraphicsItem* item : editor.scene()->items())
            if (auto* node = dynamic_cast<NodeItem*>(item)) {
                ++nodeItems;
                const DocNode* n = doc.node(node->nodeId());
                if (!n || node->pos() != n->position || node->inputCount() != static_cast<int>(n->inputs.size()) ||
                    node->outputCount() != n->outputs)
                    return false;
            }
        if (nodeItems != doc.nodeCount())
            return false;
        const auto connections = doc.connections();
        if (editor.scene()->connectionItemCount() != connections.size())
            return false;
        for (const Connection& c : connections)
            if (!editor.scene()->connectionItem(c))
                return false;
        return true;
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void layersWireUpWithLiveShapes()
    {
        NodeEditor editor(m_registries.get());
        const DocNodeId input = editor.addNode("layer:Input", QPointF(0, 0));
        const DocNodeId dense = editor.addNode("layer:Dense", QPointF(300, 0));
        QVERIFY(input != kNoNode && dense != kNoNode);
        GraphDocument* doc = editor.document();
        QCOMPARE(doc->node(input)->name, std::string("input"));
        QCOMPARE(doc->node(dense)->name, std::string("dense"));
        // Input [?, 784] float32 feeding a Dense of 500 units.
        auto shape = SetAttrCommand::create(doc, input, "shape", shapeAttr({-1, 784}));
        QVERIFY(shape);
        doc->undoStack()->push(shape->release());
        tensorflow::AttrValue units;
        units.set_i(500);
        doc->undoStack()->push(SetAttrCommand::create(doc, dense, "units", units)->release());
        QCOMPARE(editor.scene()->connectPorts(input, 0, dense, 0), QString());
        editor.refreshFeedback();
        NodeItem* item = editor.scene()->nodeItem(dense);
        QVERIFY(item);
        QCOMPARE(item->outputInfo(0)->shape, QString("[?,500]"));
        QCOMPARE(editor.scene()->nodeItem(input)->outputInfo(0)->shape, QString("[?,784]"));
        QVERIFY(item->problem().isEmpty());
        QCOMPARE(editor.scene()->connectionItem(Connection{input, 0, dense, 0})->label(), QString("[?,784]"));
        // Undo the connection: the Dense node now has a problem (no input) and no shape.
        doc->undoStack()->undo();
        editor.refreshFeedback();
        QVERIFY(!editor.scene()->nodeItem(dense)->problem().isEmpty());
        QVERIFY(editor.problemsList()->count() >= 1);
        doc->undoStack()->redo();
        editor.refreshFeedback();
        QCOMPARE(editor.scene()->nodeItem(dense)->outputInfo(0)->shape, QString("[?,500]"));
        // A layer node opens to the ops it stands for: tf.layers.dense's kernel, bias, MatMul and BiasAdd.
        const tensorflow::GraphDef ops = editor.layerOps(dense);
        std::set<std::string> names;
        for (const auto& n : ops.node())
            names.insert(n.name());
        QVERIFY(names.count("dense/kernel"));
        QVERIFY(names.count("dense/bias"));
        QVERIFY(names.count("dense/MatMul"));
        QVERIFY(names.count("dense/BiasAdd"));
        QVERIFY(!names.count("input"));
    }

    /// Layer ports are labelled with their catalogue names and live dtypes, each has a tooltip saying what it
    /// holds and expects, and the node is wide enough for every label (issue #25).
    void portsShowNamesDtypesAndTooltips()
    {
        NodeEditor editor(m_registries.get());
        GraphDocument* doc = editor.document();
        const DocNodeId data = editor.addNode("layer:Dataset", QPointF(0, 0));
        const DocNodeId dense = editor.addNode("layer:Dense", QPointF(300, 0));
        const DocNodeId loss = editor.addNode("layer:SparseSoftmaxCrossEntropy", QPointF(600, 0));
        QVERIFY(data && dense && loss);
        QCOMPARE(doc->slotName(loss, 0), std::string("labels"));
        QCOMPARE(doc->slotName(loss, 1), std::string("logits"));
        NodeItem* lossItem = editor.scene()->nodeItem(loss);
        // Before anything is connected: names only, and what the port expects.
        QCOMPARE(lossItem->portLabel(0, false), QString("labels"));
        QCOMPARE(lossItem->portToolTip(0, false),
                 QString("labels: dtype and shape not known yet\nExpects int32 or int64 class ids [batch], from the data"));
        QCOMPARE(lossItem->portToolTip(1, false),
                 QString("logits: dtype and shape not known yet\nExpects float scores [batch, classes] computed by the "
                         "network, before softmax"));

        QCOMPARE(editor.scene()->connectPorts(data, 0, dense, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(data, 1, loss, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(dense, 0, loss, 1), QString());
        editor.refreshFeedback();
        QVERIFY2(lossItem->problem().isEmpty(), qPrintable(lossItem->problem()));
        NodeItem* denseItem = editor.scene()->nodeItem(dense);
        NodeItem* dataItem = editor.scene()->nodeItem(data);
        QCOMPARE(denseItem->portLabel(0, false), QString("inputs: float32"));
        QCOMPARE(denseItem->portToolTip(0, false), QString("inputs: float32 [?,784]\nExpects float tensor [batch, …, features]"));
        QCOMPARE(denseItem->portLabel(0, true), QString("output: float32 [?,10]"));
        QCOMPARE(denseItem->portToolTip(0, true), QString("output: float32 [?,10]"));
        QCOMPARE(dataItem->portLabel(1, true), QString("labels: int64 [?]"));
        QCOMPARE(dataItem->portToolTip(1, true), QString("labels: int64 [?]\nGives int64 class ids [batch]"));
        QCOMPARE(lossItem->portLabel(0, false), QString("labels: int64"));
        QCOMPARE(lossItem->portLabel(1, false), QString("logits: float32"));
        QCOMPARE(lossItem->portToolTip(0, false),
                 QString("labels: int64 [?]\nExpects int32 or int64 class ids [batch], from the data"));
        QCOMPARE(lossItem->portLabel(0, true), QString("loss: float32 []"));

        // Hovering a port shows its tooltip; the rest of the node shows the node's.
        auto hover = [&](NodeItem* item, QPointF local) {
            QGraphicsSceneHoverEvent move(QEvent::GraphicsSceneHoverMove);
            move.setPos(local);
            move.setScenePos(item->mapToScene(local));
            editor.scene()->sendEvent(item, &move);
            return item->toolTip();
        };
        QCOMPARE(hover(lossItem, lossItem->mapFromScene(lossItem->inputPos(0))), lossItem->portToolTip(0, false));
        QVERIFY(hover(lossItem, lossItem->body().center()).contains("SparseSoftmaxCrossEntropy"));

        // Every label fits in its rectangle, inside the body, clear of the other side's labels and the title.
        const QFontMetricsF metrics(NodeItem::portFont());
        for (NodeItem* item : {dataItem, denseItem, lossItem}) {
            for (int row = 0; row < std::max(item->inputCount(), item->outputCount()); ++row) {
                for (bool output : {false, true}) {
                    if (row >= (output ? item->outputCount() : item->inputCount()))
                        continue;
                    const QRectF rect = item->portLabelRect(row, output);
                    const QString label = item->portLabel(row, output);
                    QVERIFY2(metrics.horizontalAdvance(label) <= rect.width(), qPrintable(label));
                    QVERIFY2(item->body().contains(rect), qPrintable(label));
                    QVERIFY2(rect.top() >= NodeItem::kHeader, qPrintable(label));
                }
                if (row < item->inputCount() && row < item->outputCount())
                    QVERIFY(!item->portLabelRect(row, false).intersects(item->portLabelRect(row, true)));
            }
        }
        // A long label widens the node rather than being cut.
        const DocNodeId input = editor.addNode("layer:Input", QPointF(0, 700));
        NodeItem* inputItem = editor.scene()->nodeItem(input);
        editor.refreshFeedback();
        const double narrow = inputItem->body().width();
        doc->undoStack()->push(SetAttrCommand::create(doc, input, "shape", shapeAttr({-1, 224, 224, 3, 123456789}))->release());
        editor.refreshFeedback();
        QCOMPARE(inputItem->portLabel(0, true), QString("output: float32 [?,224,224,3,123456789]"));
        QVERIFY(inputItem->body().width() > narrow);
        QVERIFY(metrics.horizontalAdvance(inputItem->portLabel(0, true)) <= inputItem->portLabelRect(0, true).width());
        QVERIFY(inputItem->body().contains(inputItem->portLabelRect(0, true)));

        // The old SoftmaxCrossEntropy follows its sparse param; raw ops use their OpDef names and dtypes.
        const DocNodeId xent = editor.addNode("layer:SoftmaxCrossEntropy", QPointF(0, 300));
        QVERIFY(editor.scene()->nodeItem(xent)->portToolTip(0, false).endsWith("Expects float one-hot rows [batch, classes], from the data"));
        tensorflow::AttrValue on;
        on.set_b(true);
        doc->undoStack()->push(SetAttrCommand::create(doc, xent, "sparse", on)->release());
        QVERIFY(editor.scene()->nodeItem(xent)->portToolTip(0, false).endsWith("Expects int32 or int64 class ids [batch], from the data"));
        const DocNodeId x = editor.addNode("op:Placeholder", QPointF(0, 500));
        const DocNodeId relu = editor.addNode("op:Relu", QPointF(300, 500));
        QCOMPARE(editor.scene()->connectPorts(x, 0, relu, 0), QString());
        QCOMPARE(editor.scene()->nodeItem(relu)->portLabel(0, false), QString("features: float32"));
    }

    /// Swapped labels and logits of the same shape and dtype are marked on the loss node, naming the port.
    void swappedLossPortsAreMarked()
    {
        NodeEditor editor(m_registries.get());
        GraphDocument* doc = editor.document();
        const DocNodeId data = editor.addNode("layer:Dataset", QPointF(0, 0));
        const DocNodeId dense = editor.addNode("layer:Dense", QPointF(300, 0));
        const DocNodeId loss = editor.addNode("layer:SoftmaxCrossEntropy", QPointF(600, 0));
        tensorflow::AttrValue oneHot;
        oneHot.set_s("one_hot");
        doc->undoStack()->push(SetAttrCommand::create(doc, data, "labels", oneHot)->release());
        QCOMPARE(editor.scene()->connectPorts(data, 0, dense, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(dense, 0, loss, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(data, 1, loss, 1), QString());
        editor.refreshFeedback();
        const QString problem = editor.scene()->nodeItem(loss)->problem();
        QVERIFY2(problem.startsWith("layer 'softmax_cross_entropy_loss' (SoftmaxCrossEntropy): port 'labels' is computed by the network") &&
                     problem.endsWith("while port 'logits' is data (from placeholder 'dataset/labels'): labels and logits look swapped"),
                 qPrintable(problem));
        // Wired the right way round, it builds.
        QCOMPARE(editor.scene()->connectPorts(data, 1, loss, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(dense, 0, loss, 1), QString());
        editor.refreshFeedback();
        QVERIFY2(editor.scene()->nodeItem(loss)->problem().isEmpty(), qPrintable(editor.scene()->nodeItem(loss)->problem()));
    }

    void evaluatesASelectedNodeWithFeeds()
    {
        NodeEditor editor(m_registries.get());
        GraphDocument* doc = editor.document();
        const DocNodeId x = editor.addNode("op:Placeholder", QPointF(0, 0));
        doc->undoStack()->push(SetAttrCommand::create(doc, x, "shape", shapeAttr({-1, 3}))->release());
        const DocNodeId relu = editor.addNode("op:Relu", QPointF(200, 0));
        QCOMPARE(editor.scene()->connectPorts(x, 0, relu, 0), QString());
        auto feeds = evaluationFeeds(*doc, *m_registries, relu);
        QVERIFY2(feeds, testing::err(feeds));
        QCOMPARE(feeds->size(), std::size_t(1));
        QCOMPARE(feeds->at(0).name, std::string("Placeholder"));
        QCOMPARE(feeds->at(0).shape.toString(), std::string("[?,3]"));
        CpuAllocator allocator;
        auto fed = parseFeedText("1, -2, 3, -4, 5, -6", tensorflow::DT_FLOAT, TensorShape{2, 3}, allocator);
        QVERIFY2(fed, testing::err(fed));
        auto out = evaluateNode(*doc, *m_registries, relu, {{"Placeholder", *fed}});
        QVERIFY2(out, testing::err(out));
        QCOMPARE(out->size(), std::size_t(1));
        const auto values = out->at(0).values<float>();
        QCOMPARE(std::vector<float>(values.begin(), values.end()), (std::vector<float>{1, 0, 3, 0, 5, 0}));
        // Text that does not fit says why; a missing feed is the session's error naming the placeholder.
        QVERIFY(!parseFeedText("1, 2", tensorflow::DT_FLOAT, TensorShape{2, 3}, allocator));
        QVERIFY(!parseFeedText("1, x", tensorflow::DT_FLOAT, TensorShape{2, 3}, allocator));
        QVERIFY(!parseFeedText("ones", tensorflow::DT_FLOAT, TensorShape{-1, 3}, allocator));
        auto ones = parseFeedText("ones", tensorflow::DT_INT32, TensorShape{4}, allocator);
        QVERIFY(ones && ones->values<std::int32_t>()[3] == 1);
        auto missing = evaluateNode(*doc, *m_registries, relu, {});
        QVERIFY(!missing);
        QVERIFY2(QString::fromStdString(missing.error().message()).contains("Placeholder"), missing.error().message().c_str());
        QCOMPARE(tensorValueAt(out->at(0), 2), 3.0);

        // The dialog does the same from typed text and shows the values.
        EvaluateDialog dialog(doc, m_registries.get(), relu);
        QLineEdit* value = dialog.valueEdit("Placeholder");
        QVERIFY(value);
        value->setText("-1, 2, -3");
        QVERIFY(dialog.evaluate());
        QCOMPARE(dialog.table()->rowCount(), 1);
        QCOMPARE(dialog.table()->columnCount(), 3);
        QCOMPARE(dialog.table()->item(0, 1)->text(), QString("2"));
        QCOMPARE(dialog.table()->item(0, 2)->text(), QString("0"));
        value->setText("1, 2");
        QVERIFY(!dialog.evaluate());
    }

    void evaluationRunsInInferenceMode()
    {
        // Input -> Dropout(rate 0.5) following the learning phase: Evaluate… feeds it false, so the
        // layer passes its input through; fed true by hand, it drops and scales.
        NodeEditor editor(m_registries.get());
        GraphDocument* doc = editor.document();
        const DocNodeId x = editor.addNode("layer:Input", QPointF(0, 0));
        doc->undoStack()->push(SetAttrCommand::create(doc, x, "shape", shapeAttr({-1, 64}))->release());
        const DocNodeId drop = editor.addNode("layer:Dropout", QPointF(300, 0));
        QCOMPARE(editor.scene()->connectPorts(x, 0, drop, 0), QString());
        QVERIFY(doc->node(drop)->attrs.count("learning_phase") == 0 || doc->node(drop)->attrs.at("learning_phase").b());
        CpuAllocator allocator;
        auto ones = parseFeedText("ones", tensorflow::DT_FLOAT, TensorShape{2, 64}, allocator);
        QVERIFY2(ones, testing::err(ones));
        auto out = evaluateNode(*doc, *m_registries, drop, {{"input", *ones}});
        QVERIFY2(out, testing::err(out));
        for (float v : out->at(0).values<float>())
            QCOMPARE(v, 1.0f);
        auto training = Tensor::fromVector<bool>(allocator, TensorShape::scalar(), {true});
        QVERIFY(training);
        auto trained = evaluateNode(*doc, *m_registries, drop, {{"input", *ones}, {"learning_phase", *training}});
        QVERIFY2(trained, testing::err(trained));
        int dropped = 0;
        for (float v : trained->at(0).values<float>()) {
            QVERIFY(v == 0.0f || v == 2.0f);
            dropped += v == 0.0f ? 1 : 0;
        }
        QVERIFY(dropped > 0 && dropped < 128);
    }

    void invalidWiringIsRefusedOrMarked()
    {
        NodeEditor editor(m_registries.get());
        GraphDocument* doc = editor.document();
        const DocNodeId x = editor.addNode("op:Placeholder", QPointF(0, 0));
        const DocNodeId i = editor.addNode("op:Placeholder", QPointF(0, 100));
        const DocNodeId mm = editor.addNode("op:MatMul", QPointF(300, 0));
        tensorflow::AttrValue intType;
        intType.set_type(tensorflow::DT_INT32);
        doc->undoStack()->push(SetAttrCommand::create(doc, i, "dtype", intType)->release());
        QCOMPARE(editor.scene()->connectPorts(x, 0, mm, 0), QString());
        // A dtype mismatch is refused with the reason.
        const QString refused = editor.scene()->connectPorts(i, 0, mm, 1);
        QVERIFY2(refused.contains("int32") && refused.contains("float32"), qPrintable(refused));
        // Shapes that do not multiply: wired, then marked with the engine's message.
        doc->undoStack()->push(SetAttrCommand::create(doc, x, "shape", shapeAttr({2, 3}))->release());
        const DocNodeId y = editor.addNode("op:Placeholder", QPointF(0, 200));
        doc->undoStack()->push(SetAttrCommand::create(doc, y, "shape", shapeAttr({4, 5}))->release());
        QCOMPARE(editor.scene()->connectPorts(y, 0, mm, 1), QString());
        editor.refreshFeedback();
        const QString problem = editor.scene()->nodeItem(mm)->problem();
        QVERIFY2(problem.contains("Dimensions must be equal"), qPrintable(problem));
    }

    void sceneMirrorsDocumentThroughRandomEdits()
    {
        NodeEditor editor(m_registries.get());
        GraphDocument* doc = editor.document();
        std::mt19937 rng(7);
        const QStringList types = {"op:Relu", "op:Add", "op:Identity", "op:AddN", "layer:Dense"};
        for (int step = 0; step < 400; ++step) {
            const auto ids = doc->nodes();
            const int action = static_cast<int>(rng() % 7);
            if (action <= 1 || ids.size() < 3) {
                editor.addNode(types[static_cast<int>(rng() % types.size())], QPointF(rng() % 2000, rng() % 2000));
            } else if (action == 2) {
                const DocNodeId a = ids[rng() % ids.size()], b = ids[rng() % ids.size()];
                const DocNode* to = doc->node(b);
                if (!to->inputs.empty())
                    editor.scene()->connectPorts(a, 0, b, static_cast<int>(rng() % to->inputs.size()));
            } else if (action == 3) {
                auto remove = RemoveNodesCommand::create(doc, {ids[rng() % ids.size()]});
                if (remove)
                    doc->undoStack()->push(remove->release());
            } else if (action == 4) {
                auto move = MoveNodesCommand::create(doc, {{ids[rng() % ids.size()], QPointF(rng() % 2000, rng() % 2000)}});
                if (move)
                    doc->undoStack()->push(move->release());
            } else if (action == 5) {
                doc->undoStack()->undo();
            } else {
                doc->undoStack()->redo();
            }
            if (step % 50 == 0)
                QVERIFY2(sceneMirrorsDocument(editor), qPrintable(QString("step %1").arg(step)));
        }
        QVERIFY(sceneMirrorsDocument(editor));
        // The scene can be rebuilt from the document at any time and gives the same picture.
        const std::size_t connections = editor.scene()->connectionItemCount();
        editor.scene()->rebuild();
        QVERIFY(sceneMirrorsDocument(editor));
        QCOMPARE(editor.scene()->connectionItemCount(), connections);
        while (doc->undoStack()->canUndo())
            doc->undoStack()->undo();
        QCOMPARE(doc->nodeCount(), std::size_t(0));
        QVERIFY(sceneMirrorsDocument(editor));
    }

    void savesAGraphTheEngineReads()
    {
        NodeEditor editor(m_registries.get());
        const DocNodeId x = editor.addNode("op:Placeholder", QPointF(0, 0));
        const DocNodeId relu = editor.addNode("op:Relu", QPointF(200, 0));
        QCOMPARE(editor.scene()->connectPorts(x, 0, relu, 0), QString());
        QTemporaryDir dir;
        const QString path = dir.filePath("g.pbtxt");
        const Status s = editor.saveAs(path);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(!editor.isModified());
        auto graph = readGraphDef(path.toStdString());
        QVERIFY(graph);
        QCOMPARE(graph->node_size(), 2);
        QCOMPARE(graph->node(1).input(0), std::string("Placeholder"));
        // Reopened, it is the same document, laid out.
        NodeEditor again(m_registries.get());
        QVERIFY(again.openFile(path).isOk());
        QCOMPARE(again.document()->nodeCount(), std::size_t(2));
        QCOMPARE(again.document()->connections().size(), std::size_t(1));
        // "View in graph viewer" hands over the graph as built.
        int viewed = -1;
        connect(&editor, &NodeEditor::viewRequested, this,
                [&viewed](const tensorflow::GraphDef& graph, const QString&) { viewed = graph.node_size(); });
        editor.viewInGraphViewer();
        QCOMPARE(viewed, 2);
        // An incomplete document is not saved, and says why.
        editor.addNode("op:MatMul", QPointF(0, 200));
        const Status refused = editor.saveAs(dir.filePath("bad.pbtxt"));
        QVERIFY(!refused.isOk());
        QVERIFY2(QString::fromStdString(refused.message()).contains("MatMul"), refused.message().c_str());
    }

    /// Saved as a .tsproj and reopened, the document looks the same: the same layer nodes at the same
    /// positions; the project trains what the document says; a TensorFlow graph in a project that has
    /// no editor state is laid out automatically.
    void projectKeepsLayersAndPositions()
    {
        NodeEditor editor(m_registries.get());
        const DocNodeId x = editor.addNode("layer:Input", QPointF(20, 40));
        const DocNodeId y = editor.addNode("layer:Input", QPointF(20, 240));
        const DocNodeId dense = editor.addNode("layer:Dense", QPointF(300, 60));
        const DocNodeId loss = editor.addNode("layer:MeanSquaredError", QPointF(560, 120));
        const DocNodeId train = editor.addNode("layer:Adam", QPointF(820, 120));
        QVERIFY(x && y && dense && loss && train);
        GraphDocument* doc = editor.document();
        doc->undoStack()->push(SetAttrCommand::create(doc, x, "shape", shapeAttr({-1, 3}))->release());
        doc->undoStack()->push(SetAttrCommand::create(doc, y, "shape", shapeAttr({-1, 1}))->release());
        tensorflow::AttrValue one;
        one.set_i(1);
        doc->undoStack()->push(SetAttrCommand::create(doc, dense, "units", one)->release());
        QCOMPARE(editor.scene()->connectPorts(x, 0, dense, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(y, 0, loss, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(dense, 0, loss, 1), QString());
        QCOMPARE(editor.scene()->connectPorts(loss, 0, train, 0), QString());
        QTemporaryDir dir;
        const QString path = dir.filePath("regression.tsproj");
        const Status s = editor.saveAs(path);
        QVERIFY2(s.isOk(), s.toString().c_str());
        QVERIFY(editor.project().has_value());
        QVERIFY(editor.project()->training.trainOp.has_value());

        NodeEditor again(m_registries.get());
        const Status opened = again.openFile(path);
        QVERIFY2(opened.isOk(), opened.toString().c_str());
        QCOMPARE(again.document()->nodeCount(), doc->nodeCount());
        QCOMPARE(again.document()->connections().size(), doc->connections().size());
        for (DocNodeId id : doc->nodes()) {
            const DocNode* a = doc->node(id);
            const DocNode* b = again.document()->node(again.document()->findByName(a->name));
            QVERIFY2(b, a->name.c_str());
            QCOMPARE(b->kind, NodeKind::kLayer);
            QCOMPARE(b->type, a->type);
            QCOMPARE(b->position, a->position);
        }
        QVERIFY(!again.isModified());
        QVERIFY(sceneMirrorsDocument(again));
        auto trained = again.trainingProject();
        QVERIFY2(trained.has_value(), trained ? "" : trained.error().toString().c_str());
        QCOMPARE(trained->training.trainOp, editor.project()->training.trainOp);
        // showNode finds a layer node by the name of one of its ops.
        QVERIFY(again.showNode(QStringLiteral("dense/MatMul")));
        QCOMPARE(again.scene()->selectedNodes(), std::vector<DocNodeId>{again.document()->findByName("dense")});
        QVERIFY(!again.showNode(QStringLiteral("nothing")));

        // The example project: a TensorFlow graph file, no editor state: laid out, trains with its optimizer.
        NodeEditor spirals(m_registries.get());
        const Status example = spirals.openFile(QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/spirals.tsproj"));
        QVERIFY2(example.isOk(), example.toString().c_str());
        QVERIFY(spirals.document()->nodeCount() > 10);
        std::set<std::pair<qreal, qreal>> places;
        // Laid out with its scopes collapsed; expanding them all arranges every node on a spot of its own
        // (nodes hidden in different collapsed boxes move with their boxes and may meet until then).
        spirals.collapseAllScopes(false);
        for (DocNodeId id : spirals.document()->nodes())
            places.insert({spirals.document()->node(id)->position.x(), spirals.document()->node(id)->position.y()});
        QCOMPARE(places.size(), spirals.document()->nodeCount()); // no two nodes on one spot
        auto spiralsProject = spirals.trainingProject();
        QVERIFY2(spiralsProject.has_value(), spiralsProject ? "" : spiralsProject.error().toString().c_str());
        QVERIFY(spiralsProject->training.optimizer.has_value());
    }
};

} // namespace

QTEST_MAIN(TestNodeEditor)
#include "test_node_editor.moc"
