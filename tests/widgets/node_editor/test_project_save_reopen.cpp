// Save -> close -> reopen in the node editor (issue #51): every example project, opened and saved as
// a new .tsproj with breakpoints, watches, collapsed and expanded scopes and moved nodes, reopens
// with exactly that state and is saved again byte for byte.
#include "document/document_commands.h"
#include "io/atomic_file.h"
#include "node_editor/document_project.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_scene.h"
#include "node_editor/node_item.h"
#include "node_editor/scope_frame_item.h"
#include "registries/default_registries.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <filesystem>

using namespace tstudio;
using namespace tstudio::node_editor;

namespace {

/// Every .tsproj of examples/projects, sorted (globbed: a new example is tested too).
QStringList exampleProjects()
{
    QStringList out;
    const auto dir = std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects";
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".tsproj")
            out << QString::fromStdString(entry.path().string());
    out.sort();
    return out;
}

std::string fileText(const QString& path)
{
    auto text = readWholeFile(path.toStdString(), 64 << 20);
    return text ? *text : std::string("(unreadable: " + text.error().message() + ")");
}

/// Breakpoints of every kind the debugger reads, some disabled.
std::vector<debugger::Breakpoint> someBreakpoints(const GraphDocument& doc)
{
    std::vector<std::string> texts = {"op:MatMul", "regex:^dense/", "any if has_inf_or_nan",
                                      "op:Softmax if max >= 0.5", "op:Add if iteration == 2"};
    if (!doc.nodes().empty())
        texts.push_back("node:" + doc.node(doc.nodes().front())->name);
    std::vector<debugger::Breakpoint> out;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        auto b = debugger::parseBreakpoint(texts[i]);
        if (!b)
            qFatal("%s", b.error().toString().c_str());
        b->enabled = i % 2 == 0;
        out.push_back(*b);
    }
    return out;
}

/// Visible expanded frames that overlap without one holding the other: frames piled on each other.
int piledFrames(const NodeEditorScene& scene)
{
    std::vector<const ScopeFrameItem*> frames;
    for (const std::string& scope : scene.scopes())
        if (const ScopeFrameItem* f = scene.frame(scope); f && f->isVisible())
            frames.push_back(f);
    const auto nested = [](const std::string& a, const std::string& b) {
        return a.size() < b.size() && b.compare(0, a.size(), a) == 0 && b[a.size()] == '/';
    };
    int count = 0;
    for (std::size_t i = 0; i < frames.size(); ++i)
        for (std::size_t j = i + 1; j < frames.size(); ++j) {
            const std::string& a = frames[i]->scope();
            const std::string& b = frames[j]->scope();
            if (nested(a, b) || nested(b, a))
                continue;
            if (frames[i]->sceneRect().adjusted(2, 2, -2, -2).intersects(frames[j]->sceneRect().adjusted(2, 2, -2, -2)))
                ++count;
        }
    return count;
}

/// The view the user sees after reopening equals the one saved: the same nodes at the same places,
/// the same collapsed scopes, every frame in the same place, the same project. Empty when it does.
std::string sameState(NodeEditor& saved, NodeEditor& reopened)
{
    saved.scene()->updateFrames();
    reopened.scene()->updateFrames();
    const GraphDocument& a = *saved.document();
    const GraphDocument& b = *reopened.document();
    if (a.nodeCount() != b.nodeCount() || a.connections().size() != b.connections().size())
        return "node or connection count differs";
    for (DocNodeId id : a.nodes()) {
        const DocNode* n = a.node(id);
        const DocNode* m = b.node(b.findByName(n->name));
        if (!m)
            return "node '" + n->name + "' is missing";
        if (m->kind != n->kind || m->type != n->type)
            return "node '" + n->name + "' changed kind or type";
        if (m->position != n->position)
            return "node '" + n->name + "' moved";
    }
    std::set<std::string> collapsed;
    const auto scopes = saved.scene()->scopes();
    for (const std::string& scope : saved.scene()->collapsedScopes())
        if (std::find(scopes.begin(), scopes.end(), scope) != scopes.end())
            collapsed.insert(scope);
    if (reopened.scene()->collapsedScopes() != collapsed)
        return "the collapsed scopes differ";
    if (reopened.scene()->scopes() != scopes)
        return "the scopes differ";
    for (const std::string& scope : scopes) {
        const ScopeFrameItem* x = saved.scene()->frame(scope);
        const ScopeFrameItem* y = reopened.scene()->frame(scope);
        if (!x || !y || x->sceneRect() != y->sceneRect() || x->isVisible() != y->isVisible() ||
            x->isCollapsed() != y->isCollapsed())
            return "frame '" + scope + "' is not where it was";
    }
    if (!saved.project() || !reopened.project() || !(*saved.project() == *reopened.project()))
        return "the project differs";
    if (reopened.isModified())
        return "reopened as modified";
    return {};
}

} // namespace

