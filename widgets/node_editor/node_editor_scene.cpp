// The editor scene: items mirror the document; port drags connect, node drags move, all through commands.
#include "node_editor/node_editor_scene.h"

#include "common/catalog_text.h"
#include "common/op_style.h"
#include "document/document_commands.h"
#include "framework/op_registry.h"
#include "graph/layer_recognition.h"
#include "layers/layer_catalog.h"
#include "node_editor/connection_item.h"
#include "node_editor/node_item.h"
#include "node_editor/port_text.h"
#include "node_editor/scope_frame_item.h"

#include <QGraphicsPathItem>
#include <QPalette>
#include <QGraphicsSceneMouseEvent>
#include <QPointer>
#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

namespace tstudio::node_editor {
namespace {

QString dtypeText(DataType dtype)
{
    return dtype == tensorflow::DT_INVALID ? QString() : QString::fromStdString(dataTypeName(dtype));
}

/// "a", "a/b" for "a/b/c": the scopes a node name lies in, outer first.
std::vector<std::string> scopesOfName(const std::string& name)
{
    std::vector<std::string> scopes;
    for (std::size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', slash + 1))
        scopes.push_back(name.substr(0, slash));
    return scopes;
}

std::size_t scopeDepth(const std::string& scope)
{
    return static_cast<std::size_t>(std::count(scope.begin(), scope.end(), '/'));
}

/// Inner frames above outer ones; collapsed boxes among the nodes.
double frameZ(const std::string& scope, bool collapsed)
{
    return collapsed ? 1.0 : -1.0 + 0.001 * static_cast<double>(std::min<std::size_t>(scopeDepth(scope), 500));
}

/// The document's raw nodes with their data inputs, enough for recogniseLayers (layer nodes keep
/// their type as op, which no pattern uses).
tensorflow::GraphDef sketchOf(const GraphDocument& document)
{
    tensorflow::GraphDef graph;
    for (DocNodeId id : document.nodes()) {
        const DocNode* node = document.node(id);
        tensorflow::NodeDef* def = graph.add_node();
        def->set_name(node->name);
        def->set_op(node->type);
        if (node->kind == NodeKind::kOp)
            for (const auto& [key, value] : node->attrs)
                (*def->mutable_attr())[key] = value;
        for (const InputSlot& slot : node->inputs) {
            const DocNode* source = slot.isConnected() ? document.node(slot.source) : nullptr;
            // An unconnected slot keeps its place with a name no node has.
            def->add_input(source == nullptr ? std::string()
                                             : source->name + (slot.output > 0 ? ":" + std::to_string(slot.output) : std::string()));
        }
    }
    return graph;
}

} // namespace

/// One change of the collapsed scopes on the document's undo stack. It acts on the scene, not on the
/// document as the other commands do, because the collapsed scopes are canvas state the document has
/// no place for; a project saves them all the same, so changing them must mark the document modified
/// and undo must take the change back like any edit.
class NodeEditorScene::CollapseCommand : public QUndoCommand {
public:
    CollapseCommand(NodeEditorScene* scene, std::set<std::string> before, std::set<std::string> after, const QString& text)
        : QUndoCommand(text), m_scene(scene), m_before(std::move(before)), m_after(std::move(after))
    {
    }
    void redo() override
    {
        if (m_scene)
            m_scene->applyCollapsed(m_after);
    }
    void undo() override
    {
        if (m_scene)
            m_scene->applyCollapsed(m_before);
    }

private:
    QPointer<NodeEditorScene> m_scene; ///< the document's stack may outlive the scene
    std::set<std::string> m_before;
    std::set<std::string> m_after;
};

NodeEditorScene::NodeEditorScene(GraphDocument* document, QObject* parent) : QGraphicsScene(parent), m_document(document)
{
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    connect(document, &GraphDocument::nodeAdded, this, &NodeEditorScene::addNodeItem);
    connect(document, &GraphDocument::nodeRemoved, this, [this](DocNodeId id) {
        const auto it = m_nodes.find(id);
        if (it == m_nodes.end())
            return;
        if (m_lit == it->second)
            m_lit = nullptr;
        delete it->second;
        m_nodes.erase(it);
        m_feedback.erase(id);
        m_hiddenBy.erase(id);
        scheduleFrames(true);
    });
    connect(document, &GraphDocument::nodeMoved, this, [this](DocNodeId id) {
        NodeItem* item = nodeItem(id);
        const DocNode* node = m_document->node(id);
        if (item && node && item->pos() != node->position) {
            item->setPos(node->position);
            updateConnectionsOf(id);
            scheduleFrames(false);
        }
    });
    auto refresh = [this](DocNodeId id) {
        refreshNode(id);
        updateConnectionsOf(id);
        scheduleFrames(true); // a new name may change the scopes, new attrs what a scope computes
    };
    connect(document, &GraphDocument::nodeRenamed, this, refresh);
    connect(document, &GraphDocument::attrChanged, this, refresh);
    connect(document, &GraphDocument::deviceChanged, this, refresh);
    connect(document, &GraphDocument::nodePortsChanged, this, refresh);
    connect(document, &GraphDocument::connected, this, [this](const Connection& c) {
        addConnectionItem(c);
        refreshNode(c.to); // input dtypes may follow the new source, and the labels' width with them
        updateConnectionsOf(c.to);
        scheduleFrames(true);
    });
    connect(document, &GraphDocument::disconnected, this, [this](const Connection& c) {
        removeConnectionItem(c);
        if (m_document->node(c.to)) {
            refreshNode(c.to);
            updateConnectionsOf(c.to);
        }
        scheduleFrames(true);
    });
    connect(document, &GraphDocument::controlConnected, this,
            [this](DocNodeId from, DocNodeId to) { addConnectionItem(Connection::control(from, to)); });
    connect(document, &GraphDocument::controlDisconnected, this,
            [this](DocNodeId from, DocNodeId to) { removeConnectionItem(Connection::control(from, to)); });
    connect(document, &GraphDocument::reset, this, &NodeEditorScene::rebuild);
    rebuild();
}

void NodeEditorScene::rebuild()
{
    m_drag.reset();
    m_lit = nullptr;
    clear();
    m_nodes.clear();
    m_connections.clear();
    m_frames.clear();
    m_hiddenBy.clear();
    for (DocNodeId id : m_document->nodes())
        addNodeItem(id);
    for (const Connection& c : m_document->connections())
        addConnectionItem(c);
    updateFrames();
}

NodeItem* NodeEditorScene::nodeItem(DocNodeId id) const
{
    const auto it = m_nodes.find(id);
    return it == m_nodes.end() ? nullptr : it->second;
}

ConnectionItem* NodeEditorScene::connectionItem(const Connection& connection) const
{
    const auto it = m_connections.find(connection);
    return it == m_connections.end() ? nullptr : it->second;
}

QColor NodeEditorScene::colourOf(const DocNode& node) const
{
    if (node.kind == NodeKind::kLayer) {
        const layers::LayerType* type = layers::findLayerType(node.type);
        const std::string category = type ? type->category : std::string();
        if (category == "Activations")
            return opCategoryColour(op_category::kNN).lighter(110);
        if (category == "Losses")
            return opCategoryColour(op_category::kMath);
        if (category == "Training")
            return opCategoryColour(op_category::kTraining);
        if (category == "Input")
            return opCategoryColour(op_category::kArray);
        if (category == "Summaries")
            return opCategoryColour(op_category::kSummary);
        if (node.type == "Cond") // its Switch / Merge ops are control flow, as in the graph viewer
            return opCategoryColour(op_category::kControlFlow);
        return opCategoryColour(op_category::kNN);
    }
    const OpRegistration* reg = m_document->opRegistry() ? m_document->opRegistry()->find(node.type) : nullptr;
    return opCategoryColour(reg ? std::string_view(reg->category) : std::string_view{});
}

void NodeEditorScene::refreshNode(DocNodeId id)
{
    NodeItem* item = nodeItem(id);
    const DocNode* node = m_document->node(id);
    if (!item || !node)
        return;
    std::vector<PortInfo> inputs, outputs;
    const OpRegistration* reg = node->kind == NodeKind::kOp && m_document->opRegistry()
                                    ? m_document->opRegistry()->find(node->type)
                                    : nullptr;
    const layers::LayerType* layer = node->kind == NodeKind::kLayer ? layers::findLayerType(node->type) : nullptr;
    for (int i = 0; i < static_cast<int>(node->inputs.size()); ++i) {
        PortInfo p;
        const std::string slot = m_document->slotName(id, i);
        p.name = QString::fromStdString(slot);
        const InputSlot& in = node->inputs[static_cast<std::size_t>(i)];
        if (in.isConnected())
            p.declaredDtype = dtypeText(m_document->outputType(in.source, in.output));
        if (reg) {
            const std::string base = slot.substr(0, slot.find('['));
            for (const auto& arg : reg->opDef.input_arg()) {
                if (arg.name() != base)
                    continue;
                p.ref = arg.is_ref();
                p.expects = opCatalogText(arg.description());
                if (p.declaredDtype.isEmpty() && arg.type() != tensorflow::DT_INVALID)
                    p.declaredDtype = dtypeText(p.ref ? makeRefType(arg.type()) : arg.type());
                const auto attr = node->attrs.find(arg.type_attr());
                if (p.declaredDtype.isEmpty() && attr != node->attrs.end() &&
                    attr->second.value_case() == tensorflow::AttrValue::kType)
                    p.declaredDtype = dtypeText(p.ref ? makeRefType(attr->second.type()) : attr->second.type());
            }
        }
        if (layer) {
            // A variadic type has one name for all its ports ("values[1]" is a "values" port).
            const std::string port = layer->inputs < 0 ? slot.substr(0, slot.find('[')) : slot;
            p.expects = layerInputExpects(*node, port);
        }
        p.dtype = p.declaredDtype;
        inputs.push_back(std::move(p));
    }
    // A node without tensor inputs (a binding, Input's "data", carries none) has outputs whose facts
    // follow its own attrs only: they may size it. Other facts change with wiring and must not.
    const int tensorInputs = layer && layer->inputs >= 0 ? std::min<int>(layer->inputs, static_cast<int>(node->inputs.size()))
                                                         : static_cast<int>(node->inputs.size());
    for (int k = 0; k < node->outputs; ++k) {
        PortInfo p;
        p.ownFacts = tensorInputs == 0;
        if (layer && k < static_cast<int>(layer->outputNames.size())) {
            const std::string& name = layer->outputNames[static_cast<std::size_t>(k)];
            p.name = QString::fromStdString(name);
            p.expects = layerOutputGives(*node, name);
        } else if (reg && k < reg->opDef.output_arg_size() && node->outputs == reg->opDef.output_arg_size()) {
            p.name = QString::fromStdString(reg->opDef.output_arg(k).name());
            p.expects = opCatalogText(reg->opDef.output_arg(k).description());
        } else {
            p.name = QStringLiteral(":%1").arg(k);
        }
        p.declaredDtype = dtypeText(m_document->outputType(id, k));
        p.dtype = p.declaredDtype;
        outputs.push_back(std::move(p));
    }
    item->setNode(*node, colourOf(*node), std::move(inputs), std::move(outputs));
    applyFeedback(id);
    applyBreakpointMark(id); // a rename may move the node into or out of a breakpoint's reach
}

void NodeEditorScene::setBreakpoints(std::vector<debugger::Breakpoint> breakpoints)
{
    m_breakpoints = std::move(breakpoints);
    m_breakpointRegexes.assign(m_breakpoints.size(), std::nullopt);
    for (std::size_t i = 0; i < m_breakpoints.size(); ++i) {
        if (m_breakpoints[i].target != debugger::Breakpoint::Target::kNameRegex)
            continue;
        // One that does not compile marks nothing; the debugger's breakpoint table says why.
        if (auto pattern = debugger::NamePattern::compile(m_breakpoints[i].pattern))
            m_breakpointRegexes[i] = std::move(*pattern);
    }
    for (const auto& [id, item] : m_nodes)
        applyBreakpointMark(id);
}

std::vector<std::size_t> NodeEditorScene::breakpointsOf(DocNodeId id) const
{
    std::vector<std::size_t> result;
    const DocNode* node = m_document->node(id);
    if (node == nullptr)
        return result;
    const bool layer = node->kind == NodeKind::kLayer;
    const std::string scope = node->name + "/";
    for (std::size_t i = 0; i < m_breakpoints.size(); ++i) {
        const debugger::Breakpoint& b = m_breakpoints[i];
        bool applies = false;
        switch (b.target) {
        case debugger::Breakpoint::Target::kNode:
            applies = b.pattern == node->name || (layer && b.pattern.starts_with(scope));
            break;
        case debugger::Breakpoint::Target::kOpType: applies = !layer && b.pattern == node->type; break;
        case debugger::Breakpoint::Target::kNameRegex:
            applies = m_breakpointRegexes[i] && m_breakpointRegexes[i]->search(layer ? scope : node->name);
            break;
        case debugger::Breakpoint::Target::kAnyNode: break;
        }
        if (applies)
            result.push_back(i);
    }
    return result;
}

void NodeEditorScene::applyBreakpointMark(DocNodeId id)
{
    NodeItem* item = nodeItem(id);
    if (item == nullptr)
        return;
    NodeItem::BreakpointMark mark = NodeItem::BreakpointMark::kNone;
    QStringList specs;
    for (std::size_t i : breakpointsOf(id)) {
        const debugger::Breakpoint& b = m_breakpoints[i];
        specs << QString::fromStdString(debugger::formatBreakpoint(b));
        if (b.enabled)
            mark = NodeItem::BreakpointMark::kEnabled;
        else if (mark == NodeItem::BreakpointMark::kNone)
            mark = NodeItem::BreakpointMark::kDisabled;
    }
    item->setBreakpointMark(mark, specs);
}

void NodeEditorScene::applyFeedback(DocNodeId id)
{
    NodeItem* item = nodeItem(id);
    const DocNode* node = m_document->node(id);
    if (!item || !node)
        return;
    auto factsOf = [this](DocNodeId source, int output) {
        PortFacts facts;
        const auto it = m_feedback.find(source);
        if (it == m_feedback.end() || output < 0)
            return facts;
        const auto k = static_cast<std::size_t>(output);
        if (k < it->second.shapes.size())
            facts.shape = it->second.shapes[k];
        if (k < it->second.dtypes.size())
            facts.dtype = it->second.dtypes[k];
        return facts;
    };
    std::vector<PortFacts> inputs, outputs;
    for (const InputSlot& slot : node->inputs)
        inputs.push_back(slot.isConnected() ? factsOf(slot.source, slot.output) : PortFacts{});
    for (int k = 0; k < node->outputs; ++k)
        outputs.push_back(factsOf(id, k));
    item->setLiveFacts(inputs, outputs);
    const auto fb = m_feedback.find(id);
    item->setProblem(fb == m_feedback.end() ? QString() : fb->second.problem);
}

void NodeEditorScene::addNodeItem(DocNodeId id)
{
    const DocNode* node = m_document->node(id);
    if (!node || m_nodes.count(id))
        return;
    auto* item = new NodeItem(id);
    addItem(item);
    item->setPos(node->position);
    m_nodes.emplace(id, item);
    refreshNode(id);
    connect(item, &NodeItem::geometryChanged, this, [this, id] {
        updateConnectionsOf(id);
        scheduleFrames(false);
    });
    scheduleFrames(true);
}

void NodeEditorScene::addConnectionItem(const Connection& connection)
{
    if (m_connections.count(connection) || !nodeItem(connection.from) || !nodeItem(connection.to))
        return;
    auto* item = new ConnectionItem(connection);
    addItem(item);
    m_connections.emplace(connection, item);
    updateConnectionGeometry(item);
}

void NodeEditorScene::removeConnectionItem(const Connection& connection)
{
    const auto it = m_connections.find(connection);
    if (it == m_connections.end())
        return;
    delete it->second;
    m_connections.erase(it);
}

void NodeEditorScene::updateConnectionGeometry(ConnectionItem* item)
{
    const Connection& c = item->connection();
    NodeItem* from = nodeItem(c.from);
    NodeItem* to = nodeItem(c.to);
    if (!from || !to)
        return;
    // An end inside a collapsed scope meets that scope's box; a connection inside one box is hidden.
    const std::string fromScope = hidingScope(c.from), toScope = hidingScope(c.to);
    ScopeFrameItem* fromBox = fromScope.empty() ? nullptr : frame(fromScope);
    ScopeFrameItem* toBox = toScope.empty() ? nullptr : frame(toScope);
    item->setVisible(fromScope.empty() || fromScope != toScope);
    if (!item->isVisible())
        return;
    if (c.isControl()) {
        item->setEnds(fromBox ? fromBox->outputAnchor() : from->controlOutPos(), toBox ? toBox->inputAnchor() : to->controlInPos());
        return;
    }
    item->setEnds(fromBox ? fromBox->outputAnchor() : from->outputPos(c.output), toBox ? toBox->inputAnchor() : to->inputPos(c.slot));
    const auto fb = m_feedback.find(c.from);
    item->setLabel(fb != m_feedback.end() && c.output < static_cast<int>(fb->second.shapes.size())
                       ? fb->second.shapes[static_cast<std::size_t>(c.output)]
                       : QString());
}

void NodeEditorScene::updateConnectionsOf(DocNodeId id)
{
    for (const Connection& c : m_document->inputsOf(id))
        if (ConnectionItem* item = connectionItem(c))
            updateConnectionGeometry(item);
    for (const Connection& c : m_document->consumersOf(id))
        if (ConnectionItem* item = connectionItem(c))
            updateConnectionGeometry(item);
}

void NodeEditorScene::setFeedback(const std::map<DocNodeId, NodeFeedback>& feedback)
{
    m_feedback = feedback;
    for (const auto& [id, item] : m_nodes)
        applyFeedback(id);
    for (const auto& [connection, item] : m_connections)
        updateConnectionGeometry(item);
}

std::vector<DocNodeId> NodeEditorScene::selectedNodes() const
{
    std::vector<DocNodeId> ids;
    for (QGraphicsItem* item : selectedItems())
        if (auto* node = dynamic_cast<NodeItem*>(item))
            ids.push_back(node->nodeId());
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<Connection> NodeEditorScene::selectedConnections() const
{
    std::vector<Connection> result;
    for (QGraphicsItem* item : selectedItems())
        if (auto* c = dynamic_cast<ConnectionItem*>(item))
            result.push_back(c->connection());
    return result;
}

NodeItem* NodeEditorScene::nodeItemAt(QPointF scenePos) const
{
    for (QGraphicsItem* item : items(scenePos))
        if (auto* node = dynamic_cast<NodeItem*>(item))
            return node;
    // Ports stick out of the body a little: look a few pixels around.
    for (QGraphicsItem* item : items(QRectF(scenePos - QPointF(8, 8), QSizeF(16, 16))))
        if (auto* node = dynamic_cast<NodeItem*>(item))
            return node;
    return nullptr;
}

QString NodeEditorScene::connectPorts(DocNodeId from, int output, DocNodeId to, int slot)
{
    const bool control = slot == Connection::kControl || output == Connection::kControl;
    const Status ok = control ? m_document->canConnectControl(from, to) : m_document->canConnect(from, output, to, slot);
    if (!ok.isOk()) {
        const QString reason = QString::fromStdString(ok.message());
        emit message(reason);
        return reason;
    }
    const Connection c = control ? Connection::control(from, to) : Connection{from, output, to, slot};
    auto command = ConnectCommand::create(m_document, c);
    if (!command) {
        const QString reason = QString::fromStdString(command.error().message());
        emit message(reason);
        return reason;
    }
    m_document->undoStack()->push(command->release());
    return {};
}

void NodeEditorScene::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        if (NodeItem* node = nodeItemAt(event->scenePos())) {
            const auto [port, output] = node->portAt(node->mapFromScene(event->scenePos()));
            if (port != -2) {
                Drag drag;
                drag.node = node->nodeId();
                drag.port = port;
                drag.fromOutput = output;
                // Dragging from a connected input picks its connection up: it is re-attached on release.
                if (!output && port >= 0) {
                    const DocNode* doc = m_document->node(node->nodeId());
                    const InputSlot& in = doc->inputs[static_cast<std::size_t>(port)];
                    if (in.isConnected()) {
                        const Connection old{in.source, in.output, node->nodeId(), port};
                        if (auto command = DisconnectCommand::create(m_document, old))
                            m_document->undoStack()->push(command->release());
                        drag.node = old.from;
                        drag.port = old.output;
                        drag.fromOutput = true;
                    }
                }
                drag.preview = addPath(QPainterPath());
                drag.preview->setPen(QPen(palette().color(QPalette::Highlight), 2, Qt::DashLine));
                drag.preview->setZValue(3);
                m_drag = drag;
                event->accept();
                return;
            }
        }
    }
    QGraphicsScene::mousePressEvent(event);
}

void NodeEditorScene::mouseMoveEvent(QGraphicsSceneMouseEvent* event)
{
    if (m_drag) {
        NodeItem* source = nodeItem(m_drag->node);
        if (!source) {
            m_drag.reset();
            return;
        }
        const QPointF anchor = m_drag->port == Connection::kControl
                                   ? (m_drag->fromOutput ? source->controlOutPos() : source->controlInPos())
                                   : (m_drag->fromOutput ? source->outputPos(m_drag->port) : source->inputPos(m_drag->port));
        m_drag->preview->setPath(m_drag->fromOutput ? ConnectionItem::route(anchor, event->scenePos())
                                                    : ConnectionItem::route(event->scenePos(), anchor));
        NodeItem* over = nodeItemAt(event->scenePos());
        if (m_lit && m_lit != over)
            m_lit->setHighlightedInput(-2);
        m_lit = over;
        if (over) {
            const auto [port, output] = over->portAt(over->mapFromScene(event->scenePos()));
            over->setHighlightedInput(m_drag->fromOutput && !output ? port : -2);
        }
        return;
    }
    QGraphicsScene::mouseMoveEvent(event);
    if ((event->buttons() & Qt::LeftButton) && m_snap) {
        for (QGraphicsItem* item : selectedItems())
            if (auto* node = dynamic_cast<NodeItem*>(item)) {
                const QPointF p = node->pos();
                const QPointF snapped(std::round(p.x() / kGrid) * kGrid, std::round(p.y() / kGrid) * kGrid);
                if (snapped != p)
                    node->setPos(snapped);
            }
    }
    if (event->buttons() & Qt::LeftButton)
        scheduleFrames(false); // frames follow the nodes being dragged
}

void NodeEditorScene::mouseReleaseEvent(QGraphicsSceneMouseEvent* event)
{
    if (m_drag) {
        Drag drag = *m_drag;
        m_drag.reset();
        delete drag.preview;
        if (m_lit)
            m_lit->setHighlightedInput(-2);
        m_lit = nullptr;
        if (NodeItem* target = nodeItemAt(event->scenePos())) {
            const auto [port, output] = target->portAt(target->mapFromScene(event->scenePos()));
            if (port != -2 && output != drag.fromOutput) {
                if (drag.fromOutput)
                    connectPorts(drag.node, drag.port, target->nodeId(), port);
                else
                    connectPorts(target->nodeId(), port, drag.node, drag.port);
            }
        }
        return;
    }
    QGraphicsScene::mouseReleaseEvent(event);
    // Nodes the user dragged: one command with every moved node (consecutive drags merge).
    std::map<DocNodeId, QPointF> moved;
    for (const auto& [id, item] : m_nodes) {
        const DocNode* node = m_document->node(id);
        if (node && item->pos() != node->position)
            moved.emplace(id, item->pos());
    }
    if (!moved.empty()) {
        if (auto command = MoveNodesCommand::create(m_document, moved))
            m_document->undoStack()->push(command->release());
        emit nodesMovedByUser();
    }
}

void NodeEditorScene::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    // A press at a port soon after the last one there (a second wire from the same output, drawn fast)
    // arrives as a press and then this double click. It belongs to the wire the press began: handed to
    // QGraphicsScene it would make the node grab the mouse, so that a later drag moved that node.
    if (m_drag) {
        event->accept();
        return;
    }
    if (NodeItem* item = nodeItemAt(event->scenePos())) {
        if (item->portAt(item->mapFromScene(event->scenePos())).first != -2) {
            mousePressEvent(event); // no press came first: begin the wire here
            return;
        }
        const DocNode* node = m_document->node(item->nodeId());
        if (node && node->kind == NodeKind::kLayer) {
            emit layerOpenRequested(item->nodeId());
            event->accept();
            return;
        }
    }
    QGraphicsScene::mouseDoubleClickEvent(event);
}

