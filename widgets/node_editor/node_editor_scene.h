// NodeEditorScene: the canvas as a projection of a GraphDocument; drags become undoable commands.
#pragma once

#include "debugger/breakpoint.h"
#include "document/graph_document.h"

#include <QGraphicsScene>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

class QGraphicsPathItem;

namespace tstudio::node_editor {

class ConnectionItem;
class NodeItem;
class ScopeFrameItem;

/// What live feedback says about one node: its outputs' shapes and dtypes ("" unknown) and its problem.
struct NodeFeedback {
    std::vector<QString> shapes;
    QString problem;
    std::vector<QString> dtypes;
};

/// Holds one NodeItem per document node and one ConnectionItem per connection, kept in step with the
/// document's signals; rebuild() recreates everything from the document. The scene never edits the
/// document directly: moves, new connections and reconnections are pushed on the document's undo stack.
///
/// Name scopes: every scope of the node names ("dense" for "dense/MatMul") gets a ScopeFrameItem
/// around its nodes, titled with what recogniseLayers tells it computes ("Dense(64, relu)"). A
/// collapsed scope hides its nodes and inner frames behind one box; connections to hidden nodes are
/// drawn to that box, and those inside it are hidden. The nodes keep their positions, and the
/// collapsed box stands where the scope's top-left corner was. Which scopes are collapsed is saved
/// with a project (EditorView), so the user's collapsing and expanding is an undo step on the
/// document's stack like any edit: the tab shows the unsaved change and Ctrl+Z takes it back.
class NodeEditorScene : public QGraphicsScene {
    Q_OBJECT
public:
    static constexpr double kGrid = 20;

    NodeEditorScene(GraphDocument* document, QObject* parent = nullptr);

    GraphDocument* document() const { return m_document; }
    void rebuild();
    NodeItem* nodeItem(DocNodeId id) const;
    ConnectionItem* connectionItem(const Connection& connection) const;
    std::size_t connectionItemCount() const { return m_connections.size(); }

    /// Node positions snap to a 20-pixel grid while dragged.
    void setSnapToGrid(bool on) { m_snap = on; }
    bool snapToGrid() const { return m_snap; }

    /// Shapes, dtypes and problems from the latest inference; ports show them (an input its source's).
    void setFeedback(const std::map<DocNodeId, NodeFeedback>& feedback);
    std::vector<DocNodeId> selectedNodes() const;
    std::vector<Connection> selectedConnections() const;

    // ---- debugger breakpoints ----
    /// The debugger's breakpoints (the project's list): every node marks whether one applies to it,
    /// enabled or only disabled ones; kept through rebuilds, renames and new nodes.
    void setBreakpoints(std::vector<debugger::Breakpoint> breakpoints);
    const std::vector<debugger::Breakpoint>& breakpoints() const { return m_breakpoints; }
    /// The breakpoints that apply to node `id`, as indexes into breakpoints(). An op node: "node:" its
    /// name, "op:" its type, a "regex:" found in its name. A layer node, whose ops lie in its name scope:
    /// "node:" one of them, a "regex:" found in "NAME/" (F9's "regex:^NAME/"). "any" marks no node (it
    /// applies to every one) and "op:" no layer node (its ops are known only once built).
    std::vector<std::size_t> breakpointsOf(DocNodeId id) const;

    /// Starts / finishes a connection drag from a port (the mouse handlers call these; tests too).
    /// Returns the reason when the connection is refused, or empty when it was pushed.
    QString connectPorts(DocNodeId from, int output, DocNodeId to, int slot);

