// The graph viewer tab: asynchronous loading and layout, toolbar, find bar, side panels and export.
#include "graph_viewer/graph_viewer.h"

#include "common/background_run.h"
#include "common/canvas_overlays.h"
#include "graph_viewer/checkpoint_variables_view.h"
#include "graph_viewer/graph_export.h"
#include "graph_viewer/graph_minimap.h"
#include "graph/tensor_id.h"
#include "graph_viewer/node_properties_panel.h"
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
namespace {

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

QString leafName(const std::string& path)
{
    const auto slash = path.rfind('/');
    return q(slash == std::string::npos ? path : path.substr(slash + 1));
}

} // namespace

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

void GraphViewer::buildLoadingAndErrorPages()
{
    // Loading page: what is happening, a progress bar and Cancel.
    m_loadingPage = new QWidget(m_pages);
    auto* loading = new QVBoxLayout(m_loadingPage);
    loading->addStretch(2);
    m_loadingTitle = new QLabel(m_loadingPage);
    m_loadingTitle->setAlignment(Qt::AlignCenter);
    QFont big = m_loadingTitle->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    m_loadingTitle->setFont(big);
    m_loadingStage = new QLabel(m_loadingPage);
    m_loadingStage->setAlignment(Qt::AlignCenter);
    m_progress = new QProgressBar(m_loadingPage);
    m_progress->setObjectName(QStringLiteral("loadProgress"));
    m_progress->setRange(0, 3);
    m_progress->setMaximumWidth(420);
    m_cancelButton = new QPushButton(m_loadingPage);
    m_cancelButton->setObjectName(QStringLiteral("cancelLoadButton"));
    connect(m_cancelButton, &QPushButton::clicked, this, &GraphViewer::cancelLoading);
    loading->addWidget(m_loadingTitle);
    loading->addWidget(m_loadingStage);
    auto* barRow = new QHBoxLayout;
    barRow->addStretch();
    barRow->addWidget(m_progress, 1);
    barRow->addStretch();
    loading->addLayout(barRow);
    auto* buttonRow = new QHBoxLayout;
    buttonRow->addStretch();
    buttonRow->addWidget(m_cancelButton);
    buttonRow->addStretch();
    loading->addLayout(buttonRow);
    loading->addStretch(3);
    m_pages->addWidget(m_loadingPage);
    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(50);
    connect(m_progressTimer, &QTimer::timeout, this, [this] {
        const int stage = m_stage->load();
        m_progress->setValue(stage);
        switch (static_cast<LoadStage>(stage)) {
        case LoadStage::kReading:
            m_loadingStage->setText(tr("Reading the file…"));
            break;
        case LoadStage::kHierarchy:
            m_loadingStage->setText(tr("Building the name-scope hierarchy…"));
            break;
        case LoadStage::kLayout:
        case LoadStage::kDone:
            m_loadingStage->setText(tr("Laying out…"));
            break;
        }
    });

    // Error page.
    m_errorPage = new QWidget(m_pages);
    auto* errorLayout = new QVBoxLayout(m_errorPage);
    m_errorLabel = new QLabel(m_errorPage);
    m_errorLabel->setObjectName(QStringLiteral("graphErrorLabel"));
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setAlignment(Qt::AlignCenter);
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errorLayout->addStretch();
    errorLayout->addWidget(m_errorLabel);
    errorLayout->addStretch();
    m_pages->addWidget(m_errorPage);
}

