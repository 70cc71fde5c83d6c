// NodeEditor: the document tab for composing a graph: palette, canvas, attributes, problems and history.
#pragma once

#include "document/graph_document.h"
#include "node_editor/document_file.h"
#include "node_editor/node_editor_scene.h"
#include "project/format/project_file.h"

#include <QString>
#include <QWidget>

#include <functional>
#include <map>
#include <memory>
#include <optional>

class QAction;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTabWidget;
class QTimer;
class QToolBar;
class QUndoView;

namespace tstudio {
class CanvasOverlays;
class EmptyState;
struct Registries;
}

namespace tstudio::node_editor {

class AttrEditor;
class InteractiveSession;
struct GraphImport;
class NodeEditorMinimap;
class NodeEditorView;
class NodePalette;
class SourcePreviewView;

/// Every edit goes through the document's undo stack; after each, live feedback (the document built into
/// the engine's graph, then shape inference) runs after a short pause and marks shapes and problems.
class NodeEditor : public QWidget {
    Q_OBJECT
public:
    explicit NodeEditor(const Registries* registries, QWidget* parent = nullptr);
    ~NodeEditor() override;

    GraphDocument* document() const { return m_document; }
    /// The document's interactive session (tf.InteractiveSession), shared by Evaluate… and the Session
    /// console; nullptr without registries. Loading another graph into the editor closes it.
    InteractiveSession* interactiveSession() const { return m_session.get(); }
    NodeEditorScene* scene() const { return m_scene; }
    NodeEditorView* view() const { return m_view; }
    NodePalette* palette() const { return m_palette; }
    AttrEditor* attrEditor() const { return m_attrs; }
    QListWidget* problemsList() const { return m_problems; }

    /// Adds a node ("layer:Dense", "op:MatMul") at a scene position with a fresh TF-style name; its id, or
    /// kNoNode with the reason shown.
    DocNodeId addNode(const QString& kindAndType, QPointF scenePos);
    /// tf.import_graph_def of `graph` into the document (Edit ▸ Import Graph…): its nodes pasted under
    /// the request's name scope, collapsed, with mapped placeholders' consumers wired to document
    /// tensors, then the whole graph laid out, as one undo step. Errors are importIntoDocument's.
    Status importGraph(const tensorflow::GraphDef& graph, const GraphImport& request);
    /// Edit ▸ Import Graph…: a file chosen, read on a worker, then ImportGraphDialog and importGraph.
    void importGraphFromFile();
    /// Replaces the document with a GraphDef's nodes, laid out automatically (the graph viewer's layout).
    Status loadGraphDef(const tensorflow::GraphDef& graph, const QString& title);
    /// Opens a graph file (.pb, .pbtxt, .meta, a SavedModel) or a project (.tsproj), reading it on this
    /// thread: readDocumentFile, then showDocumentFile. Errors name the file. The main window reads on a
    /// worker instead (showReading, readDocumentFile there, showDocumentFile here).
    Status openFile(const QString& path);
    /// Says in the status line that `path` is being read.
    void showReading(const QString& path);
    /// Shows what readDocumentFile read from `path` as this editor's document: a graph laid out
    /// automatically; a project with its layer nodes and node positions when the editor state saved in
    /// it still describes its graph, else its graph laid out automatically (the reason shown), the
    /// scopes saved collapsed collapsed again (EditorView).
    Status showDocumentFile(DocumentFile file, const QString& path);
    /// Saves as .pbtxt, .pb or .meta (with variables, collections and a saver), or as a project
    /// (.tsproj: the graph, the node positions and layer nodes, the collapsed scopes, training and
    /// data; see document_project.h), chosen by the extension.
    Status saveAs(const QString& path);
    /// The project the document belongs to (opened from or saved as), if any.
    const std::optional<project::Project>& project() const { return m_project; }
    /// The project to train: the document in its project (else in a new one named after the file).
    /// Errors: documentProject's (no optimizer node, a node that does not build, ...).
    Expected<project::Project> trainingProject() const;
    QString filePath() const { return m_path; }
    /// True when the document is best saved as a project (.tsproj): it belongs to one, or it holds
    /// an optimizer or a data-source node, whose training and data only a project keeps.
    bool suggestsProject() const;
    bool isModified() const;
    /// The debugger's breakpoints and watches for this graph: kept in its project (one is made
    /// when there is none) and written with it by the next save as .tsproj.
    void setDebuggerSettings(project::DebuggerSettings settings);
    /// The breakpoints and watches of the document's project (none without a project).
    project::DebuggerSettings debuggerSettings() const;
    /// The Training panel's form edits (steps, device, log directory, data folder) applied to the
    /// document's project (one is made, as for setDebuggerSettings, when it has none), so that the
    /// next save as .tsproj writes what the panel trains. The document counts as modified when one
    /// of those four changed.
    void editProjectSettings(const std::function<void(project::Project&)>& edit);
    /// F9: a breakpoint on each selected node is removed when it has one, else added (an op node:
    /// "node:NAME"; a layer node, whose ops lie in its scope: "regex:^NAME/"). Emits breakpointsEdited.
    void toggleBreakpointsOnSelection();
    /// "Add summaries" (Edit menu): turns the param "summaries" on for each selected layer node that
    /// takes it (layers::takesLayerSummaries: Dense, Conv2D, BatchNorm), one undo step for all; the
    /// layer's expansion then adds the tutorials' variable_summaries of its weights, biases and
    /// activations (layers/summary_nodes.h). Says in the status line when no selected node takes it.
    void addSummariesToSelection();

