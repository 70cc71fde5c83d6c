// GraphViewer: the tab's loading (on workers, cancellable), layout jobs, colouring, run statistics,
// subgraphs and exports; its widgets are in graph_viewer_ui.cpp, navigation in graph_viewer_find.cpp.
#include "graph_viewer/graph_viewer.h"
#include "graph_viewer/graph_viewer_internal.h"

#include "common/background_run.h"
#include "common/canvas_overlays.h"
#include "graph_viewer/checkpoint_variables_view.h"
#include "graph_viewer/graph_export.h"
#include "graph_viewer/graph_minimap.h"
#include "graph/tensor_id.h"
#include "graph_viewer/node_properties_panel.h"
#include "graph_viewer/meta_graph_view.h"
#include "graph_viewer/signatures_view.h"
#include "common/empty_state.h"
#include "registries/default_registries.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QImageWriter>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QShortcut>
#include <QSplitter>
#include <QStackedWidget>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_map>
#include <utility>

namespace tstudio::graph_viewer {

using namespace detail;

LayoutSize collapsedNodeSize(const HierarchyNode& node, const LabelMetrics& metrics)
{
    const QString leaf = leafName(node.kind == HierarchyNodeKind::kOp && !node.nodeName.empty() ? node.nodeName : node.name);
    if (node.kind == HierarchyNodeKind::kOp) {
        const double w = std::clamp(leaf.size() * metrics.charWidth + 24.0, 56.0, 200.0);
        return {w, 28.0};
    }
    // The library's group is titled "Functions"; a function's subtitle ("function · 12 nodes") needs more room
    // than a scope's ("12 ops").
    const bool library = node.name == kFunctionLibraryScope;
    const bool function = node.name.size() > kFunctionLibraryScope.size() + 1 &&
                          node.name.starts_with(kFunctionLibraryScope) &&
                          node.name.rfind('/') == kFunctionLibraryScope.size();
    const double chars = std::max<double>(library ? 9 : leaf.size(), function ? 16 : 9);
    const double w = std::clamp(chars * metrics.boldCharWidth + 40.0, 110.0, 240.0);
    return {w, node.kind == HierarchyNodeKind::kSeries ? 46.0 : 42.0};
}

GraphViewLayoutOptions viewerLayoutOptions(const LabelMetrics& metrics, LayoutDirection direction)
{
    GraphViewLayoutOptions options;
    options.layered.direction = direction;
    options.layered.nodeSeparation = 22;
    options.layered.rankSeparation = 34;
    options.groupHeader = 26;
    options.groupPadding = 12;
    options.collapsedSize = [metrics](const HierarchyNode& node) { return collapsedNodeSize(node, metrics); };
    return options;
}

std::shared_ptr<const LayoutSnapshot> snapshotOf(const GraphViewLayout& layout, LayoutDirection direction, double milliseconds)
{
    auto snapshot = std::make_shared<LayoutSnapshot>();
    snapshot->items = layout.items();
    snapshot->edges = layout.edges();
    snapshot->size = layout.size();
    snapshot->direction = direction;
    snapshot->milliseconds = milliseconds;
    return snapshot;
}

GraphViewer::GraphViewer(const Registries* registries, QWidget* parent)
    : QWidget(parent), m_registries(registries), m_cancel(std::make_shared<std::atomic<bool>>(false)),
      m_stage(std::make_shared<std::atomic<int>>(0))
{
    setObjectName(QStringLiteral("graphViewer"));
    buildUi();
    retranslateUi();
}

GraphViewer::~GraphViewer()
{
    m_cancel->store(true);
    for (QFutureWatcher<void>* w : {m_loadWatcher, m_factsWatcher, m_layoutWatcher})
        if (w) {
            w->disconnect(this);
            w->waitForFinished();
        }
}

bool GraphViewer::isLoading() const
{
    return m_loadWatcher && m_loadWatcher->isRunning();
}

void GraphViewer::open(const QString& path, int choice, std::optional<FileKindReport> report)
{
    if (path != m_path || report)
        m_report = std::move(report);
    m_path = path;
    m_choice = choice;
    m_title = QFileInfo(path).fileName();
    m_loadingTitle->setText(tr("Opening %1").arg(m_title));
    GraphLoadRequest request;
    request.path = path.toStdString();
    request.choice = choice;
    request.report = m_report;
    request.ops = m_registries ? &m_registries->ops : nullptr;
    startLoad([request = std::move(request)](const std::atomic<bool>* cancelled, std::atomic<int>* stage) {
        return loadGraph(request, cancelled, stage);
    });
}

void GraphViewer::showGraph(tensorflow::GraphDef graph, const QString& title,
                            std::vector<events::EventRunMetadataRecord> runMetadata)
{
    m_path.clear();
    m_report.reset();
    m_title = title;
    m_loadingTitle->setText(tr("Opening %1").arg(title));
    auto shared = std::make_shared<tensorflow::GraphDef>(std::move(graph));
    auto records = std::make_shared<std::vector<events::EventRunMetadataRecord>>(std::move(runMetadata));
    const OpRegistry* ops = m_registries ? &m_registries->ops : nullptr;
    startLoad([shared, records, ops](const std::atomic<bool>*, std::atomic<int>* stage) -> Expected<LoadedGraph> {
        stage->store(static_cast<int>(LoadStage::kHierarchy));
        LoadedGraph loaded = loadedGraphFrom(std::move(*shared), ops);
        loaded.runMetadata = std::move(*records);
        return loaded;
    });
}

void GraphViewer::cancelLoading()
{
    m_cancel->store(true);
    m_cancelButton->setEnabled(false);
    m_loadingStage->setText(tr("Cancelling…"));
}

void GraphViewer::startLoad(std::function<Expected<LoadedGraph>(const std::atomic<bool>*, std::atomic<int>*)> job)
{
    // A previous load or facts job is abandoned: it sees the old cancel flag.
    m_cancel->store(true);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_stage = std::make_shared<std::atomic<int>>(0);
    m_ready = false;
    m_factsReady = false;
    m_errorText.clear();
    m_cancelButton->setEnabled(true);
    m_empty->hide();
    m_pages->setCurrentWidget(m_loadingPage);
    m_progressTimer->start();

    QFontMetricsF plain(font());
    QFont boldFont = font();
    boldFont.setBold(true);
    boldFont.setPixelSize(11);
    QFont labelFont = font();
    labelFont.setPixelSize(11);
    LabelMetrics metrics;
    metrics.charWidth = QFontMetricsF(labelFont).averageCharWidth();
    metrics.boldCharWidth = QFontMetricsF(boldFont).averageCharWidth();
    const LayoutDirection direction = m_direction;

    struct Result {
        Expected<LoadedGraph> loaded = unexpected(internalError("not run"));
        std::shared_ptr<GraphViewLayout> layout;
        std::shared_ptr<const LayoutSnapshot> snapshot;
        double milliseconds = 0;
    };
    auto result = std::make_shared<Result>();
    auto cancel = m_cancel;
    auto stage = m_stage;
    auto* watcher = new QFutureWatcher<void>(this);
    if (m_loadWatcher)
        m_loadWatcher->disconnect(this);
    m_loadWatcher = watcher;
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher, result, cancel] {
        watcher->deleteLater();
        if (m_loadWatcher == watcher)
            m_loadWatcher = nullptr;
        m_progressTimer->stop();
        if (cancel != m_cancel)
            return; // superseded by a newer load
        if (!result->loaded) {
            const Status& error = result->loaded.error();
            showError(error.code() == StatusCode::kCancelled ? tr("Loading was cancelled.")
                                                             : tr("Cannot show this graph:\n%1").arg(q(error.message())));
            emit loaded(false);
            return;
        }
        m_firstViewMs = result->milliseconds;
        installLoaded(std::move(*result->loaded), result->layout, result->snapshot);
    });
    watcher->setFuture(runInBackground([job, result, cancel, stage, metrics, direction] {
        QElapsedTimer timer;
        timer.start();
        result->loaded = job(cancel.get(), stage.get());
        if (!result->loaded)
            return;
        stage->store(static_cast<int>(LoadStage::kLayout));
        auto layout = std::make_shared<GraphViewLayout>(result->loaded->hierarchy, viewerLayoutOptions(metrics, direction));
        QElapsedTimer layoutTimer;
        layoutTimer.start();
        if (!layout->update(cancel.get())) {
            result->loaded = unexpected(cancelledError("cancelled"));
            return;
        }
        result->snapshot = snapshotOf(*layout, direction, static_cast<double>(layoutTimer.nsecsElapsed()) / 1e6);
        result->layout = std::move(layout);
        result->milliseconds = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        stage->store(static_cast<int>(LoadStage::kDone));
    }));
}

