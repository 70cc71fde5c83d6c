// The undo commands of the node editor: every edit of a GraphDocument as a QUndoCommand.
#pragma once

#include "document/graph_document.h"

#include <QUndoCommand>

#include <memory>

namespace tstudio {

/// QUndoCommand::id() of MoveNodesCommand (the only command that merges).
inline constexpr int kMoveNodesCommandId = 0x7501;

/// Base of the document commands. Each command is made by a static create() that checks the edit
/// against the document's current state and answers the reason when it is not possible; push the
/// result on document->undoStack() right away (the first redo() applies it). Commands act on the
/// document only (no scene), and rely on the stack's order: a command is undone only when the
/// document is back in the state its redo() left.
class DocumentCommand : public QUndoCommand {
public:
    explicit DocumentCommand(GraphDocument* document, QUndoCommand* parent = nullptr);

protected:
    /// A failure here means the stack and document disagree (a broken invariant): logged, not fatal.
    void check(const Status& status) const;
    GraphDocument* m_document;
};

/// Adds one node. The id is handed out on the first redo and kept on later redos.
class AddNodeCommand : public DocumentCommand {
public:
    /// Errors: bad or taken name; an op type the registry does not know; empty type.
    static Expected<std::unique_ptr<AddNodeCommand>> create(GraphDocument* document, NodeSpec spec);
    DocNodeId nodeId() const { return m_id; }
    void redo() override;
    void undo() override;

private:
    AddNodeCommand(GraphDocument* document, NodeSpec spec);
    NodeSpec m_spec;
    DocNodeId m_id = kNoNode;
};

/// Removes nodes with all their connections; undo restores them under the same ids with the same
/// connections (including into the remaining nodes' slots).
class RemoveNodesCommand : public DocumentCommand {
public:
    /// Errors: an empty set, a node not in the document.
    static Expected<std::unique_ptr<RemoveNodesCommand>> create(GraphDocument* document, const std::set<DocNodeId>& ids);
    void redo() override;
    void undo() override;

private:
    RemoveNodesCommand(GraphDocument* document, const std::set<DocNodeId>& ids);
    std::vector<DocNode> m_nodes;          // as they were, ascending ids
    std::vector<Connection> m_connections; // every connection touching them
};

/// Connects a data edge (replacing what fed the slot) or a control edge (Connection::control).
class ConnectCommand : public DocumentCommand {
public:
    /// Errors: GraphDocument::canConnect / canConnectControl.
    static Expected<std::unique_ptr<ConnectCommand>> create(GraphDocument* document, const Connection& connection);
    void redo() override;
    void undo() override;

private:
    ConnectCommand(GraphDocument* document, const Connection& connection);
    Connection m_connection;
    InputSlot m_previous; // what fed the slot before (data edges)
};

/// Removes one data or control connection.
class DisconnectCommand : public DocumentCommand {
public:
    /// Errors: NotFound when the connection is not present.
    static Expected<std::unique_ptr<DisconnectCommand>> create(GraphDocument* document, const Connection& connection);
    void redo() override;
    void undo() override;

private:
    DisconnectCommand(GraphDocument* document, const Connection& connection);
    Connection m_connection;
};

/// Moves nodes. Consecutive moves of the same node set merge into one command (one drag = one undo
/// step): the merged command keeps the first old and the last new positions.
class MoveNodesCommand : public DocumentCommand {
public:
    /// Errors: an empty map, a node not in the document.
    static Expected<std::unique_ptr<MoveNodesCommand>> create(GraphDocument* document,
                                                              const std::map<DocNodeId, QPointF>& newPositions);
    int id() const override { return kMoveNodesCommandId; }
    bool mergeWith(const QUndoCommand* other) override;
    void redo() override;
    void undo() override;

private:
    MoveNodesCommand(GraphDocument* document, const std::map<DocNodeId, QPointF>& newPositions);
    std::map<DocNodeId, QPointF> m_old;
    std::map<DocNodeId, QPointF> m_new;
};

/// Renames one node. Connections are by id, so nothing else changes.
class RenameCommand : public DocumentCommand {
public:
    /// Errors: GraphDocument::checkName.
    static Expected<std::unique_ptr<RenameCommand>> create(GraphDocument* document, DocNodeId id, const std::string& name);
    void redo() override;
    void undo() override;

private:
    RenameCommand(GraphDocument* document, DocNodeId id, std::string oldName, std::string newName);
    DocNodeId m_id;
    std::string m_old, m_new;
};

/// Sets or removes (nullopt) one attr; when the ports shrink, the connections that no longer fit
/// are dropped and come back on undo.
class SetAttrCommand : public DocumentCommand {
public:
    /// Errors: a node not in the document, an empty attr name.
    static Expected<std::unique_ptr<SetAttrCommand>> create(GraphDocument* document, DocNodeId id, const std::string& name,
                                                            std::optional<tensorflow::AttrValue> value);
    void redo() override;
    void undo() override;

private:
    SetAttrCommand(GraphDocument* document, DocNodeId id, std::string name, std::optional<tensorflow::AttrValue> value);
    DocNodeId m_id;
    std::string m_name;
    std::optional<tensorflow::AttrValue> m_new, m_old;
    std::vector<Connection> m_before; // the node's connections before redo
};

/// Sets a node's device string ("" clears it).
class SetDeviceCommand : public DocumentCommand {
public:
    static Expected<std::unique_ptr<SetDeviceCommand>> create(GraphDocument* document, DocNodeId id,
                                                              const std::string& device);
    void redo() override;
    void undo() override;

private:
    SetDeviceCommand(GraphDocument* document, DocNodeId id, std::string device);
    DocNodeId m_id;
    std::string m_old, m_new;
};

/// Renames several nodes at once (the base of GroupIntoScope and Ungroup).
class RenameNodesCommand : public DocumentCommand {
public:
    std::vector<std::pair<DocNodeId, std::string>> renames() const { return m_new; }
    void redo() override;
    void undo() override;

protected:
    RenameNodesCommand(GraphDocument* document, std::vector<std::pair<DocNodeId, std::string>> renames);
    std::vector<std::pair<DocNodeId, std::string>> m_old, m_new;
};

/// Puts nodes into a scope: "x" becomes "scope/x". When another node already uses the scope (is
/// named so or lies inside it) the scope becomes scope_1, scope_2, ... as tf.name_scope does.
class GroupIntoScopeCommand : public RenameNodesCommand {
public:
    /// Errors: empty set, missing node, a scope that is not a valid node name.
    static Expected<std::unique_ptr<GroupIntoScopeCommand>> create(GraphDocument* document, const std::set<DocNodeId>& ids,
                                                                   const std::string& scope);
    /// The scope actually used.
    const std::string& scope() const { return m_scope; }

private:
    GroupIntoScopeCommand(GraphDocument* document, std::vector<std::pair<DocNodeId, std::string>> renames,
                          std::string scope);
    std::string m_scope;
};

/// Strips the last level of `scope` from the nodes inside it: with scope "a/b", "a/b/x" becomes
/// "a/x"; with scope "a", "a/x" becomes "x". A name taken outside the scope gets "_1", "_2", ...
class UngroupCommand : public RenameNodesCommand {
public:
    /// Errors: no node inside the scope.
    static Expected<std::unique_ptr<UngroupCommand>> create(GraphDocument* document, const std::string& scope);

private:
    using RenameNodesCommand::RenameNodesCommand;
};

/// Pastes a GraphDef fragment (GraphDocument::fragment or any GraphDef): each node gets its name, or
/// name_1, name_2, ... when taken; inputs between pasted nodes are kept; inputs from other nodes
/// are kept when a node of that name exists in the document (and the output and slot exist),
/// else dropped. Positions by fragment name, shifted by `offset`.
class PasteCommand : public DocumentCommand {
public:
    /// Errors: an empty fragment; a node without op or with an invalid name; an unparsable input;
    /// an op the registry does not know.
    static Expected<std::unique_ptr<PasteCommand>> create(GraphDocument* document, const tensorflow::GraphDef& fragment,
                                                          const std::map<std::string, QPointF>& positions = {},
                                                          QPointF offset = {});
    /// The ids of the pasted nodes in fragment order (valid after the first redo).
    const std::vector<DocNodeId>& pastedIds() const { return m_ids; }
    void redo() override;
    void undo() override;

private:
    struct Edge {
        int toNode;       // index into m_specs
        int slot;         // Connection::kControl for control edges
        int fromNode;     // index into m_specs, or -1 for an outside node
        DocNodeId outsideId; // when fromNode == -1
        int output;
    };
    PasteCommand(GraphDocument* document, std::vector<NodeSpec> specs, std::vector<Edge> edges);
    std::vector<NodeSpec> m_specs;
    std::vector<Edge> m_edges;
    std::vector<DocNodeId> m_ids;
};

} // namespace tstudio
