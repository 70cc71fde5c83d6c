// GraphViewer's widgets: the tab's pages, toolbar, find bar, side panel and legend, their texts
// (retranslateUi), the actions' states and the context menu.
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
    if (m_metaGraph)
        m_side->setTabText(m_side->indexOf(m_metaGraph), tr("MetaGraph"));
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
