// CanvasOverlays: corner placement that dodges the selection, with a corner/Hide context menu.
#include "common/canvas_overlays.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QEvent>
#include <QMenu>
#include <QTimer>
#include <QWidget>

#include <array>

namespace tstudio {
namespace {

constexpr int kMargin = 8;

/// The corners to try for an overlay that prefers `preferred`: it, the two beside it, the opposite.
std::array<Qt::Corner, 4> cornersFrom(Qt::Corner preferred)
{
    switch (preferred) {
    case Qt::TopLeftCorner: return {Qt::TopLeftCorner, Qt::TopRightCorner, Qt::BottomLeftCorner, Qt::BottomRightCorner};
    case Qt::TopRightCorner: return {Qt::TopRightCorner, Qt::TopLeftCorner, Qt::BottomRightCorner, Qt::BottomLeftCorner};
    case Qt::BottomLeftCorner:
        return {Qt::BottomLeftCorner, Qt::BottomRightCorner, Qt::TopLeftCorner, Qt::TopRightCorner};
    case Qt::BottomRightCorner:
        return {Qt::BottomRightCorner, Qt::BottomLeftCorner, Qt::TopRightCorner, Qt::TopLeftCorner};
    }
    return {preferred, preferred, preferred, preferred};
}

} // namespace

CanvasOverlays::CanvasOverlays(QWidget* host) : QObject(host), m_host(host)
{
    m_host->installEventFilter(this);
}

void CanvasOverlays::add(QWidget* overlay, Qt::Corner preferred, QAction* visible)
{
    Overlay o;
    o.widget = overlay;
    o.preferred = o.current = preferred;
    o.visible = visible;
    m_overlays.push_back(o);
    overlay->installEventFilter(this);
    overlay->setContextMenuPolicy(Qt::DefaultContextMenu);
    if (visible) {
        visible->setCheckable(true);
        overlay->setVisible(visible->isChecked());
        connect(visible, &QAction::toggled, overlay, [this, overlay](bool on) {
            overlay->setVisible(on);
            relayout();
        });
    }
    relayout();
}

void CanvasOverlays::setPreferredCorner(QWidget* overlay, Qt::Corner corner)
{
    for (Overlay& o : m_overlays)
        if (o.widget == overlay)
            o.preferred = corner;
    relayout();
}

Qt::Corner CanvasOverlays::corner(const QWidget* overlay) const
{
    for (const Overlay& o : m_overlays)
        if (o.widget == overlay)
            return o.current;
    return Qt::BottomLeftCorner;
}

void CanvasOverlays::keepClear(const QRect& rect)
{
    if (rect == m_keepClear)
        return;
    m_keepClear = rect;
    relayout();
}

void CanvasOverlays::keepBelow(const QWidget* topBar)
{
    m_topBar = topBar;
    scheduleRelayout();
}

QRect CanvasOverlays::rectAt(const QWidget* overlay, Qt::Corner corner) const
{
    const QSize size = overlay->size();
    const int left = kMargin, right = m_host->width() - kMargin - size.width();
    const int top = m_topBar != nullptr && m_topBar->isVisible() ? m_topBar->geometry().bottom() + kMargin : kMargin;
    const int bottom = m_host->height() - kMargin - size.height();
    switch (corner) {
    case Qt::TopLeftCorner: return {QPoint(left, top), size};
    case Qt::TopRightCorner: return {QPoint(right, top), size};
    case Qt::BottomLeftCorner: return {QPoint(left, bottom), size};
    case Qt::BottomRightCorner: return {QPoint(right, bottom), size};
    }
    return {QPoint(left, bottom), size};
}

void CanvasOverlays::scheduleRelayout()
{
    if (m_scheduled)
        return;
    m_scheduled = true;
    QTimer::singleShot(0, this, [this] { relayout(); });
}

void CanvasOverlays::relayout()
{
    m_scheduled = false;
    std::vector<QRect> taken;
    for (Overlay& o : m_overlays) {
        if (o.widget->isHidden())
            continue;
        o.widget->adjustSize();
        Qt::Corner chosen = o.preferred;
        for (Qt::Corner c : cornersFrom(o.preferred)) {
            const QRect r = rectAt(o.widget, c);
            bool clear = m_keepClear.isEmpty() || !r.intersects(m_keepClear);
            for (const QRect& t : taken)
                clear = clear && !r.intersects(t);
            if (clear) {
                chosen = c;
                break;
            }
        }
        o.current = chosen;
        const QRect r = rectAt(o.widget, chosen);
        o.widget->move(r.topLeft());
        o.widget->raise();
        taken.push_back(r);
    }
}

void CanvasOverlays::showMenu(Overlay& overlay, const QPoint& globalPos)
{
    QMenu menu(m_host);
    const std::array<std::pair<Qt::Corner, QString>, 4> corners = {{{Qt::TopLeftCorner, tr("Top left")},
                                                                     {Qt::TopRightCorner, tr("Top right")},
                                                                     {Qt::BottomLeftCorner, tr("Bottom left")},
                                                                     {Qt::BottomRightCorner, tr("Bottom right")}}};
    QWidget* widget = overlay.widget;
    for (const auto& [corner, text] : corners) {
        QAction* action = menu.addAction(text);
        action->setCheckable(true);
        action->setChecked(overlay.current == corner);
        connect(action, &QAction::triggered, this, [this, widget, c = corner] { setPreferredCorner(widget, c); });
    }
    menu.addSeparator();
    QAction* hide = menu.addAction(tr("Hide"));
    QAction* visible = overlay.visible;
    connect(hide, &QAction::triggered, this, [this, widget, visible] {
        if (visible)
            visible->setChecked(false);
        else
            widget->hide();
        relayout();
    });
    menu.exec(globalPos);
}

bool CanvasOverlays::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_host) {
        // Resizes, and a child's size hint changing (a legend's new text): placed once the events
        // are processed, so that a burst of them lays out once.
        if (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest)
            scheduleRelayout();
        return false;
    }
    for (Overlay& o : m_overlays) {
        if (watched != o.widget)
            continue;
        if (event->type() == QEvent::ContextMenu) {
            showMenu(o, static_cast<QContextMenuEvent*>(event)->globalPos());
            return true;
        }
        if (event->type() == QEvent::LayoutRequest || event->type() == QEvent::Show)
            scheduleRelayout();
    }
    return false;
}

} // namespace tstudio
