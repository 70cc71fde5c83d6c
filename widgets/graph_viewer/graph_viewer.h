// GraphViewer: a document tab showing one graph: loading with progress, the canvas, find, colouring, inspection.
#pragma once

#include "graph_viewer/graph_canvas.h"
#include "graph_viewer/graph_colouring.h"
#include "graph_viewer/graph_facts.h"
#include "graph_viewer/graph_loader.h"
#include "graph_viewer/graph_search.h"
#include "graph_viewer/graph_view_layout.h"
#include "graph_viewer/run_stats.h"

#include <QFutureWatcher>
#include <QSet>
#include <QString>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTimer;
class QToolBar;
class QToolButton;

namespace tstudio {
class CanvasOverlays;
class EmptyState;
struct Registries;
}

namespace tstudio::graph_viewer {

class CheckpointVariablesView;
class MetaGraphView;
class GraphMinimap;
class GraphViewLayout;
class NodePropertiesPanel;
class SignaturesView;

/// Everything happens off the GUI thread except painting: the file is read and its hierarchy built on a
/// worker, then the first (collapsed) layout; node facts (shapes, problems, placement) follow on a second
/// worker; every expand or collapse is laid out on a worker that owns the GraphViewLayout, one job at a
/// time, the GUI showing the last finished snapshot meanwhile.
class GraphViewer : public QWidget {
    Q_OBJECT
public:
    /// `registries` (may be null) gives op documentation, categories, kernels and placement; must outlive
    /// the viewer.
    explicit GraphViewer(const Registries* registries, QWidget* parent = nullptr);
    ~GraphViewer() override;

    /// Starts loading `path`; `choice` picks a MetaGraph or event graph (see GraphLoadRequest).
    /// `report`, when given, is what the caller already detected at `path`: it is kept, and neither
    /// this load nor a later choice sniffs the file again.
    void open(const QString& path, int choice = -1, std::optional<FileKindReport> report = std::nullopt);
    /// Shows a graph already in memory (the node editor's document, a dashboard run's graph), with
    /// the RunMetadata recorded beside it when there is any.
    void showGraph(tensorflow::GraphDef graph, const QString& title,
                   std::vector<events::EventRunMetadataRecord> runMetadata = {});
    /// Cancels loading; the tab then shows that it was cancelled.
    void cancelLoading();

    bool isLoading() const;
    /// True once the first layout is shown; false while loading or after an error.
    bool isReady() const { return m_ready; }
    /// Facts (shapes, problems) are computed after the first view; true once they are in.
    bool factsReady() const { return m_factsReady; }
    QString errorText() const { return m_errorText; }
    QString path() const { return m_path; }

    const GraphHierarchy* hierarchy() const { return m_loaded ? m_loaded->hierarchy.get() : nullptr; }
    const tensorflow::GraphDef* graph() const { return m_loaded ? m_loaded->graph.get() : nullptr; }
    /// The graph the hierarchy indexes: graph() followed by the function library's nodes (see LoadedGraph).
    const tensorflow::GraphDef* viewGraph() const { return m_loaded ? m_loaded->viewGraph.get() : nullptr; }
    /// The function library: functions, calls, callers (null before the first view).
    const FunctionLibraryView* functions() const { return m_loaded ? m_loaded->functions.get() : nullptr; }
    GraphCanvas* canvas() const { return m_canvas; }
    NodePropertiesPanel* properties() const { return m_properties; }
    QListWidget* problemsList() const { return m_problems; }
    CheckpointVariablesView* checkpointView() const { return m_checkpoint; }
    /// The "MetaGraph" tab of a .meta file or SavedModel (null for other files).
    MetaGraphView* metaGraphView() const { return m_metaGraph; }
    /// The "Signatures" tab of a SavedModel (null for other files).
    SignaturesView* signaturesView() const { return m_signatures; }

    /// Expands or collapses a group; the layout follows asynchronously (layoutFinished).
    void setExpanded(int node, bool expanded);
    void setDirection(LayoutDirection direction);
    /// A layout job is running or queued.
    bool layoutPending() const { return m_layoutRunning || !m_pendingChanges.empty() || m_focusAfterLayout >= 0; }
    void setColourMode(ColourMode mode);
    ColourMode colourMode() const { return m_colourMode; }
    /// The fills and values currently drawn (null before the first view).
    const GraphColouring* colouring() const { return m_colouring.get(); }
    /// Compute time and memory for colouring, from a run in this IDE or a RunMetadata record.
    void setRunStats(const QString& label, RunStats stats);

