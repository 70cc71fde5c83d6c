// The undo commands of the node editor: each checks its edit in create() and acts on the document only.
#include "document/document_commands.h"

#include "framework/op_registry.h"
#include "graph/tensor_id.h"

#include <QCoreApplication>
#include <QtGlobal>

#include <algorithm>

namespace tstudio {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("tstudio::DocumentCommands", text);
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

Status missingNode(DocNodeId id)
{
    return notFoundError("Node " + std::to_string(id) + " is not in the document");
}

} // namespace

DocumentCommand::DocumentCommand(GraphDocument* document, QUndoCommand* parent)
    : QUndoCommand(parent), m_document(document)
{
}

void DocumentCommand::check(const Status& status) const
{
    if (!status.isOk())
        qWarning("Undo command '%s' could not be applied: %s", qPrintable(text()), status.toString().c_str());
}

// ---- AddNode ----

AddNodeCommand::AddNodeCommand(GraphDocument* document, NodeSpec spec)
    : DocumentCommand(document), m_spec(std::move(spec))
{
    setText(tr("Add %1 '%2'").arg(q(m_spec.type), q(m_spec.name)));
}

Expected<std::unique_ptr<AddNodeCommand>> AddNodeCommand::create(GraphDocument* document, NodeSpec spec)
{
    if (spec.type.empty())
        return unexpected(invalidArgumentError("A node needs a type (op or layer)"));
    if (Status s = document->checkName(spec.name); !s.isOk())
        return unexpected(s);
    if (spec.kind == NodeKind::kOp && !spec.ports &&
        !(document->opRegistry() && document->opRegistry()->find(spec.type)))
        return unexpected(notFoundError("Op type not registered '" + spec.type + "'"));
    return std::unique_ptr<AddNodeCommand>(new AddNodeCommand(document, std::move(spec)));
}

void AddNodeCommand::redo()
{
    const auto id = m_document->addNode(m_spec, m_id);
    if (id)
        m_id = *id;
    else
        check(id.error());
}

void AddNodeCommand::undo()
{
    check(m_document->removeNode(m_id));
}

// ---- RemoveNodes ----

RemoveNodesCommand::RemoveNodesCommand(GraphDocument* document, const std::set<DocNodeId>& ids) : DocumentCommand(document)
{
    std::set<Connection> touching;
    for (DocNodeId id : ids) {
        m_nodes.push_back(*document->node(id));
        for (const Connection& c : document->inputsOf(id))
            touching.insert(c);
        for (const Connection& c : document->consumersOf(id))
            touching.insert(c);
    }
    m_connections.assign(touching.begin(), touching.end());
    setText(m_nodes.size() == 1 ? tr("Remove '%1'").arg(q(m_nodes.front().name))
                                : tr("Remove %1 nodes").arg(m_nodes.size()));
}

Expected<std::unique_ptr<RemoveNodesCommand>> RemoveNodesCommand::create(GraphDocument* document,
                                                                         const std::set<DocNodeId>& ids)
{
    if (ids.empty())
        return unexpected(invalidArgumentError("No nodes to remove"));
    for (DocNodeId id : ids)
        if (!document->node(id))
            return unexpected(missingNode(id));
    return std::unique_ptr<RemoveNodesCommand>(new RemoveNodesCommand(document, ids));
}

void RemoveNodesCommand::redo()
{
    for (const DocNode& n : m_nodes)
        check(m_document->removeNode(n.id));
}

void RemoveNodesCommand::undo()
{
    for (const DocNode& n : m_nodes) {
        NodeSpec spec{
            n.kind, n.type, n.name, n.attrs, n.device, n.position, PortCounts{int(n.inputs.size()), n.outputs}};
        const auto id = m_document->addNode(spec, n.id);
        if (!id)
            check(id.error());
    }
    for (const Connection& c : m_connections)
        check(m_document->connect(c));
}

// ---- Connect / Disconnect ----

