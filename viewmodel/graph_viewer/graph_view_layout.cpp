// GraphViewLayout: per-group cached layered layouts composed into the graph viewer's nested boxes.
#include "graph_viewer/graph_view_layout.h"

#include <algorithm>
#include <utility>

namespace tstudio::graph_viewer {

/// What one group (or series, or the root) remembers between updates.
struct GraphViewLayout::GroupCache {
    bool hasStructure = false;
    std::vector<int> layered;   ///< children laid out in ranks, in box order
    std::vector<int> side;      ///< children in the side-area column: inExtract, then outExtract
    std::vector<int> edgeIndex; ///< per layout edge: index into node(group).edges
    LayeredStructure structure;

    bool placed = false;
    std::vector<LayoutPoint> childTopLeft; ///< per layered child, then per side child; relative to the group's box
    std::vector<LayoutSize> childSize;     ///< the sizes the placement used
    std::vector<std::vector<LayoutPoint>> edgePoints; ///< per layout edge, relative to the group's box
    LayoutSize size;                                  ///< the expanded group's box (the root: the whole layout)
};

LayoutSize defaultCollapsedSize(const HierarchyNode& node)
{
    switch (node.kind) {
    case HierarchyNodeKind::kOp: return {80, 28};
    case HierarchyNodeKind::kSeries: return {140, 48};
    case HierarchyNodeKind::kGroup: break;
    }
    return {140, 40};
}

GraphViewLayout::GraphViewLayout(std::shared_ptr<const GraphHierarchy> hierarchy, GraphViewLayoutOptions options)
    : m_h(std::move(hierarchy)), m_options(std::move(options))
{
    if (!m_h)
        m_h = std::make_shared<const GraphHierarchy>(GraphHierarchy::build(tensorflow::GraphDef{}));
    if (!m_options.collapsedSize)
        m_options.collapsedSize = defaultCollapsedSize;
    const std::size_t n = m_h->nodes().size();
    m_expanded.assign(n, 0);
    m_expanded[static_cast<std::size_t>(m_h->root())] = 1;
    m_cache.resize(n);
    m_dirty.assign(n, 0);
    m_scratch.assign(n, -1);
    m_itemOf.assign(n, -1);
    markDirty(m_h->root());
}

GraphViewLayout::~GraphViewLayout() = default;

bool GraphViewLayout::isGroupLike(int node) const
{
    if (node < 0 || node >= static_cast<int>(m_h->nodes().size()))
        return false;
    return m_h->node(node).kind != HierarchyNodeKind::kOp;
}

void GraphViewLayout::markDirty(int group)
{
    auto& flag = m_dirty[static_cast<std::size_t>(group)];
    if (!flag) {
        flag = 1;
        m_dirtyList.push_back(group);
    }
}

GraphViewLayout::GroupCache& GraphViewLayout::cacheOf(int group)
{
    auto& slot = m_cache[static_cast<std::size_t>(group)];
    if (!slot)
        slot = std::make_unique<GroupCache>();
    return *slot;
}

void GraphViewLayout::setExpanded(int node, bool expanded)
{
    if (!isGroupLike(node) || node == m_h->root())
        return;
    auto& state = m_expanded[static_cast<std::size_t>(node)];
    if (bool(state) == expanded)
        return;
    state = expanded ? 1 : 0;
    m_itemsStale = true;
    const auto& cache = m_cache[static_cast<std::size_t>(node)];
    if (expanded && (!cache || !cache->placed))
        markDirty(node);
    // The box changes size, so every ancestor must be placed again.
    for (int a = m_h->node(node).parent; a >= 0; a = m_h->node(a).parent)
        markDirty(a);
}

bool GraphViewLayout::isExpanded(int node) const
{
    if (node < 0 || node >= static_cast<int>(m_expanded.size()))
        return false;
    return m_expanded[static_cast<std::size_t>(node)] != 0;
}

void GraphViewLayout::expandTo(int node)
{
    if (node < 0 || node >= static_cast<int>(m_h->nodes().size()))
        return;
    for (int a = m_h->node(node).parent; a >= 0 && a != m_h->root(); a = m_h->node(a).parent)
        setExpanded(a, true);
}

void GraphViewLayout::setDirection(LayoutDirection direction)
{
    if (m_options.layered.direction == direction)
        return;
    m_options.layered.direction = direction;
    for (std::size_t g = 0; g < m_cache.size(); ++g) {
        if (!m_cache[g])
            continue;
        m_cache[g]->placed = false;
        markDirty(static_cast<int>(g));
    }
    markDirty(m_h->root());
    m_itemsStale = true;
}

bool GraphViewLayout::isVisibleExpanded(int group) const
{
    for (int a = group; a >= 0; a = m_h->node(a).parent)
        if (!m_expanded[static_cast<std::size_t>(a)])
            return false;
    return true;
}

int GraphViewLayout::depthOf(int node) const
{
    int depth = 0;
    for (int a = m_h->node(node).parent; a >= 0; a = m_h->node(a).parent)
        ++depth;
    return depth;
}

bool GraphViewLayout::update(const std::atomic<bool>* cancelled)
{
    m_groupsPlaced = 0;
    m_structuresComputed = 0;
    // Visible expanded groups whose placement is out of date, deepest first: a parent needs its children's sizes.
    std::vector<std::pair<int, int>> work; // (-depth, group)
    std::vector<int> waiting;
    for (int g : m_dirtyList) {
        if (isVisibleExpanded(g))
            work.emplace_back(-depthOf(g), g);
        else
            waiting.push_back(g);
    }
    std::sort(work.begin(), work.end());
    for (std::size_t i = 0; i < work.size(); ++i) {
        if (cancelled && cancelled->load(std::memory_order_relaxed)) {
            for (std::size_t k = i; k < work.size(); ++k)
                waiting.push_back(work[k].second);
            m_dirtyList = std::move(waiting);
            return false;
        }
        const int g = work[i].second;
        placeGroup(g, cacheOf(g));
        m_dirty[static_cast<std::size_t>(g)] = 0;
        m_itemsStale = true;
    }
    m_dirtyList = std::move(waiting);
    if (m_itemsStale)
        regenerateItems();
    m_itemsStale = false;
    return true;
}

LayoutSize GraphViewLayout::boxSize(int node) const
{
    const auto& cache = m_cache[static_cast<std::size_t>(node)];
    if (m_expanded[static_cast<std::size_t>(node)] && cache && cache->placed)
        return cache->size;
    return m_options.collapsedSize(m_h->node(node));
}

void GraphViewLayout::buildStructure(int group, GroupCache& cache)
{
    const auto& node = m_h->node(group);
    const int total = static_cast<int>(m_h->nodes().size());
    auto isChild = [&](int id) { return id >= 0 && id < total && m_h->node(id).parent == group; };
    cache.side.clear();
    cache.layered.clear();
    cache.edgeIndex.clear();
    for (const auto* list : {&node.inExtract, &node.outExtract})
        for (int id : *list)
            if (isChild(id) && m_scratch[static_cast<std::size_t>(id)] != -2) {
                m_scratch[static_cast<std::size_t>(id)] = -2;
                cache.side.push_back(id);
            }
    for (int id : node.children)
        if (isChild(id) && m_scratch[static_cast<std::size_t>(id)] == -1) {
            m_scratch[static_cast<std::size_t>(id)] = static_cast<int>(cache.layered.size());
            cache.layered.push_back(id);
        }
    std::vector<LayoutEdgeInput> inputs;
    for (std::size_t k = 0; k < node.edges.size(); ++k) {
        const auto& e = node.edges[k];
        if (!isChild(e.from) || !isChild(e.to))
            continue;
        const int a = m_scratch[static_cast<std::size_t>(e.from)], b = m_scratch[static_cast<std::size_t>(e.to)];
        if (a < 0 || b < 0)
            continue; // an end in the side area: TensorBoard draws a stub, we draw nothing
        // Data edges pull harder than control-only edges.
        inputs.push_back({a, b, e.dataCount + e.refCount > 0 ? 2.0 : 1.0});
        cache.edgeIndex.push_back(static_cast<int>(k));
    }
    for (int id : cache.side)
        m_scratch[static_cast<std::size_t>(id)] = -1;
    for (int id : cache.layered)
        m_scratch[static_cast<std::size_t>(id)] = -1;
    cache.structure =
        computeLayeredStructure(static_cast<int>(cache.layered.size()), inputs, m_options.layered.orderingSweeps);
    cache.hasStructure = true;
    ++m_structuresComputed;
}

void GraphViewLayout::placeGroup(int group, GroupCache& cache)
{
    if (!cache.hasStructure)
        buildStructure(group, cache);
    const bool isRoot = group == m_h->root();
    const double padding = isRoot ? 0.0 : std::max(0.0, m_options.groupPadding);
    const double header = isRoot ? 0.0 : std::max(0.0, m_options.groupHeader);
    const double sideGap = std::max(0.0, m_options.sideAreaGap);
    const double stackGap = std::max(0.0, m_options.layered.nodeSeparation / 2);

    cache.childSize.clear();
    for (int id : cache.layered)
        cache.childSize.push_back(boxSize(id));
    const auto placed = placeLayered(cache.structure, cache.childSize, m_options.layered);
    const double left = padding, top = header + padding;

    cache.childTopLeft.clear();
    for (std::size_t i = 0; i < cache.layered.size(); ++i) {
        const auto s = cache.childSize[i];
        cache.childTopLeft.push_back(
            {left + placed.centers[i].x - s.width / 2, top + placed.centers[i].y - s.height / 2});
    }
    double contentWidth = placed.size.width, contentHeight = placed.size.height;
    if (!cache.side.empty()) {
        const double columnLeft = left + placed.size.width + (cache.layered.empty() ? 0.0 : sideGap);
        double y = top, columnWidth = 0;
        for (std::size_t i = 0; i < cache.side.size(); ++i) {
            const auto s = boxSize(cache.side[i]);
            if (i > 0)
                y += stackGap;
            cache.childSize.push_back(s);
            cache.childTopLeft.push_back({columnLeft, y});
            y += s.height;
            columnWidth = std::max(columnWidth, s.width);
        }
        contentWidth = columnLeft - left + columnWidth;
        contentHeight = std::max(contentHeight, y - top);
    }
    cache.edgePoints = placed.edgePoints;
    for (auto& points : cache.edgePoints)
        for (auto& p : points) {
            p.x += left;
            p.y += top;
        }
    cache.size = {contentWidth + 2 * padding, header + contentHeight + 2 * padding};
    cache.placed = true;
    ++m_groupsPlaced;
}

void GraphViewLayout::regenerateItems()
{
    for (const auto& item : m_items)
        m_itemOf[static_cast<std::size_t>(item.node)] = -1;
    m_items.clear();
    m_edges.clear();
    struct Frame {
        int group;
        int item;
        double x, y;
        int depth;
    };
    std::vector<Frame> stack{{m_h->root(), -1, 0.0, 0.0, 0}};
    while (!stack.empty()) {
        const Frame frame = stack.back();
        stack.pop_back();
        const auto& cache = m_cache[static_cast<std::size_t>(frame.group)];
        if (!cache || !cache->placed)
            continue; // only after a cancelled update; the next update places it
        const std::size_t layeredCount = cache->layered.size();
        const std::size_t count = layeredCount + cache->side.size();
        for (std::size_t i = 0; i < count; ++i) {
            const int id = i < layeredCount ? cache->layered[i] : cache->side[i - layeredCount];
            ViewItem item;
            item.node = id;
            item.x = frame.x + cache->childTopLeft[i].x;
            item.y = frame.y + cache->childTopLeft[i].y;
            item.width = cache->childSize[i].width;
            item.height = cache->childSize[i].height;
            item.parentItem = frame.item;
            item.depth = frame.depth;
            item.expanded = m_expanded[static_cast<std::size_t>(id)] != 0;
            item.sideArea = i >= layeredCount;
            const int index = static_cast<int>(m_items.size());
            m_items.push_back(item);
            m_itemOf[static_cast<std::size_t>(id)] = index;
            if (item.expanded)
                stack.push_back({id, index, item.x, item.y, frame.depth + 1});
        }
        for (std::size_t k = 0; k < cache->edgeIndex.size(); ++k) {
            ViewEdge edge;
            edge.group = frame.group;
            edge.edgeIndex = cache->edgeIndex[k];
            edge.points = cache->edgePoints[k];
            for (auto& p : edge.points) {
                p.x += frame.x;
                p.y += frame.y;
            }
            m_edges.push_back(std::move(edge));
        }
    }
}

LayoutSize GraphViewLayout::size() const
{
    const auto& root = m_cache[static_cast<std::size_t>(m_h->root())];
    return root && root->placed ? root->size : LayoutSize{};
}

int GraphViewLayout::itemOf(int node) const
{
    if (node < 0 || node >= static_cast<int>(m_itemOf.size()))
        return -1;
    return m_itemOf[static_cast<std::size_t>(node)];
}

} // namespace tstudio::graph_viewer