void GraphViewer::buildFindBar()
{
    m_findBar = new QWidget(m_viewPage);
    m_findBar->setObjectName(QStringLiteral("findBar"));
    auto* findLayout = new QHBoxLayout(m_findBar);
    findLayout->setContentsMargins(6, 3, 6, 3);
    m_findEdit = new QLineEdit(m_findBar);
    m_findEdit->setObjectName(QStringLiteral("findEdit"));
    m_findEdit->setClearButtonEnabled(true);
    m_findMode = new QComboBox(m_findBar);
    m_findMode->setObjectName(QStringLiteral("findMode"));
    for (int i = 0; i < 3; ++i)
        m_findMode->addItem(QString(), i);
    m_findPrev = new QToolButton(m_findBar);
    m_findPrev->setArrowType(Qt::UpArrow);
    m_findNext = new QToolButton(m_findBar);
    m_findNext->setArrowType(Qt::DownArrow);
    m_findStatus = new QLabel(m_findBar);
    m_findStatus->setObjectName(QStringLiteral("findStatus"));
    m_findClose = new QToolButton(m_findBar);
    m_findClose->setText(QStringLiteral("✕"));
    findLayout->addWidget(m_findEdit, 1);
    findLayout->addWidget(m_findMode);
    findLayout->addWidget(m_findPrev);
    findLayout->addWidget(m_findNext);
    findLayout->addWidget(m_findStatus);
    findLayout->addWidget(m_findClose);
    auto runFind = [this] {
        find(m_findEdit->text(), static_cast<SearchMode>(m_findMode->currentData().toInt()));
    };
    connect(m_findEdit, &QLineEdit::returnPressed, this, [this, runFind] {
        if (m_matches.empty() || m_findEdit->isModified()) {
            m_findEdit->setModified(false);
            runFind();
        } else if (QApplication::keyboardModifiers() & Qt::ShiftModifier) {
            findPrevious();
        } else {
            findNext();
        }
    });
    connect(m_findMode, &QComboBox::activated, this, runFind);
    connect(m_findNext, &QToolButton::clicked, this, &GraphViewer::findNext);
    connect(m_findPrev, &QToolButton::clicked, this, &GraphViewer::findPrevious);
    connect(m_findClose, &QToolButton::clicked, this, [this] {
        m_findBar->hide();
        m_matches.clear();
        m_matchIndex = -1;
        m_canvas->setMatches({}, -1);
        m_canvas->setFocus();
    });
    auto* next = new QShortcut(QKeySequence::FindNext, this, this, &GraphViewer::findNext, Qt::WidgetWithChildrenShortcut);
    auto* previous = new QShortcut(QKeySequence::FindPrevious, this, this, &GraphViewer::findPrevious, Qt::WidgetWithChildrenShortcut);
    // Named (whatsThis, in retranslateUi) for Help ▸ Keyboard Shortcuts, which lists QShortcuts too.
    next->setObjectName(QStringLiteral("findNextShortcut"));
    previous->setObjectName(QStringLiteral("findPreviousShortcut"));
    m_findBar->hide();
}

