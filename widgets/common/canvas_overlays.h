// CanvasOverlays: small panels over a canvas (a legend, a minimap) kept in its corners, out of the
// way of what the user is looking at, and movable or hidden by the user.
#pragma once

#include <QObject>
#include <QRect>

#include <vector>

class QAction;
class QWidget;

namespace tstudio {

/// Places each overlay in a corner of `host` (their common parent), 8 px from the edges. An overlay
/// goes to its preferred corner unless that would cover the rectangle to keep clear (the selected
/// node, in host coordinates) or an overlay placed before it; then to the nearest corner that is
/// free (the preferred one when none is). Each overlay gets a context menu: the four corners (the
/// user's choice becomes its preferred corner) and Hide, which unchecks its visibility action.
/// Overlays are laid out again when the host or an overlay changes size. GUI thread only.
class CanvasOverlays : public QObject {
    Q_OBJECT
public:
    explicit CanvasOverlays(QWidget* host);

    /// Manages `overlay` (a child of the host, not in a layout). `visible` (checkable, owned by the
    /// caller) shows and hides it; its text is the caller's ("Show legend").
    void add(QWidget* overlay, Qt::Corner preferred, QAction* visible);
    void setPreferredCorner(QWidget* overlay, Qt::Corner corner);
    /// The corner the overlay is in now.
    Qt::Corner corner(const QWidget* overlay) const;
    /// What no overlay may cover (host coordinates); an empty rectangle: nothing.
    void keepClear(const QRect& rect);
    /// A widget of the host's top edge (a status line) that overlays in the top corners stay below.
    void keepBelow(const QWidget* topBar);
    /// Places every overlay now.
    void relayout();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Overlay {
        QWidget* widget = nullptr;
        Qt::Corner preferred = Qt::BottomLeftCorner;
        Qt::Corner current = Qt::BottomLeftCorner;
        QAction* visible = nullptr;
    };
    QRect rectAt(const QWidget* overlay, Qt::Corner corner) const;
    void showMenu(Overlay& overlay, const QPoint& globalPos);
    void scheduleRelayout();

    QWidget* m_host;
    std::vector<Overlay> m_overlays;
    QRect m_keepClear;
    const QWidget* m_topBar = nullptr;
    bool m_scheduled = false;
};

} // namespace tstudio