ConnectCommand::ConnectCommand(GraphDocument* document, const Connection& connection)
    : DocumentCommand(document), m_connection(connection)
{
    if (!connection.isControl())
        m_previous = document->node(connection.to)->inputs[connection.slot];
    setText(connection.isControl()
                ? tr("Add control edge '%1' -> '%2'")
                      .arg(q(document->node(connection.from)->name), q(document->node(connection.to)->name))
                : tr("Connect '%1' to '%2'")
                      .arg(q(document->tensorName(connection.from, connection.output)),
                           q(document->node(connection.to)->name)));
}

Expected<std::unique_ptr<ConnectCommand>> ConnectCommand::create(GraphDocument* document, const Connection& c)
{
    const Status s =
        c.isControl() ? (c.output == Connection::kControl ? document->canConnectControl(c.from, c.to)
                                                          : invalidArgumentError("A control edge has no output index"))
                      : document->canConnect(c.from, c.output, c.to, c.slot);
    if (!s.isOk())
        return unexpected(s);
    if (document->hasConnection(c))
        return unexpected(Status(StatusCode::kAlreadyExists, "The connection exists already"));
    return std::unique_ptr<ConnectCommand>(new ConnectCommand(document, c));
}

void ConnectCommand::redo()
{
    check(m_document->connect(m_connection));
}

void ConnectCommand::undo()
{
    check(m_document->disconnect(m_connection));
    if (!m_connection.isControl() && m_previous.isConnected())
        check(m_document->connect({m_previous.source, m_previous.output, m_connection.to, m_connection.slot}));
}

DisconnectCommand::DisconnectCommand(GraphDocument* document, const Connection& connection)
    : DocumentCommand(document), m_connection(connection)
{
    setText(tr("Disconnect '%1' from '%2'")
                .arg(q(document->node(connection.from)->name), q(document->node(connection.to)->name)));
}

Expected<std::unique_ptr<DisconnectCommand>> DisconnectCommand::create(GraphDocument* document, const Connection& c)
{
    if (!document->hasConnection(c))
        return unexpected(notFoundError("No such connection"));
    return std::unique_ptr<DisconnectCommand>(new DisconnectCommand(document, c));
}

void DisconnectCommand::redo()
{
    check(m_document->disconnect(m_connection));
}

void DisconnectCommand::undo()
{
    check(m_document->connect(m_connection));
}

// ---- MoveNodes ----

MoveNodesCommand::MoveNodesCommand(GraphDocument* document, const std::map<DocNodeId, QPointF>& newPositions)
    : DocumentCommand(document), m_new(newPositions)
{
    for (const auto& [id, pos] : newPositions)
        m_old[id] = document->node(id)->position;
    setText(m_new.size() == 1 ? tr("Move '%1'").arg(q(document->node(m_new.begin()->first)->name))
                              : tr("Move %1 nodes").arg(m_new.size()));
}

Expected<std::unique_ptr<MoveNodesCommand>> MoveNodesCommand::create(GraphDocument* document,
                                                                     const std::map<DocNodeId, QPointF>& newPositions)
{
    if (newPositions.empty())
        return unexpected(invalidArgumentError("No nodes to move"));
    for (const auto& [id, pos] : newPositions)
        if (!document->node(id))
            return unexpected(missingNode(id));
    return std::unique_ptr<MoveNodesCommand>(new MoveNodesCommand(document, newPositions));
}

bool MoveNodesCommand::mergeWith(const QUndoCommand* other)
{
    const auto* move = dynamic_cast<const MoveNodesCommand*>(other);
    if (!move || move->m_new.size() != m_new.size() ||
        !std::equal(m_new.begin(), m_new.end(), move->m_new.begin(),
                    [](const auto& a, const auto& b) { return a.first == b.first; }))
        return false;
    m_new = move->m_new;
    return true;
}

void MoveNodesCommand::redo()
{
    for (const auto& [id, pos] : m_new)
        check(m_document->moveNode(id, pos));
}

void MoveNodesCommand::undo()
{
    for (const auto& [id, pos] : m_old)
        check(m_document->moveNode(id, pos));
}

// ---- Rename / SetAttr / SetDevice ----

