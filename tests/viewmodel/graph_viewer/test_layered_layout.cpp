// Tests for the layered (Sugiyama) layout: ranks, cycles, ordering, overlap-free placement and edge routes.
#include "graph_viewer/layered_layout.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

using namespace tstudio::graph_viewer;

namespace {

constexpr double kEps = 1e-6;

struct RandomGraph {
    std::vector<LayoutSize> boxes;
    std::vector<LayoutEdgeInput> edges;
};

// A random DAG (edges from lower to higher index) with about 1.5 edges per box and sizes in [10,150]x[10,60].
RandomGraph randomDag(std::mt19937& rng, int n)
{
    RandomGraph g;
    for (int i = 0; i < n; ++i)
        g.boxes.push_back({10.0 + double(rng() % 141), 10.0 + double(rng() % 51)});
    const int edgeCount = n > 1 ? n * 3 / 2 : 0;
    for (int k = 0; k < edgeCount; ++k) {
        int a = int(rng() % unsigned(n)), b = int(rng() % unsigned(n));
        if (a == b)
            continue;
        if (a > b)
            std::swap(a, b);
        g.edges.push_back({a, b, 1.0 + double(rng() % 3)});
    }
    return g;
}

bool onBorder(LayoutPoint p, LayoutPoint c, LayoutSize s)
{
    const double l = c.x - s.width / 2, r = c.x + s.width / 2, t = c.y - s.height / 2, b = c.y + s.height / 2;
    const bool inside = p.x >= l - kEps && p.x <= r + kEps && p.y >= t - kEps && p.y <= b + kEps;
    const bool onEdge = std::abs(p.x - l) <= kEps || std::abs(p.x - r) <= kEps || std::abs(p.y - t) <= kEps ||
                        std::abs(p.y - b) <= kEps;
    return inside && onEdge;
}

// Checks the invariants every layout must meet; returns an empty string or the first violation.
QString checkLayout(const std::vector<LayoutSize>& boxes, const std::vector<LayoutEdgeInput>& edges,
                    const LayeredStructure& s, const LayeredLayoutResult& r, LayoutDirection dir)
{
    if (r.centers.size() != boxes.size() || r.edgePoints.size() != edges.size())
        return "result sizes differ from the input";
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const auto c = r.centers[i];
        const auto b = boxes[i];
        if (c.x - b.width / 2 < -kEps || c.y - b.height / 2 < -kEps || c.x + b.width / 2 > r.size.width + kEps ||
            c.y + b.height / 2 > r.size.height + kEps)
            return QString("box %1 lies outside [0,size]").arg(i);
        for (std::size_t j = i + 1; j < boxes.size(); ++j) {
            const auto d = r.centers[j];
            const auto e = boxes[j];
            const double ox =
                std::min(c.x + b.width / 2, d.x + e.width / 2) - std::max(c.x - b.width / 2, d.x - e.width / 2);
            const double oy =
                std::min(c.y + b.height / 2, d.y + e.height / 2) - std::max(c.y - b.height / 2, d.y - e.height / 2);
            if (ox > kEps && oy > kEps)
                return QString("boxes %1 and %2 overlap").arg(i).arg(j);
        }
    }
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const auto& pts = r.edgePoints[i];
        const auto& e = edges[i];
        const bool inRange = e.from >= 0 && e.to >= 0 && e.from < int(boxes.size()) && e.to < int(boxes.size());
        if (!inRange) {
            if (!pts.empty())
                return QString("ignored edge %1 got points").arg(i);
            continue;
        }
        if (pts.size() < 2)
            return QString("edge %1 has %2 points").arg(i).arg(pts.size());
        if (!onBorder(pts.front(), r.centers[std::size_t(e.from)], boxes[std::size_t(e.from)]))
            return QString("edge %1 does not start on its source's border").arg(i);
        if (!onBorder(pts.back(), r.centers[std::size_t(e.to)], boxes[std::size_t(e.to)]))
            return QString("edge %1 does not end on its target's border").arg(i);
        for (const auto& p : pts)
            if (p.x < -kEps || p.y < -kEps || p.x > r.size.width + kEps || p.y > r.size.height + kEps)
                return QString("edge %1 leaves [0,size]").arg(i);
        if (e.from != e.to && !s.edges[i].reversed) {
            for (std::size_t k = 1; k < pts.size(); ++k) {
                const double step =
                    dir == LayoutDirection::kTopToBottom ? pts[k].y - pts[k - 1].y : pts[k].x - pts[k - 1].x;
                if (step <= 0)
                    return QString("forward edge %1 does not advance at point %2").arg(i).arg(k);
            }
        }
    }
    return {};
}