    // ---- name scopes ----
    /// Recomputes the scopes, their frames and texts, what is hidden, and the geometry now (the
    /// document's signals schedule this for the next event loop pass).
    void updateFrames();
    /// Every scope of the document's node names, outer before inner ("a" before "a/b").
    std::vector<std::string> scopes() const;
    ScopeFrameItem* frame(const std::string& scope) const;
    /// The nodes inside `scope` at any depth (and a node named as the scope itself).
    std::vector<DocNodeId> membersOf(const std::string& scope) const;
    /// Collapses or expands `scope` as one undo step ("Collapse 'dense'") on the document's stack; it
    /// emits scopeToggled while that step is open. Nothing when the scope is in that state already.
    void setScopeCollapsed(const std::string& scope, bool collapsed);
    /// Collapses exactly these scopes as one undo command (put it in a macro to add more to the
    /// step; `text` names the step otherwise); no scopeToggled. Nothing when they are collapsed already.
    void changeCollapsedScopes(const std::set<std::string>& scopes, const QString& text);
    /// Collapses exactly these scopes now, not as an undo step (a graph being opened, undo and redo).
    /// Unknown ones are kept for when they appear.
    void setCollapsedScopes(const std::set<std::string>& scopes);
    const std::set<std::string>& collapsedScopes() const { return m_collapsed; }
    bool isScopeCollapsed(const std::string& scope) const { return m_collapsed.count(scope) > 0; }
    /// The outermost collapsed scope hiding node `id`, or "" when the node is shown.
    std::string hidingScope(DocNodeId id) const;
    /// Expands every scope that hides node `id`, as one undo step (as setScopeCollapsed, emitting
    /// scopeToggled for the innermost); true when one was expanded.
    bool reveal(DocNodeId id);
    /// The bounding rect of what is shown (QGraphicsScene::itemsBoundingRect counts hidden items
    /// too: the nodes and connections inside collapsed scopes).
    QRectF shownItemsBoundingRect() const;

signals:
    /// A short message for the status bar: why a connection was refused, ...
    void message(const QString& text);
    /// A layer node was double-clicked: show the ops it stands for.
    void layerOpenRequested(tstudio::DocNodeId id);
    /// A scope was collapsed or expanded (by the user, setScopeCollapsed or reveal; not by undo or
    /// redo). Emitted while its undo step is open: a command pushed in reply (the editor's
    /// re-arrangement) joins that step, so one Ctrl+Z takes both back.
    void scopeToggled(const std::string& scope, bool collapsed);
    /// The user dragged nodes (or a scope's header) to a new place.
    void nodesMovedByUser();

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    class CollapseCommand;

    /// Sets the collapsed scopes when membership is current (cheaper than updateFrames).
    void applyCollapsed(const std::set<std::string>& scopes);
    void addNodeItem(DocNodeId id);
    void refreshNode(DocNodeId id);
    /// Puts the latest feedback on the node's ports and problem (cheap: no inference).
    void applyFeedback(DocNodeId id);
    void addConnectionItem(const Connection& connection);
    void removeConnectionItem(const Connection& connection);
    void updateConnectionsOf(DocNodeId id);
    void updateConnectionGeometry(ConnectionItem* item);
    QColor colourOf(const DocNode& node) const;
    NodeItem* nodeItemAt(QPointF scenePos) const;
    /// Schedules updateFrames (membership changed) or only layoutFrames (nodes moved or resized).
    void scheduleFrames(bool membership);
    /// Places every frame around what it shows, inner frames first.
    void layoutFrames();
    /// Hides the nodes and frames inside collapsed scopes and re-routes the connections.
    void applyVisibility();
    /// Moves every node of `scope` by `delta` (a header drag; the release makes it one command).
    void dragScope(const std::string& scope, QPointF delta);
    /// Puts node `id`'s breakpoint marker on its item.
    void applyBreakpointMark(DocNodeId id);

    GraphDocument* m_document;
    std::map<DocNodeId, NodeItem*> m_nodes;
    std::map<Connection, ConnectionItem*> m_connections;
    std::map<DocNodeId, NodeFeedback> m_feedback;
    bool m_snap = true;
    // A connection being dragged: from an output (or control out) to an input, or the reverse.
    struct Drag {
        DocNodeId node = kNoNode;
        int port = 0;
        bool fromOutput = true;
        QGraphicsPathItem* preview = nullptr;
    };
    std::optional<Drag> m_drag;
    NodeItem* m_lit = nullptr;
    std::map<std::string, ScopeFrameItem*> m_frames;
    std::map<std::string, std::vector<DocNodeId>> m_members;
    std::set<std::string> m_collapsed;
    std::map<DocNodeId, std::string> m_hiddenBy;
    bool m_framesPending = false;
    bool m_membershipPending = false;
    std::vector<debugger::Breakpoint> m_breakpoints;
    /// Per breakpoint: its compiled regex (null unless a "regex:" that compiles).
    std::vector<std::optional<debugger::NamePattern>> m_breakpointRegexes;
};

} // namespace tstudio::node_editor