void GraphViewer::buildUi()
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_pages = new QStackedWidget(this);
    outer->addWidget(m_pages);
    m_empty = EmptyState::cover(m_pages, QStringLiteral("viewer"));

    buildLoadingAndErrorPages();

    // The view: toolbar, find bar, canvas with overlays, side tabs.
    m_viewPage = new QWidget(m_pages);
    auto* view = new QVBoxLayout(m_viewPage);
    view->setContentsMargins(0, 0, 0, 0);
    view->setSpacing(0);
    m_toolBar = new QToolBar(m_viewPage);
    m_toolBar->setObjectName(QStringLiteral("graphToolBar"));
    m_toolBar->setIconSize(QSize(16, 16));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_colourLabel = new QLabel(m_toolBar);
    m_colourCombo = new QComboBox(m_toolBar);
    m_colourCombo->setObjectName(QStringLiteral("colourCombo"));
    for (int i = 0; i < 6; ++i)
        m_colourCombo->addItem(QString(), i);
    connect(m_colourCombo, &QComboBox::activated, this,
            [this](int index) { setColourMode(static_cast<ColourMode>(m_colourCombo->itemData(index).toInt())); });
    m_toolBar->addWidget(m_colourLabel);
    m_toolBar->addWidget(m_colourCombo);
    m_stepLabel = new QLabel(m_toolBar);
    m_stepCombo = new QComboBox(m_toolBar);
    m_stepCombo->setObjectName(QStringLiteral("stepCombo"));
    m_stepCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_stepCombo, &QComboBox::activated, this, &GraphViewer::chooseRunMetadata);
    m_stepLabelAction = m_toolBar->addWidget(m_stepLabel);
    m_stepComboAction = m_toolBar->addWidget(m_stepCombo);
    m_choiceLabel = new QLabel(m_toolBar);
    m_choiceCombo = new QComboBox(m_toolBar);
    m_choiceCombo->setObjectName(QStringLiteral("graphChoiceCombo"));
    m_choiceCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_choiceCombo, &QComboBox::activated, this, [this](int index) {
        if (index != m_choice && !m_path.isEmpty())
            open(m_path, index);
    });
    m_choiceLabelAction = m_toolBar->addWidget(m_choiceLabel);
    m_choiceComboAction = m_toolBar->addWidget(m_choiceCombo);
    m_toolBar->addSeparator();
    m_directionAction = m_toolBar->addAction(QString());
    m_directionAction->setCheckable(true);
    connect(m_directionAction, &QAction::toggled, this, [this](bool lr) {
        setDirection(lr ? LayoutDirection::kLeftToRight : LayoutDirection::kTopToBottom);
    });
    m_fitAction = m_toolBar->addAction(QString());
    m_fitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_fitAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_zoomSelectionAction = m_toolBar->addAction(QString());
    m_zoomSelectionAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_9));
    m_zoomSelectionAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_traceAction = m_toolBar->addAction(QString());
    m_traceAction->setCheckable(true);
    m_traceAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_traceAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_collapseAllAction = m_toolBar->addAction(QString());
    m_findAction = m_toolBar->addAction(QString());
    m_findAction->setShortcut(QKeySequence::Find);
    m_findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_copyNameAction = m_toolBar->addAction(QString());
    m_copyNameAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_copyNameAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_editAction = m_toolBar->addAction(QString());
    connect(m_editAction, &QAction::triggered, this, &GraphViewer::editSelection);
    // Not on the toolbar: it appears in the context menu while a profiler tab holds a trace.
    m_timelineAction = new QAction(this);
    m_timelineAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    m_timelineAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_timelineAction->setEnabled(false);
    connect(m_timelineAction, &QAction::triggered, this, [this] {
        if (!m_loaded || m_canvas->selected() < 0)
            return;
        const HierarchyNode& n = m_loaded->hierarchy->node(m_canvas->selected());
        if (n.kind == HierarchyNodeKind::kOp)
            emit showInTimelineRequested(q(n.nodeName));
    });
    // Not on the toolbar either: the debugger's F9, also in the context menu of ops.
    m_breakpointAction = new QAction(this);
    m_breakpointAction->setObjectName(QStringLiteral("toggleBreakpointAction"));
    m_breakpointAction->setShortcut(QKeySequence(Qt::Key_F9));
    m_breakpointAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_breakpointAction, &QAction::triggered, this, [this] {
        if (!m_loaded || m_canvas->selected() < 0)
            return;
        const HierarchyNode& n = m_loaded->hierarchy->node(m_canvas->selected());
        if (n.kind == HierarchyNodeKind::kOp)
            emit breakpointToggleRequested(q(n.nodeName));
    });
    m_exportAction = m_toolBar->addAction(QString());
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    for (QAction* a : {m_fitAction, m_zoomSelectionAction, m_traceAction, m_collapseAllAction, m_findAction,
                       m_copyNameAction, m_timelineAction, m_breakpointAction, m_exportAction})
        addAction(a);
    connect(m_fitAction, &QAction::triggered, this, [this] { m_canvas->zoomToFit(); });
    connect(m_zoomSelectionAction, &QAction::triggered, this, [this] { m_canvas->zoomToNode(m_canvas->selected()); });
    connect(m_traceAction, &QAction::toggled, this, &GraphViewer::traceInputs);
    connect(m_collapseAllAction, &QAction::triggered, this, [this] {
        if (!m_loaded)
            return;
        requestLayout([hierarchy = m_loaded->hierarchy](GraphViewLayout& layout) {
            for (const auto& node : hierarchy->nodes())
                if (node.kind != HierarchyNodeKind::kOp && layout.isExpanded(node.id))
                    layout.setExpanded(node.id, false);
        });
    });
    connect(m_findAction, &QAction::triggered, this, [this] {
        m_findBar->show();
        m_findEdit->setFocus();
        m_findEdit->selectAll();
    });
    connect(m_copyNameAction, &QAction::triggered, this, &GraphViewer::copySelectedName);
    connect(m_exportAction, &QAction::triggered, this, &GraphViewer::exportWithDialog);
    view->addWidget(m_toolBar);

    buildFindBar();
    view->addWidget(m_findBar);

    m_splitter = new QSplitter(Qt::Horizontal, m_viewPage);
    auto* canvasHost = new QWidget(m_splitter);
    auto* grid = new QGridLayout(canvasHost);
    grid->setContentsMargins(0, 0, 0, 0);
    m_canvas = new GraphCanvas(canvasHost);
    grid->addWidget(m_canvas, 0, 0, 3, 3);
    m_legend = new QLabel(canvasHost);
    m_legend->setObjectName(QStringLiteral("graphLegend"));
    m_legend->setTextFormat(Qt::RichText);
    QFont legendFont = m_legend->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    m_legend->setFont(legendFont);
    m_legend->setAutoFillBackground(true);
    m_legend->setFrameShape(QFrame::StyledPanel);
    m_legend->setMargin(6);
    m_minimap = new GraphMinimap(m_canvas, canvasHost);
    // The legend and the minimap float over the canvas in its corners, away from the selection;
    // the user can move them to another corner or hide them (right-click, or these actions).
    m_overlays = new CanvasOverlays(canvasHost);
    m_legendAction = new QAction(this);
    m_legendAction->setCheckable(true);
    m_legendAction->setChecked(true);
    m_minimapAction = new QAction(this);
    m_minimapAction->setCheckable(true);
    m_minimapAction->setChecked(true);
    m_overlays->add(m_legend, Qt::BottomLeftCorner, m_legendAction);
    m_overlays->add(m_minimap, Qt::BottomRightCorner, m_minimapAction);
    addAction(m_legendAction);
    addAction(m_minimapAction);
    m_statusLabel = new QLabel(canvasHost);
    m_statusLabel->setObjectName(QStringLiteral("graphStatus"));
    m_statusLabel->setAutoFillBackground(true);
    m_statusLabel->setMargin(4);
    grid->addWidget(m_statusLabel, 0, 0, Qt::AlignLeft | Qt::AlignTop);
    m_overlays->keepBelow(m_statusLabel); // the node count and layout time stay readable
    grid->setRowStretch(1, 1);
    grid->setColumnStretch(1, 1);
    m_side = new QTabWidget(m_splitter);
    m_side->setObjectName(QStringLiteral("graphSideTabs"));
    m_properties = new NodePropertiesPanel(m_side);
    m_side->addTab(m_properties, QString());
    m_problems = new QListWidget(m_side);
    m_problems->setObjectName(QStringLiteral("problemsList"));
    m_problems->setWordWrap(true);
    m_side->addTab(m_problems, QString());
    m_splitter->addWidget(canvasHost);
    m_splitter->addWidget(m_side);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({900, 340});
    view->addWidget(m_splitter, 1);
    m_pages->addWidget(m_viewPage);

    connect(m_canvas, &GraphCanvas::expansionRequested, this, &GraphViewer::setExpanded);
    connect(m_canvas, &GraphCanvas::selectionChanged, this, &GraphViewer::onSelectionChanged);
    connect(m_canvas, &GraphCanvas::selectionChanged, this, &GraphViewer::keepSelectionClear);
    connect(m_canvas, &GraphCanvas::viewChanged, this, &GraphViewer::keepSelectionClear);
    connect(m_canvas, &GraphCanvas::contextMenuRequested, this, &GraphViewer::showContextMenu);
    connect(m_properties, &NodePropertiesPanel::nodeActivated, this, [this](const QString& name) { selectNodeNamed(name); });
    connect(m_properties, &NodePropertiesPanel::functionActivated, this, &GraphViewer::openFunction);
    connect(m_problems, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const QString name = item->data(Qt::UserRole).toString();
        if (!name.isEmpty())
            selectNodeNamed(name);
    });
    connect(m_problems, &QListWidget::itemClicked, m_problems, &QListWidget::itemActivated);
    m_canvas->setEdgeDescriber([this](int group, int edge) { return describeEdge(group, edge); });
    updateActions();
}