void GraphViewer::showError(const QString& text)
{
    m_errorText = text;
    m_errorLabel->setText(text);
    m_empty->hide();
    m_pages->setCurrentWidget(m_errorPage);
}

void GraphViewer::installLoaded(LoadedGraph result, std::shared_ptr<GraphViewLayout> layout,
                                std::shared_ptr<const LayoutSnapshot> snapshot)
{
    m_loaded = std::move(result);
    m_layout = std::move(layout);
    m_pendingChanges.clear();
    m_facts.reset();
    m_runStats.reset();
    m_matches.clear();
    m_matchIndex = -1;
    m_traced.clear();
    m_canvas->setHierarchy(m_loaded->hierarchy);
    m_canvas->setProblemFlags({});
    applyDebugMarks();
    m_canvas->setSnapshot(snapshot);
    updateStatusLabel();
    m_properties->setGraph(m_loaded->viewGraph, m_registries ? &m_registries->ops : nullptr,
                           [this](int graphIndex, int output) { return outputDescription(graphIndex, output); });

    // Choices: SavedModel MetaGraphs or event graph records.
    m_choiceCombo->clear();
    for (const auto& c : m_loaded->choices)
        m_choiceCombo->addItem(q(c));
    m_choiceCombo->setCurrentIndex(m_loaded->chosen);
    m_choiceLabelAction->setVisible(!m_loaded->choices.empty());
    m_choiceComboAction->setVisible(!m_loaded->choices.empty());
    // Steps with RunMetadata.
    m_stepCombo->clear();
    m_stepCombo->addItem(tr("(none)"), -1);
    for (std::size_t i = 0; i < m_loaded->runMetadata.size(); ++i) {
        const auto& r = m_loaded->runMetadata[i];
        const QString run = r.origin.run == "." ? QString() : q(r.origin.run) + QStringLiteral(": ");
        m_stepCombo->addItem(tr("%1%2 (step %3)").arg(run, q(r.tag)).arg(r.origin.step), static_cast<int>(i));
    }
    const bool haveSteps = !m_loaded->runMetadata.empty();
    m_stepLabelAction->setVisible(haveSteps);
    m_stepComboAction->setVisible(haveSteps);

    if (!m_loaded->checkpointPrefix.empty()) {
        if (!m_checkpoint) {
            m_checkpoint = new CheckpointVariablesView(m_side);
            m_side->addTab(m_checkpoint, tr("Checkpoint"));
        }
        m_checkpoint->setCheckpoint(q(m_loaded->checkpointPrefix));
    } else if (m_checkpoint) {
        m_side->removeTab(m_side->indexOf(m_checkpoint));
        m_checkpoint->deleteLater();
        m_checkpoint = nullptr;
    }
    if (m_loaded->kind == FileKind::kSavedModel) {
        if (!m_signatures) {
            m_signatures = new SignaturesView(m_side);
            connect(m_signatures, &SignaturesView::nodeActivated, this, [this](const QString& name) { selectNodeNamed(name); });
            m_side->insertTab(1, m_signatures, tr("Signatures"));
        }
        m_signatures->setSignatures(m_loaded->signatures);
        // What a SavedModel is for: how to call it. Shown first; a selection is one tab away.
        m_side->setCurrentWidget(m_signatures);
    } else if (m_signatures) {
        m_side->removeTab(m_side->indexOf(m_signatures));
        m_signatures->deleteLater();
        m_signatures = nullptr;
    }

    if (m_loaded->metaGraph) {
        if (!m_metaGraph) {
            m_metaGraph = new MetaGraphView(m_side);
            connect(m_metaGraph, &MetaGraphView::nodeActivated, this,
                    [this](const QString& name) { selectNodeNamed(name); });
            m_side->addTab(m_metaGraph, tr("MetaGraph"));
        }
        std::shared_ptr<const tensorflow::GraphDef> graph = m_loaded->graph;
        std::set<std::string> names;
        if (graph)
            for (const auto& node : graph->node())
                names.insert(node.name());
        m_metaGraph->setContents(*m_loaded->metaGraph,
                                 [names = std::move(names)](const std::string& n) { return names.count(n) > 0; });
    } else if (m_metaGraph) {
        m_side->removeTab(m_side->indexOf(m_metaGraph));
        m_metaGraph->deleteLater();
        m_metaGraph = nullptr;
    }

    QString title = m_title;
    if (!m_loaded->choices.empty() && m_loaded->chosen >= 0)
        title += QStringLiteral(" — ") + q(m_loaded->choices[static_cast<std::size_t>(m_loaded->chosen)]);
    emit titleChanged(title);
    m_ready = true;
    m_pages->setCurrentWidget(m_viewPage);
    m_empty->setVisible(m_loaded->viewGraph && m_loaded->viewGraph->node_size() == 0);
    recolour();
    fillProblems();
    onSelectionChanged(-1);
    m_minimap->invalidate();
    updateActions();
    m_canvas->setFocus();
    emit loaded(true);
    startFacts();
}

