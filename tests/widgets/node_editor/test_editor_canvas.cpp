// Tests for the node editor canvas as a user drives it with the mouse and keyboard: the view follows
// added and pasted nodes, ports stay grabbable after wiring, breakpoint markers follow the project's
// breakpoint list, and Ctrl+Y redoes.
#include "document/document_commands.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_scene.h"
#include "node_editor/node_editor_view.h"
#include "node_editor/node_item.h"
#include "node_editor/node_palette.h"
#include "registries/default_registries.h"

#include <QAction>
#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

using namespace tstudio;
using namespace tstudio::node_editor;

namespace {

/// The part of the scene the view shows now.
QRectF shownSceneRect(const NodeEditor& editor)
{
    return editor.view()->mapToScene(editor.view()->viewport()->rect()).boundingRect();
}

QPoint viewPoint(const NodeEditor& editor, QPointF scenePos)
{
    return editor.view()->mapFromScene(scenePos);
}

/// A left-button drag on the canvas as a window system delivers it: press, moves with the button held, release.
void dragOnCanvas(NodeEditor& editor, QPoint from, QPoint to)
{
    QWidget* viewport = editor.view()->viewport();
    QTest::mousePress(viewport, Qt::LeftButton, {}, from);
    for (int step = 1; step <= 6; ++step) {
        const QPointF at = QPointF(from) + (QPointF(to - from) * step / 6.0);
        QMouseEvent move(QEvent::MouseMove, at, viewport->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &move);
    }
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, to);
}

/// The same drag begun as the second click of a double click (a quick second wire from a port the last
/// drag began at): the window system sends a press, then a double-click event, before the moves.
void doubleClickDragOnCanvas(NodeEditor& editor, QPoint from, QPoint to)
{
    QWidget* viewport = editor.view()->viewport();
    QTest::mousePress(viewport, Qt::LeftButton, {}, from);
    QMouseEvent second(QEvent::MouseButtonDblClick, QPointF(from), viewport->mapToGlobal(QPointF(from)), Qt::LeftButton,
                       Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &second);
    for (int step = 1; step <= 6; ++step) {
        const QPointF at = QPointF(from) + (QPointF(to - from) * step / 6.0);
        QMouseEvent move(QEvent::MouseMove, at, viewport->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &move);
    }
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, to);
}

bool hasConnection(const GraphDocument& doc, DocNodeId from, DocNodeId to)
{
    for (const Connection& c : doc.connections())
        if (c.from == from && c.to == to)
            return true;
    return false;
}

debugger::Breakpoint breakpoint(debugger::Breakpoint::Target target, std::string pattern, bool enabled = true)
{
    debugger::Breakpoint b;
    b.target = target;
    b.pattern = std::move(pattern);
    b.enabled = enabled;
    return b;
}

