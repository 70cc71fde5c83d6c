// ProjectorCanvas: the Projector tab's scatter plot of projected points.
#pragma once

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QWidget>

#include <optional>
#include <vector>

namespace tstudio::dashboard {

/// The points of a projection as a scatter plot: wheel zooms at the cursor, dragging pans, a click
/// picks the nearest point (within 8 pixels), a double-click fits every point again.
class ProjectorCanvas : public QWidget {
    Q_OBJECT
public:
    explicit ProjectorCanvas(QWidget* parent = nullptr);
    /// Positions (any units: the view fits them), one colour per point (or one for all).
    void setPoints(std::vector<QPointF> points, std::vector<QColor> colours);
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
    std::vector<QPointF> m_points;
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
