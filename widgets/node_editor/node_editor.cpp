// The node editor tab: wiring of palette, canvas, attribute editor, problems, history and live feedback.
#include "node_editor/node_editor.h"

#include "common/empty_state.h"
#include "document/document_commands.h"
#include "graph/graph_def_io.h"
#include "graph/graph_file.h"
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
#include "project_relocation.h"
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
#include <QToolBar>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace tstudio::node_editor {
namespace {

constexpr char kFragmentMime[] = "application/x-tensorstudio-fragment";
constexpr char kPositionsMime[] = "application/x-tensorstudio-positions";

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// The AttrDef type of a layer parameter, from the kind of its default value.
std::string paramType(const tensorflow::AttrValue& value)
{
    switch (value.value_case()) {
    case tensorflow::AttrValue::kI:
        return "int";
    case tensorflow::AttrValue::kF:
        return "float";
    case tensorflow::AttrValue::kB:
        return "bool";
    case tensorflow::AttrValue::kType:
        return "type";
    case tensorflow::AttrValue::kShape:
        return "shape";
    case tensorflow::AttrValue::kList:
        if (value.list().i_size() > 0)
            return "list(int)";
        if (value.list().f_size() > 0)
            return "list(float)";
        if (value.list().shape_size() > 0)
            return "list(shape)";
        return "list(int)";
    default:
        return "string";
    }
}

template <typename Command>
bool push(GraphDocument* document, Expected<std::unique_ptr<Command>> command, QString* error = nullptr)
{
    if (!command) {
        if (error)
            *error = q(command.error().message());
        return false;
    }
    document->undoStack()->push(command->release());
    return true;
}

} // namespace

NodeEditor::NodeEditor(const Registries* registries, QWidget* parent)
    : QWidget(parent), m_registries(registries),
      m_document(new GraphDocument(registries ? &registries->ops : nullptr, this)),
      m_scene(new NodeEditorScene(m_document, this))
{
    setObjectName(QStringLiteral("nodeEditor"));
    installLayerPorts(*m_document);
    buildUi();
    createActions();
    retranslateUi();
    m_feedbackTimer = new QTimer(this);
    m_feedbackTimer->setSingleShot(true);
    m_feedbackTimer->setInterval(60);
    connect(m_feedbackTimer, &QTimer::timeout, this, &NodeEditor::refreshFeedback);
    for (auto signal : {&GraphDocument::nodeAdded, &GraphDocument::nodeRemoved, &GraphDocument::nodePortsChanged,
                        &GraphDocument::deviceChanged})
        connect(m_document, signal, this, &NodeEditor::scheduleFeedback);
    connect(m_document, &GraphDocument::attrChanged, this, &NodeEditor::scheduleFeedback);
    connect(m_document, &GraphDocument::attrChanged, this, [this](DocNodeId id) {
        const auto selected = m_scene->selectedNodes();
        if (selected.size() == 1 && selected.front() == id)
            updatePreview();
    });
    connect(m_document, &GraphDocument::nodeRenamed, this, &NodeEditor::scheduleFeedback);
    connect(m_document, &GraphDocument::connected, this, &NodeEditor::scheduleFeedback);
    connect(m_document, &GraphDocument::disconnected, this, &NodeEditor::scheduleFeedback);
    connect(m_document, &GraphDocument::controlConnected, this, &NodeEditor::scheduleFeedback);
    connect(m_document, &GraphDocument::controlDisconnected, this, &NodeEditor::scheduleFeedback);
    connect(m_document, &GraphDocument::reset, this, &NodeEditor::scheduleFeedback);
    connect(m_document->undoStack(), &QUndoStack::cleanChanged, this, [this] {
        emit titleChanged(QFileInfo(m_path).fileName().isEmpty() ? tr("Untitled graph") : QFileInfo(m_path).fileName());
    });
}

NodeEditor::~NodeEditor()
{
    // The document (a child, deleted after this object's members) emits while it dies: not to us.
    QObject::disconnect(m_document->undoStack(), nullptr, this, nullptr);
    QObject::disconnect(m_document, nullptr, this, nullptr);
    // The scene deselects its items while it deletes them: not to us either.
    QObject::disconnect(m_scene, nullptr, this, nullptr);
}

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
    m_attrs = new AttrEditor(attrPage);
    connect(m_attrs, &AttrEditor::attrEdited, this, &NodeEditor::applyAttr);
    m_preview = new SourcePreviewView(attrPage);
    m_preview->setObjectName(QStringLiteral("sourcePreview"));
    m_preview->hide();
    attrLayout->addWidget(m_selectionTitle);
    attrLayout->addWidget(m_nameEdit);
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
        EvaluateDialog dialog(m_document, m_registries, selected.front(), this);
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
        {"summaries", tr("Add summaries")}};
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

