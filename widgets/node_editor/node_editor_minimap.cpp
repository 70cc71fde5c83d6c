// The editor's overview: the same scene at a fitting scale, no interaction but moving the main view.
#include "node_editor/node_editor_minimap.h"

#include "node_editor/node_editor_view.h"

#include <QMouseEvent>
#include <QScrollBar>
#include <QTimer>

namespace tstudio::node_editor {

NodeEditorMinimap::NodeEditorMinimap(NodeEditorView* main, QWidget* parent) : QGraphicsView(main->scene(), parent), m_main(main)
{
    setObjectName(QStringLiteral("editorMinimap"));
    setFixedSize(180, 120);
    setInteractive(false);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setRenderHint(QPainter::Antialiasing, false);
    setFrameShape(QFrame::StyledPanel);
    setToolTip(tr("Overview: click or drag to move the view"));
    auto* timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setInterval(100);
    connect(timer, &QTimer::timeout, this, &NodeEditorMinimap::refit);
    connect(main->scene(), &QGraphicsScene::changed, timer, qOverload<>(&QTimer::start));
    connect(main->horizontalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
    connect(main->verticalScrollBar(), &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
}

void NodeEditorMinimap::refit()
{
    const QRectF bounds = NodeEditorView::shownBounds(scene()).adjusted(-40, -40, 40, 40);
    if (!bounds.isEmpty())
        fitInView(bounds, Qt::KeepAspectRatio);
    viewport()->update();
}

void NodeEditorMinimap::drawForeground(QPainter* painter, const QRectF&)
{
    const QRectF visible = m_main->mapToScene(m_main->viewport()->rect()).boundingRect();
    QColor highlight = palette().color(QPalette::Highlight);
    painter->setPen(QPen(highlight, 0));
    highlight.setAlpha(40);
    painter->setBrush(highlight);
    painter->drawRect(visible);
}

void NodeEditorMinimap::mousePressEvent(QMouseEvent* event)
{
    m_main->centerOn(mapToScene(event->pos()));
    viewport()->update();
}

void NodeEditorMinimap::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton) {
        m_main->centerOn(mapToScene(event->pos()));
        viewport()->update();
    }
}

void NodeEditorMinimap::wheelEvent(QWheelEvent* event)
{
    event->ignore();
}

} // namespace tstudio::node_editor
