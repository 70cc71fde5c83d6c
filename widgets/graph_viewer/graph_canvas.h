// GraphCanvas: draws a laid-out graph hierarchy and turns mouse and keys into selection, expansion and navigation.
#pragma once

#include "graph_viewer/graph_colouring.h"
#include "graph_viewer/graph_hierarchy.h"
#include "graph_viewer/graph_view_layout.h"

#include <QPointF>
#include <QRectF>
#include <QWidget>

#include <functional>
#include <memory>
#include <unordered_set>
#include <vector>

class QPainter;
class QTimer;

namespace tstudio::graph_viewer {

/// An immutable copy of a GraphViewLayout's result, handed from the layout thread to the GUI.
struct LayoutSnapshot {
    std::vector<ViewItem> items;
    std::vector<ViewEdge> edges;
    LayoutSize size;
    LayoutDirection direction = LayoutDirection::kTopToBottom;
    double milliseconds = 0; ///< time the layout update took
};

/// Draws only what is inside the viewport (and skips boxes smaller than a pixel), so panning and zooming
/// stay smooth however large the expanded graph is. Never owns the layout: it shows snapshots.
struct EdgeLayer;

class GraphCanvas : public QWidget {
    Q_OBJECT
public:
    explicit GraphCanvas(QWidget* parent = nullptr);

    void setHierarchy(std::shared_ptr<const GraphHierarchy> hierarchy);
    void setSnapshot(std::shared_ptr<const LayoutSnapshot> snapshot);
    const LayoutSnapshot* snapshot() const { return m_snapshot.get(); }
    void setColouring(std::shared_ptr<const GraphColouring> colouring);
    /// Per hierarchy node: true when it (or something inside it) has a problem to mark.
    void setProblemFlags(std::vector<char> flags);
    /// Text of an edge's tooltip (shapes, counts), given its group and index in that group's edges.
    void setEdgeDescriber(std::function<QString(int group, int edgeIndex)> describe);

    int selected() const { return m_selected; }
    void setSelected(int node);
    /// Hierarchy nodes to emphasise (find matches); `current` gets a stronger mark.
    void setMatches(std::vector<int> nodes, int current);
    /// Nodes on a traced path: everything else is faded. Empty clears.
    void setTraced(std::vector<int> nodes);
    /// What the debugger marks on a hierarchy node (bits).
    enum DebugMark : char {
        kBreakpointMark = 1,         ///< an op with a breakpoint: a red dot
        kContainsBreakpointMark = 2, ///< a group holding such an op: a red ring
        kExecutedMark = 4,           ///< an op that ran in the debugged run: a small green dot
        kPausedMark = 8,             ///< the op the run is paused at: a thick violet outline
        kContainsPausedMark = 16,    ///< a group holding it: outlined the same while collapsed
    };
    /// The debugger's marks (DebugMark bits) per hierarchy node; empty clears.
    void setDebugMarks(std::vector<char> marks);
    int debugMarks(int node) const;

    /// View transform: screen = world * zoom + offset.
    double zoom() const { return m_zoom; }
    QPointF offset() const { return m_offset; }
    void setView(double zoom, QPointF offset);
    QRectF visibleWorldRect() const;
    /// Fits the whole layout in the widget (zoom at most 1.5).
    void zoomToFit();
    /// While on, the view re-fits on every resize and new layout until the user pans, zooms or expands.
    void keepFitting(bool on);
    /// Zooms (never beyond 1.5x) so the node is in view and centred; false when it is not visible.
    bool zoomToNode(int node);
    void centreOn(QPointF world);
    /// Index in the snapshot's items of a hierarchy node, or -1.
    int itemIndexOf(int node) const;
    /// The hierarchy node under a widget position, or -1.
    int nodeAt(QPointF widgetPos) const;

    /// Draws `world` (world coordinates) into a painter already scaled to world units times `scale`.
    /// Used for the screen, the minimap and exports.
    void renderScene(QPainter& painter, const QRectF& world, double scale, bool screen) const;
    /// Ends the "moving" state now (it ends by itself 150 ms after the last pan or zoom): the next frame
    /// draws edges antialiased.
    void settle();
    bool isMoving() const { return m_moving; }

signals:
    void selectionChanged(int node);
    /// The user asked to expand (true) or collapse (false) a group or series.
    void expansionRequested(int node, bool expand);
    void viewChanged();
    void contextMenuRequested(int node, QPoint globalPos);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void drawItem(QPainter& painter, const ViewItem& item, double scale, bool screen) const;
    /// Draws one edge. With `drawn` (zoomed out on many edges), an edge whose pieces fall on the same pixels, in
    /// the same pen, as one drawn already is left out; `drawn` remembers the edges drawn.
    /// With `layer`, an edge drawn as straight pieces goes into that pixel layer (rasterPolyline) instead.
    void drawEdge(QPainter& painter, const ViewEdge& edge, double scale, const QRectF& world, const QRectF& bounds,
                  bool screen, std::unordered_set<std::uint64_t>* drawn, EdgeLayer* layer) const;
    void drawStubs(QPainter& painter, const ViewItem& item, double scale) const;
    QRectF toggleRect(const ViewItem& item) const;
    int edgeAt(QPointF widgetPos) const;
    QString itemLabel(const HierarchyNode& node) const;
    /// A function's group inside the "Functions" group (see function_library_view.h).
    bool isLibraryFunction(const HierarchyNode& node) const;
    void zoomAt(QPointF widgetPos, double factor);
    void applyView(double zoom, QPointF offset);
    void fitView();

    std::shared_ptr<const GraphHierarchy> m_hierarchy;
    std::shared_ptr<const LayoutSnapshot> m_snapshot;
    std::shared_ptr<const GraphColouring> m_colouring;
    std::vector<int> m_itemOfNode;
    std::vector<QRectF> m_edgeBounds;
    std::vector<char> m_problemFlags;
    std::vector<char> m_matchFlags;
    std::vector<char> m_traceFlags;
    std::vector<char> m_debugMarks;
    bool m_tracing = false;
    int m_currentMatch = -1;
    std::function<QString(int, int)> m_describeEdge;
    int m_selected = -1;
    double m_zoom = 1.0;
    QPointF m_offset{20, 20};
    QPoint m_pressPos;
    QPointF m_pressOffset;
    bool m_panning = false;
    bool m_fitPending = true;
    bool m_moving = false;
    QTimer* m_settleTimer = nullptr;
};

} // namespace tstudio::graph_viewer