// Crossings of the structure's order, counted pair by pair (independent of the Fenwick count).
std::int64_t bruteForceCrossings(const LayeredStructure& s)
{
    std::int64_t total = 0;
    for (int r = 0; r + 1 < s.rankCount(); ++r) {
        std::vector<std::pair<int, int>> segs;
        for (int u : s.order[std::size_t(r)])
            for (int k = s.downStart[std::size_t(u)]; k < s.downStart[std::size_t(u) + 1]; ++k)
                segs.emplace_back(s.position[std::size_t(u)], s.position[std::size_t(s.downNode[std::size_t(k)])]);
        for (std::size_t a = 0; a < segs.size(); ++a)
            for (std::size_t b = a + 1; b < segs.size(); ++b)
                if ((segs[a].first < segs[b].first && segs[a].second > segs[b].second) ||
                    (segs[a].first > segs[b].first && segs[a].second < segs[b].second))
                    ++total;
    }
    return total;
}

} // namespace

class TestLayeredLayout : public QObject {
    Q_OBJECT
private slots:
    void emptyAndSingle()
    {
        LayeredLayoutOptions options;
        const auto empty = layoutLayered({}, {}, options);
        QVERIFY(empty.centers.empty());
        QCOMPARE(empty.size.width, 0.0);
        QCOMPARE(empty.size.height, 0.0);

        const auto one = layoutLayered({{80, 28}}, {}, options);
        QCOMPARE(one.centers.size(), std::size_t(1));
        QCOMPARE(one.centers[0].x, 40.0);
        QCOMPARE(one.centers[0].y, 14.0);
        QCOMPARE(one.size.width, 80.0);
        QCOMPARE(one.size.height, 28.0);

        options.direction = LayoutDirection::kLeftToRight;
        const auto lr = layoutLayered({{80, 28}}, {}, options);
        QCOMPARE(lr.centers[0].x, 40.0);
        QCOMPARE(lr.centers[0].y, 14.0);
        QCOMPARE(lr.size.width, 80.0);
    }

