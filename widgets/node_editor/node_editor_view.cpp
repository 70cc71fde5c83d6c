// Navigation and drops for the node editor canvas.
#include "node_editor/node_editor_view.h"

#include "node_editor/node_editor_scene.h"
#include "node_editor/node_palette.h"

#include <QDragEnterEvent>
#include <QKeyEvent>
#include <QMimeData>
#include <QScrollBar>
#include <QWheelEvent>

#include <cmath>

namespace tstudio::node_editor {

NodeEditorView::NodeEditorView(QGraphicsScene* scene, QWidget* parent) : QGraphicsView(scene, parent)
{
    setObjectName(QStringLiteral("nodeEditorView"));
    setRenderHint(QPainter::Antialiasing, true);
    setRenderHint(QPainter::TextAntialiasing, true);
    setDragMode(QGraphicsView::RubberBandDrag);
    setRubberBandSelectionMode(Qt::IntersectsItemShape);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setAcceptDrops(true);
    setSceneRect(QRectF(-20000, -20000, 40000, 40000));
}

void NodeEditorView::zoomBy(double factor)
{
    const double current = transform().m11();
    const double target = std::clamp(current * factor, 0.05, 4.0);
    scale(target / current, target / current);
}

void NodeEditorView::reveal(const QRectF& sceneRect)
{
    if (sceneRect.isEmpty())
        return;
    constexpr int kMargin = 40; // view pixels: room for the node's labels growing once shapes are known
    const QRectF shown = mapToScene(viewport()->rect()).boundingRect();
    const double scale = transform().m11();
    if (sceneRect.width() + 2 * kMargin / scale > shown.width() || sceneRect.height() + 2 * kMargin / scale > shown.height())
        centerOn(sceneRect.center());
    else
        ensureVisible(sceneRect, kMargin, kMargin);
}

QRectF NodeEditorView::shownBounds(QGraphicsScene* scene)
{
    auto* editorScene = qobject_cast<NodeEditorScene*>(scene);
    return editorScene ? editorScene->shownItemsBoundingRect() : scene->itemsBoundingRect();
}

void NodeEditorView::zoomToFit()
{
    QRectF bounds = shownBounds(scene());
    if (bounds.isEmpty()) {
        resetTransform();
        centerOn(0, 0);
        return;
    }
    bounds.adjust(-40, -40, 40, 40);
    fitInView(bounds, Qt::KeepAspectRatio);
    if (transform().m11() > 1.0) {
        resetTransform();
        centerOn(bounds.center());
    }
}

void NodeEditorView::wheelEvent(QWheelEvent* event)
{
    zoomBy(std::pow(1.2, event->angleDelta().y() / 120.0));
    event->accept();
}

void NodeEditorView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::MiddleButton) {
        m_panning = true;
        m_panStart = event->pos();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void NodeEditorView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_panning) {
        const QPoint delta = event->pos() - m_panStart;
        m_panStart = event->pos();
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
        event->accept();
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
}

void NodeEditorView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_panning && event->button() == Qt::MiddleButton) {
        m_panning = false;
        unsetCursor();
        event->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

bool NodeEditorView::focusNextPrevChild(bool)
{
    return false; // Tab belongs to the canvas: it opens the quick-add popup
}

void NodeEditorView::keyPressEvent(QKeyEvent* event)
{
    const QPoint cursor = viewport()->mapFromGlobal(QCursor::pos());
    const QPoint at = viewport()->rect().contains(cursor) ? cursor : viewport()->rect().center();
    if (event->key() == Qt::Key_Tab && event->modifiers() == Qt::NoModifier) {
        emit quickAddRequested(viewport()->mapToGlobal(at), mapToScene(at), QString());
        event->accept();
        return;
    }
    const QString text = event->text();
    if (event->modifiers() == Qt::NoModifier && text.size() == 1 && text.at(0).isLetter()) {
        emit quickAddRequested(viewport()->mapToGlobal(at), mapToScene(at), text);
        event->accept();
        return;
    }
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.2);
        return;
    case Qt::Key_Minus:
        zoomBy(1 / 1.2);
        return;
    case Qt::Key_Left:
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - 60);
        return;
    case Qt::Key_Right:
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + 60);
        return;
    case Qt::Key_Up:
        verticalScrollBar()->setValue(verticalScrollBar()->value() - 60);
        return;
    case Qt::Key_Down:
        verticalScrollBar()->setValue(verticalScrollBar()->value() + 60);
        return;
    default:
        QGraphicsView::keyPressEvent(event);
    }
}

void NodeEditorView::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasFormat(QString::fromLatin1(kNodeMimeType)))
        event->acceptProposedAction();
    else
        QGraphicsView::dragEnterEvent(event);
}

void NodeEditorView::dragMoveEvent(QDragMoveEvent* event)
{
    if (event->mimeData()->hasFormat(QString::fromLatin1(kNodeMimeType)))
        event->acceptProposedAction();
    else
        QGraphicsView::dragMoveEvent(event);
}

void NodeEditorView::dropEvent(QDropEvent* event)
{
    const QByteArray data = event->mimeData()->data(QString::fromLatin1(kNodeMimeType));
    if (data.isEmpty()) {
        QGraphicsView::dropEvent(event);
        return;
    }
    emit entryDropped(QString::fromUtf8(data), mapToScene(event->position().toPoint()));
    event->acceptProposedAction();
}

void NodeEditorView::drawBackground(QPainter* painter, const QRectF& rect)
{
    painter->fillRect(rect, palette().color(QPalette::Base));
    if (transform().m11() < 0.4)
        return;
    // The grid nodes snap to.
    const double g = NodeEditorScene::kGrid;
    QColor dot = palette().color(QPalette::Text);
    dot.setAlphaF(0.12);
    painter->setPen(QPen(dot, 0));
    const double left = std::floor(rect.left() / g) * g, top = std::floor(rect.top() / g) * g;
    QVector<QPointF> points;
    for (double x = left; x < rect.right(); x += g)
        for (double y = top; y < rect.bottom(); y += g)
            points.append(QPointF(x, y));
    painter->drawPoints(points.data(), static_cast<int>(points.size()));
}

} // namespace tstudio::node_editor
