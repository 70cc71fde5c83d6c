// ScopeFrameItem: a name scope on the editor canvas, a frame around its nodes or, collapsed, one box.
#pragma once

#include <QGraphicsObject>
#include <QString>

#include <string>

namespace tstudio::node_editor {

/// Drawn behind the nodes of one name scope ("dense" holds "dense/MatMul", "dense/kernel", ...).
/// Expanded: a frame with a header (the scope's last name, what the scope computes when it is
/// recognised as a layer — "Dense(64, relu)" — and its op count) around its nodes and inner
/// frames; only the header takes the mouse, so the nodes inside stay clickable. Collapsed: one box
/// in place of its nodes, which connections to them are drawn to. Clicking the arrow or
/// double-clicking the header asks for the other state; dragging the header moves the scope's nodes.
/// The scene owns the state and the geometry (NodeEditorScene::layoutFrames); this item draws.
class ScopeFrameItem : public QGraphicsObject {
    Q_OBJECT
public:
    static constexpr double kPadding = 12; ///< between the frame and what it holds
    static constexpr double kHeader = 26;  ///< header band above what it holds
    static constexpr double kCollapsedHeight = 48;

    explicit ScopeFrameItem(std::string scope, QGraphicsItem* parent = nullptr);

    const std::string& scope() const { return m_scope; }
    /// The scope's last name ("dense" for "model/dense"), what it computes ("" when not
    /// recognised) and how many nodes it holds at any depth.
    void setText(const QString& title, const QString& summary, int nodeCount);
    const QString& summary() const { return m_summary; }
    void setCollapsed(bool collapsed);
    bool isCollapsed() const { return m_collapsed; }
    /// Places the frame: `rect` in scene coordinates (expanded: around its contents; collapsed: the
    /// box, see collapsedSize()).
    void setSceneRect(const QRectF& rect);
    QRectF sceneRect() const { return QRectF(pos(), m_size); }
    /// The collapsed box's size for this frame's texts.
    QSizeF collapsedSize() const;
    /// Where connections into / out of the collapsed box meet it (scene coordinates).
    QPointF inputAnchor() const;
    QPointF outputAnchor() const;
    /// The header band in item coordinates.
    QRectF headerRect() const;

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

signals:
    /// The arrow was clicked or the header double-clicked.
    void toggleRequested(const std::string& scope);
    /// The header is being dragged: move the scope's nodes by `delta` (scene units).
    void dragged(const std::string& scope, QPointF delta);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    QRectF arrowRect() const;

    std::string m_scope;
    QString m_title;
    QString m_summary;
    int m_nodeCount = 0;
    bool m_collapsed = false;
    QSizeF m_size{160, kCollapsedHeight};
    QPointF m_dragFrom;
    bool m_dragging = false;
};

} // namespace tstudio::node_editor