void GraphViewer::retranslateUi()
{
    m_empty->setTitle(tr("No graph to show"));
    m_empty->setText(tr("Open a GraphDef (.pb, .pbtxt), a MetaGraph, a SavedModel, a checkpoint or a log directory "
                        "with File ▸ Open File… or Open Folder…, or drop it on the window. A graph without any "
                        "node shows this page too."));
    m_cancelButton->setText(tr("Cancel"));
    if (auto* next = findChild<QShortcut*>(QStringLiteral("findNextShortcut"), Qt::FindDirectChildrenOnly))
        next->setWhatsThis(tr("Find next match"));
    if (auto* previous = findChild<QShortcut*>(QStringLiteral("findPreviousShortcut"), Qt::FindDirectChildrenOnly))
        previous->setWhatsThis(tr("Find previous match"));
    m_colourLabel->setText(tr(" Colour by: "));
    const QStringList modes = {tr("Structure"), tr("Device (requested)"), tr("Device (placed by the engine)"),
                               tr("Compute time"), tr("Memory"), tr("Runnable here")};
    for (int i = 0; i < modes.size(); ++i)
        m_colourCombo->setItemText(i, modes[i]);
    m_stepLabel->setText(tr(" Step: "));
    m_choiceLabel->setText(tr(" Graph: "));
    m_directionAction->setText(tr("Left to right"));
    m_directionAction->setToolTip(tr("Lay out from left to right instead of top to bottom"));
    m_fitAction->setText(tr("Fit"));
    m_fitAction->setToolTip(tr("Zoom to fit the whole graph (%1)").arg(m_fitAction->shortcut().toString(QKeySequence::NativeText)));
    m_zoomSelectionAction->setText(tr("Zoom to selection"));
    m_traceAction->setText(tr("Trace inputs"));
    m_traceAction->setToolTip(tr("Highlight every node the selected node depends on (%1)")
                                  .arg(m_traceAction->shortcut().toString(QKeySequence::NativeText)));
    m_collapseAllAction->setText(tr("Collapse all"));
    m_findAction->setText(tr("Find"));
    m_findAction->setToolTip(tr("Find nodes by name, op type or regular expression (%1)")
                                 .arg(m_findAction->shortcut().toString(QKeySequence::NativeText)));
    m_copyNameAction->setText(tr("Copy name"));
    m_timelineAction->setText(tr("Show in Timeline"));
    m_timelineAction->setToolTip(tr("Select this op's execution in the profiler's timeline"));
    m_breakpointAction->setText(tr("Toggle Breakpoint"));
    m_breakpointAction->setToolTip(tr("Pause the debugger before this op runs (%1)")
                                       .arg(m_breakpointAction->shortcut().toString(QKeySequence::NativeText)));
    m_editAction->setText(tr("Edit…"));
    m_editAction->setToolTip(tr("Open the selected name scope (or the whole graph) in the node editor"));
    m_legendAction->setText(tr("Show legend"));
    m_minimapAction->setText(tr("Show minimap"));
    m_exportAction->setText(tr("Export image…"));
    m_exportAction->setToolTip(tr("Save the view as PNG or SVG (%1)").arg(m_exportAction->shortcut().toString(QKeySequence::NativeText)));
    m_findEdit->setPlaceholderText(tr("Find nodes…"));
    m_findMode->setItemText(0, tr("Name"));
    m_findMode->setItemText(1, tr("Op type"));
    m_findMode->setItemText(2, tr("Regular expression"));
    m_findPrev->setToolTip(tr("Previous match (Shift+Enter)"));
    m_findNext->setToolTip(tr("Next match (Enter)"));
    m_findClose->setToolTip(tr("Close the find bar"));
    m_side->setTabText(0, tr("Properties"));
    m_side->setTabText(m_side->indexOf(m_problems), m_facts ? tr("Problems (%1)").arg(m_problems->count()) : tr("Problems"));
    if (m_checkpoint)
        m_side->setTabText(m_side->indexOf(m_checkpoint), tr("Checkpoint"));
    if (m_signatures)
        m_side->setTabText(m_side->indexOf(m_signatures), tr("Signatures"));
    // The legend's labels are made with the colouring: colour again for the new language.
    if (m_loaded)
        recolour();
    else
        updateLegend();
    updateStatusLabel();
    updateFindStatus();
}

