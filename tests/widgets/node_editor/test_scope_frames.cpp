// The node editor shows an opened graph by name scope: frames titled with the layer each scope is
// recognised as, collapsed boxes standing for their nodes, expanded and moved with the mouse.
#include "builder/ops_sugar.h"
#include "document/document_commands.h"
#include "layers/dense.h"
#include "losses/losses.h"
#include "node_editor/connection_item.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_scene.h"
#include "node_editor/node_editor_view.h"
#include "node_editor/node_item.h"
#include "node_editor/scope_frame_item.h"
#include "registries/default_registries.h"
#include "training/adam.h"

#include <QTest>
#include <QUndoStack>

#include <set>

using namespace tstudio;
using namespace tstudio::node_editor;

namespace {

/// x -> dense(64, relu) -> dense_1(10) -> sparse softmax cross entropy -> Adam: a few hundred ops.
tensorflow::GraphDef classifier(const OpRegistry& ops)
{
    GraphBuilder b(ops);
    auto x = ops::placeholder(b, tensorflow::DT_FLOAT, TensorShape{-1, 784}, "x");
    auto labels = ops::placeholder(b, tensorflow::DT_INT64, TensorShape{-1}, "labels");
    layers::DenseOptions hidden;
    hidden.units = 64;
    hidden.activation = layers::Activation::kRelu;
    auto h = layers::dense(b, *x, hidden);
    layers::DenseOptions out;
    out.units = 10;
    auto logits = layers::dense(b, *h, out);
    auto loss = losses::sparseSoftmaxCrossEntropy(b, *labels, *logits);
    training::AdamOptimizer adam;
    auto train = adam.minimize(b, *loss);
    if (!train)
        qFatal("%s", train.error().toString().c_str());
    return b.graphDef();
}

/// The items a user sees as boxes: visible nodes and visible collapsed scopes.
std::vector<QRectF> visibleBoxes(const NodeEditorScene& scene)
{
    std::vector<QRectF> boxes;
    for (QGraphicsItem* item : scene.items()) {
        if (!item->isVisible())
            continue;
        if (auto* node = dynamic_cast<NodeItem*>(item))
            boxes.push_back(node->sceneBoundingRect());
        else if (auto* frame = dynamic_cast<ScopeFrameItem*>(item); frame != nullptr && frame->isCollapsed())
            boxes.push_back(frame->sceneRect());
    }
    return boxes;
}

int overlaps(const std::vector<QRectF>& boxes)
{
    int count = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i)
        for (std::size_t j = i + 1; j < boxes.size(); ++j)
            count += boxes[i].adjusted(2, 2, -2, -2).intersects(boxes[j].adjusted(2, 2, -2, -2)) ? 1 : 0;
    return count;
}

QPoint viewPoint(const NodeEditor& editor, QPointF scenePos)
{
    return editor.view()->mapFromScene(scenePos);
}

} // namespace

