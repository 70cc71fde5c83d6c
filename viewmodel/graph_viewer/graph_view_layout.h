// GraphViewLayout: the graph viewer's hierarchical layout of expanded and collapsed groups, cached per group (Qt-free).
#pragma once

#include "graph_viewer/graph_hierarchy.h"
#include "graph_viewer/layered_layout.h"

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace tstudio::graph_viewer {

struct GraphViewLayoutOptions {
    LayeredLayoutOptions layered;
    double groupPadding = 12; ///< around the children of an expanded group
    double groupHeader = 26;  ///< room above the children for the expanded group's title
    double sideAreaGap = 30;  ///< between the layered children and the side-area column
    /// Size of an op or a collapsed group/series box; the view measures its labels. Empty: defaultCollapsedSize.
    std::function<LayoutSize(const HierarchyNode&)> collapsedSize;
};

/// Op 80x28, group 140x40, series 140x48.
LayoutSize defaultCollapsedSize(const HierarchyNode& node);

/// A visible node's box, in absolute coordinates with the root's top-left at (0, 0).
struct ViewItem {
    int node = -1;                              ///< hierarchy id
    double x = 0, y = 0, width = 0, height = 0; ///< top-left and size
    int parentItem = -1;                        ///< index in items() of the expanded parent; -1 under the root
    int depth = 0;                              ///< 0 for children of the root
    bool expanded = false;
    bool sideArea = false; ///< drawn in the parent's side-area column (inExtract/outExtract)
};

/// An edge between two visible, layered siblings inside the root or an expanded group.
struct ViewEdge {
    int group = -1;                  ///< hierarchy id of the group whose `edges` holds it
    int edgeIndex = -1;              ///< index into node(group).edges
    std::vector<LayoutPoint> points; ///< absolute, from the edge's `from` box border to its `to` box border
};

/// Keeps the expanded/collapsed state of every group and lays out what is visible. Per group it caches the
/// layered structure (ranks and order, independent of sizes and direction) and the last placement, so
/// expanding one group costs that group's structure and placement plus re-placing its ancestors.
/// Not thread-safe: one thread at a time (update() may run on a worker while the GUI waits for it).
class GraphViewLayout {
public:
    GraphViewLayout(std::shared_ptr<const GraphHierarchy> hierarchy, GraphViewLayoutOptions options);
    ~GraphViewLayout();
    GraphViewLayout(const GraphViewLayout&) = delete;
    GraphViewLayout& operator=(const GraphViewLayout&) = delete;

    const GraphHierarchy& hierarchy() const { return *m_h; }

    /// Groups and series only; ops, the root and unknown ids are ignored. Takes effect at the next update().
    void setExpanded(int node, bool expanded);
    /// True for the root and for expanded groups/series (also when an ancestor is collapsed).
    bool isExpanded(int node) const;
    /// Expands every ancestor of `node` (not `node` itself) so that it becomes visible.
    void expandTo(int node);
    /// Changes the direction; every placement is redone at the next update() (structures are kept).
    void setDirection(LayoutDirection direction);
    LayoutDirection direction() const { return m_options.layered.direction; }

    /// Lays out what changed since the last call, deepest groups first. `cancelled` (may be null) is polled
    /// before each group; when it is set the call returns false, items() and edges() keep their previous
    /// contents and a later call finishes the work.
    bool update(const std::atomic<bool>* cancelled = nullptr);

    /// Every visible node: children of the root and of visible expanded groups; parents before children.
    const std::vector<ViewItem>& items() const { return m_items; }
    /// Edges between visible layered siblings inside the root or a visible expanded group.
    const std::vector<ViewEdge>& edges() const { return m_edges; }
    /// The whole layout's size.
    LayoutSize size() const;
    /// Index in items() or -1 when not visible.
    int itemOf(int node) const;

    int groupsPlacedInLastUpdate() const { return m_groupsPlaced; }
    int structuresComputedInLastUpdate() const { return m_structuresComputed; }

private:
    struct GroupCache;

    bool isGroupLike(int node) const;
    bool isVisibleExpanded(int group) const;
    int depthOf(int node) const;
    void markDirty(int group);
    GroupCache& cacheOf(int group);
    LayoutSize boxSize(int node) const;
    void buildStructure(int group, GroupCache& cache);
    void placeGroup(int group, GroupCache& cache);
    void regenerateItems();

    std::shared_ptr<const GraphHierarchy> m_h;
    GraphViewLayoutOptions m_options;
    std::vector<char> m_expanded;
    std::vector<std::unique_ptr<GroupCache>> m_cache;
    std::vector<char> m_dirty;
    std::vector<int> m_dirtyList;
    std::vector<int> m_scratch; ///< per hierarchy node, -1 outside buildStructure
    std::vector<ViewItem> m_items;
    std::vector<ViewEdge> m_edges;
    std::vector<int> m_itemOf;
    bool m_itemsStale = true;
    int m_groupsPlaced = 0;
    int m_structuresComputed = 0;
};

} // namespace tstudio::graph_viewer