void NodeEditorScene::scheduleFrames(bool membership)
{
    m_membershipPending = m_membershipPending || membership;
    if (m_framesPending)
        return;
    m_framesPending = true;
    QTimer::singleShot(0, this, [this] {
        if (!m_framesPending)
            return; // done meanwhile by a direct call
        if (m_membershipPending)
            updateFrames();
        else
            layoutFrames();
    });
}

void NodeEditorScene::updateFrames()
{
    m_membershipPending = false;
    m_members.clear();
    for (DocNodeId id : m_document->nodes())
        for (const std::string& scope : scopesOfName(m_document->node(id)->name))
            m_members[scope].push_back(id);
    for (auto& [scope, ids] : m_members) // a node named as a scope ("w" beside "w/Assign") belongs to it
        if (const DocNodeId own = m_document->findByName(scope); own != kNoNode)
            ids.push_back(own);
    for (auto it = m_frames.begin(); it != m_frames.end();) {
        if (m_members.count(it->first) == 0) {
            delete it->second;
            it = m_frames.erase(it);
        } else {
            ++it;
        }
    }
    const auto recognised = m_members.empty() ? std::map<std::string, RecognisedLayer>{} : recogniseLayers(sketchOf(*m_document));
    for (const auto& [scope, ids] : m_members) {
        ScopeFrameItem*& item = m_frames[scope];
        if (item == nullptr) {
            item = new ScopeFrameItem(scope);
            addItem(item);
            connect(item, &ScopeFrameItem::toggleRequested, this,
                    [this](const std::string& s) { setScopeCollapsed(s, !isScopeCollapsed(s)); });
            connect(item, &ScopeFrameItem::dragged, this, &NodeEditorScene::dragScope);
        }
        item->setCollapsed(m_collapsed.count(scope) > 0);
        item->setZValue(frameZ(scope, item->isCollapsed()));
        const auto layer = recognised.find(scope);
        const std::size_t slash = scope.rfind('/');
        item->setText(QString::fromStdString(slash == std::string::npos ? scope : scope.substr(slash + 1)),
                      layer == recognised.end() ? QString() : QString::fromStdString(layer->second.describe()),
                      static_cast<int>(ids.size()));
    }
    applyVisibility();
    layoutFrames();
}

