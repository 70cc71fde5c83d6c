// Layered layout: cycle breaking, ranking, dummy chains, crossing reduction and coordinate assignment.
#include "graph_viewer/layered_layout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace tstudio::graph_viewer {

namespace {

using EdgeKind = LayeredStructure::EdgeKind;

double sanitizedWeight(double w)
{
    return (std::isfinite(w) && w > 0) ? w : 1.0;
}

double sanitizedLength(double v)
{
    return (std::isfinite(v) && v > 0) ? v : 0.0;
}

/// Compressed rows: for each of `count` rows, the items pushed for it, in push order.
struct Rows {
    std::vector<int> start;
    std::vector<int> item;

    template <typename RowOf, typename ItemOf> void build(int count, int itemCount, RowOf rowOf, ItemOf itemOf)
    {
        start.assign(static_cast<std::size_t>(count) + 1, 0);
        for (int i = 0; i < itemCount; ++i)
            ++start[static_cast<std::size_t>(rowOf(i)) + 1];
        for (int r = 0; r < count; ++r)
            start[r + 1] += start[r];
        item.assign(static_cast<std::size_t>(itemCount), 0);
        std::vector<int> fill(start.begin(), start.end() - 1);
        for (int i = 0; i < itemCount; ++i)
            item[fill[rowOf(i)]++] = itemOf(i);
    }
    int begin(int r) const { return start[r]; }
    int end(int r) const { return start[r + 1]; }
};

/// Marks back edges of an iterative depth-first search as reversed; roots are sources first, in index order.
void breakCycles(int n, const std::vector<LayoutEdgeInput>& edges, const std::vector<int>& valid,
                 std::vector<LayeredStructure::Route>& routes)
{
    Rows out;
    out.build(
        n, static_cast<int>(valid.size()), [&](int i) { return edges[valid[i]].from; },
        [&](int i) { return valid[i]; });
    std::vector<int> inDegree(static_cast<std::size_t>(n), 0);
    for (int e : valid)
        ++inDegree[edges[e].to];

    std::vector<unsigned char> state(static_cast<std::size_t>(n), 0); // 0 new, 1 on the stack, 2 finished
    std::vector<std::pair<int, int>> stack;                           // node, next out-edge cursor
    auto dfs = [&](int root) {
        state[root] = 1;
        stack.emplace_back(root, out.begin(root));
        while (!stack.empty()) {
            const int u = stack.back().first;
            const int cursor = stack.back().second;
            if (cursor == out.end(u)) {
                state[u] = 2;
                stack.pop_back();
                continue;
            }
            ++stack.back().second;
            const int e = out.item[cursor];
            const int v = edges[e].to;
            if (state[v] == 1) {
                routes[e].reversed = true;
            } else if (state[v] == 0) {
                state[v] = 1;
                stack.emplace_back(v, out.begin(v));
            }
        }
    };
    for (int v = 0; v < n; ++v)
        if (inDegree[v] == 0 && state[v] == 0)
            dfs(v);
    for (int v = 0; v < n; ++v)
        if (state[v] == 0)
            dfs(v);
}

/// Longest-path ranks on the acyclic edges (tail, head), then sources moved down next to their nearest consumer.
std::vector<int> rankNodes(int n, const std::vector<std::pair<int, int>>& dag)
{
    Rows out;
    out.build(
        n, static_cast<int>(dag.size()), [&](int i) { return dag[i].first; }, [&](int i) { return dag[i].second; });
    std::vector<int> inDegree(static_cast<std::size_t>(n), 0);
    for (const auto& [a, b] : dag)
        ++inDegree[b];
    std::vector<int> remaining = inDegree;
    std::vector<int> queue;
    queue.reserve(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v)
        if (remaining[v] == 0)
            queue.push_back(v);
    std::vector<int> rank(static_cast<std::size_t>(n), 0);
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const int u = queue[head];
        for (int k = out.begin(u); k < out.end(u); ++k) {
            const int v = out.item[k];
            rank[v] = std::max(rank[v], rank[u] + 1);
            if (--remaining[v] == 0)
                queue.push_back(v);
        }
    }
    // Constants and placeholders feed one consumer far down: put them just above their nearest consumer.
    for (int v = 0; v < n; ++v) {
        if (inDegree[v] != 0 || out.begin(v) == out.end(v))
            continue;
        int nearest = std::numeric_limits<int>::max();
        for (int k = out.begin(v); k < out.end(v); ++k)
            nearest = std::min(nearest, rank[out.item[k]]);
        rank[v] = nearest - 1;
    }
    return rank;
}