QString NodeEditor::defaultName(const QString& kind, const QString& type) const
{
    if (kind == QLatin1String("op"))
        return type; // TensorFlow names an unnamed op after its type
    static const std::map<QString, QString> layerNames = {
        {QStringLiteral("Dense"), QStringLiteral("dense")},       {QStringLiteral("Conv2D"), QStringLiteral("conv2d")},
        {QStringLiteral("Conv2DTranspose"), QStringLiteral("conv2d_transpose")},
        {QStringLiteral("MaxPool"), QStringLiteral("max_pooling2d")}, {QStringLiteral("AvgPool"), QStringLiteral("average_pooling2d")},
        {QStringLiteral("BatchNorm"), QStringLiteral("batch_normalization")}, {QStringLiteral("Dropout"), QStringLiteral("dropout")},
        {QStringLiteral("Flatten"), QStringLiteral("flatten")},   {QStringLiteral("Input"), QStringLiteral("input")},
        // Data sources by what they read; losses as tf.losses names their scopes.
        {QStringLiteral("MnistSource"), QStringLiteral("mnist")}, {QStringLiteral("SpiralsSource"), QStringLiteral("spirals")},
        {QStringLiteral("ImageFolderSource"), QStringLiteral("images")}, {QStringLiteral("NumpySource"), QStringLiteral("numpy")},
        {QStringLiteral("CsvSource"), QStringLiteral("csv")},     {QStringLiteral("TfRecordSource"), QStringLiteral("tfrecord")},
        {QStringLiteral("SoftmaxCrossEntropy"), QStringLiteral("softmax_cross_entropy_loss")},
        {QStringLiteral("SparseSoftmaxCrossEntropy"), QStringLiteral("sparse_softmax_cross_entropy_loss")},
        {QStringLiteral("MeanSquaredError"), QStringLiteral("mean_squared_error")},
        // Summaries after their kind, the tf.summary function (the node's name is the summary's name).
        {QStringLiteral("ScalarSummary"), QStringLiteral("scalar")}, {QStringLiteral("HistogramSummary"), QStringLiteral("histogram")},
        {QStringLiteral("ImageSummary"), QStringLiteral("image")}, {QStringLiteral("AudioSummary"), QStringLiteral("audio")},
        {QStringLiteral("TextSummary"), QStringLiteral("text")}};
    const auto it = layerNames.find(type);
    return it != layerNames.end() ? it->second : type.toLower();
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

QPointF NodeEditor::freePlaceNear(QPointF wanted) const
{
    // A new node's footprint (a layer node with a few ports) with a margin; candidate places on a
    // grid of footprints around `wanted`, nearest first.
    const QSizeF footprint(220, 110);
    std::vector<QPointF> candidates;
    for (int iy = -6; iy <= 6; ++iy)
        for (int ix = -4; ix <= 4; ++ix)
            candidates.push_back(wanted + QPointF(ix * footprint.width(), iy * footprint.height()));
    std::stable_sort(candidates.begin(), candidates.end(), [&](QPointF a, QPointF b) {
        const QPointF da = a - wanted, db = b - wanted;
        return QPointF::dotProduct(da, da) < QPointF::dotProduct(db, db);
    });
    for (QPointF at : candidates) {
        const QRectF rect(at, footprint);
        bool free = true;
        for (DocNodeId id : m_document->nodes())
            if (const NodeItem* item = m_scene->nodeItem(id); item && item->sceneBoundingRect().intersects(rect)) {
                free = false;
                break;
            }
        if (free)
            return at;
    }
    return wanted; // crowded everywhere near: the wanted place
}

DocNodeId NodeEditor::addNode(const QString& kindAndType, QPointF scenePos)
{
    const int colon = static_cast<int>(kindAndType.indexOf(QLatin1Char(':')));
    const QString kind = kindAndType.left(colon);
    const QString type = kindAndType.mid(colon + 1);
    NodeSpec spec;
    spec.kind = kind == QLatin1String("layer") ? NodeKind::kLayer : NodeKind::kOp;
    spec.type = type.toStdString();
    spec.name = m_document->uniqueName(defaultName(kind, type).toStdString());
    spec.position = QPointF(std::round(scenePos.x() / NodeEditorScene::kGrid) * NodeEditorScene::kGrid,
                            std::round(scenePos.y() / NodeEditorScene::kGrid) * NodeEditorScene::kGrid);
    if (spec.kind == NodeKind::kLayer) {
        if (const layers::LayerType* layer = layers::findLayerType(spec.type))
            for (const layers::LayerParam& p : layer->params)
                spec.attrs[p.name] = p.defaultValue;
    } else if (const OpRegistration* reg = m_registries ? m_registries->ops.find(spec.type) : nullptr) {
        // A type attr with no default that no input can determine (Placeholder's dtype, Const's dtype) starts
        // as float32, or the first type the op allows, so a new node is valid as placed.
        for (const auto& attr : reg->opDef.attr()) {
            if (attr.type() != "type" || attr.has_default_value())
                continue;
            bool inferable = false;
            for (const auto& arg : reg->opDef.input_arg())
                inferable = inferable || arg.type_attr() == attr.name();
            if (inferable)
                continue;
            tensorflow::AttrValue value;
            const auto& allowed = attr.allowed_values().list().type();
            value.set_type(allowed.empty() || std::find(allowed.begin(), allowed.end(), tensorflow::DT_FLOAT) != allowed.end()
                               ? tensorflow::DT_FLOAT
                               : static_cast<tensorflow::DataType>(allowed[0]));
            spec.attrs[attr.name()] = value;
        }
    }
    auto command = AddNodeCommand::create(m_document, spec);
    if (!command) {
        m_status->setText(q(command.error().message()));
        return kNoNode;
    }
    AddNodeCommand* raw = command->get();
    m_document->undoStack()->push(command->release());
    const DocNodeId id = raw->nodeId();
    m_scene->clearSelection();
    if (NodeItem* item = m_scene->nodeItem(id)) {
        item->setSelected(true);
        m_view->reveal(item->sceneBoundingRect()); // placed beside the selection, maybe off-screen
    }
    return id;
}

void NodeEditor::showQuickAdd(QPoint globalPos, QPointF scenePos, const QString& text)
{
    QuickAddPopup* popup = QuickAddPopup::showAt(m_palette->entries(), globalPos, this);
    if (!text.isEmpty())
        popup->setFilterText(text);
    connect(popup, &QuickAddPopup::chosen, this, [this, scenePos](const QString& entry) { addNode(entry, scenePos); });
}

void NodeEditor::showSelection()
{
    const auto selected = m_scene->selectedNodes();
    m_attrs->clear();
    updatePreview();
    if (selected.size() != 1) {
        m_selectionTitle->setText(selected.empty() ? tr("Select a node to edit its attributes.")
                                                   : tr("%n nodes selected", nullptr, static_cast<int>(selected.size())));
        m_nameEdit->setEnabled(false);
        m_nameEdit->clear();
        return;
    }
    const DocNode* node = m_document->node(selected.front());
    if (!node)
        return;
    m_nameEdit->setEnabled(true);
    m_nameEdit->setText(q(node->name));
    const NodeItem* item = m_scene->nodeItem(selected.front());
    const QString problem = item && !item->problem().isEmpty()
                                ? QStringLiteral("<br><span style='color:#c62828'>%1</span>").arg(item->problem().toHtmlEscaped())
                                : QString();
    AttrMap values;
    for (const auto& [k, v] : node->attrs)
        values[k] = v;
    if (node->kind == NodeKind::kLayer) {
        const layers::LayerType* layer = layers::findLayerType(node->type);
        m_selectionTitle->setText(QStringLiteral("<b>%1</b> — %2").arg(q(node->type).toHtmlEscaped(),
                                                                          layer ? layerCatalogText(layer->doc).toHtmlEscaped() : tr("unknown layer type")) +
                                  problem);
        if (layer) {
            std::vector<tensorflow::OpDef::AttrDef> params;
            for (const layers::LayerParam& p : layer->params)
                params.push_back(layerParam(p.name, paramType(p.defaultValue), p.defaultValue, p.doc, p.choices));
            m_attrs->setParams(params, values);
        }
        return;
    }
    const OpRegistration* reg = m_registries ? m_registries->ops.find(node->type) : nullptr;
    m_selectionTitle->setText(QStringLiteral("<b>%1</b> — %2").arg(q(node->type).toHtmlEscaped(),
                                                                      reg ? opCatalogText(reg->opDef.summary()).toHtmlEscaped() : tr("op not registered")) +
                              problem);
    if (reg)
        m_attrs->setOpDef(reg->opDef, values);
}

void NodeEditor::updatePreview()
{
    const auto selected = m_scene->selectedNodes();
    const DocNode* node = selected.size() == 1 ? m_document->node(selected.front()) : nullptr;
    if (!node || node->kind != NodeKind::kLayer || !layers::isDataSourceType(node->type)) {
        m_preview->hide();
        return;
    }
    m_preview->show();
    const QString title = QStringLiteral("%1 (%2)").arg(q(node->name), q(node->type));
    auto source = dataSourceOfNode(*node);
    if (!source) {
        m_preview->showMessage(q(source.error().message()));
        return;
    }
    // Relative paths are read as the runner reads them: from the project's folder (or data.dir).
    const QString name = m_path.isEmpty() ? QStringLiteral("model") : QFileInfo(m_path).completeBaseName();
    project::Project p = m_project ? *m_project : newProject(name.toStdString());
    if (p.location.empty() && m_path.endsWith(QStringLiteral(".tsproj"), Qt::CaseInsensitive))
        p.location = m_path.toStdString();
    p.sources = {std::move(*source)};
    m_preview->setSource(std::move(p), 0, title);
}

void NodeEditor::applyAttr(const QString& name, const tensorflow::AttrValue& value)
{
    const auto selected = m_scene->selectedNodes();
    if (selected.size() != 1)
        return;
    QString error;
    if (!push(m_document, SetAttrCommand::create(m_document, selected.front(), name.toStdString(), value), &error))
        m_status->setText(error);
}

void NodeEditor::scheduleFeedback()
{
    m_feedbackTimer->start();
}

void NodeEditor::refreshFeedback()
{
    m_feedbackTimer->stop();
    if (!m_registries)
        return;
    QElapsedTimer timer;
    timer.start();
    DocumentBuild build = buildDocument(*m_document, m_registries->ops, true);
    tensorflow::GraphDef graph;
    if (build.builder)
        graph = build.builder->graphDef();
    const graph_viewer::GraphFacts facts = graph_viewer::computeGraphFacts(graph, *m_registries);
    std::unordered_map<std::string, int> byName;
    for (int i = 0; i < graph.node_size(); ++i)
        byName.emplace(graph.node(i).name(), i);
    std::map<DocNodeId, NodeFeedback> feedback;
    m_problems->clear();
    for (DocNodeId id : m_document->nodes()) {
        const DocNode* node = m_document->node(id);
        NodeFeedback fb;
        const auto problem = build.problems.find(id);
        if (problem != build.problems.end())
            fb.problem = q(problem->second);
        const auto tensors = build.tensors.find(id);
        if (tensors != build.tensors.end()) {
            for (const std::string& tensor : tensors->second) {
                const auto tensorId = parseTensorId(tensor);
                const int output = tensorId ? tensorId->index : -1;
                const auto it = tensorId ? byName.find(tensorId->node) : byName.end();
                QString shape;
                QString dtype;
                if (it != byName.end() && static_cast<std::size_t>(it->second) < facts.nodes.size()) {
                    const auto& nf = facts.nodes[static_cast<std::size_t>(it->second)];
                    if (output >= 0 && static_cast<std::size_t>(output) < nf.outputs.size()) {
                        const auto& fact = nf.outputs[static_cast<std::size_t>(output)];
                        if (fact.shapeKnown)
                            shape = q(fact.shape.toString());
                        if (fact.dtype != tensorflow::DT_INVALID)
                            dtype = q(dataTypeName(fact.dtype));
                    }
                    if (fb.problem.isEmpty() && !nf.problem.empty() && node->kind == NodeKind::kOp)
                        fb.problem = q(nf.problem);
                }
                fb.shapes.push_back(shape);
                fb.dtypes.push_back(dtype);
            }
        }
        if (!fb.problem.isEmpty()) {
            auto* item = new QListWidgetItem(QStringLiteral("%1: %2").arg(q(node->name), fb.problem), m_problems);
            item->setData(Qt::UserRole, QVariant::fromValue<qulonglong>(id));
        }
        feedback.emplace(id, std::move(fb));
    }
    m_scene->setFeedback(feedback);
    m_feedbackMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    m_side->setTabText(1, tr("Problems (%1)").arg(m_problems->count()));
    showSelection();
    m_status->setText(tr("%n node(s) · shapes inferred in %1 ms", nullptr, static_cast<int>(m_document->nodeCount()))
                          .arg(m_feedbackMs, 0, 'f', 1));
}

void NodeEditor::deleteSelection()
{
    const auto nodes = m_scene->selectedNodes();
    const auto connections = m_scene->selectedConnections();
    if (nodes.empty() && connections.empty())
        return;
    m_document->undoStack()->beginMacro(tr("Delete"));
    for (const Connection& c : connections)
        if (std::find(nodes.begin(), nodes.end(), c.from) == nodes.end() && std::find(nodes.begin(), nodes.end(), c.to) == nodes.end())
            push(m_document, DisconnectCommand::create(m_document, c));
    if (!nodes.empty())
        push(m_document, RemoveNodesCommand::create(m_document, std::set<DocNodeId>(nodes.begin(), nodes.end())));
    m_document->undoStack()->endMacro();
}

void NodeEditor::copySelection()
{
    const auto nodes = m_scene->selectedNodes();
    if (nodes.empty())
        return;
    const tensorflow::GraphDef fragment = m_document->fragment(std::set<DocNodeId>(nodes.begin(), nodes.end()));
    QByteArray positions;
    for (DocNodeId id : nodes)
        if (const DocNode* node = m_document->node(id))
            positions += QStringLiteral("%1\t%2\t%3\n").arg(q(node->name)).arg(node->position.x()).arg(node->position.y()).toUtf8();
    auto* mime = new QMimeData;
    const std::string bytes = fragment.SerializeAsString();
    mime->setData(QString::fromLatin1(kFragmentMime), QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())));
    mime->setData(QString::fromLatin1(kPositionsMime), positions);
    mime->setText(q(fragment.DebugString()));
    QApplication::clipboard()->setMimeData(mime);
}