void GraphViewer::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
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

void GraphViewer::updateStatusLabel()
{
    const auto snapshot = m_canvas->snapshot();
    if (!snapshot)
        return;
    m_statusLabel->setText(tr("%n node(s) shown · laid out in %1 ms", nullptr, static_cast<int>(snapshot->items.size()))
                               .arg(snapshot->milliseconds, 0, 'f', 1));
}

void GraphViewer::updateLegend()
{
    QString html = QStringLiteral("<table cellspacing='1'>");
    if (m_colouring) {
        if ((m_colourMode == ColourMode::kComputeTime || m_colourMode == ColourMode::kMemory) && m_runStats)
            html += QStringLiteral("<tr><td colspan='2'><b>%1</b></td></tr>").arg(m_runStatsLabel.toHtmlEscaped());
        for (const auto& entry : m_colouring->legend())
            html += QStringLiteral("<tr><td style='background:%1' width='14'>&nbsp;</td><td>%2</td></tr>")
                        .arg(entry.colour.name(), entry.label.toHtmlEscaped());
        html += QStringLiteral("<tr><td>- -</td><td>%1</td></tr>").arg(tr("control dependency"));
        html += QStringLiteral("<tr><td style='color:#e07b00'>&#8212;&#9670;</td><td>%1</td></tr>").arg(tr("reference (the op writes its input)"));
    }
    html += QStringLiteral("</table>");
    m_legend->setText(html);
    m_legend->adjustSize();
}