RenameCommand::RenameCommand(GraphDocument* document, DocNodeId id, std::string oldName, std::string newName)
    : DocumentCommand(document), m_id(id), m_old(std::move(oldName)), m_new(std::move(newName))
{
    setText(tr("Rename '%1' to '%2'").arg(q(m_old), q(m_new)));
}

Expected<std::unique_ptr<RenameCommand>> RenameCommand::create(GraphDocument* document, DocNodeId id,
                                                               const std::string& name)
{
    const DocNode* n = document->node(id);
    if (!n)
        return unexpected(missingNode(id));
    if (Status s = document->checkName(name, id); !s.isOk())
        return unexpected(s);
    if (n->name == name)
        return unexpected(invalidArgumentError("'" + name + "' is the node's name already"));
    return std::unique_ptr<RenameCommand>(new RenameCommand(document, id, n->name, name));
}

void RenameCommand::redo()
{
    check(m_document->renameNodes({{m_id, m_new}}));
}

void RenameCommand::undo()
{
    check(m_document->renameNodes({{m_id, m_old}}));
}

SetAttrCommand::SetAttrCommand(GraphDocument* document, DocNodeId id, std::string name,
                               std::optional<tensorflow::AttrValue> value)
    : DocumentCommand(document), m_id(id), m_name(std::move(name)), m_new(std::move(value))
{
    const DocNode* n = document->node(id);
    if (const auto it = n->attrs.find(m_name); it != n->attrs.end())
        m_old = it->second;
    setText(m_new ? tr("Set %1 of '%2'").arg(q(m_name), q(n->name))
                  : tr("Clear %1 of '%2'").arg(q(m_name), q(n->name)));
}

Expected<std::unique_ptr<SetAttrCommand>> SetAttrCommand::create(GraphDocument* document, DocNodeId id,
                                                                 const std::string& name,
                                                                 std::optional<tensorflow::AttrValue> value)
{
    if (!document->node(id))
        return unexpected(missingNode(id));
    if (name.empty())
        return unexpected(invalidArgumentError("An attr needs a name"));
    return std::unique_ptr<SetAttrCommand>(new SetAttrCommand(document, id, name, std::move(value)));
}

void SetAttrCommand::redo()
{
    m_before = m_document->inputsOf(m_id);
    const auto out = m_document->consumersOf(m_id);
    m_before.insert(m_before.end(), out.begin(), out.end());
    check(m_document->setAttr(m_id, m_name, m_new));
}

void SetAttrCommand::undo()
{
    check(m_document->setAttr(m_id, m_name, m_old));
    for (const Connection& c : m_before)
        if (!m_document->hasConnection(c))
            check(m_document->connect(c));
}

SetDeviceCommand::SetDeviceCommand(GraphDocument* document, DocNodeId id, std::string device)
    : DocumentCommand(document), m_id(id), m_old(document->node(id)->device), m_new(std::move(device))
{
    setText(tr("Set device of '%1'").arg(q(document->node(id)->name)));
}

Expected<std::unique_ptr<SetDeviceCommand>> SetDeviceCommand::create(GraphDocument* document, DocNodeId id,
                                                                     const std::string& device)
{
    if (!document->node(id))
        return unexpected(missingNode(id));
    return std::unique_ptr<SetDeviceCommand>(new SetDeviceCommand(document, id, device));
}

void SetDeviceCommand::redo()
{
    check(m_document->setDevice(m_id, m_new));
}

void SetDeviceCommand::undo()
{
    check(m_document->setDevice(m_id, m_old));
}

// ---- Group / Ungroup ----

RenameNodesCommand::RenameNodesCommand(GraphDocument* document, std::vector<std::pair<DocNodeId, std::string>> renames)
    : DocumentCommand(document), m_new(std::move(renames))
{
    for (const auto& [id, name] : m_new)
        m_old.emplace_back(id, document->node(id)->name);
}

void RenameNodesCommand::redo()
{
    check(m_document->renameNodes(m_new));
}

void RenameNodesCommand::undo()
{
    check(m_document->renameNodes(m_old));
}