void NodeEditor::paste()
{
    const QMimeData* mime = QApplication::clipboard()->mimeData();
    if (!mime || !mime->hasFormat(QString::fromLatin1(kFragmentMime)))
        return;
    const QByteArray bytes = mime->data(QString::fromLatin1(kFragmentMime));
    tensorflow::GraphDef fragment;
    if (!fragment.ParseFromArray(bytes.constData(), static_cast<int>(bytes.size())))
        return;
    std::map<std::string, QPointF> positions;
    for (const QByteArray& line : mime->data(QString::fromLatin1(kPositionsMime)).split('\n')) {
        const QList<QByteArray> parts = line.split('\t');
        if (parts.size() == 3)
            positions[parts[0].toStdString()] = QPointF(parts[1].toDouble(), parts[2].toDouble());
    }
    auto command = PasteCommand::create(m_document, fragment, positions, QPointF(40, 40));
    if (!command) {
        m_status->setText(q(command.error().message()));
        return;
    }
    PasteCommand* raw = command->get();
    m_document->undoStack()->push(command->release());
    m_scene->clearSelection();
    QRectF pasted;
    for (DocNodeId id : raw->pastedIds())
        if (NodeItem* item = m_scene->nodeItem(id)) {
            item->setSelected(true);
            pasted |= item->sceneBoundingRect();
        }
    if (!pasted.isEmpty())
        m_view->reveal(pasted); // pasted beside the copied nodes, which may be scrolled away
}