class TestEditorCanvas : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

    /// An editor in a shown, active window of a fixed size (shortcuts and view geometry need one).
    std::unique_ptr<NodeEditor> shownEditor()
    {
        auto editor = std::make_unique<NodeEditor>(m_registries.get());
        editor->resize(1100, 700);
        editor->show();
        editor->activateWindow();
        if (!QTest::qWaitForWindowActive(editor.get()))
            qWarning("the editor's window did not become active");
        editor->view()->resetTransform();
        return editor;
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void viewFollowsAddedAndPastedNodes()
    {
        auto editor = shownEditor();
        const DocNodeId first = editor->addNode("op:Placeholder", QPointF(0, 0));
        QVERIFY(first != kNoNode);
        // The user scrolls away from the selected node: a palette entry goes beside that node, off-screen.
        editor->view()->centerOn(QPointF(6000, 6000));
        QVERIFY(!shownSceneRect(*editor).intersects(editor->scene()->nodeItem(first)->sceneBoundingRect()));
        emit editor->palette()->entryActivated(QStringLiteral("op:Relu"));
        const auto selected = editor->scene()->selectedNodes();
        QCOMPARE(selected.size(), std::size_t(1));
        NodeItem* added = editor->scene()->nodeItem(selected.front());
        QVERIFY(added && added->nodeId() != first);
        QVERIFY2(shownSceneRect(*editor).contains(added->sceneBoundingRect()),
                 qPrintable(QStringLiteral("node at %1,%2 not in the view").arg(added->x()).arg(added->y())));

        // Pasted nodes land beside the copied ones; the view goes there too.
        editor->copySelection();
        editor->view()->centerOn(QPointF(-8000, 9000));
        editor->paste();
        const auto pasted = editor->scene()->selectedNodes();
        QCOMPARE(pasted.size(), std::size_t(1));
        QVERIFY(pasted.front() != added->nodeId());
        QVERIFY(shownSceneRect(*editor).contains(editor->scene()->nodeItem(pasted.front())->sceneBoundingRect()));
    }

    void portsStayGrabbableAfterWiring()
    {
        auto editor = shownEditor();
        GraphDocument* doc = editor->document();
        const DocNodeId source = editor->addNode("op:Placeholder", QPointF(0, 0));
        const DocNodeId first = editor->addNode("op:Relu", QPointF(300, 0));
        const DocNodeId second = editor->addNode("op:Relu", QPointF(300, 200));
        editor->refreshFeedback();
        editor->view()->centerOn(QPointF(250, 100));
        NodeItem* sourceItem = editor->scene()->nodeItem(source);
        NodeItem* firstItem = editor->scene()->nodeItem(first);
        NodeItem* secondItem = editor->scene()->nodeItem(second);

        dragOnCanvas(*editor, viewPoint(*editor, sourceItem->outputPos(0)), viewPoint(*editor, firstItem->inputPos(0)));
        QVERIFY(hasConnection(*doc, source, first));
        editor->refreshFeedback(); // what the timer does after an edit: live dtypes and shapes relabel the ports

        // A second wire from the same output: the press starts a wire, the node stays where it is.
        const QPointF sourceAt = sourceItem->pos();
        const QPointF firstAt = firstItem->pos();
        dragOnCanvas(*editor, viewPoint(*editor, sourceItem->outputPos(0)), viewPoint(*editor, secondItem->inputPos(0)));
        QCOMPARE(sourceItem->pos(), sourceAt);
        QCOMPARE(doc->node(source)->position, sourceAt);
        QVERIFY(hasConnection(*doc, source, second));

        // The wired node's output port (it moved when its input label grew) starts a wire too.
        const DocNodeId third = editor->addNode("op:Relu", QPointF(600, 0));
        editor->refreshFeedback();
        editor->view()->centerOn(QPointF(450, 100));
        NodeItem* thirdItem = editor->scene()->nodeItem(third);
        dragOnCanvas(*editor, viewPoint(*editor, firstItem->outputPos(0)), viewPoint(*editor, thirdItem->inputPos(0)));
        QCOMPARE(firstItem->pos(), firstAt);
        QVERIFY(hasConnection(*doc, first, third));

        // A wire begun fast after the last one at the same port arrives as a double click: it is a wire
        // too, and leaves no node holding the mouse.
        const DocNodeId fourth = editor->addNode("op:Relu", QPointF(600, 200));
        editor->refreshFeedback();
        NodeItem* fourthItem = editor->scene()->nodeItem(fourth);
        doubleClickDragOnCanvas(*editor, viewPoint(*editor, firstItem->outputPos(0)), viewPoint(*editor, fourthItem->inputPos(0)));
        QCOMPARE(firstItem->pos(), firstAt);
        QVERIFY(hasConnection(*doc, first, fourth));
        QCOMPARE(editor->scene()->mouseGrabberItem(), nullptr);

        // A press on a body still moves that node, and only that one (one undoable move).
        const int commands = doc->undoStack()->count();
        const QPointF body = thirdItem->mapToScene(thirdItem->body().center());
        dragOnCanvas(*editor, viewPoint(*editor, body), viewPoint(*editor, body + QPointF(0, 80)));
        QVERIFY(thirdItem->pos().y() > 40);
        QCOMPARE(firstItem->pos(), firstAt);
        QCOMPARE(sourceItem->pos(), sourceAt);
        QCOMPARE(doc->undoStack()->count(), commands + 1);
    }

    void doubleClickOnALayerPortStartsAWire()
    {
        auto editor = shownEditor();
        const DocNodeId input = editor->addNode("layer:Input", QPointF(0, 0));
        const DocNodeId dense = editor->addNode("layer:Dense", QPointF(320, 0));
        editor->refreshFeedback();
        editor->view()->centerOn(QPointF(250, 60));
        NodeItem* inputItem = editor->scene()->nodeItem(input);
        NodeItem* denseItem = editor->scene()->nodeItem(dense);
        QSignalSpy opened(editor->scene(), &NodeEditorScene::layerOpenRequested);
        doubleClickDragOnCanvas(*editor, viewPoint(*editor, inputItem->outputPos(0)), viewPoint(*editor, denseItem->inputPos(0)));
        QCOMPARE(opened.count(), 0); // a double click on a port is no request to open the layer
        QVERIFY(hasConnection(*editor->document(), input, dense));
        // On the body it still is.
        QTest::mouseDClick(editor->view()->viewport(), Qt::LeftButton, {},
                           viewPoint(*editor, denseItem->mapToScene(denseItem->body().center())));
        QCOMPARE(opened.count(), 1);
    }

    void breakpointMarkersFollowTheBreakpointList()
    {
        auto editor = shownEditor();
        NodeEditorScene* scene = editor->scene();
        const DocNodeId input = editor->addNode("op:Placeholder", QPointF(0, 0));
        const DocNodeId relu = editor->addNode("op:Relu", QPointF(300, 0));
        const DocNodeId dense = editor->addNode("layer:Dense", QPointF(600, 0));
        const std::string denseName = editor->document()->node(dense)->name;
        using Mark = NodeItem::BreakpointMark;
        const auto mark = [&](DocNodeId id) { return scene->nodeItem(id)->breakpointMark(); };
        QCOMPARE(mark(input), Mark::kNone);

        // F9 on the selected op node: a node breakpoint, marked enabled; F9 again removes it.
        scene->clearSelection();
        scene->nodeItem(relu)->setSelected(true);
        editor->toggleBreakpointsOnSelection();
        QCOMPARE(mark(relu), Mark::kEnabled);
        QCOMPARE(mark(input), Mark::kNone);
        QVERIFY(!scene->nodeItem(relu)->breakpointMarkRect().isEmpty());
        QVERIFY(scene->nodeItem(relu)->toolTip().contains(QStringLiteral("node:Relu")));
        editor->toggleBreakpointsOnSelection();
        QCOMPARE(mark(relu), Mark::kNone);
        QVERIFY(!scene->nodeItem(relu)->toolTip().contains(QStringLiteral("node:Relu")));

        // On a layer node F9 sets a regex over its scope, which marks the layer and nothing else.
        scene->clearSelection();
        scene->nodeItem(dense)->setSelected(true);
        editor->toggleBreakpointsOnSelection();
        QCOMPARE(mark(dense), Mark::kEnabled);
        QCOMPARE(mark(relu), Mark::kNone);

        // The list as the debugger edits it: disabled ones ring, op types and inner nodes count.
        project::DebuggerSettings settings;
        settings.breakpoints = {breakpoint(debugger::Breakpoint::Target::kOpType, "Placeholder", false),
                                breakpoint(debugger::Breakpoint::Target::kNode, denseName + "/MatMul"),
                                breakpoint(debugger::Breakpoint::Target::kAnyNode, "")};
        editor->setDebuggerSettings(settings);
        QCOMPARE(mark(input), Mark::kDisabled);
        QCOMPARE(mark(dense), Mark::kEnabled);
        QCOMPARE(mark(relu), Mark::kNone); // "any" applies everywhere and marks nothing
        settings.breakpoints[0].enabled = true;
        editor->setDebuggerSettings(settings);
        QCOMPARE(mark(input), Mark::kEnabled);

        // Renaming a node moves it out of its node breakpoint's reach; undo brings it back.
        settings.breakpoints = {breakpoint(debugger::Breakpoint::Target::kNode, "Relu")};
        editor->setDebuggerSettings(settings);
        QCOMPARE(mark(relu), Mark::kEnabled);
        editor->document()->undoStack()->push(RenameCommand::create(editor->document(), relu, "act")->release());
        QCOMPARE(mark(relu), Mark::kNone);
        editor->document()->undoStack()->undo();
        QCOMPARE(mark(relu), Mark::kEnabled);
        editor->setDebuggerSettings({});
        QCOMPARE(mark(relu), Mark::kNone);
    }

    void ctrlYRedoes()
    {
        auto editor = shownEditor();
        QUndoStack* stack = editor->document()->undoStack();
        editor->addNode("op:Placeholder", QPointF(0, 0));
        QCOMPARE(editor->document()->nodeCount(), std::size_t(1));
        stack->undo();
        QCOMPARE(editor->document()->nodeCount(), std::size_t(0));
        editor->view()->setFocus();
        QTest::keyClick(editor->view(), Qt::Key_Y, Qt::ControlModifier);
        QCOMPARE(editor->document()->nodeCount(), std::size_t(1));
        // The platform's Redo still works, and the Edit menu (the editor's actions) shows Ctrl+Y.
        stack->undo();
        QTest::keyClick(editor->view(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(editor->document()->nodeCount(), std::size_t(1));
        QAction* redo = nullptr;
        for (QAction* action : editor->actions())
            if (action->text() == QStringLiteral("Redo"))
                redo = action;
        QVERIFY(redo);
        QCOMPARE(redo->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Y));
    }
};

} // namespace

QTEST_MAIN(TestEditorCanvas)
#include "test_editor_canvas.moc"