    void ranksAndSourcesNextToConsumers()
    {
        // 0 -> 1 -> 2 -> 3 and a constant 4 feeding 3: longest path puts 4 at rank 0; it moves to rank 2.
        const std::vector<LayoutEdgeInput> edges{{0, 1}, {1, 2}, {2, 3}, {4, 3}};
        const auto s = computeLayeredStructure(5, edges);
        QCOMPARE(s.rank, (std::vector<int>{0, 1, 2, 3, 2}));
        QCOMPARE(s.rankCount(), 4);
        for (const auto& route : s.edges) {
            QVERIFY(!route.reversed);
            QVERIFY(route.dummies.empty());
        }
        // A long edge gets one dummy per rank it crosses, listed from its source.
        const auto t = computeLayeredStructure(4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
        QCOMPARE(t.edges[3].dummies.size(), std::size_t(2));
        QCOMPARE(t.rank[std::size_t(t.edges[3].dummies[0])], 1);
        QCOMPARE(t.rank[std::size_t(t.edges[3].dummies[1])], 2);
        QCOMPARE(t.nodeCount(), 6);
    }

    void cycleAndSelfLoop()
    {
        // A three-cycle plus a self loop and a duplicate edge.
        const std::vector<LayoutSize> boxes{{60, 20}, {60, 20}, {60, 20}};
        const std::vector<LayoutEdgeInput> edges{{0, 1}, {1, 2}, {2, 0}, {1, 1}, {0, 1}};
        const auto s = computeLayeredStructure(3, edges);
        int reversed = 0;
        for (const auto& route : s.edges)
            reversed += route.reversed ? 1 : 0;
        QCOMPARE(reversed, 1);
        QVERIFY(s.edges[2].reversed); // the back edge of the DFS from 0
        QCOMPARE(s.edges[3].kind, LayeredStructure::EdgeKind::kSelfLoop);
        for (auto dir : {LayoutDirection::kTopToBottom, LayoutDirection::kLeftToRight}) {
            LayeredLayoutOptions options;
            options.direction = dir;
            const auto r = placeLayered(s, boxes, options);
            const QString problem = checkLayout(boxes, edges, s, r, dir);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QCOMPARE(r.edgePoints[3].size(), std::size_t(4));
            // The reversed edge 2 -> 0 still runs from 2 to 0: upwards in the picture.
            const auto& back = r.edgePoints[2];
            if (dir == LayoutDirection::kTopToBottom)
                QVERIFY(back.front().y > back.back().y);
            else
                QVERIFY(back.front().x > back.back().x);
        }
    }

    void ignoredEdges()
    {
        const std::vector<LayoutSize> boxes{{40, 20}, {40, 20}};
        const std::vector<LayoutEdgeInput> edges{{0, 1}, {0, 2}, {-1, 1}, {5, 5}};
        const auto s = computeLayeredStructure(2, edges);
        QCOMPARE(s.edges[1].kind, LayeredStructure::EdgeKind::kIgnored);
        QCOMPARE(s.edges[3].kind, LayeredStructure::EdgeKind::kIgnored);
        const auto r = placeLayered(s, boxes, {});
        const QString problem = checkLayout(boxes, edges, s, r, LayoutDirection::kTopToBottom);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(r.edgePoints[1].empty() && r.edgePoints[2].empty() && r.edgePoints[3].empty());
    }

    void fanIsCentred()
    {
        // One producer, three equal consumers: the producer sits above the middle one, the chain stays straight.
        const std::vector<LayoutSize> boxes(5, {50, 20});
        const std::vector<LayoutEdgeInput> edges{{0, 1}, {0, 2}, {0, 3}, {2, 4}};
        const auto s = computeLayeredStructure(5, edges);
        const auto r = placeLayered(s, boxes, {});
        const int middle = s.order[1][1];
        QVERIFY(std::abs(r.centers[0].x - r.centers[std::size_t(middle)].x) < kEps);
        QVERIFY(std::abs(r.centers[2].x - r.centers[4].x) < kEps);
        // Neighbours in rank 1 are exactly nodeSeparation apart (they are pulled together).
        const double gap = r.centers[std::size_t(s.order[1][1])].x - r.centers[std::size_t(s.order[1][0])].x;
        QVERIFY(std::abs(gap - (50 + 24)) < kEps);
    }

    void longEdgeStraight()
    {
        // A chain 0..4 and a long edge 0 -> 4 beside it: the dummies of the long edge line up.
        const std::vector<LayoutSize> boxes(5, {50, 20});
        const std::vector<LayoutEdgeInput> edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 4}};
        const auto s = computeLayeredStructure(5, edges);
        const auto r = placeLayered(s, boxes, {});
        const auto& pts = r.edgePoints[4];
        QCOMPARE(pts.size(), std::size_t(5));
        for (std::size_t k = 2; k + 1 < pts.size(); ++k)
            QVERIFY(std::abs(pts[k].x - pts[1].x) < kEps);
    }

    void crossingsReduced()
    {
        // The depth-first start order crosses 1 -> 2 with 0 -> 3; the barycenter sweep removes the crossing.
        const auto s = computeLayeredStructure(4, {{0, 2}, {0, 3}, {1, 2}});
        QCOMPARE(s.crossings, std::int64_t(0));
        QCOMPARE(bruteForceCrossings(s), std::int64_t(0));
        const auto unswept = computeLayeredStructure(4, {{0, 2}, {0, 3}, {1, 2}}, 0);
        QCOMPARE(unswept.crossings, std::int64_t(1));
        QCOMPARE(bruteForceCrossings(unswept), std::int64_t(1));
        // On random graphs the Fenwick count equals the pairwise count, and sweeping never makes it worse.
        std::mt19937 rng(7);
        for (int trial = 0; trial < 20; ++trial) {
            const auto g = randomDag(rng, 20 + trial * 5);
            const auto start = computeLayeredStructure(int(g.boxes.size()), g.edges, 0);
            const auto swept = computeLayeredStructure(int(g.boxes.size()), g.edges, 6);
            QCOMPARE(start.crossings, bruteForceCrossings(start));
            QCOMPARE(swept.crossings, bruteForceCrossings(swept));
            QVERIFY(swept.crossings <= start.crossings);
        }
    }

    void componentsSideBySide()
    {
        const std::vector<LayoutSize> boxes(4, {30, 20});
        const std::vector<LayoutEdgeInput> edges{{0, 2}, {1, 3}};
        const auto s = computeLayeredStructure(4, edges);
        QCOMPARE(s.componentCount, 2);
        const auto r = placeLayered(s, boxes, {});
        // Component {0,2} first, then {1,3}, separated by nodeSeparation.
        const double rightOfFirst = std::max(r.centers[0].x, r.centers[2].x) + 15;
        const double leftOfSecond = std::min(r.centers[1].x, r.centers[3].x) - 15;
        QVERIFY(std::abs(leftOfSecond - rightOfFirst - 24) < kEps);
        QCOMPARE(r.size.width, 30.0 * 2 + 24);
    }

    void randomDagsBothDirections()
    {
        std::mt19937 rng(12345);
        for (int n = 1; n <= 300; n += (n < 20 ? 1 : 23)) {
            const auto g = randomDag(rng, n);
            const auto s = computeLayeredStructure(n, g.edges);
            for (const auto& route : s.edges)
                QVERIFY(!route.reversed); // a DAG needs no reversal
            for (auto dir : {LayoutDirection::kTopToBottom, LayoutDirection::kLeftToRight}) {
                LayeredLayoutOptions options;
                options.direction = dir;
                const auto r = placeLayered(s, g.boxes, options);
                const QString problem = checkLayout(g.boxes, g.edges, s, r, dir);
                QVERIFY2(problem.isEmpty(), qPrintable(QString("n=%1: %2").arg(n).arg(problem)));
            }
        }
    }

    void randomGraphsWithCycles()
    {
        std::mt19937 rng(99);
        for (int trial = 0; trial < 30; ++trial) {
            const int n = 2 + trial * 7;
            RandomGraph g = randomDag(rng, n);
            for (int k = 0; k < n / 3; ++k) // back edges and self loops
                g.edges.push_back({int(rng() % unsigned(n)), int(rng() % unsigned(n)), 1});
            const auto s = computeLayeredStructure(n, g.edges);
            for (std::size_t i = 0; i < g.edges.size(); ++i) // ranks respect every non-reversed edge
                if (g.edges[i].from != g.edges[i].to) {
                    const int a = s.rank[std::size_t(g.edges[i].from)], b = s.rank[std::size_t(g.edges[i].to)];
                    QVERIFY(s.edges[i].reversed ? b < a : a < b);
                }
            for (auto dir : {LayoutDirection::kTopToBottom, LayoutDirection::kLeftToRight}) {
                LayeredLayoutOptions options;
                options.direction = dir;
                const auto r = placeLayered(s, g.boxes, options);
                const QString problem = checkLayout(g.boxes, g.edges, s, r, dir);
                QVERIFY2(problem.isEmpty(), qPrintable(QString("trial %1: %2").arg(trial).arg(problem)));
            }
        }
    }

    void deterministic()
    {
        std::mt19937 rng(3);
        const auto g = randomDag(rng, 200);
        LayeredLayoutOptions options;
        const auto a = layoutLayered(g.boxes, g.edges, options);
        const auto b = layoutLayered(g.boxes, g.edges, options);
        for (std::size_t i = 0; i < a.centers.size(); ++i) {
            QCOMPARE(a.centers[i].x, b.centers[i].x);
            QCOMPARE(a.centers[i].y, b.centers[i].y);
        }
        for (std::size_t i = 0; i < a.edgePoints.size(); ++i) {
            QCOMPARE(a.edgePoints[i].size(), b.edgePoints[i].size());
            for (std::size_t k = 0; k < a.edgePoints[i].size(); ++k) {
                QCOMPARE(a.edgePoints[i][k].x, b.edgePoints[i][k].x);
                QCOMPARE(a.edgePoints[i][k].y, b.edgePoints[i][k].y);
            }
        }
    }

    void deepChainNeedsNoRecursion()
    {
        // 100,000 boxes in one chain closed into a cycle: an explicit stack, not the call stack, does the work.
        const int n = 100000;
        std::vector<LayoutEdgeInput> edges;
        for (int i = 0; i + 1 < n; ++i)
            edges.push_back({i, i + 1});
        edges.push_back({n - 1, 0});
        const auto s = computeLayeredStructure(n, edges);
        QCOMPARE(s.rankCount(), n);
        QVERIFY(s.edges.back().reversed);
        QCOMPARE(s.edges.back().dummies.size(), std::size_t(n - 2));
        const auto r = placeLayered(s, std::vector<LayoutSize>(std::size_t(n), {20, 10}), {});
        QCOMPARE(r.edgePoints.back().size(), std::size_t(n));
        QVERIFY(r.size.height > n * 10.0);
    }

    void badSizesCountAsZero()
    {
        const std::vector<LayoutSize> boxes{{-5, std::nan("")}, {40, 20}};
        const auto r = layoutLayered(boxes, {{0, 1}}, {});
        QVERIFY(std::isfinite(r.size.width) && std::isfinite(r.size.height));
        QVERIFY(std::isfinite(r.centers[0].x) && std::isfinite(r.centers[0].y));
        // Fewer sizes than boxes: the missing ones count as 0 as well.
        const auto s = computeLayeredStructure(3, {{0, 1}, {1, 2}});
        const auto short_ = placeLayered(s, {{40, 20}}, {});
        QCOMPARE(short_.centers.size(), std::size_t(3));
        QVERIFY(std::isfinite(short_.size.height));
    }
};

QTEST_GUILESS_MAIN(TestLayeredLayout)
#include "test_layered_layout.moc"