void NodeEditor::duplicateSelection()
{
    copySelection();
    paste();
}

void NodeEditor::groupSelection(const QString& scope)
{
    const auto nodes = m_scene->selectedNodes();
    if (nodes.empty())
        return;
    QString name = scope;
    if (name.isEmpty()) {
        bool ok = false;
        name = QInputDialog::getText(this, tr("Group into scope"), tr("Name scope:"), QLineEdit::Normal, QStringLiteral("scope"), &ok);
        if (!ok || name.isEmpty())
            return;
    }
    QString error;
    if (!push(m_document, GroupIntoScopeCommand::create(m_document, std::set<DocNodeId>(nodes.begin(), nodes.end()), name.toStdString()), &error))
        m_status->setText(error);
}

void NodeEditor::alignSelection(Qt::Alignment edge)
{
    const auto nodes = m_scene->selectedNodes();
    if (nodes.size() < 2)
        return;
    double target = 1e300;
    for (DocNodeId id : nodes)
        if (const DocNode* node = m_document->node(id))
            target = std::min(target, edge == Qt::AlignLeft ? node->position.x() : node->position.y());
    std::map<DocNodeId, QPointF> moved;
    for (DocNodeId id : nodes)
        if (const DocNode* node = m_document->node(id))
            moved[id] = edge == Qt::AlignLeft ? QPointF(target, node->position.y()) : QPointF(node->position.x(), target);
    push(m_document, MoveNodesCommand::create(m_document, moved));
    m_autoLayout = false;
}