    /// Selects a node by hierarchy id, expanding its ancestors when needed and bringing it into view.
    void selectNode(int node);
    /// Selects the op with this GraphDef name (see selectNode); a name that is also a scope selects the op, not
    /// the scope. A node drawn as an embedding (a constant on its consumer) selects the op it is drawn on and
    /// shows the embedded node's properties. Else a hierarchy path (a scope). False when there is none.
    bool selectNodeNamed(const QString& name);
    /// Opens library function `name`: expands the "Functions" group and the function's own, selects it and
    /// brings it into view (the layout follows asynchronously). False when the library has no such function.
    bool openFunction(const QString& name);

    /// Runs a search and selects the first match; returns the number of matches (hierarchy ops).
    int find(const QString& query, SearchMode mode);
    void findNext();
    void findPrevious();
    int findMatchCount() const { return static_cast<int>(m_matches.size()); }
    int findCurrent() const { return m_matchIndex; }
    /// Highlights every ancestor of the selected op (or clears).
    void traceInputs(bool on);
    const std::vector<int>& tracedNodes() const { return m_traced; }

    /// Writes the whole current view (all expanded groups) as PNG or SVG, chosen by the extension.
    bool exportImage(const QString& file, QString* error = nullptr);

    /// The ops of hierarchy node `node` (a group: everything inside; -1: the whole graph) as a GraphDef, in
    /// GraphDef order; inputs from outside stay as they are (the editor reports them as unconnected).
    tensorflow::GraphDef subgraph(int node) const;
    /// Offers "Show in Timeline" (context menu, Ctrl+T) on ops while a profiler holds a trace.
    void setTimelineAvailable(bool available);
    QAction* showInTimelineAction() const { return m_timelineAction; }
    /// Emits editRequested for the selection (or the whole graph).
    void editSelection();
    /// The debugger's marks, by GraphDef name: the op a run is paused at (outlined, and so is the collapsed
    /// group holding it), the ops that ran (a small mark) and the ops with a breakpoint (a red dot; groups
    /// holding one, a red ring). Names the view does not draw (absent, embedded constants) are ignored. Empty
    /// arguments clear; the marks are kept when another graph is shown.
    void setDebugMarks(const QString& pausedNode, const QSet<QString>& executed, const QSet<QString>& breakpoints);
    /// "Toggle Breakpoint" (F9, and the context menu of ops): emits breakpointToggleRequested.
    QAction* toggleBreakpointAction() const { return m_breakpointAction; }

    /// Milliseconds from open() to the first collapsed view being ready.
    double firstViewMilliseconds() const { return m_firstViewMs; }

signals:
    /// The first view is shown (ok) or loading failed or was cancelled (!ok).
    void loaded(bool ok);
    void layoutFinished();
    void factsFinished();
    /// Title for the tab (file name, chosen MetaGraph).
    void titleChanged(const QString& title);
    /// "Edit in node editor": the selected name scope's ops (or the whole graph) as a GraphDef to edit.
    void editRequested(const tensorflow::GraphDef& graph, const QString& title);
    /// "Show in Timeline" on the selected op.
    void showInTimelineRequested(const QString& nodeName);
    /// "Toggle Breakpoint" on the selected op.
    void breakpointToggleRequested(const QString& nodeName);

protected:
    void changeEvent(QEvent* event) override;

private:
    struct LayoutJobResult;
    void buildUi();
    /// The pages shown instead of the graph: loading (stage, progress, Cancel) and the error.
    void buildLoadingAndErrorPages();
    /// The find bar (text, mode, previous/next, status, close) under the toolbar, hidden; F3 and
    /// Shift+F3 as shortcuts of the viewer.
    void buildFindBar();
    void retranslateUi();
    void startLoad(std::function<Expected<LoadedGraph>(const std::atomic<bool>*, std::atomic<int>*)> job);
    void installLoaded(LoadedGraph result, std::shared_ptr<GraphViewLayout> layout, std::shared_ptr<const LayoutSnapshot> snapshot);
    void showError(const QString& text);
    void startFacts();
    void requestLayout(std::function<void(GraphViewLayout&)> change);
    void startLayoutJob();
    void onSnapshot(std::shared_ptr<const LayoutSnapshot> snapshot);
    void recolour();
    void updateLegend();
    void updateStatusLabel();
    /// Keeps the legend and the minimap off the selected node.
    void keepSelectionClear();
    void onSelectionChanged(int node);
    void updateFindStatus();
    void revealMatch();
    void fillProblems();
    void chooseRunMetadata(int index);
    void exportWithDialog();
    void copySelectedName();
    void showContextMenu(int node, QPoint globalPos);
    QString outputDescription(int graphIndex, int output) const;
    QString describeEdge(int group, int edgeIndex) const;
    void updateActions();
    void applyDebugMarks();