void GraphViewer::startFacts()
{
    if (!m_registries || !m_loaded)
        return;
    auto graph = m_loaded->graph;
    auto cancel = m_cancel;
    const Registries* registries = m_registries;
    auto facts = std::make_shared<GraphFacts>();
    auto* watcher = new QFutureWatcher<void>(this);
    if (m_factsWatcher)
        m_factsWatcher->disconnect(this);
    m_factsWatcher = watcher;
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher, facts, cancel] {
        watcher->deleteLater();
        if (m_factsWatcher == watcher)
            m_factsWatcher = nullptr;
        if (cancel != m_cancel || facts->cancelled)
            return;
        m_facts = facts;
        m_factsReady = true;
        // Problem marks: each op with a problem and every group above it.
        const GraphHierarchy& h = *m_loaded->hierarchy;
        std::vector<char> flags(h.nodes().size(), 0);
        for (const auto& node : h.nodes()) {
            if (node.kind != HierarchyNodeKind::kOp || node.graphIndex < 0 ||
                static_cast<std::size_t>(node.graphIndex) >= m_facts->nodes.size() ||
                m_facts->nodes[static_cast<std::size_t>(node.graphIndex)].problem.empty())
                continue;
            for (int n = node.id; n > 0 && !flags[static_cast<std::size_t>(n)]; n = h.node(n).parent)
                flags[static_cast<std::size_t>(n)] = 1;
        }
        m_canvas->setProblemFlags(std::move(flags));
        fillProblems();
        recolour();
        onSelectionChanged(m_canvas->selected());
        emit factsFinished();
    });
    watcher->setFuture(runInBackground([graph, registries, cancel, facts] {
        *facts = computeGraphFacts(*graph, *registries, cancel.get());
    }));
}