void NodeEditor::autoArrange()
{
    arrange();
    m_view->zoomToFit();
    m_minimap->refit();
}

void NodeEditor::collapseAllScopes(bool collapse)
{
    std::set<std::string> collapsed;
    if (collapse)
        for (const std::string& scope : m_scene->scopes())
            collapsed.insert(scope);
    // The whole graph changes shape: laid out again, in the same undo step as the collapsing.
    QUndoStack* stack = m_document->undoStack();
    stack->beginMacro(collapse ? tr("Collapse all name scopes") : tr("Expand all name scopes"));
    m_scene->changeCollapsedScopes(collapsed, QString());
    arrange();
    stack->endMacro();
    m_view->zoomToFit();
    m_minimap->refit();
}

void NodeEditor::arrange()
{
    const auto ids = m_document->nodes();
    if (ids.empty())
        return;
    m_scene->updateFrames();
    // The document as a GraphDef of names and edges: the graph viewer's hierarchy gives one group
    // per name scope, laid out with collapsed scopes as one box and expanded ones around their nodes.
    tensorflow::GraphDef sketch;
    for (DocNodeId id : ids) {
        const DocNode* node = m_document->node(id);
        tensorflow::NodeDef* def = sketch.add_node();
        def->set_name(node->name);
        def->set_op(node->type);
    }
    std::map<DocNodeId, int> index;
    for (DocNodeId id : ids)
        index[id] = static_cast<int>(index.size());
    for (const Connection& c : m_document->connections()) {
        const DocNode* from = m_document->node(c.from);
        tensorflow::NodeDef* to = sketch.mutable_node(index[c.to]);
        to->add_input(c.isControl() ? "^" + from->name
                                    : from->name + (c.output > 0 ? ":" + std::to_string(c.output) : std::string()));
    }
    graph_viewer::HierarchyOptions hierarchyOptions;
    hierarchyOptions.seriesMinSize = 0; // every node is drawn: no series, side areas or embeddings
    hierarchyOptions.extractAuxiliary = false;
    hierarchyOptions.enableEmbedding = false;
    hierarchyOptions.embedSummaries = false;
    auto hierarchy = std::make_shared<const graph_viewer::GraphHierarchy>(graph_viewer::GraphHierarchy::build(sketch, hierarchyOptions));
    graph_viewer::GraphViewLayoutOptions options;
    options.layered.direction = graph_viewer::LayoutDirection::kLeftToRight; // ports: inputs left, outputs right
    options.layered.nodeSeparation = 30;
    options.layered.rankSeparation = 80;
    options.groupPadding = ScopeFrameItem::kPadding;
    options.groupHeader = ScopeFrameItem::kHeader;
    options.collapsedSize = [this](const graph_viewer::HierarchyNode& node) -> graph_viewer::LayoutSize {
        if (node.kind == graph_viewer::HierarchyNodeKind::kOp) {
            const NodeItem* item = m_scene->nodeItem(m_document->findByName(node.nodeName));
            const QRectF r = item ? item->boundingRect() : QRectF(0, 0, 160, 60);
            return {r.width(), r.height()};
        }
        const ScopeFrameItem* frame = m_scene->frame(node.name);
        const QSizeF size = frame ? frame->collapsedSize() : QSizeF(160, ScopeFrameItem::kCollapsedHeight);
        return {size.width(), size.height()};
    };
    auto snap = [](double v) { return std::round(v / NodeEditorScene::kGrid) * NodeEditorScene::kGrid; };
    std::map<DocNodeId, QPointF> moved;
    for (DocNodeId id : ids)
        moved[id] = m_document->node(id)->position;
    // Twice when scopes are collapsed: first everything expanded, which places every node inside its
    // scope (what a collapsed scope shows once expanded), then the collapsed scopes as boxes, their
    // nodes moved along.
    const bool anyCollapsed = !m_scene->collapsedScopes().empty();
    for (const bool expandAll : anyCollapsed ? std::vector<bool>{true, false} : std::vector<bool>{false}) {
        graph_viewer::GraphViewLayout layout(hierarchy, options);
        for (const graph_viewer::HierarchyNode& node : hierarchy->nodes())
            if (node.kind == graph_viewer::HierarchyNodeKind::kGroup && node.id != hierarchy->root())
                layout.setExpanded(node.id, expandAll || !m_scene->isScopeCollapsed(node.name));
        layout.update();
        for (const graph_viewer::ViewItem& item : layout.items()) {
            const graph_viewer::HierarchyNode& node = hierarchy->node(item.node);
            if (node.kind == graph_viewer::HierarchyNodeKind::kOp) {
                const DocNodeId id = m_document->findByName(node.nodeName);
                const NodeItem* shown = m_scene->nodeItem(id);
                if (shown == nullptr)
                    continue;
                const QPointF offset = shown->boundingRect().topLeft(); // ports stick out left of the body
                moved[id] = QPointF(snap(item.x - offset.x()), snap(item.y - offset.y()));
            } else if (!item.expanded) {
                // A collapsed scope moves as a whole: its box (at the top-left of its nodes, as the
                // scene draws it) goes where the layout puts it.
                const auto members = m_scene->membersOf(node.name);
                QPointF topLeft(1e300, 1e300);
                for (DocNodeId id : members)
                    if (const NodeItem* shown = m_scene->nodeItem(id)) {
                        const QPointF corner = moved[id] + shown->boundingRect().topLeft();
                        topLeft = QPointF(std::min(topLeft.x(), corner.x()), std::min(topLeft.y(), corner.y()));
                    }
                if (members.empty())
                    continue;
                const QPointF box = topLeft - QPointF(ScopeFrameItem::kPadding, ScopeFrameItem::kPadding + ScopeFrameItem::kHeader);
                const QPointF delta(snap(item.x - box.x()), snap(item.y - box.y()));
                for (DocNodeId id : members)
                    moved[id] += delta;
            }
        }
    }
    push(m_document, MoveNodesCommand::create(m_document, moved));
    m_scene->updateFrames();
    m_autoLayout = true;
}