    /// Lays the document out with the graph viewer's hierarchical layout (one undoable move): name
    /// scopes as groups, a collapsed scope as one box whose nodes move with it.
    void autoArrange();
    /// Collapses (or expands) every name scope and lays the graph out again, as one undo step.
    void collapseAllScopes(bool collapse);
    /// Documents with more nodes than this open with their name scopes collapsed.
    static constexpr std::size_t kCollapseScopesAbove = 40;
    void deleteSelection();
    void copySelection();
    void paste();
    void duplicateSelection();
    /// Puts the selected nodes into a name scope (asks for its name when `scope` is empty).
    void groupSelection(const QString& scope = {});
    void alignSelection(Qt::Alignment edge);

    /// Selects and centres the node called `name`, or the layer node whose ops it names ("dense" for
    /// "dense/MatMul"); false when the document has neither.
    bool showNode(const QString& name);

    /// Runs live feedback now instead of after the pause (tests, screenshots).
    void refreshFeedback();
    /// The last inference's time in milliseconds.
    double feedbackMilliseconds() const { return m_feedbackMs; }

    /// Emits viewRequested with the document as built (what the file would hold), when it builds.
    void viewInGraphViewer();
    /// The ops layer node `id` expands into (its name scope in the built graph); empty when it does not build.
    tensorflow::GraphDef layerOps(DocNodeId id) const;
    /// Emits viewRequested with layerOps(id) (double-click on a layer node).
    void openLayer(DocNodeId id);

signals:
    void titleChanged(const QString& title);
    /// "View in graph viewer": the document's graph to show in a viewer tab.
    void viewRequested(const tensorflow::GraphDef& graph, const QString& title);
    void message(const QString& text);
    /// The project's breakpoints changed here (F9); a debugger attached to this graph takes them.
    void breakpointsEdited();
    /// "Train" (F5): the main window trains trainingProject() in its Training panel.
    void trainRequested();
    /// "Run on Several Processes…": the main window opens the Training panel's mpirun dialog.
    void trainDistributedRequested();
    /// "Open in Projector" on an Embedding layer: its variable ("<node>/embeddings") to show from the
    /// project's checkpoints in the dashboard's Projector tab.
    void projectorRequested(const QString& variable);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void buildUi();
    void createActions();
    void retranslateUi();
    void showSelection();
    /// The selected Embedding layer's variable as projectorRequested; a status line otherwise.
    void openSelectionInProjector();
    void scheduleFeedback();
    void applyAttr(const QString& name, const tensorflow::AttrValue& value);
    void showQuickAdd(QPoint globalPos, QPointF scenePos, const QString& text);
    QString defaultName(const QString& kind, const QString& type) const;
    void updateUndoToolTips();
    /// The palette's entries: layer types (categories and descriptions translated), then raw ops.
    void fillPalette();
    /// The data preview under the attributes, for a selected data-source node.
    void updatePreview();
    /// The nearest place to `wanted` (scene coordinates) where a new node overlaps no node.
    QPointF freePlaceNear(QPointF wanted) const;
    /// autoArrange's layout, as one undoable move (inside the step of a scope being expanded or
    /// collapsed when the graph is laid out automatically).
    void arrange();
    /// Collapses every name scope of an opened graph with more than kCollapseScopesAbove nodes.
    void collapseLargeGraph();

    const Registries* m_registries;
    GraphDocument* m_document;
    std::unique_ptr<InteractiveSession> m_session;
    NodeEditorScene* m_scene;
    NodeEditorView* m_view = nullptr;
    EmptyState* m_empty = nullptr; ///< on the canvas while the graph has no node (clicks and drops pass through)
    NodeEditorMinimap* m_minimap = nullptr;
    CanvasOverlays* m_overlays = nullptr;
    QAction* m_minimapAction = nullptr;
    NodePalette* m_palette = nullptr;
    AttrEditor* m_attrs = nullptr;
    SourcePreviewView* m_preview = nullptr;
    QLineEdit* m_nameEdit = nullptr;
    QLabel* m_selectionTitle = nullptr;
    QPushButton* m_projectorButton = nullptr;
    QListWidget* m_problems = nullptr;
    QUndoView* m_history = nullptr;
    QTabWidget* m_side = nullptr;
    QToolBar* m_toolBar = nullptr;
    QTimer* m_feedbackTimer = nullptr;
    QLabel* m_status = nullptr;
    QString m_path;
    std::optional<project::Project> m_project;
    bool m_debuggerSettingsChanged = false; ///< since the last save
    bool m_runSettingsChanged = false;      ///< editProjectSettings changed the project since the last save
    bool m_fitWhenShown = false; ///< a graph was opened: fit it once the tab is shown at its size
    bool m_autoLayout = false;   ///< the positions are the last arrange()'s (no hand moves since)
    double m_feedbackMs = 0;
    std::map<QString, QAction*> m_actions;
};

} // namespace tstudio::node_editor
