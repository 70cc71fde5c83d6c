// ProjectorCanvas: the Projector tab's scatter plot of projected points.
#pragma once

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QWidget>

#include <array>
#include <optional>
#include <vector>

namespace tstudio::dashboard {

/// The points of a projection as a scatter plot: wheel zooms at the cursor, dragging pans, a click
/// picks the nearest point (within 8 pixels), a double-click fits every point again. Given 3-D
/// points, it shows them turned about their centroid (orthographic, nearer points larger and drawn
/// over farther ones, farther ones paler): dragging turns them, Shift+dragging pans.
class ProjectorCanvas : public QWidget {
    Q_OBJECT
public:
    explicit ProjectorCanvas(QWidget* parent = nullptr);
    /// Positions (any units: the view fits them), one colour per point (or one for all).
    void setPoints(std::vector<QPointF> points, std::vector<QColor> colours);
    /// 3-D positions (any units), shown turned by an oblique first rotation (or, with
    /// `keepRotation`, as turned now: t-SNE's snapshots) and fitted.
    void setPoints3D(std::vector<std::array<double, 3>> points, std::vector<QColor> colours,
                     bool keepRotation = false);
    bool is3D() const { return !m_points3.empty(); }
    /// The 3-D view's turn: about the vertical axis (yaw), then the horizontal one (pitch, within
    /// +-1.5 radians).
    void setRotation(double yaw, double pitch);
    double yaw() const { return m_yaw; }
    double pitch() const { return m_pitch; }
    /// New colours for the same points (the view stays).
    void setColours(std::vector<QColor> colours);
    void setHighlighted(std::vector<bool> highlighted);
    /// A thumbnail per point (a sprite's), drawn in place of the points while shown (none: squares).
    void setSprites(std::vector<QImage> sprites);
    void setSpritesShown(bool shown);
    void setSelection(std::optional<std::size_t> selected, std::vector<std::size_t> neighbours);
    void fitAll();
    /// The point drawn nearest to `pos` within 8 pixels.
    std::optional<std::size_t> pointAt(const QPoint& pos) const;
    /// Where a point is drawn.
    QPointF toPixel(std::size_t index) const;

signals:
    void pointClicked(std::size_t index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    /// Turns m_points3 into m_points (the view plane) and m_depth, and orders the points far to near.
    void turn();

    std::vector<QPointF> m_points; ///< in the view plane (3-D points turned)
    std::vector<std::array<double, 3>> m_points3; ///< centred on their centroid; empty in 2-D
    std::vector<double> m_depth;                  ///< per point, toward the viewer
    std::vector<std::size_t> m_order;             ///< far to near (3-D), for drawing
    double m_depthLow = 0, m_depthHigh = 0;
    double m_yaw = 0, m_pitch = 0;
    std::vector<QColor> m_colours;
    std::vector<bool> m_highlighted;
    std::vector<QImage> m_sprites;
    bool m_spritesShown = true;
    std::optional<std::size_t> m_selected;
    std::vector<std::size_t> m_neighbours;
    QPointF m_centre{0, 0};
    double m_scale = 1; ///< pixels per unit
    QPoint m_pressAt, m_lastDrag;
    bool m_dragging = false;
};

} // namespace tstudio::dashboard