void NodeEditorScene::layoutFrames()
{
    if (!m_membershipPending)
        m_framesPending = false;
    std::vector<std::string> order;
    order.reserve(m_frames.size());
    for (const auto& [scope, item] : m_frames)
        order.push_back(scope);
    std::stable_sort(order.begin(), order.end(),
                     [](const std::string& a, const std::string& b) { return scopeDepth(a) > scopeDepth(b); });
    std::map<std::string, QRectF> childUnion; // the rects of each scope's inner frames
    const double pad = ScopeFrameItem::kPadding, header = ScopeFrameItem::kHeader;
    for (const std::string& scope : order) {
        ScopeFrameItem* item = m_frames.at(scope);
        const auto& members = m_members[scope];
        QRectF rect;
        if (item->isCollapsed()) {
            QRectF full;
            for (DocNodeId id : members)
                if (NodeItem* node = nodeItem(id))
                    full |= node->sceneBoundingRect();
            rect = QRectF(full.topLeft() - QPointF(pad, pad + header), item->collapsedSize());
        } else {
            QRectF content = childUnion[scope];
            for (DocNodeId id : members)
                if (NodeItem* node = nodeItem(id); node != nullptr && m_hiddenBy.count(id) == 0)
                    content |= node->sceneBoundingRect();
            rect = content.adjusted(-pad, -pad - header, pad, pad);
        }
        item->setSceneRect(rect);
        const std::size_t slash = scope.rfind('/');
        if (slash != std::string::npos)
            childUnion[scope.substr(0, slash)] |= rect;
    }
    for (const auto& [connection, item] : m_connections)
        if (!hidingScope(connection.from).empty() || !hidingScope(connection.to).empty())
            updateConnectionGeometry(item);
}