/// Components of the undirected graph, numbered in the order of their lowest box index.
std::vector<int> findComponents(int n, const std::vector<std::pair<int, int>>& dag, int& count)
{
    std::vector<int> parent(static_cast<std::size_t>(n));
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    };
    for (const auto& [a, b] : dag) {
        const int ra = find(a), rb = find(b);
        if (ra != rb)
            parent[std::max(ra, rb)] = std::min(ra, rb);
    }
    std::vector<int> id(static_cast<std::size_t>(n), -1), component(static_cast<std::size_t>(n), 0);
    count = 0;
    for (int v = 0; v < n; ++v) {
        const int r = find(v);
        if (id[r] < 0)
            id[r] = count++;
        component[v] = id[r];
    }
    return component;
}

/// Crossings between ranks r and r+1, counted as inversions with a Fenwick tree: O(E log V).
std::int64_t crossingsBelow(const LayeredStructure& s, int r, std::vector<std::pair<int, int>>& scratch,
                            std::vector<int>& tree)
{
    const auto& upper = s.order[r];
    const int lowerCount = static_cast<int>(s.order[r + 1].size());
    scratch.clear();
    for (int u : upper)
        for (int k = s.downStart[u]; k < s.downStart[u + 1]; ++k)
            scratch.emplace_back(s.position[u], s.position[s.downNode[k]]);
    std::sort(scratch.begin(), scratch.end());
    tree.assign(static_cast<std::size_t>(lowerCount) + 1, 0);
    std::int64_t crossings = 0;
    std::int64_t seen = 0;
    for (const auto& pair : scratch) {
        const int p = pair.second + 1;
        std::int64_t atOrBelow = 0;
        for (int i = p; i > 0; i -= i & -i)
            atOrBelow += tree[i];
        crossings += seen - atOrBelow;
        for (int i = p; i <= lowerCount; i += i & -i)
            ++tree[i];
        ++seen;
    }
    return crossings;
}

std::int64_t totalCrossings(const LayeredStructure& s)
{
    std::vector<std::pair<int, int>> scratch;
    std::vector<int> tree;
    std::int64_t total = 0;
    for (int r = 0; r + 1 < s.rankCount(); ++r)
        total += crossingsBelow(s, r, scratch, tree);
    return total;
}

void refreshPositions(LayeredStructure& s)
{
    for (const auto& rankNodes : s.order)
        for (std::size_t i = 0; i < rankNodes.size(); ++i)
            s.position[rankNodes[i]] = static_cast<int>(i);
}

/// Depth-first order (down the segments) per component: chains and subtrees start out next to each other.
void initialOrder(LayeredStructure& s)
{
    const int n = s.nodeCount();
    std::vector<std::vector<int>> boxesOf(static_cast<std::size_t>(s.componentCount));
    for (int v = 0; v < s.boxCount; ++v)
        boxesOf[s.component[v]].push_back(v);
    std::vector<unsigned char> seen(static_cast<std::size_t>(n), 0);
    std::vector<std::pair<int, int>> stack;
    auto visit = [&](int v) {
        seen[v] = 1;
        s.order[s.rank[v]].push_back(v);
        stack.emplace_back(v, s.downStart[v]);
    };
    auto dfs = [&](int root) {
        visit(root);
        while (!stack.empty()) {
            const int u = stack.back().first;
            const int cursor = stack.back().second;
            if (cursor == s.downStart[u + 1]) {
                stack.pop_back();
                continue;
            }
            ++stack.back().second;
            const int v = s.downNode[cursor];
            if (!seen[v])
                visit(v);
        }
    };
    for (const auto& boxes : boxesOf) {
        for (int v : boxes)
            if (!seen[v] && s.upStart[v] == s.upStart[v + 1])
                dfs(v);
        for (int v : boxes) // unreachable only if the ranking were inconsistent; kept for safety
            if (!seen[v])
                dfs(v);
    }
    for (int v = s.boxCount; v < n; ++v)
        if (!seen[v])
            dfs(v);
    refreshPositions(s);
}

