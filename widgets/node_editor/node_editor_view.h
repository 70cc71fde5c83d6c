// NodeEditorView: the editor canvas's view: zoom, pan, rubber-band selection, drops from the palette, Tab to add.
#pragma once

#include <QGraphicsView>

namespace tstudio::node_editor {

class NodeEditorView : public QGraphicsView {
    Q_OBJECT
public:
    explicit NodeEditorView(QGraphicsScene* scene, QWidget* parent = nullptr);
    /// What the scene shows, without the items inside collapsed scopes.
    static QRectF shownBounds(QGraphicsScene* scene);
    /// Fits every shown item in view (zoom at most 1).
    void zoomToFit();
    void zoomBy(double factor);
    /// Scrolls, without zooming, so that `sceneRect` is shown with a margin (a node just added or
    /// pasted); one larger than the view is centred.
    void reveal(const QRectF& sceneRect);

signals:
    /// A palette entry ("layer:Dense", "op:MatMul") dropped at a scene position.
    void entryDropped(const QString& kindAndType, QPointF scenePos);
    /// Tab, or typing a letter on the canvas: open the quick-add popup here (global position), pre-filtered.
    void quickAddRequested(QPoint globalPos, QPointF scenePos, const QString& text);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool focusNextPrevChild(bool next) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;

private:
    bool m_panning = false;
    QPoint m_panStart;
};

} // namespace tstudio::node_editor