void NodeEditorScene::applyVisibility()
{
    m_hiddenBy.clear();
    for (const auto& [id, item] : m_nodes) {
        const DocNode* node = m_document->node(id);
        if (node == nullptr)
            continue;
        std::vector<std::string> scopes = scopesOfName(node->name);
        if (m_members.count(node->name))
            scopes.push_back(node->name);
        std::string hiding;
        for (const std::string& scope : scopes)
            if (m_collapsed.count(scope)) {
                hiding = scope;
                break;
            }
        if (!hiding.empty()) {
            m_hiddenBy.emplace(id, hiding);
            item->setSelected(false);
        }
        item->setVisible(hiding.empty());
    }
    for (const auto& [scope, item] : m_frames) {
        bool hidden = false;
        for (const std::string& outer : scopesOfName(scope))
            hidden = hidden || m_collapsed.count(outer) > 0;
        item->setVisible(!hidden);
    }
    for (const auto& [connection, item] : m_connections)
        updateConnectionGeometry(item);
}

std::vector<std::string> NodeEditorScene::scopes() const
{
    std::vector<std::string> result;
    for (const auto& [scope, item] : m_frames)
        result.push_back(scope);
    std::stable_sort(result.begin(), result.end(),
                     [](const std::string& a, const std::string& b) { return scopeDepth(a) < scopeDepth(b); });
    return result;
}

