// The node editor tab: the document's files (graph, project) in and out, live feedback, layers and the
// training project; its widgets are in node_editor_ui.cpp, its editing commands in node_editor_edit.cpp.
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
#include <QToolBar>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace tstudio::node_editor {

using namespace detail;

NodeEditor::NodeEditor(const Registries* registries, QWidget* parent)
    : QWidget(parent), m_registries(registries),
      m_document(new GraphDocument(registries ? &registries->ops : nullptr, this)),
      m_scene(new NodeEditorScene(m_document, this))
{
    setObjectName(QStringLiteral("nodeEditor"));
    if (registries)
        m_session = std::make_unique<InteractiveSession>(*registries);
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

void NodeEditor::showSelection()
{
    const auto selected = m_scene->selectedNodes();
    m_attrs->clear();
    updatePreview();
    const DocNode* only = selected.size() == 1 ? m_document->node(selected.front()) : nullptr;
    m_projectorButton->setVisible(only && only->kind == NodeKind::kLayer && only->type == "Embedding");
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

void NodeEditor::openSelectionInProjector()
{
    const auto selected = m_scene->selectedNodes();
    const DocNode* node = selected.size() == 1 ? m_document->node(selected.front()) : nullptr;
    if (!node || node->kind != NodeKind::kLayer || node->type != "Embedding") {
        m_status->setText(tr("Select one Embedding layer to open its variable in the Projector."));
        return;
    }
    emit projectorRequested(q(node->name) + QStringLiteral("/embeddings"));
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

Status NodeEditor::loadGraphDef(const tensorflow::GraphDef& graph, const QString& title)
{
    if (m_session)
        m_session->reset(); // another graph: the session of the old one closes
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
    auto file = readDocumentFile(path.toStdString(), m_registries ? &m_registries->ops : nullptr);
    if (!file)
        return file.error();
    return showDocumentFile(std::move(*file), path);
}

void NodeEditor::showReading(const QString& path)
{
    m_status->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
}

Status NodeEditor::showDocumentFile(DocumentFile file, const QString& path)
{
    if (!file.project) {
        const Status s = loadGraphDef(file.graph, QFileInfo(path).fileName());
        if (s.isOk()) {
            m_path = path;
            m_project.reset();
            m_scene->setBreakpoints({});
        }
        return s;
    }
    if (!file.state)
        return invalidArgumentError(path.toStdString() + ": a project read without the editor's state");
    EditorState& state = *file.state;
    if (m_session)
        m_session->reset(); // another graph: the session of the old one closes
    auto warnings = m_document->fromGraphDef(state.graph, state.positions);
    if (!warnings)
        return warnings.error().withContext(QFileInfo(path).fileName().toStdString());
    std::vector<std::string> notes = state.warnings;
    notes.insert(notes.end(), warnings->begin(), warnings->end());
    bool placed = true;
    for (DocNodeId id : m_document->nodes())
        placed = placed && state.positions.count(m_document->node(id)->name) > 0;
    // The saved view state with the saved positions: positions laid out with collapsed scopes pile
    // the frames on each other when those scopes open expanded.
    if (!placed) {
        refreshFeedback(); // the nodes' widths follow their live port labels
        if (state.view)
            m_scene->setCollapsedScopes(state.view->collapsedScopes);
        else
            collapseLargeGraph();
        autoArrange();
    } else {
        m_scene->setCollapsedScopes(state.view ? state.view->collapsedScopes : std::set<std::string>{});
        m_autoLayout = state.view && state.view->autoLayout;
        m_view->zoomToFit();
    }
    m_fitWhenShown = true;
    m_document->undoStack()->clear();
    m_document->undoStack()->setClean();
    m_path = path;
    m_project = std::move(*file.project);
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

project::DebuggerSettings NodeEditor::debuggerSettings() const
{
    return m_project ? m_project->debugger : project::DebuggerSettings{};
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
