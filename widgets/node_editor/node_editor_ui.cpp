// NodeEditor's widgets: the palette, canvas, side panel and toolbar, its actions and their texts.
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_internal.h"
#include "node_editor/interactive_session.h"

#include "common/empty_state.h"
#include "document/document_commands.h"
#include "io/formats/graph_def_io.h"
#include "io/formats/graph_file.h"
#include "graph/tensor_id.h"
#include "graph_viewer/graph_facts.h"
#include "graph_viewer/graph_hierarchy.h"
#include "graph_viewer/graph_view_layout.h"
#include "graph_viewer/layered_layout.h"
#include "layers/data_source_nodes.h"
#include "layers/layer_catalog.h"
#include "layers/summary_nodes.h"
#include "model/meta_graph.h"
#include "node_editor/attr_editor.h"
#include "node_editor/evaluate_dialog.h"
#include "node_editor/document_builder.h"
#include "node_editor/document_project.h"
#include "node_editor/node_editor_minimap.h"
#include "node_editor/node_editor_view.h"
#include "node_editor/node_item.h"
#include "node_editor/node_palette.h"
#include "node_editor/scope_frame_item.h"
#include "node_editor/source_preview_view.h"
#include "common/canvas_overlays.h"
#include "common/catalog_text.h"
#include "framework/op_registry.h"
#include "project/format/project_relocation.h"
#include "registries/default_registries.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QScrollBar>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QPushButton>
#include <QToolBar>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace tstudio::node_editor {

using namespace detail;

