// Painting and mouse handling of a name-scope frame on the editor canvas.
#include "node_editor/scope_frame_item.h"

#include "common/op_style.h"
#include "node_editor/node_item.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QPalette>
#include <QStyleOptionGraphicsItem>

#include <algorithm>
#include <cmath>

namespace tstudio::node_editor {
namespace {

constexpr double kArrow = 18;   ///< the arrow's square at the header's left
constexpr double kMargin = 8;   ///< text margins inside the header and the collapsed box
constexpr double kMinWidth = 140;

QFont titleFont()
{
    QFont font = NodeItem::portFont();
    font.setPixelSize(12);
    font.setBold(true);
    return font;
}

QColor frameColour(const QPalette& palette)
{
    // A neutral tint that reads on light and dark palettes alike.
    QColor colour = palette.color(QPalette::Highlight);
    colour.setAlpha(28);
    return colour;
}

} // namespace

ScopeFrameItem::ScopeFrameItem(std::string scope, QGraphicsItem* parent) : QGraphicsObject(parent), m_scope(std::move(scope))
{
    setAcceptedMouseButtons(Qt::LeftButton);
    setZValue(-1); // behind connections (0) and nodes (1); the scene raises inner frames a little
}

void ScopeFrameItem::setText(const QString& title, const QString& summary, int nodeCount)
{
    if (title == m_title && summary == m_summary && nodeCount == m_nodeCount)
        return;
    m_title = title;
    m_summary = summary;
    m_nodeCount = nodeCount;
    const QString nodes = tr("%n node(s)", nullptr, nodeCount);
    setToolTip(QStringLiteral("<b>%1</b>%2<br>%3<br>%4")
                   .arg(QString::fromStdString(m_scope).toHtmlEscaped(),
                        summary.isEmpty() ? QString() : QStringLiteral(" — ") + summary.toHtmlEscaped(), nodes,
                        m_collapsed ? tr("Double-click or click the arrow to show its nodes; drag to move them.")
                                    : tr("Double-click the header or click the arrow to collapse; drag the header to move its nodes.")));
    update();
}

void ScopeFrameItem::setCollapsed(bool collapsed)
{
    if (collapsed == m_collapsed)
        return;
    m_collapsed = collapsed;
    setZValue(collapsed ? 1 : -1); // a collapsed box stands among the nodes
    const QString title = m_title, summary = m_summary;
    m_title.clear(); // refresh the tooltip
    setText(title, summary, m_nodeCount);
    update();
}

void ScopeFrameItem::setSceneRect(const QRectF& rect)
{
    if (rect.size() != m_size)
        prepareGeometryChange();
    m_size = rect.size();
    setPos(rect.topLeft());
    update();
}

QSizeF ScopeFrameItem::collapsedSize() const
{
    const QFontMetricsF bold(titleFont());
    const QFontMetricsF plain(NodeItem::portFont());
    const QString second = m_summary.isEmpty() ? tr("%n node(s)", nullptr, m_nodeCount)
                                               : m_summary + QStringLiteral(" · ") + tr("%n node(s)", nullptr, m_nodeCount);
    const double width = std::max({kMinWidth, kArrow + kMargin + bold.horizontalAdvance(m_title) + kMargin,
                                   2 * kMargin + plain.horizontalAdvance(second)});
    return {std::ceil(width), kCollapsedHeight};
}

QPointF ScopeFrameItem::inputAnchor() const
{
    return mapToScene(QPointF(0, m_collapsed ? m_size.height() / 2 : kHeader / 2));
}

QPointF ScopeFrameItem::outputAnchor() const
{
    return mapToScene(QPointF(m_size.width(), m_collapsed ? m_size.height() / 2 : kHeader / 2));
}

QRectF ScopeFrameItem::headerRect() const
{
    return QRectF(0, 0, m_size.width(), kHeader);
}

QRectF ScopeFrameItem::arrowRect() const
{
    return QRectF(4, (kHeader - kArrow) / 2, kArrow, kArrow);
}

QRectF ScopeFrameItem::boundingRect() const
{
    return QRectF(QPointF(-1, -1), m_size + QSizeF(2, 2));
}

QPainterPath ScopeFrameItem::shape() const
{
    QPainterPath path;
    path.addRect(m_collapsed ? QRectF(QPointF(0, 0), m_size) : headerRect());
    return path;
}

void ScopeFrameItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const QPalette palette = scene() ? scene()->palette() : QPalette();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setRenderHint(QPainter::Antialiasing, true);
    const QRectF body(QPointF(0, 0), m_size);
    const QColor border = palette.color(QPalette::Mid);
    QColor band = palette.color(QPalette::Highlight);
    band.setAlpha(m_collapsed ? 200 : 70);
    painter->setPen(QPen(border, m_collapsed ? 1.4 : 1.0, m_collapsed ? Qt::SolidLine : Qt::DashLine));
    painter->setBrush(m_collapsed ? palette.color(QPalette::Base) : frameColour(palette));
    painter->drawRoundedRect(body, 8, 8);
    QPainterPath header;
    header.addRoundedRect(headerRect(), 8, 8);
    header.addRect(QRectF(0, kHeader - 8, m_size.width(), 8));
    painter->setPen(Qt::NoPen);
    painter->setBrush(band);
    painter->drawPath(header.simplified());
    if (lod < 0.3)
        return;
    const QColor onBand = m_collapsed ? textColourOn(band) : palette.color(QPalette::Text);
    // The arrow: pointing right when collapsed, down when expanded.
    const QRectF a = arrowRect().adjusted(5, 5, -5, -5);
    QPolygonF arrow;
    if (m_collapsed)
        arrow << a.topLeft() << QPointF(a.right(), a.center().y()) << a.bottomLeft();
    else
        arrow << a.topLeft() << a.topRight() << QPointF(a.center().x(), a.bottom());
    painter->setBrush(onBand);
    painter->drawPolygon(arrow);
    const QFont bold = titleFont();
    const QFontMetricsF boldMetrics(bold);
    const QFont plain = NodeItem::portFont();
    const QFontMetricsF plainMetrics(plain);
    const double left = kArrow + kMargin;
    painter->setFont(bold);
    painter->setPen(onBand);
    const QRectF titleRect(left, 0, m_size.width() - left - kMargin, kHeader);
    const QString nodes = tr("%n node(s)", nullptr, m_nodeCount);
    if (m_collapsed) {
        painter->drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter, boldMetrics.elidedText(m_title, Qt::ElideMiddle, titleRect.width()));
        const QRectF second(kMargin, kHeader, m_size.width() - 2 * kMargin, m_size.height() - kHeader);
        painter->setFont(plain);
        painter->setPen(palette.color(QPalette::Text));
        const QString text = m_summary.isEmpty() ? nodes : m_summary + QStringLiteral(" · ") + nodes;
        painter->drawText(second, Qt::AlignLeft | Qt::AlignVCenter, plainMetrics.elidedText(text, Qt::ElideRight, second.width()));
        return;
    }
    // Expanded: title, then what it computes, then the count at the right when there is room.
    const double titleWidth = std::min(boldMetrics.horizontalAdvance(m_title), titleRect.width());
    painter->drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter, boldMetrics.elidedText(m_title, Qt::ElideMiddle, titleRect.width()));
    painter->setFont(plain);
    const double countWidth = plainMetrics.horizontalAdvance(nodes);
    double x = left + titleWidth + kMargin;
    if (!m_summary.isEmpty()) {
        const double room = m_size.width() - x - kMargin - countWidth - kMargin;
        if (room > 20) {
            painter->drawText(QRectF(x, 0, room, kHeader), Qt::AlignLeft | Qt::AlignVCenter,
                              plainMetrics.elidedText(m_summary, Qt::ElideRight, room));
            x += std::min(room, plainMetrics.horizontalAdvance(m_summary)) + kMargin;
        }
    }
    if (m_size.width() - x - kMargin >= countWidth) {
        painter->setPen(palette.color(QPalette::PlaceholderText));
        painter->drawText(QRectF(x, 0, m_size.width() - x - kMargin, kHeader), Qt::AlignRight | Qt::AlignVCenter, nodes);
    }
}

void ScopeFrameItem::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    if (arrowRect().contains(event->pos())) {
        emit toggleRequested(m_scope);
        event->accept();
        return;
    }
    m_dragging = true;
    m_dragFrom = event->scenePos();
    event->accept();
}

void ScopeFrameItem::mouseMoveEvent(QGraphicsSceneMouseEvent* event)
{
    if (!m_dragging)
        return;
    const QPointF delta = event->scenePos() - m_dragFrom;
    if (delta.manhattanLength() < 1)
        return;
    m_dragFrom = event->scenePos();
    emit dragged(m_scope, delta);
}

void ScopeFrameItem::mouseReleaseEvent(QGraphicsSceneMouseEvent* event)
{
    m_dragging = false;
    event->ignore(); // the scene turns the moved nodes into one undoable move
}

void ScopeFrameItem::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    emit toggleRequested(m_scope);
    event->accept();
}

} // namespace tstudio::node_editor