/// Sorts rank r by the weighted barycenter of its neighbours in the adjacent rank; nodes without such
/// neighbours keep their slot and components stay contiguous.
void sortRankByBarycenter(LayeredStructure& s, int r, bool useUp)
{
    struct Key {
        int component;
        double barycenter;
        int slot;
        int node;
    };
    auto& nodes = s.order[r];
    const auto& start = useUp ? s.upStart : s.downStart;
    const auto& nb = useUp ? s.upNode : s.downNode;
    const auto& weight = useUp ? s.upWeight : s.downWeight;
    std::vector<Key> movable;
    std::vector<unsigned char> fixed(nodes.size(), 0);
    movable.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const int v = nodes[i];
        double sum = 0, sumWeight = 0;
        for (int k = start[v]; k < start[v + 1]; ++k) {
            sum += weight[k] * s.position[nb[k]];
            sumWeight += weight[k];
        }
        if (sumWeight > 0)
            movable.push_back({s.component[v], sum / sumWeight, static_cast<int>(i), v});
        else
            fixed[i] = 1;
    }
    std::sort(movable.begin(), movable.end(), [](const Key& a, const Key& b) {
        if (a.component != b.component)
            return a.component < b.component;
        if (a.barycenter != b.barycenter)
            return a.barycenter < b.barycenter;
        return a.slot < b.slot;
    });
    std::size_t next = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (fixed[i])
            continue;
        nodes[i] = movable[next++].node;
        s.position[nodes[i]] = static_cast<int>(i);
    }
}

} // namespace

LayeredStructure computeLayeredStructure(int boxCount, const std::vector<LayoutEdgeInput>& edges, int orderingSweeps)
{
    LayeredStructure s;
    const int n = std::max(boxCount, 0);
    s.boxCount = n;
    s.edges.resize(edges.size());
    std::vector<int> valid;
    valid.reserve(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const auto& e = edges[i];
        if (e.from < 0 || e.from >= n || e.to < 0 || e.to >= n)
            continue;
        s.edges[i].from = e.from;
        s.edges[i].to = e.to;
        s.edges[i].kind = e.from == e.to ? EdgeKind::kSelfLoop : EdgeKind::kLayered;
        if (e.from != e.to)
            valid.push_back(static_cast<int>(i));
    }
    breakCycles(n, edges, valid, s.edges);

    std::vector<std::pair<int, int>> dag;
    dag.reserve(valid.size());
    for (int i : valid) {
        const auto& e = edges[i];
        dag.push_back(s.edges[i].reversed ? std::pair{e.to, e.from} : std::pair{e.from, e.to});
    }
    s.rank = rankNodes(n, dag);
    s.component = findComponents(n, dag, s.componentCount);

    // Dummy chains for edges spanning more than one rank; segments join adjacent ranks.
    struct Segment {
        int upper, lower;
        double weight;
    };
    std::vector<Segment> segments;
    segments.reserve(valid.size());
    for (std::size_t k = 0; k < valid.size(); ++k) {
        const int i = valid[k];
        const auto [a, b] = dag[k];
        const double w = sanitizedWeight(edges[i].weight);
        auto& route = s.edges[i];
        const int component = s.component[a];
        int previous = a;
        for (int r = s.rank[a] + 1; r < s.rank[b]; ++r) {
            const int d = s.nodeCount();
            s.rank.push_back(r);
            s.component.push_back(component);
            segments.push_back({previous, d, w});
            route.dummies.push_back(d);
            previous = d;
        }
        segments.push_back({previous, b, w});
        if (route.reversed)
            std::reverse(route.dummies.begin(), route.dummies.end());
    }
    const int total = s.nodeCount();
    const int segmentCount = static_cast<int>(segments.size());
    Rows rows;
    rows.build(
        total, segmentCount, [&](int i) { return segments[i].lower; }, [](int i) { return i; });
    s.upStart = rows.start;
    for (int seg : rows.item) {
        s.upNode.push_back(segments[seg].upper);
        s.upWeight.push_back(segments[seg].weight);
    }
    rows.build(
        total, segmentCount, [&](int i) { return segments[i].upper; }, [](int i) { return i; });
    s.downStart = rows.start;
    for (int seg : rows.item) {
        s.downNode.push_back(segments[seg].lower);
        s.downWeight.push_back(segments[seg].weight);
    }

    int rankCount = 0;
    for (int r : s.rank)
        rankCount = std::max(rankCount, r + 1);
    s.order.assign(static_cast<std::size_t>(rankCount), {});
    s.position.assign(static_cast<std::size_t>(total), 0);
    initialOrder(s);

    // Barycenter sweeps, alternately down and up; keep the order with the fewest crossings seen.
    std::int64_t best = totalCrossings(s);
    std::vector<std::vector<int>> bestOrder = s.order;
    for (int sweep = 0; sweep < orderingSweeps && best > 0; ++sweep) {
        if (sweep % 2 == 0) {
            for (int r = 1; r < rankCount; ++r)
                sortRankByBarycenter(s, r, true);
        } else {
            for (int r = rankCount - 2; r >= 0; --r)
                sortRankByBarycenter(s, r, false);
        }
        const std::int64_t crossings = totalCrossings(s);
        if (crossings < best) {
            best = crossings;
            bestOrder = s.order;
        }
    }
    s.order = std::move(bestOrder);
    refreshPositions(s);
    s.crossings = best;
    return s;
}