void GraphViewer::onSelectionChanged(int node)
{
    if (m_traceAction->isChecked())
        traceInputs(true);
    updateActions();
    if (!m_loaded)
        return;
    const GraphHierarchy& h = *m_loaded->hierarchy;
    if (node < 0 || static_cast<std::size_t>(node) >= h.nodes().size()) {
        m_properties->showNode(-1);
        return;
    }
    const HierarchyNode& n = h.node(node);
    const EmbeddedSelection embedded = std::exchange(m_embeddedSelection, {});
    if (n.kind == HierarchyNodeKind::kOp) {
        // An embedded constant asked for by name: its consumer is selected, the panel describes the constant.
        const int shown = embedded.host == node && embedded.graphIndex >= 0 ? embedded.graphIndex : n.graphIndex;
        m_properties->showNode(shown);
        QString placed;
        if (m_facts && shown >= 0 && static_cast<std::size_t>(shown) < m_facts->nodes.size())
            placed = q(m_facts->nodes[static_cast<std::size_t>(shown)].placedDevice);
        m_properties->setPlacedDevice(placed);
        if (m_loaded->functions && shown >= 0)
            m_properties->setFunctionCalls(functionLinks(m_loaded->functions->callsOf(shown)));
    } else {
        QMap<QString, int> ops, devices;
        for (const auto& [k, v] : n.opHistogram)
            ops.insert(q(k), v);
        for (const auto& [k, v] : n.deviceHistogram)
            devices.insert(q(k), v);
        m_properties->showGroup(q(n.name), static_cast<int>(n.opCount), ops, devices);
        // A scope that is also a node's name (a frozen graph's "dense/kernel" Const): offer the node itself.
        const int self = n.kind == HierarchyNodeKind::kGroup ? h.findOp(n.name) : -1;
        if (self >= 0)
            m_properties->setScopeNode(q(h.node(self).nodeName), q(h.node(self).op));
        const int function = m_loaded->functions ? m_loaded->functions->findScope(n.name) : -1;
        if (function >= 0)
            m_properties->setFunction(functionSummary(*m_loaded->functions, function));
    }
}

void GraphViewer::selectNode(int node)
{
    if (!m_loaded || node < 0)
        return;
    if (m_canvas->itemIndexOf(node) >= 0) {
        m_canvas->setSelected(node);
        m_canvas->zoomToNode(node);
        return;
    }
    m_focusAfterLayout = node;
    requestLayout([node](GraphViewLayout& layout) { layout.expandTo(node); });
}

bool GraphViewer::selectNodeNamed(const QString& name)
{
    if (!m_loaded)
        return false;
    const GraphHierarchy& h = *m_loaded->hierarchy;
    const std::string key = name.toStdString();
    int node = h.findOp(key);
    if (node < 0) {
        const int host = h.embeddingHost(key);
        if (host >= 0) {
            const tensorflow::GraphDef& view = *m_loaded->viewGraph;
            int index = -1;
            for (int i = 0; i < view.node_size() && index < 0; ++i)
                if (view.node(i).name() == key)
                    index = i;
            m_embeddedSelection = {host, index};
            if (m_canvas->selected() == host)
                onSelectionChanged(host); // no selection change to wait for
            else
                selectNode(host);
            return true;
        }
        node = h.find(key);
    }
    if (node < 0)
        return false;
    selectNode(node);
    return true;
}

bool GraphViewer::openFunction(const QString& name)
{
    if (!m_loaded || !m_loaded->functions)
        return false;
    const int function = m_loaded->functions->find(name.toStdString());
    if (function < 0)
        return false;
    const int node = m_loaded->hierarchy->find(m_loaded->functions->functions()[static_cast<std::size_t>(function)].scope);
    if (node < 0)
        return false; // a function without arguments, body or results has no group
    m_canvas->keepFitting(false);
    m_focusAfterLayout = node;
    requestLayout([node](GraphViewLayout& layout) {
        layout.expandTo(node);
        layout.setExpanded(node, true);
    });
    // The whole body in view, not just a corner of it.
    connect(this, &GraphViewer::layoutFinished, m_canvas, [this, node] { m_canvas->zoomToNode(node); },
            Qt::SingleShotConnection);
    return true;
}

int GraphViewer::find(const QString& query, SearchMode mode)
{
    m_matches.clear();
    m_matchIndex = -1;
    if (!m_loaded)
        return 0;
    const tensorflow::GraphDef& graph = *m_loaded->viewGraph; // function bodies are searched too
    const SearchResult result = searchGraph(graph, query, mode);
    if (!result.error.isEmpty()) {
        m_findStatus->setText(result.error);
        m_canvas->setMatches({}, -1);
        return 0;
    }
    for (int index : result.matches) {
        const int node = m_loaded->hierarchy->find(graph.node(index).name());
        if (node >= 0)
            m_matches.push_back(node);
    }
    if (!m_matches.empty())
        m_matchIndex = 0;
    revealMatch();
    return static_cast<int>(m_matches.size());
}