void NodeEditor::buildUi()
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    m_toolBar = new QToolBar(this);
    m_toolBar->setObjectName(QStringLiteral("editorToolBar"));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    outer->addWidget(m_toolBar);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    m_palette = new NodePalette(splitter);
    fillPalette();
    connect(m_palette, &NodePalette::entryActivated, this, [this](const QString& entry) {
        // Beside the one selected node (the next layer goes to its right), else the view's centre;
        // moved to free space so that nodes added one after another never stack.
        QPointF at = m_view->mapToScene(m_view->viewport()->rect().center());
        const auto selected = m_scene->selectedNodes();
        if (selected.size() == 1)
            if (NodeItem* item = m_scene->nodeItem(selected.front()))
                at = item->sceneBoundingRect().topRight() + QPointF(3 * NodeEditorScene::kGrid, 0);
        addNode(entry, freePlaceNear(at));
    });

    auto* canvasHost = new QWidget(splitter);
    auto* grid = new QGridLayout(canvasHost);
    grid->setContentsMargins(0, 0, 0, 0);
    m_view = new NodeEditorView(m_scene, canvasHost);
    grid->addWidget(m_view, 0, 0, 2, 2);
    m_empty = EmptyState::cover(m_view->viewport(), QStringLiteral("editor"), false);
    const auto showEmpty = [this] { m_empty->setVisible(m_document->nodeCount() == 0); };
    connect(m_document, &GraphDocument::nodeAdded, this, showEmpty);
    connect(m_document, &GraphDocument::nodeRemoved, this, showEmpty);
    connect(m_document, &GraphDocument::reset, this, showEmpty);
    m_minimap = new NodeEditorMinimap(m_view, canvasHost);
    // The minimap floats in a corner, away from the selected nodes; right-click moves or hides it.
    m_overlays = new CanvasOverlays(canvasHost);
    m_minimapAction = new QAction(this);
    m_minimapAction->setCheckable(true);
    m_minimapAction->setChecked(true);
    m_overlays->add(m_minimap, Qt::BottomRightCorner, m_minimapAction);
    addAction(m_minimapAction);
    m_actions[QStringLiteral("minimap")] = m_minimapAction;
    const auto keepClear = [this] {
        QRectF selected;
        for (DocNodeId id : m_scene->selectedNodes())
            if (NodeItem* item = m_scene->nodeItem(id))
                selected |= item->sceneBoundingRect();
        m_overlays->keepClear(selected.isEmpty() ? QRect()
                                                 : m_view->mapFromScene(selected).boundingRect().translated(m_view->pos()));
    };
    connect(m_scene, &QGraphicsScene::selectionChanged, this, keepClear);
    connect(m_view->horizontalScrollBar(), &QScrollBar::valueChanged, this, keepClear);
    connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this, keepClear);
    grid->setRowStretch(0, 1);
    grid->setColumnStretch(0, 1);
    connect(m_view, &NodeEditorView::entryDropped, this, [this](const QString& entry, QPointF at) { addNode(entry, at); });
    connect(m_view, &NodeEditorView::quickAddRequested, this, &NodeEditor::showQuickAdd);
    connect(m_scene, &NodeEditorScene::message, this, [this](const QString& text) {
        m_status->setText(text);
        emit message(text);
    });
    connect(m_scene, &QGraphicsScene::selectionChanged, this, &NodeEditor::showSelection);
    connect(m_scene, &NodeEditorScene::layerOpenRequested, this, &NodeEditor::openLayer);
    // Expanding or collapsing a scope re-arranges a graph that is laid out automatically (as
    // TensorBoard does); a graph the user arranged by hand keeps its places. The collapsed scopes are
    // saved with a project, so toggling one is an undo step (the scene's); the re-arrangement joins
    // that step, so that undo puts every node back.
    connect(m_scene, &NodeEditorScene::nodesMovedByUser, this, [this] { m_autoLayout = false; });
    connect(m_scene, &NodeEditorScene::scopeToggled, this, [this](const std::string& scope, bool collapsed) {
        if (m_autoLayout)
            arrange();
        ScopeFrameItem* frame = m_scene->frame(scope);
        if (frame == nullptr)
            return;
        m_view->ensureVisible(frame->sceneRect(), 40, 40);
        if (m_autoLayout || collapsed)
            return;
        const auto members = m_scene->membersOf(scope);
        const std::set<DocNodeId> inside(members.begin(), members.end());
        for (QGraphicsItem* item : m_scene->items(frame->sceneRect()))
            if (auto* node = dynamic_cast<NodeItem*>(item); node != nullptr && inside.count(node->nodeId()) == 0) {
                m_status->setText(tr("'%1' now overlaps other nodes: Auto-arrange (Ctrl+L) makes room.").arg(q(scope)));
                return;
            }
    });

    m_side = new QTabWidget(splitter);
    m_side->setObjectName(QStringLiteral("editorSideTabs"));
    auto* attrPage = new QWidget(m_side);
    auto* attrLayout = new QVBoxLayout(attrPage);
    m_selectionTitle = new QLabel(attrPage);
    m_selectionTitle->setWordWrap(true);
    m_selectionTitle->setTextFormat(Qt::RichText);
    m_nameEdit = new QLineEdit(attrPage);
    m_nameEdit->setObjectName(QStringLiteral("nodeNameEdit"));
    connect(m_nameEdit, &QLineEdit::editingFinished, this, [this] {
        const auto selected = m_scene->selectedNodes();
        if (selected.size() != 1)
            return;
        const DocNode* node = m_document->node(selected.front());
        if (!node || q(node->name) == m_nameEdit->text())
            return;
        QString error;
        if (!push(m_document, RenameCommand::create(m_document, selected.front(), m_nameEdit->text().toStdString()), &error)) {
            m_status->setText(error);
            m_nameEdit->setText(q(node->name));
        }
    });
    // An Embedding layer's variable opens in the dashboard's Projector (the project's checkpoints).
    m_projectorButton = new QPushButton(attrPage);
    m_projectorButton->setObjectName(QStringLiteral("openInProjector"));
    m_projectorButton->hide();
    connect(m_projectorButton, &QPushButton::clicked, this, &NodeEditor::openSelectionInProjector);
    m_attrs = new AttrEditor(attrPage);
    connect(m_attrs, &AttrEditor::attrEdited, this, &NodeEditor::applyAttr);
    m_preview = new SourcePreviewView(attrPage);
    m_preview->setObjectName(QStringLiteral("sourcePreview"));
    m_preview->hide();
    attrLayout->addWidget(m_selectionTitle);
    attrLayout->addWidget(m_nameEdit);
    attrLayout->addWidget(m_projectorButton, 0, Qt::AlignLeft);
    attrLayout->addWidget(m_attrs, 1);
    attrLayout->addWidget(m_preview, 2);
    m_side->addTab(attrPage, QString());
    m_problems = new QListWidget(m_side);
    m_problems->setObjectName(QStringLiteral("editorProblems"));
    m_problems->setWordWrap(true);
    connect(m_problems, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        const DocNodeId id = item->data(Qt::UserRole).toULongLong();
        if (NodeItem* node = m_scene->nodeItem(id)) {
            m_scene->clearSelection();
            node->setSelected(true);
            m_view->centerOn(node);
        }
    });
    m_side->addTab(m_problems, QString());
    m_history = new QUndoView(m_document->undoStack(), m_side);
    m_side->addTab(m_history, QString());
    splitter->addWidget(m_palette);
    splitter->addWidget(canvasHost);
    splitter->addWidget(m_side);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({220, 800, 300});
    outer->addWidget(splitter, 1);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("editorStatus"));
    m_status->setContentsMargins(6, 2, 6, 2);
    outer->addWidget(m_status);
}