Status NodeEditor::loadGraphDef(const tensorflow::GraphDef& graph, const QString& title)
{
    auto warnings = m_document->fromGraphDef(graph);
    if (!warnings)
        return warnings.error();
    for (const std::string& w : *warnings)
        m_status->setText(q(w));
    refreshFeedback(); // first: live dtypes and shapes widen the port labels, and the layout needs the widths
    collapseLargeGraph();
    autoArrange();
    m_fitWhenShown = true;
    m_document->undoStack()->clear();
    m_document->undoStack()->setClean();
    emit titleChanged(title);
    return Status::ok();
}

Status NodeEditor::openFile(const QString& path)
{
    if (path.endsWith(QStringLiteral(".tsproj"), Qt::CaseInsensitive))
        return openProject(path);
    auto file = readGraphFromFile(path.toStdString());
    if (!file)
        return file.error();
    const Status s = loadGraphDef(file->graph, QFileInfo(path).fileName());
    if (s.isOk()) {
        m_path = path;
        m_project.reset();
        m_scene->setBreakpoints({});
    }
    return s;
}

Status NodeEditor::openProject(const QString& path)
{
    if (!m_registries)
        return failedPreconditionError("no op registry");
    auto project = project::loadProject(path.toStdString());
    if (!project)
        return project.error();
    auto state = editorState(*project, m_registries->ops);
    if (!state)
        return state.error();
    auto warnings = m_document->fromGraphDef(state->graph, state->positions);
    if (!warnings)
        return warnings.error().withContext(QFileInfo(path).fileName().toStdString());
    std::vector<std::string> notes = state->warnings;
    notes.insert(notes.end(), warnings->begin(), warnings->end());
    bool placed = true;
    for (DocNodeId id : m_document->nodes())
        placed = placed && state->positions.count(m_document->node(id)->name) > 0;
    // The saved view state with the saved positions: positions laid out with collapsed scopes pile
    // the frames on each other when those scopes open expanded.
    if (!placed) {
        refreshFeedback(); // the nodes' widths follow their live port labels
        if (state->view)
            m_scene->setCollapsedScopes(state->view->collapsedScopes);
        else
            collapseLargeGraph();
        autoArrange();
    } else {
        m_scene->setCollapsedScopes(state->view ? state->view->collapsedScopes : std::set<std::string>{});
        m_autoLayout = state->view && state->view->autoLayout;
        m_view->zoomToFit();
    }
    m_fitWhenShown = true;
    m_document->undoStack()->clear();
    m_document->undoStack()->setClean();
    m_path = path;
    m_project = std::move(*project);
    m_scene->setBreakpoints(m_project->debugger.breakpoints);
    m_status->setText(notes.empty() ? QString() : q(notes.front()));
    for (const std::string& note : notes)
        emit message(QFileInfo(path).fileName() + QStringLiteral(": ") + q(note));
    emit titleChanged(QFileInfo(path).fileName());
    refreshFeedback();
    return Status::ok();
}

