// Every change that Save writes marks the editor's document modified, and undo back to the saved
// state clears the mark (issue #51, point 6): collapsing and expanding scopes as much as edits.
#include "document/document_commands.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_scene.h"
#include "node_editor/node_editor_view.h"
#include "node_editor/node_item.h"
#include "node_editor/scope_frame_item.h"
#include "registries/default_registries.h"

#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <map>

using namespace tstudio;
using namespace tstudio::node_editor;

namespace {

/// The spirals example: a project (so it saves as one) of 81 ops in name scopes, "dense", "dense_1",
/// ..., enough to open with every scope collapsed.
const QString kSpirals = QStringLiteral(TSTUDIO_SOURCE_DIR "/examples/projects/spirals.tsproj");

std::map<DocNodeId, QPointF> positions(const GraphDocument& doc)
{
    std::map<DocNodeId, QPointF> all;
    for (DocNodeId id : doc.nodes())
        all[id] = doc.node(id)->position;
    return all;
}

} // namespace

class TestEditorModified : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    /// Expanding a scope with the mouse, collapsing one, expanding all and showing a hidden node each
    /// mark the document modified (what the tab's '*' and the close prompt follow) in one undo step;
    /// undo back to the saved state clears the mark and puts every scope and node back.
    void collapsingIsAnUnsavedChange()
    {
        NodeEditor editor(m_registries.get());
        editor.resize(1280, 800);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        const Status loaded = editor.openFile(kSpirals);
        QVERIFY2(loaded.isOk(), loaded.toString().c_str());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("spirals.tsproj"));
        const Status saved = editor.saveAs(path);
        QVERIFY2(saved.isOk(), saved.toString().c_str());
        NodeEditorScene* scene = editor.scene();
        GraphDocument* doc = editor.document();
        QUndoStack* stack = doc->undoStack();
        QVERIFY(!editor.isModified());
        const auto scopes = scene->scopes();
        const std::set<std::string> all(scopes.begin(), scopes.end());
        QVERIFY(all.count("dense") && all.count("dense_1"));
        QCOMPARE(scene->collapsedScopes(), all); // opened with every scope collapsed
        std::set<std::string> allBut1 = all;
        allBut1.erase("dense_1");
        const auto savedPlaces = positions(*doc);
        // The main window marks the tab when titleChanged comes: record the mark it would show.
        std::vector<bool> marks;
        connect(&editor, &NodeEditor::titleChanged, this, [&] { marks.push_back(editor.isModified()); });

        // A double-click on the header expands the scope, as the arrow does.
        ScopeFrameItem* frame = scene->frame("dense_1");
        QVERIFY(frame && frame->isVisible());
        editor.view()->ensureVisible(frame->sceneRect());
        const QPointF header = frame->headerRect().translated(frame->pos()).center() + QPointF(20, 0);
        const QPoint onHeader = editor.view()->mapFromScene(header);
        QTest::mouseDClick(editor.view()->viewport(), Qt::LeftButton, {}, onHeader);
        QTest::mouseRelease(editor.view()->viewport(), Qt::LeftButton, {}, onHeader); // QTest's double-click ends pressed
        QTRY_VERIFY(!scene->isScopeCollapsed("dense_1"));
        QVERIFY(scene->nodeItem(doc->findByName("dense_1/MatMul"))->isVisible());
        QVERIFY(editor.isModified());
        QVERIFY(!marks.empty() && marks.back());
        QCOMPARE(stack->count(), 1);
        QCOMPARE(stack->undoText(), QStringLiteral("Expand 'dense_1'"));

        // Undo: collapsed again, every node where it was saved (the graph is laid out again when a
        // scope opens, in the same step), and no mark.
        stack->undo();
        QCOMPARE(scene->collapsedScopes(), all);
        QVERIFY(!scene->nodeItem(doc->findByName("dense_1/MatMul"))->isVisible());
        QCOMPARE(positions(*doc), savedPlaces);
        QVERIFY(!editor.isModified());
        QVERIFY(!marks.back());
        stack->redo();
        QCOMPARE(scene->collapsedScopes(), allBut1);
        QVERIFY(scene->nodeItem(doc->findByName("dense_1/MatMul"))->isVisible());
        QVERIFY(editor.isModified() && marks.back());

        // Saved with dense_1 open: collapsing it is the change now, and its undo the way back.
        QVERIFY(editor.saveAs(path).isOk());
        QVERIFY(!editor.isModified());
        const auto openPlaces = positions(*doc);
        scene->setScopeCollapsed("dense_1", true);
        QVERIFY(editor.isModified() && marks.back());
        QCOMPARE(stack->undoText(), QStringLiteral("Collapse 'dense_1'"));
        stack->undo();
        QCOMPARE(scene->collapsedScopes(), allBut1);
        QCOMPARE(positions(*doc), openPlaces);
        QVERIFY(!editor.isModified() && !marks.back());

        // Expand all (Edit menu): one step, with the re-arrangement.
        const int steps = stack->index();
        editor.collapseAllScopes(false);
        QVERIFY(scene->collapsedScopes().empty());
        QVERIFY(editor.isModified() && marks.back());
        QCOMPARE(stack->index(), steps + 1);
        stack->undo();
        QCOMPARE(scene->collapsedScopes(), allBut1);
        QCOMPARE(positions(*doc), openPlaces);
        QVERIFY(!editor.isModified() && !marks.back());

        // Showing a node hidden in a collapsed scope (a problem's link) expands it: a change too.
        QVERIFY(editor.showNode(QStringLiteral("dense/MatMul")));
        QVERIFY(!scene->isScopeCollapsed("dense"));
        QVERIFY(editor.isModified() && marks.back());
        stack->undo();
        QVERIFY(scene->isScopeCollapsed("dense"));
        QCOMPARE(positions(*doc), openPlaces);
        QVERIFY(!editor.isModified() && !marks.back());

        // What was saved last is what reopens: dense_1 open, the rest collapsed.
        NodeEditor reopened(m_registries.get());
        QVERIFY(reopened.openFile(path).isOk());
        QCOMPARE(reopened.scene()->collapsedScopes(), allBut1);
        QVERIFY(!reopened.isModified());
    }

    /// The other changes Save writes: a move, a rename, an attr (undo back clears the mark), a
    /// breakpoint (F9) and a watch (kept until saved).
    void editsAndDebuggerSettingsMarkTheDocument()
    {
        NodeEditor editor(m_registries.get());
        const Status loaded = editor.openFile(kSpirals);
        QVERIFY2(loaded.isOk(), loaded.toString().c_str());
        GraphDocument* doc = editor.document();
        QUndoStack* stack = doc->undoStack();
        QVERIFY(!editor.isModified());
        DocNodeId x = kNoNode; // a placeholder outside the collapsed scopes (it is selected below)
        for (DocNodeId id : doc->nodes())
            if (x == kNoNode && editor.scene()->hidingScope(id).empty() && doc->node(id)->type == "Placeholder")
                x = id;
        QVERIFY(x != kNoNode);
        const std::string name = doc->node(x)->name;

        doc->undoStack()->push(MoveNodesCommand::create(doc, {{x, doc->node(x)->position + QPointF(40, 20)}})->release());
        QVERIFY(editor.isModified());
        stack->undo();
        QVERIFY(!editor.isModified());

        doc->undoStack()->push(RenameCommand::create(doc, x, name + "_renamed")->release());
        QVERIFY(editor.isModified());
        stack->undo();
        QVERIFY(!editor.isModified());

        tensorflow::AttrValue anyShape;
        anyShape.mutable_shape()->set_unknown_rank(true);
        doc->undoStack()->push(SetAttrCommand::create(doc, x, "shape", anyShape)->release());
        QVERIFY(editor.isModified());
        stack->undo();
        QVERIFY(!editor.isModified());

        const std::size_t breakpoints = editor.scene()->breakpoints().size();
        editor.scene()->clearSelection();
        editor.scene()->nodeItem(x)->setSelected(true);
        editor.toggleBreakpointsOnSelection();
        QCOMPARE(editor.scene()->breakpoints().size(), breakpoints + 1);
        QVERIFY(editor.isModified());
        QTemporaryDir dir;
        QVERIFY(editor.saveAs(dir.filePath(QStringLiteral("debugged.tsproj"))).isOk());
        QVERIFY(!editor.isModified());

        project::DebuggerSettings debugging = editor.project()->debugger;
        debugging.watch.push_back(name + ":0");
        editor.setDebuggerSettings(debugging);
        QVERIFY(editor.isModified());
    }
};

QTEST_MAIN(TestEditorModified)
#include "test_editor_modified.moc"