void NodeEditor::createActions()
{
    auto add = [this](const char* key, QKeySequence shortcut, auto slot) {
        auto* action = new QAction(this);
        action->setShortcut(shortcut);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        m_toolBar->addAction(action);
        m_actions[QString::fromLatin1(key)] = action;
        return action;
    };
    // Actions only in the Edit menu (the main window lists this widget's actions there), so that the
    // toolbar keeps a fixed set that fits at 1280 px and never moves under the mouse.
    auto menuOnly = [&](const char* key, QKeySequence shortcut, auto slot) {
        QAction* action = add(key, shortcut, slot);
        m_toolBar->removeAction(action);
        return action;
    };
    // Undo and Redo keep short labels; the command they undo is in their tooltips (QUndoStack's
    // own actions put it in the text, which made the toolbar move with every edit).
    QUndoStack* stack = m_document->undoStack();
    QAction* undo = add("undo", QKeySequence::Undo, [stack] { stack->undo(); });
    QAction* redo = add("redo", QKeySequence::Redo, [stack] { stack->redo(); });
    // Ctrl+Y as well as the platform's Redo (Ctrl+Shift+Z on Linux), first so that the Edit menu shows
    // it, as Qt Creator does on Linux and Windows; macOS keeps its own.
#ifndef Q_OS_MACOS
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    redoKeys.removeAll(QKeySequence(Qt::CTRL | Qt::Key_Y));
    redoKeys.prepend(QKeySequence(Qt::CTRL | Qt::Key_Y));
    redo->setShortcuts(redoKeys);
#endif
    undo->setEnabled(stack->canUndo());
    redo->setEnabled(stack->canRedo());
    connect(stack, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, this, [this] { updateUndoToolTips(); });
    connect(stack, &QUndoStack::redoTextChanged, this, [this] { updateUndoToolTips(); });
    m_toolBar->addSeparator();
    add("delete", QKeySequence::Delete, &NodeEditor::deleteSelection);
    menuOnly("copy", QKeySequence::Copy, &NodeEditor::copySelection);
    menuOnly("cut", QKeySequence::Cut, [this] {
        copySelection();
        deleteSelection();
    });
    menuOnly("paste", QKeySequence::Paste, &NodeEditor::paste);
    add("duplicate", QKeySequence(Qt::CTRL | Qt::Key_D), &NodeEditor::duplicateSelection);
    m_toolBar->addSeparator();
    menuOnly("group", QKeySequence(Qt::CTRL | Qt::Key_G), [this] { groupSelection(); });
    menuOnly("alignLeft", QKeySequence(), [this] { alignSelection(Qt::AlignLeft); });
    menuOnly("alignTop", QKeySequence(), [this] { alignSelection(Qt::AlignTop); });
    menuOnly("collapseScopes", QKeySequence(), [this] { collapseAllScopes(true); });
    menuOnly("expandScopes", QKeySequence(), [this] { collapseAllScopes(false); });
    menuOnly("summaries", QKeySequence(), &NodeEditor::addSummariesToSelection);
    menuOnly("importGraph", QKeySequence(), &NodeEditor::importGraphFromFile);
    menuOnly("projector", QKeySequence(), &NodeEditor::openSelectionInProjector);
    add("arrange", QKeySequence(Qt::CTRL | Qt::Key_L), &NodeEditor::autoArrange);
    add("fit", QKeySequence(Qt::CTRL | Qt::Key_0), [this] { m_view->zoomToFit(); });
    add("view", QKeySequence(), &NodeEditor::viewInGraphViewer);
    add("train", QKeySequence(Qt::Key_F5), [this] { emit trainRequested(); });
    menuOnly("trainDistributed", QKeySequence(), [this] { emit trainDistributedRequested(); });
    add("evaluate", QKeySequence(Qt::CTRL | Qt::Key_Return), [this] {
        const auto selected = m_scene->selectedNodes();
        if (selected.size() != 1 || !m_registries) {
            m_status->setText(tr("Select one node to evaluate."));
            return;
        }
        EvaluateDialog dialog(m_document, m_registries, selected.front(), this, m_session.get());
        dialog.exec();
    });
    add("breakpoint", QKeySequence(Qt::Key_F9), &NodeEditor::toggleBreakpointsOnSelection);
    QAction* snap = add("snap", QKeySequence(), [this] { m_scene->setSnapToGrid(m_actions[QStringLiteral("snap")]->isChecked()); });
    snap->setCheckable(true);
    snap->setChecked(true);
    QAction* all = new QAction(this);
    all->setShortcut(QKeySequence::SelectAll);
    all->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(all, &QAction::triggered, this, [this] {
        for (QGraphicsItem* item : m_scene->items())
            item->setSelected(true);
    });
    addAction(all);
    m_actions[QStringLiteral("selectAll")] = all;
}