void NodeEditor::collapseLargeGraph()
{
    // A graph opened from a file shows its name scopes collapsed when it has more nodes than fit
    // on a screen at a readable size (TensorBoard's graph dashboard starts the same way).
    m_scene->updateFrames();
    std::set<std::string> collapsed;
    if (m_document->nodeCount() > kCollapseScopesAbove)
        for (const std::string& scope : m_scene->scopes())
            collapsed.insert(scope);
    m_scene->setCollapsedScopes(collapsed);
}

bool NodeEditor::showNode(const QString& name)
{
    const std::string wanted = name.toStdString();
    DocNodeId id = m_document->findByName(wanted);
    if (id == kNoNode) {
        std::size_t best = 0;
        for (DocNodeId candidate : m_document->nodes()) {
            const std::string& n = m_document->node(candidate)->name;
            if (n.size() > best && wanted.size() > n.size() && wanted.compare(0, n.size(), n) == 0 && wanted[n.size()] == '/') {
                best = n.size();
                id = candidate;
            }
        }
    }
    NodeItem* item = id == kNoNode ? nullptr : m_scene->nodeItem(id);
    if (!item)
        return false;
    m_scene->reveal(id); // a node inside collapsed scopes: expand them
    m_scene->clearSelection();
    item->setSelected(true);
    m_view->centerOn(item);
    return true;
}

Expected<project::Project> NodeEditor::trainingProject() const
{
    if (!m_registries)
        return unexpected(failedPreconditionError("no op registry"));
    const QString name = m_path.isEmpty() ? QStringLiteral("model") : QFileInfo(m_path).completeBaseName();
    return documentProject(*m_document, m_registries->ops, m_project ? *m_project : newProject(name.toStdString()));
}

Status NodeEditor::saveAs(const QString& path)
{
    if (!m_registries)
        return failedPreconditionError("no op registry");
    Status written;
    std::optional<project::Project> savedProject;
    if (path.endsWith(QStringLiteral(".tsproj"), Qt::CaseInsensitive)) {
        // Under a new name or in another folder: the project's name, log folder (a trained run's
        // stays the project's) and relative paths follow.
        project::Project base = m_project ? project::relocatedProject(*m_project, path.toStdString())
                                          : newProject(QFileInfo(path).completeBaseName().toStdString());
        // With the view state: which scopes are collapsed, and whether the places are the automatic layout.
        auto p = documentProject(*m_document, m_registries->ops, std::move(base),
                                 EditorView{m_scene->collapsedScopes(), m_autoLayout});
        if (!p)
            return p.error();
        p->location = path.toStdString();
        written = project::saveProject(*p, path.toStdString());
        savedProject = std::move(*p);
    } else if (path.endsWith(QStringLiteral(".meta"), Qt::CaseInsensitive)) {
        auto meta = documentMetaGraph(*m_document, m_registries->ops);
        if (!meta)
            return meta.error();
        written = writeMetaGraphFile(path.toStdString(), *meta);
    } else {
        auto graph = documentGraphDef(*m_document, m_registries->ops);
        if (!graph)
            return graph.error();
        written = writeGraphDef(path.toStdString(), *graph,
                                path.endsWith(QStringLiteral(".pb"), Qt::CaseInsensitive) ? GraphDefFormat::kBinary : GraphDefFormat::kText);
    }
    if (!written.isOk())
        return written;
    m_path = path;
    if (savedProject) {
        m_project = std::move(savedProject);
        m_debuggerSettingsChanged = false;
        m_runSettingsChanged = false;
    }
    m_document->undoStack()->setClean();
    emit titleChanged(QFileInfo(path).fileName());
    return Status::ok();
}

void NodeEditor::viewInGraphViewer()
{
    if (!m_registries)
        return;
    DocumentBuild build = buildDocument(*m_document, m_registries->ops, true);
    if (!build.builder)
        return;
    const QString title = QFileInfo(m_path).fileName().isEmpty() ? tr("Untitled graph") : QFileInfo(m_path).fileName();
    emit viewRequested(build.builder->graphDef(), title);
}

tensorflow::GraphDef NodeEditor::layerOps(DocNodeId id) const
{
    tensorflow::GraphDef out;
    const DocNode* node = m_document->node(id);
    if (!m_registries || !node || node->kind != NodeKind::kLayer)
        return out;
    DocumentBuild build = buildDocument(*m_document, m_registries->ops, true);
    const auto tensors = build.tensors.find(id);
    if (!build.builder || tensors == build.tensors.end() || tensors->second.empty())
        return out;
    // The scope the layer was built in: its outputs' names up to the last '/' ("fc1/Relu:0" -> "fc1").
    const std::string& first = tensors->second.front();
    const auto slash = first.rfind('/');
    if (slash == std::string::npos)
        return out;
    const std::string scope = first.substr(0, slash) + "/";
    for (const auto& n : build.builder->graphDef().node())
        if (n.name().compare(0, scope.size(), scope) == 0)
            *out.add_node() = n;
    return out;
}