GroupIntoScopeCommand::GroupIntoScopeCommand(GraphDocument* document,
                                             std::vector<std::pair<DocNodeId, std::string>> renames, std::string scope)
    : RenameNodesCommand(document, std::move(renames)), m_scope(std::move(scope))
{
    setText(tr("Group %1 nodes into '%2'").arg(m_new.size()).arg(q(m_scope)));
}

Expected<std::unique_ptr<GroupIntoScopeCommand>>
GroupIntoScopeCommand::create(GraphDocument* document, const std::set<DocNodeId>& ids, const std::string& scope)
{
    if (ids.empty())
        return unexpected(invalidArgumentError("No nodes to group"));
    if (!isValidNodeName(scope) || scope.back() == '/')
        return unexpected(invalidArgumentError("'" + scope + "' is not a valid scope name"));
    for (DocNodeId id : ids)
        if (!document->node(id))
            return unexpected(missingNode(id));
    // A scope is taken when a node outside the group is named so or lies inside it.
    auto takenOutside = [&](const std::string& s) {
        const std::string prefix = s + "/";
        for (DocNodeId id : document->nodes()) {
            const std::string& name = document->node(id)->name;
            if (!ids.count(id) && (name == s || name.compare(0, prefix.size(), prefix) == 0))
                return true;
        }
        return false;
    };
    std::string chosen = scope;
    for (int i = 1; takenOutside(chosen); ++i)
        chosen = scope + "_" + std::to_string(i);
    std::vector<std::pair<DocNodeId, std::string>> renames;
    for (DocNodeId id : ids)
        renames.emplace_back(id, chosen + "/" + document->node(id)->name);
    return std::unique_ptr<GroupIntoScopeCommand>(new GroupIntoScopeCommand(document, std::move(renames), chosen));
}

Expected<std::unique_ptr<UngroupCommand>> UngroupCommand::create(GraphDocument* document, const std::string& scope)
{
    const std::string prefix = scope + "/";
    const std::size_t cut = scope.rfind('/');
    const std::string parent = cut == std::string::npos ? std::string() : scope.substr(0, cut + 1);
    std::set<DocNodeId> members;
    for (DocNodeId id : document->nodes())
        if (document->node(id)->name.compare(0, prefix.size(), prefix) == 0)
            members.insert(id);
    if (members.empty())
        return unexpected(notFoundError("No node lies in scope '" + scope + "'"));
    std::set<std::string> taken; // names of nodes outside the scope, and names handed out
    for (DocNodeId id : document->nodes())
        if (!members.count(id))
            taken.insert(document->node(id)->name);
    std::vector<std::pair<DocNodeId, std::string>> renames;
    for (DocNodeId id : members) {
        const std::string base = parent + document->node(id)->name.substr(prefix.size());
        if (!isValidNodeName(base))
            return unexpected(invalidArgumentError("Ungrouping '" + document->node(id)->name +
                                                   "' would give the invalid name '" + base + "'"));
        std::string name = base;
        for (int i = 1; taken.count(name); ++i)
            name = base + "_" + std::to_string(i);
        taken.insert(name);
        renames.emplace_back(id, name);
    }
    auto command = std::unique_ptr<UngroupCommand>(new UngroupCommand(document, std::move(renames)));
    command->setText(tr("Ungroup '%1'").arg(q(scope)));
    return command;
}

// ---- Paste ----

PasteCommand::PasteCommand(GraphDocument* document, std::vector<NodeSpec> specs, std::vector<Edge> edges)
    : DocumentCommand(document), m_specs(std::move(specs)), m_edges(std::move(edges))
{
    setText(tr("Paste %1 nodes").arg(m_specs.size()));
}