namespace {

/// Coordinates across ranks in the top-to-bottom frame: x of node centres; widths are the boxes' extents along
/// a rank. Minimises the weighted squared length of segments rank by rank, keeping order and separation.
class RankPlacer {
public:
    RankPlacer(const LayeredStructure& s, std::vector<double> widths, std::vector<double> extraRight,
               const LayeredLayoutOptions& options)
        : m_s(s), m_width(std::move(widths)), m_extraRight(std::move(extraRight)),
          m_x(static_cast<std::size_t>(s.nodeCount()), 0.0)
    {
        m_nodeSep = sanitizedLength(options.nodeSeparation);
        m_edgeSep = sanitizedLength(options.edgeSeparation);
    }

    std::vector<double> run()
    {
        const int ranks = m_s.rankCount();
        for (int r = 0; r < ranks; ++r) {
            const auto& nodes = m_s.order[r];
            double cursor = 0;
            for (std::size_t i = 0; i < nodes.size(); ++i) {
                if (i > 0)
                    cursor += gap(nodes[i - 1], nodes[i]);
                m_x[nodes[i]] = cursor;
            }
        }
        // A first pass down from the top, then Gauss-Seidel sweeps over both adjacent ranks.
        for (int r = 1; r < ranks; ++r)
            placeRank(r, true, false);
        for (int iteration = 0; iteration < kIterations; ++iteration) {
            for (int r = ranks - 1; r >= 0; --r)
                placeRank(r, true, true);
            for (int r = 0; r < ranks; ++r)
                placeRank(r, true, true);
        }
        return m_x;
    }

    /// Minimum distance between the centres of neighbours a (left) and b in one rank.
    double gap(int a, int b) const
    {
        const bool da = m_s.isDummy(a), db = m_s.isDummy(b);
        const double sep = (da && db) ? m_edgeSep : (da || db) ? (m_edgeSep + m_nodeSep) / 2 : m_nodeSep;
        return (m_width[a] + m_width[b]) / 2 + sep + m_extraRight[a];
    }

private:
    static constexpr int kIterations = 4;

    // Long edges stay straight when segments between dummies pull harder (Gansner et al. use 1, 2, 8).
    double factor(int a, int b) const
    {
        const int dummies = int(m_s.isDummy(a)) + int(m_s.isDummy(b));
        return dummies == 2 ? 8.0 : dummies == 1 ? 2.0 : 1.0;
    }

