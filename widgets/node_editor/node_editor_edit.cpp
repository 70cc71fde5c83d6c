// NodeEditor's editing: nodes added (palette, quick add), attributes applied, the selection deleted,
// copied, pasted, duplicated, grouped and aligned, arrangement, breakpoints and summaries on nodes.
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_internal.h"

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
#include "node_editor/graph_import.h"
#include "node_editor/import_graph_dialog.h"
#include "node_editor/document_builder.h"
#include "node_editor/document_project.h"
#include "node_editor/node_editor_minimap.h"
#include "node_editor/node_editor_view.h"
#include "node_editor/node_item.h"
#include "node_editor/node_palette.h"
#include "node_editor/scope_frame_item.h"
#include "node_editor/source_preview_view.h"
#include "common/background_run.h"
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
#include <QFileDialog>
#include <QFutureWatcher>
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

using namespace detail;

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

void NodeEditor::applyAttr(const QString& name, const tensorflow::AttrValue& value)
{
    const auto selected = m_scene->selectedNodes();
    if (selected.size() != 1)
        return;
    QString error;
    if (!push(m_document, SetAttrCommand::create(m_document, selected.front(), name.toStdString(), value), &error))
        m_status->setText(error);
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

Status NodeEditor::importGraph(const tensorflow::GraphDef& graph, const GraphImport& request)
{
    if (!m_registries)
        return failedPreconditionError("the editor has no op registry");
    auto imported = importIntoDocument(*m_document, *m_registries, graph, request);
    if (!imported)
        return imported.error();
    auto command = PasteCommand::create(m_document, imported->fragment);
    if (!command)
        return command.error();
    QUndoStack* stack = m_document->undoStack();
    const QString scope = q(imported->prefix);
    stack->beginMacro(scope.isEmpty() ? tr("Import graph") : tr("Import graph as %1").arg(scope));
    PasteCommand* raw = command->get();
    stack->push(command->release());
    // The imported graph as one box (its scope collapsed), the whole graph laid out again.
    if (!imported->prefix.empty()) {
        std::set<std::string> collapsed = m_scene->collapsedScopes();
        collapsed.insert(imported->prefix);
        m_scene->changeCollapsedScopes(collapsed, QString());
    }
    arrange();
    stack->endMacro();
    m_view->zoomToFit();
    m_minimap->refit();
    m_status->setText(tr("Imported %n node(s)", nullptr, static_cast<int>(raw->pastedIds().size())) +
                      (scope.isEmpty() ? QString() : tr(" under %1").arg(scope)));
    return Status::ok();
}

void NodeEditor::importGraphFromFile()
{
    if (!m_registries)
        return;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import Graph"), QString(), tr("TensorFlow graphs (*.pb *.pbtxt *.meta *.pb.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    m_status->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    auto* watcher = new QFutureWatcher<Expected<GraphFile>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path] {
        watcher->deleteLater();
        Expected<GraphFile> read = watcher->result();
        if (!read) {
            m_status->setText(q(read.error().message()));
            return;
        }
        ImportGraphDialog dialog(m_document, m_registries, std::move(read->graph), QFileInfo(path).fileName(), this);
        if (dialog.exec() != QDialog::Accepted) {
            m_status->clear();
            return;
        }
        if (const Status s = importGraph(dialog.graph(), dialog.request()); !s.isOk())
            m_status->setText(tr("Import failed: %1").arg(q(s.message())));
    });
    const std::string file = path.toStdString();
    watcher->setFuture(runInBackground([file] { return readGraphFromFile(file); }));
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

} // namespace tstudio::node_editor