ScopeFrameItem* NodeEditorScene::frame(const std::string& scope) const
{
    const auto it = m_frames.find(scope);
    return it == m_frames.end() ? nullptr : it->second;
}

std::vector<DocNodeId> NodeEditorScene::membersOf(const std::string& scope) const
{
    const auto it = m_members.find(scope);
    return it == m_members.end() ? std::vector<DocNodeId>{} : it->second;
}

void NodeEditorScene::setScopeCollapsed(const std::string& scope, bool collapsed)
{
    if (isScopeCollapsed(scope) == collapsed)
        return;
    std::set<std::string> after = m_collapsed;
    if (collapsed)
        after.insert(scope);
    else
        after.erase(scope);
    const QString name = QString::fromStdString(scope);
    QUndoStack* stack = m_document->undoStack();
    stack->beginMacro(collapsed ? tr("Collapse '%1'").arg(name) : tr("Expand '%1'").arg(name));
    changeCollapsedScopes(after, QString());
    emit scopeToggled(scope, collapsed);
    stack->endMacro();
}

void NodeEditorScene::changeCollapsedScopes(const std::set<std::string>& scopes, const QString& text)
{
    if (scopes == m_collapsed)
        return;
    m_document->undoStack()->push(new CollapseCommand(this, m_collapsed, scopes, text));
}