Expected<std::unique_ptr<PasteCommand>> PasteCommand::create(GraphDocument* document,
                                                             const tensorflow::GraphDef& fragment,
                                                             const std::map<std::string, QPointF>& positions,
                                                             QPointF offset)
{
    if (fragment.node_size() == 0)
        return unexpected(invalidArgumentError("Nothing to paste"));
    std::map<std::string, int> index; // fragment name -> position in fragment
    for (int i = 0; i < fragment.node_size(); ++i) {
        const auto& def = fragment.node(i);
        if (!isValidNodeName(def.name()) || def.op().empty())
            return unexpected(invalidArgumentError("Pasted node " + std::to_string(i) + " ('" + def.name() +
                                                   "') needs a valid name and an op"));
        if (!index.emplace(def.name(), i).second)
            return unexpected(invalidArgumentError("Duplicate node name '" + def.name() + "' in the pasted graph"));
    }
    std::vector<NodeSpec> specs;
    std::vector<Edge> edges;
    std::set<std::string> handedOut;
    std::map<std::string, int> referencedOutputs;
    for (int i = 0; i < fragment.node_size(); ++i) {
        const auto& def = fragment.node(i);
        std::set<long long> empty;
        if (const auto it = def.attr().find(std::string(kEmptySlotsAttr)); it != def.attr().end())
            empty.insert(it->second.list().i().begin(), it->second.list().i().end());
        int slot = 0;
        for (const std::string& text : def.input()) {
            auto t = parseTensorId(text);
            if (!t)
                return unexpected(invalidArgumentError("Pasted node '" + def.name() + "': bad input '" + text +
                                                       "': " + t.error().message()));
            if (!t->isControl())
                while (empty.count(slot))
                    ++slot;
            const int thisSlot = t->isControl() ? Connection::kControl : slot++;
            if (const auto it = index.find(t->node); it != index.end()) {
                edges.push_back({i, thisSlot, it->second, kNoNode, t->index});
                referencedOutputs[t->node] = std::max(referencedOutputs[t->node], t->index + 1);
            } else if (const DocNodeId outside = document->findByName(t->node); outside != kNoNode) {
                edges.push_back({i, thisSlot, -1, outside, t->index});
            }
        }
        NodeSpec spec;
        const auto marker = def.attr().find(std::string(kLayerMarkerAttr));
        spec.kind = marker != def.attr().end() && marker->second.b() ? NodeKind::kLayer : NodeKind::kOp;
        spec.type = def.op();
        spec.name = document->uniqueName(def.name(), &handedOut);
        handedOut.insert(spec.name);
        spec.device = def.device();
        for (const auto& [name, value] : def.attr())
            if (name != kLayerMarkerAttr && name != kEmptySlotsAttr)
                spec.attrs[name] = value;
        const auto pos = positions.find(def.name());
        spec.position = (pos == positions.end() ? QPointF() : pos->second) + offset;
        spec.ports = PortCounts{std::max(slot, static_cast<int>(empty.empty() ? 0 : *empty.rbegin() + 1)), 1};
        specs.push_back(std::move(spec));
    }
    for (auto& [name, count] : referencedOutputs)
        specs[index.at(name)].ports->outputs = std::max(1, count);
    return std::unique_ptr<PasteCommand>(new PasteCommand(document, std::move(specs), std::move(edges)));
}

void PasteCommand::redo()
{
    const bool first = m_ids.empty();
    if (first)
        m_ids.assign(m_specs.size(), kNoNode);
    for (std::size_t i = 0; i < m_specs.size(); ++i) {
        const auto id = m_document->addNode(m_specs[i], m_ids[i]);
        if (id)
            m_ids[i] = *id;
        else
            check(id.error());
    }
    // The first redo keeps the edges that fit (slot and output exist); later redos replay those.
    std::vector<Edge> kept;
    for (const Edge& e : m_edges) {
        const DocNodeId from = e.fromNode >= 0 ? m_ids[e.fromNode] : e.outsideId;
        const Connection c = e.slot == Connection::kControl ? Connection::control(from, m_ids[e.toNode])
                                                            : Connection{from, e.output, m_ids[e.toNode], e.slot};
        const Status s = m_document->connect(c);
        if (first && s.isOk())
            kept.push_back(e);
        else if (!first)
            check(s);
    }
    if (first)
        m_edges = std::move(kept);
}

void PasteCommand::undo()
{
    for (auto it = m_ids.rbegin(); it != m_ids.rend(); ++it)
        check(m_document->removeNode(*it));
}

} // namespace tstudio