    void placeRank(int r, bool useUp, bool useDown)
    {
        const auto& nodes = m_s.order[r];
        const std::size_t m = nodes.size();
        m_target.resize(m);
        m_weight.resize(m);
        m_offset.resize(m);
        for (std::size_t i = 0; i < m; ++i) {
            const int v = nodes[i];
            double sum = 0, sumWeight = 0;
            auto add = [&](const std::vector<int>& start, const std::vector<int>& nb, const std::vector<double>& w) {
                for (int k = start[v]; k < start[v + 1]; ++k) {
                    const int u = nb[k];
                    const double ww = w[k] * factor(u, v);
                    sum += ww * m_x[u];
                    sumWeight += ww;
                }
            };
            if (useUp)
                add(m_s.upStart, m_s.upNode, m_s.upWeight);
            if (useDown)
                add(m_s.downStart, m_s.downNode, m_s.downWeight);
            m_target[i] = sumWeight > 0 ? sum / sumWeight : m_x[v];
            m_weight[i] = sumWeight > 0 ? sumWeight : 1e-6;
        }
        // Pool adjacent violators on y_i = x_i - offset_i, which turns "x_{i+1} - x_i >= gap" into "y non-decreasing".
        std::size_t runStart = 0;
        while (runStart < m) {
            std::size_t runEnd = runStart + 1;
            const int component = m_s.component[nodes[runStart]];
            m_offset[runStart] = 0;
            while (runEnd < m && m_s.component[nodes[runEnd]] == component) {
                m_offset[runEnd] = m_offset[runEnd - 1] + gap(nodes[runEnd - 1], nodes[runEnd]);
                ++runEnd;
            }
            m_blocks.clear();
            for (std::size_t i = runStart; i < runEnd; ++i) {
                m_blocks.push_back({m_weight[i], m_weight[i] * (m_target[i] - m_offset[i]), i});
                while (m_blocks.size() >= 2) {
                    auto& top = m_blocks.back();
                    auto& below = m_blocks[m_blocks.size() - 2];
                    if (below.weightedSum / below.weight <= top.weightedSum / top.weight)
                        break;
                    below.weight += top.weight;
                    below.weightedSum += top.weightedSum;
                    m_blocks.pop_back();
                }
            }
            for (std::size_t b = 0; b < m_blocks.size(); ++b) {
                const std::size_t end = b + 1 < m_blocks.size() ? m_blocks[b + 1].first : runEnd;
                const double mean = m_blocks[b].weightedSum / m_blocks[b].weight;
                for (std::size_t i = m_blocks[b].first; i < end; ++i)
                    m_x[nodes[i]] = mean + m_offset[i];
            }
            runStart = runEnd;
        }
    }

    struct Block {
        double weight;
        double weightedSum;
        std::size_t first;
    };

    const LayeredStructure& m_s;
    std::vector<double> m_width, m_extraRight, m_x;
    double m_nodeSep = 0, m_edgeSep = 0;
    std::vector<double> m_target, m_weight, m_offset;
    std::vector<Block> m_blocks;
};

/// Where the ray from the centre of a box (half sizes hw, hh) towards p leaves the box.
LayoutPoint borderPoint(LayoutPoint c, double hw, double hh, LayoutPoint p)
{
    const double dx = p.x - c.x, dy = p.y - c.y;
    if (dx == 0 && dy == 0)
        return c;
    const double inf = std::numeric_limits<double>::infinity();
    const double tx = dx != 0 ? hw / std::abs(dx) : inf;
    const double ty = dy != 0 ? hh / std::abs(dy) : inf;
    const double t = std::min(tx, ty);
    LayoutPoint q{c.x + dx * t, c.y + dy * t};
    // Snap the coordinate that lies on the border exactly, against rounding.
    if (tx <= ty)
        q.x = c.x + (dx > 0 ? hw : -hw);
    else
        q.y = c.y + (dy > 0 ? hh : -hh);
    return q;
}

} // namespace