void NodeEditorScene::applyCollapsed(const std::set<std::string>& scopes)
{
    if (m_membershipPending) { // frames may be missing or stale: the full pass
        setCollapsedScopes(scopes);
        return;
    }
    m_collapsed = scopes;
    for (const auto& [scope, item] : m_frames) {
        item->setCollapsed(m_collapsed.count(scope) > 0);
        item->setZValue(frameZ(scope, item->isCollapsed()));
    }
    applyVisibility();
    layoutFrames();
}

void NodeEditorScene::setCollapsedScopes(const std::set<std::string>& scopes)
{
    m_collapsed = scopes;
    updateFrames();
}

std::string NodeEditorScene::hidingScope(DocNodeId id) const
{
    const auto it = m_hiddenBy.find(id);
    return it == m_hiddenBy.end() ? std::string() : it->second;
}

bool NodeEditorScene::reveal(DocNodeId id)
{
    const DocNode* node = m_document->node(id);
    if (node == nullptr || hidingScope(id).empty())
        return false;
    std::vector<std::string> scopes = scopesOfName(node->name);
    scopes.push_back(node->name);
    std::set<std::string> after = m_collapsed;
    std::string innermost;
    for (const std::string& scope : scopes)
        if (after.erase(scope) > 0)
            innermost = scope;
    QUndoStack* stack = m_document->undoStack();
    stack->beginMacro(tr("Expand '%1'").arg(QString::fromStdString(innermost)));
    changeCollapsedScopes(after, QString());
    emit scopeToggled(innermost, false);
    stack->endMacro();
    return true;
}

QRectF NodeEditorScene::shownItemsBoundingRect() const
{
    QRectF bounds;
    for (QGraphicsItem* item : items())
        if (item->isVisible() && item->parentItem() == nullptr)
            bounds |= item->sceneBoundingRect();
    return bounds;
}

void NodeEditorScene::dragScope(const std::string& scope, QPointF delta)
{
    for (DocNodeId id : membersOf(scope))
        if (NodeItem* item = nodeItem(id)) {
            item->setPos(item->pos() + delta);
            updateConnectionsOf(id);
        }
    layoutFrames();
}

} // namespace tstudio::node_editor
