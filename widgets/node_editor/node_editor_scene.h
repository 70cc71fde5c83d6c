// NodeEditorScene: the canvas as a projection of a GraphDocument; drags become undoable commands.
#pragma once

#include "document/graph_document.h"

#include <QGraphicsScene>
#include <QString>

#include <map>
#include <optional>
#include <vector>

class QGraphicsPathItem;

namespace tstudio::node_editor {

class ConnectionItem;
class NodeItem;

/// What live feedback says about one node: its outputs' shapes and dtypes ("" unknown) and its problem.
struct NodeFeedback {
    std::vector<QString> shapes;
    QString problem;
    std::vector<QString> dtypes;
};

/// Holds one NodeItem per document node and one ConnectionItem per connection, kept in step with the
/// document's signals; rebuild() recreates everything from the document. The scene never edits the
/// document directly: moves, new connections and reconnections are pushed on the document's undo stack.
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

    /// Starts / finishes a connection drag from a port (the mouse handlers call these; tests too).
    /// Returns the reason when the connection is refused, or empty when it was pushed.
    QString connectPorts(DocNodeId from, int output, DocNodeId to, int slot);

signals:
    /// A short message for the status bar: why a connection was refused, ...
    void message(const QString& text);
    /// A layer node was double-clicked: show the ops it stands for.
    void layerOpenRequested(tstudio::DocNodeId id);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
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
};

} // namespace tstudio::node_editor