LayeredLayoutResult placeLayered(const LayeredStructure& s, const std::vector<LayoutSize>& boxes,
                                 const LayeredLayoutOptions& options)
{
    LayeredLayoutResult result;
    const int n = s.nodeCount();
    const bool transposed = options.direction == LayoutDirection::kLeftToRight;
    const double loopExtent = std::max(8.0, sanitizedLength(options.edgeSeparation));

    // Work in the top-to-bottom frame: w along ranks, h across.
    std::vector<double> w(static_cast<std::size_t>(n), 0.0), h(static_cast<std::size_t>(n), 0.0);
    for (int v = 0; v < s.boxCount && v < static_cast<int>(boxes.size()); ++v) {
        const auto& b = boxes[v];
        w[v] = sanitizedLength(transposed ? b.height : b.width);
        h[v] = sanitizedLength(transposed ? b.width : b.height);
    }
    std::vector<double> extraRight(static_cast<std::size_t>(n), 0.0);
    for (const auto& route : s.edges)
        if (route.kind == EdgeKind::kSelfLoop)
            extraRight[route.from] = loopExtent;

    RankPlacer placer(s, w, extraRight, options);
    std::vector<double> x = placer.run();

    // Rank coordinates: cumulative tallest box plus the rank separation.
    const int ranks = s.rankCount();
    std::vector<double> rankCenter(static_cast<std::size_t>(ranks), 0.0);
    double cursor = 0;
    for (int r = 0; r < ranks; ++r) {
        double tallest = 0;
        for (int v : s.order[r])
            tallest = std::max(tallest, h[v]);
        rankCenter[r] = cursor + tallest / 2;
        cursor += tallest + sanitizedLength(options.rankSeparation);
    }

    // Components side by side, in their numbering order.
    std::vector<double> left(static_cast<std::size_t>(s.componentCount), std::numeric_limits<double>::infinity());
    std::vector<double> right(static_cast<std::size_t>(s.componentCount), -std::numeric_limits<double>::infinity());
    for (int v = 0; v < n; ++v) {
        const auto c = static_cast<std::size_t>(s.component[v]);
        const double half = w[v] / 2;
        left[c] = std::min(left[c], x[v] - half);
        right[c] = std::max(right[c], x[v] + half + extraRight[v]);
    }
    std::vector<double> shift(static_cast<std::size_t>(s.componentCount), 0.0);
    double next = 0;
    for (std::size_t c = 0; c < shift.size(); ++c) {
        shift[c] = next - left[c];
        next += right[c] - left[c] + sanitizedLength(options.nodeSeparation);
    }
    std::vector<LayoutPoint> center(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v)
        center[v] = {x[v] + shift[s.component[v]], rankCenter[s.rank[v]]};

    result.centers.assign(center.begin(), center.begin() + s.boxCount);
    auto boxBorder = [&](int v, LayoutPoint towards) { return borderPoint(center[v], w[v] / 2, h[v] / 2, towards); };
    result.edgePoints.resize(s.edges.size());
    for (std::size_t i = 0; i < s.edges.size(); ++i) {
        const auto& route = s.edges[i];
        auto& points = result.edgePoints[i];
        if (route.kind == EdgeKind::kSelfLoop) {
            const LayoutPoint c = center[route.from];
            const double side = c.x + w[route.from] / 2;
            const double dy = h[route.from] / 4;
            points = {{side, c.y - dy}, {side + loopExtent, c.y - dy}, {side + loopExtent, c.y + dy}, {side, c.y + dy}};
        } else if (route.kind == EdgeKind::kLayered) {
            const LayoutPoint afterSource = route.dummies.empty() ? center[route.to] : center[route.dummies.front()];
            const LayoutPoint beforeTarget = route.dummies.empty() ? center[route.from] : center[route.dummies.back()];
            points.reserve(route.dummies.size() + 2);
            points.push_back(boxBorder(route.from, afterSource));
            for (int d : route.dummies)
                points.push_back(center[d]);
            points.push_back(boxBorder(route.to, beforeTarget));
        }
    }

    double width = 0, height = 0;
    for (int v = 0; v < s.boxCount; ++v) {
        width = std::max(width, center[v].x + w[v] / 2);
        height = std::max(height, center[v].y + h[v] / 2);
    }
    for (const auto& points : result.edgePoints)
        for (const auto& p : points) {
            width = std::max(width, p.x);
            height = std::max(height, p.y);
        }
    result.size = {width, height};
    if (transposed) {
        for (auto& c : result.centers)
            std::swap(c.x, c.y);
        for (auto& points : result.edgePoints)
            for (auto& p : points)
                std::swap(p.x, p.y);
        std::swap(result.size.width, result.size.height);
    }
    return result;
}

LayeredLayoutResult layoutLayered(const std::vector<LayoutSize>& boxes, const std::vector<LayoutEdgeInput>& edges,
                                  const LayeredLayoutOptions& options)
{
    return placeLayered(computeLayeredStructure(static_cast<int>(boxes.size()), edges, options.orderingSweeps), boxes,
                        options);
}

} // namespace tstudio::graph_viewer