void GraphViewer::findNext()
{
    if (m_matches.empty())
        return;
    m_matchIndex = (m_matchIndex + 1) % static_cast<int>(m_matches.size());
    revealMatch();
}

void GraphViewer::findPrevious()
{
    if (m_matches.empty())
        return;
    m_matchIndex = (m_matchIndex + static_cast<int>(m_matches.size()) - 1) % static_cast<int>(m_matches.size());
    revealMatch();
}

void GraphViewer::revealMatch()
{
    // Every match and every group holding one is marked, so matches inside collapsed groups show.
    std::vector<int> marked;
    const GraphHierarchy& h = *m_loaded->hierarchy;
    std::vector<char> seen(h.nodes().size(), 0);
    for (int node : m_matches)
        for (int n = node; n > 0 && !seen[static_cast<std::size_t>(n)]; n = h.node(n).parent) {
            seen[static_cast<std::size_t>(n)] = 1;
            marked.push_back(n);
        }
    const int current = m_matchIndex >= 0 ? m_matches[static_cast<std::size_t>(m_matchIndex)] : -1;
    m_canvas->setMatches(std::move(marked), current);
    updateFindStatus();
    if (current >= 0)
        selectNode(current);
}

void GraphViewer::updateFindStatus()
{
    if (!m_findStatus)
        return;
    if (m_findEdit->text().isEmpty())
        m_findStatus->clear();
    else if (m_matches.empty())
        m_findStatus->setText(tr("No matches"));
    else
        m_findStatus->setText(tr("%1 of %2").arg(m_matchIndex + 1).arg(m_matches.size()));
}

void GraphViewer::traceInputs(bool on)
{
    m_traced.clear();
    const int selected = m_canvas->selected();
    if (on && m_loaded && selected >= 0) {
        const GraphHierarchy& h = *m_loaded->hierarchy;
        std::vector<int> ops;
        const HierarchyNode& n = h.node(selected);
        if (n.kind == HierarchyNodeKind::kOp) {
            ops = graph_viewer::traceInputs(*m_loaded->viewGraph, n.graphIndex);
        }
        std::vector<char> seen(h.nodes().size(), 0);
        auto mark = [&](int node) {
            for (int k = node; k > 0 && !seen[static_cast<std::size_t>(k)]; k = h.node(k).parent) {
                seen[static_cast<std::size_t>(k)] = 1;
                m_traced.push_back(k);
            }
        };
        mark(selected);
        for (int index : ops) {
            const int node = h.find(m_loaded->viewGraph->node(index).name());
            if (node >= 0)
                mark(node);
        }
    }
    {
        const QSignalBlocker block(m_traceAction);
        m_traceAction->setChecked(on);
    }
    m_canvas->setTraced(on ? m_traced : std::vector<int>{});
}

QString GraphViewer::outputDescription(int graphIndex, int output) const
{
    if (!m_facts || graphIndex < 0 || static_cast<std::size_t>(graphIndex) >= m_facts->nodes.size())
        return {};
    const auto& outputs = m_facts->nodes[static_cast<std::size_t>(graphIndex)].outputs;
    if (output < 0 || static_cast<std::size_t>(output) >= outputs.size())
        return {};
    const OutputFact& fact = outputs[static_cast<std::size_t>(output)];
    const QString dtype = fact.dtype == tensorflow::DT_INVALID ? QStringLiteral("?") : q(dataTypeName(fact.dtype));
    return dtype + QLatin1Char(' ') + q(fact.shape.toString());
}