class TestScopeFrames : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void anOpenedGraphShowsItsLayers()
    {
        NodeEditor editor(m_registries.get());
        editor.resize(1280, 800);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        const tensorflow::GraphDef graph = classifier(m_registries->ops);
        QVERIFY(graph.node_size() > 100);
        const Status loaded = editor.loadGraphDef(graph, QStringLiteral("classifier"));
        QVERIFY2(loaded.isOk(), loaded.toString().c_str());
        NodeEditorScene* scene = editor.scene();
        GraphDocument* doc = editor.document();

        // Every scope is a frame; a graph this large opens with all of them collapsed.
        const auto scopes = scene->scopes();
        const std::set<std::string> all(scopes.begin(), scopes.end());
        for (const char* expected : {"dense", "dense_1", "sparse_softmax_cross_entropy_loss", "Adam", "gradients", "dense/kernel"})
            QVERIFY2(all.count(expected), expected);
        QCOMPARE(scene->collapsedScopes(), all);
        // What each scope computes, told by its ops.
        QCOMPARE(scene->frame("dense")->summary(), QStringLiteral("Dense(64, relu)"));
        QCOMPARE(scene->frame("dense_1")->summary(), QStringLiteral("Dense(10)"));
        QCOMPARE(scene->frame("sparse_softmax_cross_entropy_loss")->summary(), QStringLiteral("SparseSoftmaxCrossEntropy"));
        QCOMPARE(scene->frame("Adam")->summary(), QStringLiteral("Adam"));
        QCOMPARE(scene->frame("gradients")->summary(), QStringLiteral("Gradients"));
        QCOMPARE(scene->frame("dense/kernel")->summary(), QStringLiteral("Variable 784x64"));

        // Not a flat sheet: a handful of boxes for hundreds of ops, none on top of another.
        const DocNodeId matmul = doc->findByName("dense/MatMul");
        QVERIFY(matmul != kNoNode);
        QVERIFY(!scene->nodeItem(matmul)->isVisible());
        QCOMPARE(scene->hidingScope(matmul), std::string("dense"));
        QVERIFY(scene->frame("dense")->isVisible());
        QVERIFY(!scene->frame("dense/kernel")->isVisible()); // inside a collapsed scope
        auto boxes = visibleBoxes(*scene);
        QVERIFY2(boxes.size() < 20, qPrintable(QString::number(boxes.size())));
        QCOMPARE(overlaps(boxes), 0);
        // The input's edge meets the collapsed box; the edges inside it are hidden.
        const DocNodeId x = doc->findByName("x");
        const Connection into{x, 0, matmul, 0};
        ConnectionItem* edge = scene->connectionItem(into);
        QVERIFY(edge && edge->isVisible());
        QVERIFY(QLineF(edge->path().pointAtPercent(1), scene->frame("dense")->inputAnchor()).length() < 1);
        const DocNodeId biasAdd = doc->findByName("dense/BiasAdd");
        ConnectionItem* inside = scene->connectionItem(Connection{matmul, 0, biasAdd, 0});
        QVERIFY(inside && !inside->isVisible());

        // A double-click on the header expands the scope; the graph makes room for it. A project
        // saves which scopes are collapsed: one undo step, and the document is modified (issue #51).
        const int undoCount = doc->undoStack()->count();
        editor.view()->ensureVisible(scene->frame("dense")->sceneRect());
        const QRectF header = scene->frame("dense")->headerRect().translated(scene->frame("dense")->pos());
        const QPoint onHeader = viewPoint(editor, header.center() + QPointF(20, 0));
        QTest::mouseDClick(editor.view()->viewport(), Qt::LeftButton, {}, onHeader);
        QTest::mouseRelease(editor.view()->viewport(), Qt::LeftButton, {}, onHeader); // QTest's double-click ends pressed
        QTRY_VERIFY(!scene->isScopeCollapsed("dense"));
        QVERIFY(scene->nodeItem(matmul)->isVisible());
        QVERIFY(scene->frame("dense/kernel")->isVisible() && scene->frame("dense/kernel")->isCollapsed());
        QVERIFY(scene->connectionItem(Connection{matmul, 0, biasAdd, 0})->isVisible());
        QCOMPARE(overlaps(visibleBoxes(*scene)), 0);
        const QRectF frame = scene->frame("dense")->sceneRect();
        QVERIFY(frame.contains(scene->nodeItem(matmul)->sceneBoundingRect()));
        QVERIFY(frame.contains(scene->frame("dense/kernel")->sceneRect()));
        QCOMPARE(doc->undoStack()->count(), undoCount + 1);
        QVERIFY(editor.isModified());

        // Dragging a collapsed box by the mouse moves its nodes: one undoable move.
        ScopeFrameItem* box = scene->frame("dense_1");
        const DocNodeId logits = doc->findByName("dense_1/MatMul");
        const QPointF before = doc->node(logits)->position;
        editor.view()->ensureVisible(box->sceneRect());
        const QPoint grab = viewPoint(editor, box->sceneRect().center());
        QTest::mousePress(editor.view()->viewport(), Qt::LeftButton, {}, grab);
        for (int step = 1; step <= 4; ++step) {
            QMouseEvent move(QEvent::MouseMove, QPointF(grab + QPoint(0, 30 * step)), editor.view()->viewport()->mapToGlobal(QPointF(grab + QPoint(0, 30 * step))),
                             Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(editor.view()->viewport(), &move);
        }
        QTest::mouseRelease(editor.view()->viewport(), Qt::LeftButton, {}, grab + QPoint(0, 120));
        const QPointF after = doc->node(logits)->position;
        const double zoom = editor.view()->transform().m22();
        QVERIFY2(std::abs((after - before).y() - 120 / zoom) < 2, qPrintable(QStringLiteral("%1 %2").arg((after - before).y()).arg(120 / zoom)));
        QCOMPARE(doc->undoStack()->count(), undoCount + 2);
        QVERIFY(editor.isModified());
        doc->undoStack()->undo();
        QCOMPARE(doc->node(logits)->position, before);

        // showNode (a problem's or a breakpoint's link) expands the scopes hiding the node.
        QVERIFY(scene->isScopeCollapsed("gradients"));
        QVERIFY(editor.showNode(QStringLiteral("gradients/dense/MatMul_grad/MatMul")));
        QVERIFY(!scene->isScopeCollapsed("gradients"));
        QVERIFY(!scene->isScopeCollapsed("gradients/dense"));
        QVERIFY(scene->nodeItem(doc->findByName("gradients/dense/MatMul_grad/MatMul"))->isVisible());

        // Collapse all, expand all (Edit menu).
        editor.collapseAllScopes(true);
        QCOMPARE(scene->collapsedScopes(), all);
        QCOMPARE(overlaps(visibleBoxes(*scene)), 0);
        editor.collapseAllScopes(false);
        QVERIFY(scene->collapsedScopes().empty());
        for (DocNodeId id : doc->nodes())
            QVERIFY(scene->nodeItem(id)->isVisible());
        QCOMPARE(overlaps(visibleBoxes(*scene)), 0);
    }

    void smallGraphsAndComposedDocuments()
    {
        // A small graph opens expanded, its scopes framed around their nodes.
        tensorflow::GraphDef small;
        for (const char* name : {"in/x", "in/y", "sum/add"}) {
            auto* node = small.add_node();
            node->set_name(name);
            node->set_op(std::string(name) == "sum/add" ? "Add" : "Placeholder");
            (*node->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
            if (std::string(name) == "sum/add") {
                node->add_input("in/x");
                node->add_input("in/y");
                (*node->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
            }
        }
        NodeEditor editor(m_registries.get());
        QVERIFY(editor.loadGraphDef(small, QStringLiteral("small")).isOk());
        NodeEditorScene* scene = editor.scene();
        QVERIFY(scene->collapsedScopes().empty());
        QCOMPARE(scene->scopes(), (std::vector<std::string>{"in", "sum"}));
        const QRectF in = scene->frame("in")->sceneRect();
        for (const char* name : {"in/x", "in/y"})
            QVERIFY(in.contains(scene->nodeItem(editor.document()->findByName(name))->sceneBoundingRect()));
        QVERIFY(!in.intersects(scene->frame("sum")->sceneRect()));
        // Renaming a node out of its scope drops the frame that became empty.
        GraphDocument* doc = editor.document();
        const DocNodeId add = doc->findByName("sum/add");
        doc->undoStack()->push(RenameCommand::create(doc, add, "total")->release());
        scene->updateFrames();
        QCOMPARE(scene->scopes(), (std::vector<std::string>{"in"}));

        // A network composed from the palette has no scopes until the user groups nodes.
        NodeEditor composed(m_registries.get());
        const DocNodeId a = composed.addNode("layer:Input", QPointF(0, 0));
        const DocNodeId b = composed.addNode("layer:Dense", QPointF(300, 0));
        QVERIFY(a != kNoNode && b != kNoNode);
        composed.scene()->updateFrames();
        QVERIFY(composed.scene()->scopes().empty());
        composed.scene()->nodeItem(a)->setSelected(true);
        composed.scene()->nodeItem(b)->setSelected(true);
        composed.groupSelection(QStringLiteral("block"));
        composed.scene()->updateFrames();
        QCOMPARE(composed.scene()->scopes(), std::vector<std::string>{"block"});
        QCOMPARE(composed.scene()->membersOf("block").size(), std::size_t(2));
    }
};

QTEST_MAIN(TestScopeFrames)
#include "test_scope_frames.moc"