void GraphViewer::requestLayout(std::function<void(GraphViewLayout&)> change)
{
    if (!m_layout)
        return;
    m_pendingChanges.push_back(std::move(change));
    if (!m_layoutRunning)
        startLayoutJob();
}

void GraphViewer::startLayoutJob()
{
    m_layoutRunning = true;
    auto changes = std::move(m_pendingChanges);
    m_pendingChanges.clear();
    auto layout = m_layout;
    auto cancel = m_cancel;
    const LayoutDirection direction = m_direction;
    auto snapshot = std::make_shared<std::shared_ptr<const LayoutSnapshot>>();
    auto* watcher = new QFutureWatcher<void>(this);
    m_layoutWatcher = watcher;
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher, snapshot, layout] {
        watcher->deleteLater();
        m_layoutWatcher = nullptr;
        m_layoutRunning = false;
        if (layout != m_layout)
            return;
        if (*snapshot)
            onSnapshot(*snapshot);
        if (!m_pendingChanges.empty())
            startLayoutJob();
    });
    watcher->setFuture(runInBackground([layout, changes, cancel, direction, snapshot] {
        for (const auto& change : changes)
            change(*layout);
        QElapsedTimer timer;
        timer.start();
        if (layout->update(cancel.get()))
            *snapshot = snapshotOf(*layout, direction, static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }));
}

void GraphViewer::onSnapshot(std::shared_ptr<const LayoutSnapshot> snapshot)
{
    m_canvas->setSnapshot(std::move(snapshot));
    m_minimap->invalidate();
    updateStatusLabel();
    if (m_focusAfterLayout >= 0) {
        const int node = m_focusAfterLayout;
        m_focusAfterLayout = -1;
        m_canvas->setSelected(node);
        if (!m_canvas->visibleWorldRect().contains(QRectF(m_canvas->snapshot()->items[static_cast<std::size_t>(std::max(0, m_canvas->itemIndexOf(node)))].x,
                                                          m_canvas->snapshot()->items[static_cast<std::size_t>(std::max(0, m_canvas->itemIndexOf(node)))].y, 1, 1)))
            m_canvas->zoomToNode(node);
    }
    emit layoutFinished();
}