QString GraphViewer::describeEdge(int group, int edgeIndex) const
{
    if (!m_loaded)
        return {};
    const GraphHierarchy& h = *m_loaded->hierarchy;
    const auto& edges = h.node(group).edges;
    if (edgeIndex < 0 || static_cast<std::size_t>(edgeIndex) >= edges.size())
        return {};
    const HierarchyEdge& e = edges[static_cast<std::size_t>(edgeIndex)];
    QString text = QStringLiteral("<b>%1</b> → <b>%2</b>")
                       .arg(leafName(h.node(e.from).name).toHtmlEscaped(), leafName(h.node(e.to).name).toHtmlEscaped());
    QStringList parts;
    if (e.dataCount)
        parts << tr("%n tensor(s)", nullptr, e.dataCount);
    if (e.refCount)
        parts << tr("%n reference edge(s)", nullptr, e.refCount);
    if (e.controlCount)
        parts << tr("%n control dependenc(ies)", nullptr, e.controlCount);
    text += QStringLiteral("<br>") + parts.join(QStringLiteral(", "));
    // Between two ops: the shapes of the tensors that flow.
    const HierarchyNode& from = h.node(e.from);
    const HierarchyNode& to = h.node(e.to);
    if (from.kind == HierarchyNodeKind::kOp && to.kind == HierarchyNodeKind::kOp && from.graphIndex >= 0 && to.graphIndex >= 0) {
        const auto& consumer = m_loaded->viewGraph->node(to.graphIndex);
        QStringList shapes;
        for (const auto& input : consumer.input()) {
            const auto id = parseTensorId(input);
            if (!id || id->isControl() || id->node != from.nodeName)
                continue;
            const QString d = outputDescription(from.graphIndex, id->index);
            shapes << (d.isEmpty() ? q(input) : q(input) + QStringLiteral(": ") + d);
        }
        if (!shapes.isEmpty())
            text += QStringLiteral("<br>") + shapes.join(QStringLiteral("<br>")).toHtmlEscaped().replace(QStringLiteral("&lt;br&gt;"), QStringLiteral("<br>"));
    } else if (e.sizedCount > 0) {
        text += QStringLiteral("<br>") + tr("%1 elements over %2 sized tensor(s)").arg(e.totalSize).arg(e.sizedCount);
    }
    return text;
}

void GraphViewer::fillProblems()
{
    m_problems->clear();
    if (!m_loaded)
        return;
    for (const auto& p : m_loaded->hierarchy->problems())
        m_problems->addItem(q(p));
    for (const auto& w : m_loaded->warnings)
        m_problems->addItem(q(w));
    if (m_loaded->functions)
        for (const auto& p : m_loaded->functions->problems())
            m_problems->addItem(q(p));
    if (m_facts) {
        for (const auto& p : m_facts->problems)
            m_problems->addItem(q(p));
        for (std::size_t i = 0; i < m_facts->nodes.size(); ++i) {
            const std::string& problem = m_facts->nodes[i].problem;
            if (problem.empty())
                continue;
            const QString name = q(m_loaded->graph->node(static_cast<int>(i)).name());
            auto* item = new QListWidgetItem(QStringLiteral("%1: %2").arg(name, q(problem)), m_problems);
            item->setData(Qt::UserRole, name);
            item->setToolTip(tr("Click to show %1").arg(name));
        }
    }
    m_side->setTabText(m_side->indexOf(m_problems), m_facts ? tr("Problems (%1)").arg(m_problems->count()) : tr("Problems"));
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

void GraphViewer::copySelectedName()
{
    if (!m_loaded || m_canvas->selected() < 0)
        return;
    const HierarchyNode& n = m_loaded->hierarchy->node(m_canvas->selected());
    QApplication::clipboard()->setText(q(n.kind == HierarchyNodeKind::kOp ? n.nodeName : n.name));
}

void GraphViewer::showContextMenu(int node, QPoint globalPos)
{
    if (!m_loaded)
        return;
    QMenu menu(this);
    if (node >= 0) {
        const HierarchyNode& n = m_loaded->hierarchy->node(node);
        const int index = m_canvas->itemIndexOf(node);
        const bool expanded = index >= 0 && m_canvas->snapshot()->items[static_cast<std::size_t>(index)].expanded;
        if (n.kind != HierarchyNodeKind::kOp)
            menu.addAction(expanded ? tr("Collapse") : tr("Expand"), this, [this, node, expanded] { setExpanded(node, !expanded); });
        menu.addAction(m_traceAction);
        menu.addAction(m_copyNameAction);
        menu.addAction(m_zoomSelectionAction);
        if (m_timelineAction->isEnabled() && n.kind == HierarchyNodeKind::kOp)
            menu.addAction(m_timelineAction);
        if (n.kind == HierarchyNodeKind::kOp)
            menu.addAction(m_breakpointAction);
        menu.addSeparator();
    }
    menu.addAction(m_fitAction);
    menu.addAction(m_collapseAllAction);
    menu.addAction(m_exportAction);
    menu.exec(globalPos);
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

void GraphViewer::updateActions()
{
    const bool selected = m_canvas && m_canvas->selected() >= 0;
    m_zoomSelectionAction->setEnabled(selected);
    m_copyNameAction->setEnabled(selected);
    m_breakpointAction->setEnabled(selected && m_loaded &&
                                   m_loaded->hierarchy->node(m_canvas->selected()).kind == HierarchyNodeKind::kOp);
    m_traceAction->setEnabled(selected || m_traceAction->isChecked());
}

} // namespace tstudio::graph_viewer