void NodeEditor::openLayer(DocNodeId id)
{
    const tensorflow::GraphDef ops = layerOps(id);
    const DocNode* node = m_document->node(id);
    if (ops.node_size() == 0 || !node) {
        m_status->setText(tr("This layer does not build yet: see its problem."));
        return;
    }
    emit viewRequested(ops, tr("%1 (%2 ops)").arg(q(node->name)).arg(ops.node_size()));
}

bool NodeEditor::suggestsProject() const
{
    if (m_project)
        return true;
    for (DocNodeId id : m_document->nodes()) {
        const DocNode* node = m_document->node(id);
        if (!node || node->kind != NodeKind::kLayer)
            continue;
        const layers::LayerType* layer = layers::findLayerType(node->type);
        if (node->type == "Dataset" || layers::isDataSourceType(node->type) || (layer && layer->category == "Training"))
            return true;
    }
    return false;
}

bool NodeEditor::isModified() const
{
    return !m_document->undoStack()->isClean() || m_debuggerSettingsChanged || m_runSettingsChanged;
}

void NodeEditor::toggleBreakpointsOnSelection()
{
    const auto selected = m_scene->selectedNodes();
    if (selected.empty()) {
        m_status->setText(tr("Select the nodes to put a breakpoint on."));
        return;
    }
    project::DebuggerSettings settings = m_project ? m_project->debugger : project::DebuggerSettings{};
    for (DocNodeId id : selected) {
        const DocNode* node = m_document->node(id);
        if (!node)
            continue;
        debugger::Breakpoint breakpoint;
        if (node->kind == NodeKind::kOp) {
            breakpoint.target = debugger::Breakpoint::Target::kNode;
            breakpoint.pattern = node->name;
        } else {
            breakpoint.target = debugger::Breakpoint::Target::kNameRegex;
            std::string escaped;
            for (char c : node->name) {
                if (std::string_view(".^$|()[]{}*+?\\").find(c) != std::string_view::npos)
                    escaped += '\\';
                escaped += c;
            }
            breakpoint.pattern = "^" + escaped + "/";
        }
        auto& list = settings.breakpoints;
        const auto same = [&](const debugger::Breakpoint& b) {
            return b.target == breakpoint.target && b.pattern == breakpoint.pattern;
        };
        if (std::any_of(list.begin(), list.end(), same))
            std::erase_if(list, same);
        else
            list.push_back(std::move(breakpoint));
    }
    setDebuggerSettings(std::move(settings));
    m_status->setText(tr("%n breakpoint(s) in this graph's project", nullptr,
                         static_cast<int>(m_project->debugger.breakpoints.size())));
    emit breakpointsEdited();
}

void NodeEditor::addSummariesToSelection()
{
    std::vector<DocNodeId> targets;
    bool haveThem = false;
    for (DocNodeId id : m_scene->selectedNodes()) {
        const DocNode* node = m_document->node(id);
        if (!node || node->kind != NodeKind::kLayer || !layers::takesLayerSummaries(node->type))
            continue;
        const auto it = node->attrs.find("summaries");
        if (it != node->attrs.end() && it->second.b())
            haveThem = true;
        else
            targets.push_back(id);
    }
    if (targets.empty()) {
        m_status->setText(haveThem
                              ? tr("The selected layers have summaries already (the attribute \"summaries\").")
                              : tr("Select layer nodes with weights (Dense, Conv2D, BatchNorm) to add summaries to."));
        return;
    }
    tensorflow::AttrValue on;
    on.set_b(true);
    QUndoStack* stack = m_document->undoStack();
    stack->beginMacro(tr("Add summaries"));
    for (DocNodeId id : targets)
        push(m_document, SetAttrCommand::create(m_document, id, "summaries", on));
    stack->endMacro();
    m_status->setText(tr("Summaries added to %n layer(s): mean, stddev, max, min and a histogram of the weights, "
                         "biases and activations, written while training.",
                         nullptr, static_cast<int>(targets.size())));
}

void NodeEditor::editProjectSettings(const std::function<void(project::Project&)>& edit)
{
    if (!m_project) {
        const QString name = m_path.isEmpty() ? QStringLiteral("model") : QFileInfo(m_path).completeBaseName();
        m_project = newProject(name.toStdString());
    }
    const project::Project before = *m_project;
    edit(*m_project);
    const project::Project& after = *m_project;
    if (after.steps == before.steps && after.device == before.device && after.logdir == before.logdir &&
        after.dataDir == before.dataDir)
        return;
    m_runSettingsChanged = true;
    // The tab marks the unsaved change, as it does for an edit.
    emit titleChanged(QFileInfo(m_path).fileName().isEmpty() ? tr("Untitled graph") : QFileInfo(m_path).fileName());
}

void NodeEditor::setDebuggerSettings(project::DebuggerSettings settings)
{
    if (!m_project) {
        const QString name = m_path.isEmpty() ? QStringLiteral("model") : QFileInfo(m_path).completeBaseName();
        m_project = newProject(name.toStdString());
    }
    m_project->debugger = std::move(settings);
    m_scene->setBreakpoints(m_project->debugger.breakpoints);
    m_debuggerSettingsChanged = true;
    // The tab marks the unsaved change, as it does for an edit.
    emit titleChanged(QFileInfo(m_path).fileName().isEmpty() ? tr("Untitled graph") : QFileInfo(m_path).fileName());
}

} // namespace tstudio::node_editor