void GraphViewer::setExpanded(int node, bool expanded)
{
    m_canvas->keepFitting(false);
    requestLayout([node, expanded](GraphViewLayout& layout) { layout.setExpanded(node, expanded); });
}

void GraphViewer::setDirection(LayoutDirection direction)
{
    if (direction == m_direction)
        return;
    m_direction = direction;
    {
        const QSignalBlocker block(m_directionAction);
        m_directionAction->setChecked(direction == LayoutDirection::kLeftToRight);
    }
    requestLayout([direction](GraphViewLayout& layout) { layout.setDirection(direction); });
    m_focusAfterLayout = -1;
    connect(this, &GraphViewer::layoutFinished, m_canvas, &GraphCanvas::zoomToFit, Qt::SingleShotConnection);
}

void GraphViewer::setColourMode(ColourMode mode)
{
    m_colourMode = mode;
    const int index = m_colourCombo->findData(static_cast<int>(mode));
    if (index >= 0)
        m_colourCombo->setCurrentIndex(index);
    recolour();
}

void GraphViewer::setRunStats(const QString& label, RunStats stats)
{
    m_runStats = std::move(stats);
    m_runStatsLabel = label;
    recolour();
}

void GraphViewer::chooseRunMetadata(int index)
{
    const int record = m_stepCombo->itemData(index).toInt();
    if (!m_loaded || record < 0 || static_cast<std::size_t>(record) >= m_loaded->runMetadata.size()) {
        m_runStats.reset();
        recolour();
        return;
    }
    auto stats = runStatsFromRunMetadata(m_loaded->runMetadata[static_cast<std::size_t>(record)].runMetadata);
    if (!stats) {
        m_problems->addItem(tr("RunMetadata %1: %2").arg(m_stepCombo->itemText(index), q(stats.error().message())));
        return;
    }
    setRunStats(m_stepCombo->itemText(index), std::move(*stats));
    if (m_colourMode != ColourMode::kComputeTime && m_colourMode != ColourMode::kMemory)
        setColourMode(ColourMode::kComputeTime);
}

void GraphViewer::recolour()
{
    if (!m_loaded)
        return;
    auto colouring = std::make_shared<GraphColouring>(m_loaded->hierarchy.get(), m_loaded->graph.get(),
                                                      m_registries ? &m_registries->ops : nullptr, m_facts.get(),
                                                      m_runStats ? &*m_runStats : nullptr, m_colourMode,
                                                      m_loaded->functions.get());
    // The colouring borrows from the loaded graph and facts; keep them alive with it.
    struct Holder {
        std::shared_ptr<const GraphHierarchy> h;
        std::shared_ptr<const GraphFacts> f;
        std::shared_ptr<const FunctionLibraryView> functions;
        std::shared_ptr<GraphColouring> c;
    };
    auto holder = std::make_shared<Holder>(Holder{m_loaded->hierarchy, m_facts, m_loaded->functions, colouring});
    m_colouring = std::shared_ptr<const GraphColouring>(holder, holder->c.get());
    m_canvas->setColouring(m_colouring);
    m_minimap->invalidate();
    updateLegend();
}

void GraphViewer::keepSelectionClear()
{
    // The selected box on screen (screen = world * zoom + offset; the canvas fills its host).
    QRect clear;
    const LayoutSnapshot* snapshot = m_canvas->snapshot();
    const int item = m_canvas->selected() >= 0 ? m_canvas->itemIndexOf(m_canvas->selected()) : -1;
    if (snapshot && item >= 0 && item < static_cast<int>(snapshot->items.size())) {
        const ViewItem& v = snapshot->items[static_cast<std::size_t>(item)];
        const QRectF world(v.x, v.y, v.width, v.height);
        const double z = m_canvas->zoom();
        const QPointF o = m_canvas->offset();
        clear = QRectF(world.topLeft() * z + o, world.size() * z).toAlignedRect().translated(m_canvas->pos());
    }
    m_overlays->keepClear(clear);
}

bool GraphViewer::exportImage(const QString& file, QString* error)
{
    return exportGraphImage(*m_canvas, file, m_title, error);
}