    const Registries* m_registries;
    QString m_path;
    std::optional<FileKindReport> m_report; ///< the detection of m_path, once known
    QString m_title;
    int m_choice = -1;
    bool m_ready = false;
    bool m_factsReady = false;
    QString m_errorText;
    double m_firstViewMs = 0;

    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<std::atomic<int>> m_stage;
    QFutureWatcher<void>* m_loadWatcher = nullptr;
    QFutureWatcher<void>* m_factsWatcher = nullptr;
    QFutureWatcher<void>* m_layoutWatcher = nullptr;
    std::optional<LoadedGraph> m_loaded;
    std::shared_ptr<GraphViewLayout> m_layout;
    std::vector<std::function<void(GraphViewLayout&)>> m_pendingChanges;
    bool m_layoutRunning = false;
    int m_focusAfterLayout = -1;
    std::shared_ptr<const GraphFacts> m_facts;
    std::optional<RunStats> m_runStats;
    std::shared_ptr<const GraphColouring> m_colouring;
    QString m_runStatsLabel;
    ColourMode m_colourMode = ColourMode::kStructure;
    std::vector<int> m_matches;
    int m_matchIndex = -1;
    std::vector<int> m_traced;
    LayoutDirection m_direction = LayoutDirection::kTopToBottom;
    QString m_debugPaused;
    QSet<QString> m_debugExecuted;
    QSet<QString> m_debugBreakpoints;

    QStackedWidget* m_pages = nullptr;
    EmptyState* m_empty = nullptr; ///< over the pages before a graph is shown, and for a graph without nodes
    QWidget* m_loadingPage = nullptr;
    QLabel* m_loadingTitle = nullptr;
    QLabel* m_loadingStage = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QTimer* m_progressTimer = nullptr;
    QWidget* m_errorPage = nullptr;
    QLabel* m_errorLabel = nullptr;
    QWidget* m_viewPage = nullptr;
    QToolBar* m_toolBar = nullptr;
    QLabel* m_colourLabel = nullptr;
    QComboBox* m_colourCombo = nullptr;
    QLabel* m_stepLabel = nullptr;
    QComboBox* m_stepCombo = nullptr;
    QAction* m_stepLabelAction = nullptr;
    QAction* m_stepComboAction = nullptr;
    QLabel* m_choiceLabel = nullptr;
    QComboBox* m_choiceCombo = nullptr;
    QAction* m_choiceLabelAction = nullptr;
    QAction* m_choiceComboAction = nullptr;
    QAction* m_directionAction = nullptr;
    QAction* m_fitAction = nullptr;
    QAction* m_zoomSelectionAction = nullptr;
    QAction* m_traceAction = nullptr;
    QAction* m_collapseAllAction = nullptr;
    QAction* m_findAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_legendAction = nullptr;
    QAction* m_minimapAction = nullptr;
    CanvasOverlays* m_overlays = nullptr;
    QAction* m_copyNameAction = nullptr;
    QAction* m_editAction = nullptr;
    QAction* m_timelineAction = nullptr;
    QAction* m_breakpointAction = nullptr;
    QWidget* m_findBar = nullptr;
    QLineEdit* m_findEdit = nullptr;
    QComboBox* m_findMode = nullptr;
    QToolButton* m_findPrev = nullptr;
    QToolButton* m_findNext = nullptr;
    QLabel* m_findStatus = nullptr;
    QToolButton* m_findClose = nullptr;
    QSplitter* m_splitter = nullptr;
    GraphCanvas* m_canvas = nullptr;
    GraphMinimap* m_minimap = nullptr;
    QLabel* m_legend = nullptr;
    QLabel* m_statusLabel = nullptr;
    QTabWidget* m_side = nullptr;
    NodePropertiesPanel* m_properties = nullptr;
    QListWidget* m_problems = nullptr;
    CheckpointVariablesView* m_checkpoint = nullptr;
    MetaGraphView* m_metaGraph = nullptr;
    SignaturesView* m_signatures = nullptr;
    /// selectNodeNamed of an embedded node: once `host` is selected the panel shows `graphIndex` instead.
    struct EmbeddedSelection {
        int host = -1;
        int graphIndex = -1;
    } m_embeddedSelection;
};

/// Label width measurement for layout on worker threads: the average character width and line height of
/// the canvas font, measured once on the GUI thread.
struct LabelMetrics {
    double charWidth = 7.0;
    double boldCharWidth = 7.5;
};

/// The collapsed size of a hierarchy node as the canvas draws it.
LayoutSize collapsedNodeSize(const HierarchyNode& node, const LabelMetrics& metrics);

/// The layout options the viewer uses (shared with the --bench-layout command).
GraphViewLayoutOptions viewerLayoutOptions(const LabelMetrics& metrics, LayoutDirection direction);

/// Copies a layout's result into an immutable snapshot.
std::shared_ptr<const LayoutSnapshot> snapshotOf(const GraphViewLayout& layout, LayoutDirection direction, double milliseconds);

} // namespace tstudio::graph_viewer