void NodeEditor::retranslateUi()
{
    const std::vector<std::pair<const char*, QString>> texts = {
        {"undo", tr("Undo")},              {"redo", tr("Redo")},
        {"delete", tr("Delete")},          {"copy", tr("Copy")},       {"cut", tr("Cut")},
        {"paste", tr("Paste")},            {"duplicate", tr("Duplicate")}, {"group", tr("Group into scope…")},
        {"alignLeft", tr("Align left")},   {"alignTop", tr("Align top")}, {"arrange", tr("Auto-arrange")},
        {"collapseScopes", tr("Collapse all name scopes")}, {"expandScopes", tr("Expand all name scopes")},
        {"fit", tr("Fit")},                {"snap", tr("Snap to grid")}, {"selectAll", tr("Select all")},
        {"view", tr("View in graph viewer")}, {"evaluate", tr("Evaluate…")}, {"train", tr("Train")},
        {"trainDistributed", tr("Run on Several Processes…")},
        {"breakpoint", tr("Toggle breakpoint")}, {"minimap", tr("Show minimap")},
        {"summaries", tr("Add summaries")}, {"importGraph", tr("Import Graph…")},
        {"projector", tr("Open Embedding in Projector")}};
    for (const auto& [key, text] : texts) {
        QAction* action = m_actions[QString::fromLatin1(key)];
        action->setText(text);
        action->setToolTip(action->shortcut().isEmpty() ? text
                                                        : QStringLiteral("%1 (%2)").arg(text, action->shortcut().toString(QKeySequence::NativeText)));
    }
    updateUndoToolTips();
    fillPalette();
    m_side->setTabText(0, tr("Attributes"));
    m_side->setTabText(1, tr("Problems (%1)").arg(m_problems->count()));
    m_side->setTabText(2, tr("History"));
    m_history->setEmptyLabel(tr("<empty>"));
    m_nameEdit->setPlaceholderText(tr("Node name"));
    m_projectorButton->setText(tr("Open in Projector"));
    m_projectorButton->setToolTip(tr("Show this embedding's variable from the project's latest checkpoint in the "
                                     "dashboard's Projector tab"));
    m_empty->setTitle(tr("An empty graph"));
    m_empty->setText(tr("Drag an op or a layer from the palette onto the canvas, or click the canvas and press Tab (or "
                        "type an op's name) to add one. Connect nodes by dragging from an output port to an input port."));
    showSelection();
}

void NodeEditor::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // An opened graph was fitted to the view before its tab had its size: fit it again once shown.
    if (m_fitWhenShown && isVisible()) {
        m_fitWhenShown = false;
        QTimer::singleShot(0, this, [this] { m_view->zoomToFit(); });
    }
}

void NodeEditor::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_fitWhenShown) {
        m_fitWhenShown = false;
        QTimer::singleShot(0, this, [this] { m_view->zoomToFit(); });
    }
}

void NodeEditor::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void NodeEditor::fillPalette()
{
    // The layer catalogue's categories and descriptions in the user's language (tr() of the
    // catalogue's English texts; a doc is its own key, as translations/catalog_strings.cpp lists
    // it for lupdate); opPaletteEntries translates the raw ops' OpDef documentation likewise.
    static const std::map<std::string, const char*> categories = {
        {"Input", QT_TR_NOOP("Input")},         {"Layers", QT_TR_NOOP("Layers")},
        {"Activations", QT_TR_NOOP("Activations")}, {"Losses", QT_TR_NOOP("Losses")},
        // The layer group "Training" holds optimizers; the op category of that name is another group.
        {"Training", QT_TR_NOOP("Optimizers")}, {"Summaries", QT_TR_NOOP("Summaries")}};
    std::vector<PaletteEntry> entries;
    for (const layers::LayerType& layer : layers::layerCatalog()) {
        const auto category = categories.find(layer.category);
        entries.push_back({q(layer.type), category != categories.end() ? tr(category->second) : q(layer.category),
                           layerCatalogText(layer.doc), true});
    }
    if (m_registries) {
        auto ops = opPaletteEntries(m_registries->ops);
        entries.insert(entries.end(), ops.begin(), ops.end());
    }
    const QString filter = m_palette->filterText();
    m_palette->setEntries(entries);
    m_palette->setFilterText(filter);
}

void NodeEditor::updateUndoToolTips()
{
    QUndoStack* stack = m_document->undoStack();
    const auto tip = [](QAction* action, const QString& verb, const QString& command) {
        const QString text = command.isEmpty() ? verb : tr("%1 \"%2\"").arg(verb, command);
        action->setToolTip(QStringLiteral("%1 (%2)").arg(text, action->shortcut().toString(QKeySequence::NativeText)));
    };
    tip(m_actions[QStringLiteral("undo")], tr("Undo"), stack->undoText());
    tip(m_actions[QStringLiteral("redo")], tr("Redo"), stack->redoText());
}

} // namespace tstudio::node_editor