void GraphViewer::exportWithDialog()
{
    QString suggested = QFileInfo(m_path).completeBaseName();
    if (suggested.isEmpty())
        suggested = QStringLiteral("graph");
    QString selectedFilter;
    const QString file = QFileDialog::getSaveFileName(this, tr("Export graph image"), suggested + QStringLiteral(".png"),
                                                      tr("PNG image (*.png);;SVG image (*.svg)"), &selectedFilter);
    if (file.isEmpty())
        return;
    QString error;
    if (!exportImage(file, &error))
        m_problems->addItem(tr("Could not export %1: %2").arg(file, error));
}

void GraphViewer::setTimelineAvailable(bool available)
{
    m_timelineAction->setEnabled(available);
}

tensorflow::GraphDef GraphViewer::subgraph(int node) const
{
    tensorflow::GraphDef out;
    if (!m_loaded)
        return out;
    const tensorflow::GraphDef& graph = *m_loaded->graph;
    if (node <= 0) {
        out = graph;
        return out;
    }
    const GraphHierarchy& h = *m_loaded->hierarchy;
    // Hierarchy indices are view-graph indices: a function's body is taken from there (its nodes follow the graph's).
    const tensorflow::GraphDef& view = *m_loaded->viewGraph;
    std::vector<char> take(static_cast<std::size_t>(view.node_size()), 0);
    std::vector<int> stack{node};
    while (!stack.empty()) {
        const int n = stack.back();
        stack.pop_back();
        const HierarchyNode& hn = h.node(n);
        if (hn.kind == HierarchyNodeKind::kOp) {
            if (hn.graphIndex >= 0)
                take[static_cast<std::size_t>(hn.graphIndex)] = 1;
            for (int e : hn.inEmbeddings)
                take[static_cast<std::size_t>(e)] = 1;
            for (int e : hn.outEmbeddings)
                take[static_cast<std::size_t>(e)] = 1;
        }
        for (int c : hn.children)
            stack.push_back(c);
    }
    *out.mutable_versions() = graph.versions();
    for (int i = 0; i < view.node_size(); ++i)
        if (take[static_cast<std::size_t>(i)])
            *out.add_node() = view.node(i);
    return out;
}

void GraphViewer::editSelection()
{
    if (!m_loaded)
        return;
    const int selected = m_canvas->selected();
    QString title = m_title;
    if (selected > 0)
        title = QStringLiteral("%1 — %2").arg(m_title, q(m_loaded->hierarchy->node(selected).name));
    emit editRequested(subgraph(selected), title);
}

void GraphViewer::setDebugMarks(const QString& pausedNode, const QSet<QString>& executed,
                                const QSet<QString>& breakpoints)
{
    m_debugPaused = pausedNode;
    m_debugExecuted = executed;
    m_debugBreakpoints = breakpoints;
    applyDebugMarks();
}

void GraphViewer::applyDebugMarks()
{
    if (!m_loaded)
        return;
    const GraphHierarchy& h = *m_loaded->hierarchy;
    std::vector<char> marks;
    // By GraphDef name: find() could answer a group's path ("a" is also the group of "a/read").
    std::unordered_map<std::string, int> ops;
    if (!m_debugPaused.isEmpty() || !m_debugExecuted.isEmpty() || !m_debugBreakpoints.isEmpty())
        for (const HierarchyNode& node : h.nodes())
            if (node.kind == HierarchyNodeKind::kOp)
                ops.emplace(node.nodeName, node.id);
    // Marks `name`'s op with `own` and every group above it with `inside`.
    const auto mark = [&](const QString& name, char own, char inside) {
        const auto found = ops.find(name.toStdString());
        if (found == ops.end())
            return;
        const int id = found->second;
        marks.resize(h.nodes().size(), 0);
        marks[static_cast<std::size_t>(id)] |= own;
        for (int n = h.node(id).parent; inside && n > 0; n = h.node(n).parent)
            marks[static_cast<std::size_t>(n)] |= inside;
    };
    for (const QString& name : m_debugExecuted)
        mark(name, GraphCanvas::kExecutedMark, 0);
    for (const QString& name : m_debugBreakpoints)
        mark(name, GraphCanvas::kBreakpointMark, GraphCanvas::kContainsBreakpointMark);
    if (!m_debugPaused.isEmpty())
        mark(m_debugPaused, GraphCanvas::kPausedMark, GraphCanvas::kContainsPausedMark);
    m_canvas->setDebugMarks(std::move(marks));
}

} // namespace tstudio::graph_viewer