class TestProjectSaveReopen : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

    /// Opens `example`, applies the edits of `mask`, saves it as `path`, reopens it, compares, saves
    /// it again over itself and compares the bytes. Empty when all holds.
    std::string roundTrip(const QString& example, unsigned mask, const QString& path)
    {
        NodeEditor editor(m_registries.get());
        if (Status s = editor.openFile(example); !s.isOk())
            return "opening the example: " + s.toString();
        editor.refreshFeedback();
        GraphDocument* doc = editor.document();
        if (mask & 1u) { // breakpoints, no watch (what issue #51 could not reopen)
            project::DebuggerSettings debugging;
            debugging.breakpoints = someBreakpoints(*doc);
            editor.setDebuggerSettings(debugging);
        }
        if (mask & 2u) { // watches too
            project::DebuggerSettings debugging = editor.project()->debugger;
            debugging.watch = {doc->node(doc->nodes().back())->name + ":0"};
            editor.setDebuggerSettings(debugging);
        }
        if (mask & 4u) { // every other scope the other way round: some collapsed, some expanded
            editor.scene()->updateFrames();
            const auto scopes = editor.scene()->scopes();
            for (std::size_t i = 0; i < scopes.size(); i += 2)
                editor.scene()->setScopeCollapsed(scopes[i], !editor.scene()->isScopeCollapsed(scopes[i]));
        }
        if (mask & 8u) { // a node moved by hand
            const DocNodeId id = doc->nodes().front();
            auto move = MoveNodesCommand::create(doc, {{id, doc->node(id)->position + QPointF(140, -60)}});
            if (!move)
                return "moving: " + move.error().toString();
            doc->undoStack()->push(move->release());
        }
        if (Status s = editor.saveAs(path); !s.isOk())
            return "saving: " + s.toString();
        const std::string first = fileText(path);

        NodeEditor reopened(m_registries.get());
        if (Status s = reopened.openFile(path); !s.isOk())
            return "reopening: " + s.toString();
        if (std::string problem = sameState(editor, reopened); !problem.empty())
            return problem;
        if (piledFrames(*reopened.scene()) != piledFrames(*editor.scene()))
            return "frames pile on each other after reopening";
        if (auto trained = reopened.trainingProject(); !trained)
            return "the reopened project does not train: " + trained.error().toString();
        if (Status s = reopened.saveAs(path); !s.isOk())
            return "saving again: " + s.toString();
        const std::string second = fileText(path);
        if (first != second)
            return "the second save differs from the first:\n" + first + "\n---\n" + second;
        return {};
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
        QVERIFY(exampleProjects().size() >= 5);
    }

    /// Every example, Save As a new project in a temporary folder, with every combination of
    /// breakpoints, watches, flipped scopes and a moved node.
    void everyExampleEveryEdit()
    {
        QTemporaryDir dir;
        for (const QString& example : exampleProjects())
            for (unsigned mask = 0; mask < 16; ++mask) {
                const QString path =
                    dir.filePath(QFileInfo(example).completeBaseName() + QStringLiteral("-%1.tsproj").arg(mask));
                const std::string problem = roundTrip(example, mask, path);
                QVERIFY2(problem.empty(), (QFileInfo(path).fileName().toStdString() + ": " + problem).c_str());
            }
    }

    /// The example as opened (laid out, large graphs with their scopes collapsed) reopens with the
    /// same scopes collapsed and no frames piled on each other; expanding a scope still lays the
    /// graph out again, as before saving.
    void saveAsOfAnExampleKeepsItsLayout()
    {
        QTemporaryDir dir;
        bool sawCollapsed = false;
        for (const QString& example : exampleProjects()) {
            NodeEditor editor(m_registries.get());
            QVERIFY(editor.openFile(example).isOk());
            const QString path = dir.filePath(QFileInfo(example).fileName());
            QVERIFY(editor.saveAs(path).isOk());
            NodeEditor reopened(m_registries.get());
            QVERIFY(reopened.openFile(path).isOk());
            reopened.scene()->updateFrames();
            QCOMPARE(piledFrames(*reopened.scene()), 0);
            QCOMPARE(reopened.scene()->collapsedScopes(), editor.scene()->collapsedScopes());
            if (reopened.scene()->collapsedScopes().empty())
                continue;
            sawCollapsed = true;
            // Still the automatic layout: expanding a scope makes room for it.
            const std::string scope = *reopened.scene()->collapsedScopes().begin();
            reopened.scene()->setScopeCollapsed(scope, false);
            reopened.scene()->updateFrames();
            QCOMPARE(piledFrames(*reopened.scene()), 0);
        }
        QVERIFY2(sawCollapsed, "no example opens with collapsed scopes; the test needs one with more than 40 nodes");
    }

    /// A document made in the editor: a scope made with Group, collapsed; reopened the same.
    void groupedDocument()
    {
        NodeEditor editor(m_registries.get());
        const DocNodeId x = editor.addNode("layer:Input", QPointF(20, 40));
        const DocNodeId y = editor.addNode("layer:Input", QPointF(20, 240));
        const DocNodeId dense = editor.addNode("layer:Dense", QPointF(300, 60));
        const DocNodeId out = editor.addNode("layer:Dense", QPointF(560, 60));
        const DocNodeId loss = editor.addNode("layer:MeanSquaredError", QPointF(820, 120));
        const DocNodeId train = editor.addNode("layer:Adam", QPointF(1080, 120));
        QVERIFY(x && y && dense && out && loss && train);
        GraphDocument* doc = editor.document();
        tensorflow::AttrValue shape, one;
        shape.mutable_shape()->add_dim()->set_size(-1);
        shape.mutable_shape()->add_dim()->set_size(1);
        one.set_i(1);
        for (const DocNodeId input : {x, y})
            doc->undoStack()->push(SetAttrCommand::create(doc, input, "shape", shape)->release());
        doc->undoStack()->push(SetAttrCommand::create(doc, out, "units", one)->release());
        QCOMPARE(editor.scene()->connectPorts(x, 0, dense, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(dense, 0, out, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(y, 0, loss, 0), QString());
        QCOMPARE(editor.scene()->connectPorts(out, 0, loss, 1), QString());
        QCOMPARE(editor.scene()->connectPorts(loss, 0, train, 0), QString());
        editor.scene()->clearSelection();
        editor.scene()->nodeItem(dense)->setSelected(true);
        editor.scene()->nodeItem(out)->setSelected(true);
        editor.groupSelection(QStringLiteral("model"));
        editor.scene()->updateFrames();
        QVERIFY(editor.scene()->frame("model"));
        editor.scene()->setScopeCollapsed("model", true);
        project::DebuggerSettings debugging;
        debugging.breakpoints = someBreakpoints(*editor.document());
        editor.setDebuggerSettings(debugging);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("grouped.tsproj"));
        const Status saved = editor.saveAs(path);
        QVERIFY2(saved.isOk(), saved.toString().c_str());
        NodeEditor reopened(m_registries.get());
        const Status opened = reopened.openFile(path);
        QVERIFY2(opened.isOk(), opened.toString().c_str());
        const std::string problem = sameState(editor, reopened);
        QVERIFY2(problem.empty(), problem.c_str());
        QCOMPARE(reopened.scene()->collapsedScopes(), std::set<std::string>{"model"});
        QCOMPARE(reopened.project()->debugger.breakpoints, debugging.breakpoints);
    }
};

QTEST_MAIN(TestProjectSaveReopen)
#include "test_project_save_reopen.moc"
