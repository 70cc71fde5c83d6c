// Tests for the graph viewer's hierarchical layout: nesting, side areas, caching counters, expandTo, direction.
#include "../../support/graph_def_nodes.h"
#include "graph_viewer/graph_view_layout.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <random>

using namespace tstudio::graph_viewer;

using tstudio::testing::addChain;
using tstudio::testing::addNode;

namespace {

constexpr double kEps = 1e-6;

// Scopes, nested scopes, a series of nine similar blocks, a NoOp for the side area and a cycle between groups.
std::shared_ptr<const GraphHierarchy> handMadeHierarchy()
{
    tensorflow::GraphDef g;
    addNode(g, "input", "Placeholder");
    std::string prev = "input";
    for (int i = 1; i <= 9; ++i) {
        const std::string scope = "conv_" + std::to_string(i);
        addChain(g, scope, prev, {"Conv2D", "BiasAdd", "Relu"});
        prev = scope + "/Relu2";
    }
    addChain(g, "dense/inner", prev, {"MatMul", "Add", "Relu", "Softmax"});
    addNode(g, "dense/w", "VariableV2");
    addNode(g, "dense/w/read", "Identity", {"dense/w"});
    addNode(g, "dense/inner/MatMul_w", "MatMul", {"dense/inner/Relu2", "dense/w/read"});
    auto* init = addNode(g, "dense/init", "NoOp");
    init->add_input("^dense/w");
    addNode(g, "loss/value", "Mean", {"dense/inner/Softmax3"});
    addNode(g, "loss/back", "Identity", {"loss/value"});
    addNode(g, "dense/feedback", "Identity", {"loss/back"}); // loss -> dense while dense -> loss: a cycle
    return std::make_shared<const GraphHierarchy>(GraphHierarchy::build(g));
}

// Random scopes (depth up to 3) over n ops with random earlier inputs.
std::shared_ptr<const GraphHierarchy> randomHierarchy(std::mt19937& rng, int n)
{
    tensorflow::GraphDef g;
    const char* scopes[] = {"a", "b", "c", "a/x", "a/y", "b/x", "a/x/deep", "c/z"};
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i) {
        const std::string scope = rng() % 5 == 0 ? std::string() : scopes[rng() % 8];
        const std::string name = (scope.empty() ? "" : scope + "/") + "op" + std::to_string(i);
        auto* node = addNode(g, name, rng() % 9 == 0 ? "NoOp" : "Add");
        for (int k = 0; k < 2 && i > 0; ++k)
            if (rng() % 3 != 0)
                node->add_input(names[rng() % names.size()]);
        names.push_back(name);
    }
    tstudio::graph_viewer::HierarchyOptions options;
    options.minNodeCountForExtraction = 6;
    return std::make_shared<const GraphHierarchy>(GraphHierarchy::build(g, options));
}

void expandAll(GraphViewLayout& layout)
{
    for (const auto& node : layout.hierarchy().nodes())
        if (node.kind != HierarchyNodeKind::kOp)
            layout.setExpanded(node.id, true);
}

bool onBorder(LayoutPoint p, const ViewItem& b)
{
    const bool inside =
        p.x >= b.x - kEps && p.x <= b.x + b.width + kEps && p.y >= b.y - kEps && p.y <= b.y + b.height + kEps;
    return inside && (std::abs(p.x - b.x) <= kEps || std::abs(p.x - b.x - b.width) <= kEps ||
                      std::abs(p.y - b.y) <= kEps || std::abs(p.y - b.y - b.height) <= kEps);
}

// Nesting, overlap and edge-end invariants of a finished layout; empty or the first violation.
QString checkView(const GraphViewLayout& layout)
{
    const auto& items = layout.items();
    const auto& h = layout.hierarchy();
    const LayoutSize size = layout.size();
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto& it = items[i];
        if (layout.itemOf(it.node) != int(i))
            return QString("itemOf(%1) is wrong").arg(it.node);
        double l = 0, t = 0, r = size.width, b = size.height;
        if (it.parentItem >= 0) {
            if (it.parentItem >= int(i))
                return QString("item %1 comes before its parent").arg(i);
            const auto& p = items[std::size_t(it.parentItem)];
            if (!p.expanded || h.node(it.node).parent != p.node || it.depth != p.depth + 1)
                return QString("item %1 has the wrong parent").arg(i);
            l = p.x, t = p.y, r = p.x + p.width, b = p.y + p.height;
        } else if (h.node(it.node).parent != h.root() || it.depth != 0) {
            return QString("item %1 is no child of the root").arg(i);
        }
        if (it.x < l - kEps || it.y < t - kEps || it.x + it.width > r + kEps || it.y + it.height > b + kEps)
            return QString("item %1 (%2) lies outside its parent")
                .arg(i)
                .arg(QString::fromStdString(h.node(it.node).name));
        for (std::size_t j = i + 1; j < items.size(); ++j) {
            const auto& o = items[j];
            if (o.parentItem != it.parentItem)
                continue;
            const double ox = std::min(it.x + it.width, o.x + o.width) - std::max(it.x, o.x);
            const double oy = std::min(it.y + it.height, o.y + o.height) - std::max(it.y, o.y);
            if (ox > kEps && oy > kEps)
                return QString("siblings %1 and %2 overlap")
                    .arg(QString::fromStdString(h.node(it.node).name), QString::fromStdString(h.node(o.node).name));
        }
    }
    for (const auto& e : layout.edges()) {
        const auto& he = h.node(e.group).edges[std::size_t(e.edgeIndex)];
        const int a = layout.itemOf(he.from), b = layout.itemOf(he.to);
        if (a < 0 || b < 0)
            return "an edge joins an invisible node";
        if (items[std::size_t(a)].sideArea || items[std::size_t(b)].sideArea)
            return "an edge joins a side-area node";
        if (e.points.size() < 2 || !onBorder(e.points.front(), items[std::size_t(a)]) ||
            !onBorder(e.points.back(), items[std::size_t(b)]))
            return QString("edge %1 of group %2 does not end on its boxes").arg(e.edgeIndex).arg(e.group);
    }
    return {};
}

// 20 top-level groups of 10 chained ops, each feeding the next; group "g7" holds a nested group "g7/inner".
std::shared_ptr<const GraphHierarchy> twentyGroups()
{
    tensorflow::GraphDef g;
    std::string prev;
    for (int k = 0; k < 20; ++k) {
        const std::string scope = "g" + std::to_string(k);
        for (int i = 0; i < 10; ++i) {
            const std::string name = scope + "/op" + std::to_string(i);
            if (prev.empty())
                addNode(g, name, "Placeholder");
            else
                addNode(g, name, "Relu", {prev});
            prev = name;
        }
    }
    addChain(g, "g7/inner", "g7/op3", {"MatMul", "Add", "Relu"});
    tstudio::graph_viewer::HierarchyOptions options;
    options.seriesMinSize = 0; // keep 20 separate groups
    return std::make_shared<const GraphHierarchy>(GraphHierarchy::build(g, options));
}

std::vector<double> flatten(const GraphViewLayout& layout)
{
    std::vector<double> v;
    for (const auto& it : layout.items())
        v.insert(v.end(), {double(it.node), it.x, it.y, it.width, it.height, double(it.parentItem)});
    for (const auto& e : layout.edges())
        for (const auto& p : e.points)
            v.insert(v.end(), {p.x, p.y});
    return v;
}

} // namespace

class TestGraphViewLayout : public QObject {
    Q_OBJECT
private slots:
    void startsCollapsed()
    {
        auto h = handMadeHierarchy();
        GraphViewLayout layout(h, {});
        QVERIFY(layout.update());
        QCOMPARE(layout.items().size(), h->node(h->root()).children.size());
        for (const auto& it : layout.items()) {
            QVERIFY(!it.expanded);
            QCOMPARE(it.depth, 0);
            const auto expected = defaultCollapsedSize(h->node(it.node));
            QCOMPARE(it.width, expected.width);
            QCOMPARE(it.height, expected.height);
        }
        QCOMPARE(layout.structuresComputedInLastUpdate(), 1);
        QCOMPARE(layout.groupsPlacedInLastUpdate(), 1);
        const QString problem = checkView(layout);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Nothing changed: nothing is placed again.
        QVERIFY(layout.update());
        QCOMPARE(layout.groupsPlacedInLastUpdate(), 0);
    }

    void handMadeFullyExpanded()
    {
        auto h = handMadeHierarchy();
        const int series = h->find("conv_[1-9]");
        QVERIFY(series > 0);
        const int dense = h->find("dense");
        QVERIFY(dense > 0 && !h->node(dense).outExtract.empty());
        for (auto dir : {LayoutDirection::kTopToBottom, LayoutDirection::kLeftToRight}) {
            GraphViewLayoutOptions options;
            options.layered.direction = dir;
            GraphViewLayout layout(h, options);
            expandAll(layout);
            QVERIFY(layout.update());
            QCOMPARE(layout.items().size(), h->nodes().size() - 1);
            const QString problem = checkView(layout);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            // The NoOp sits in dense's side-area column, right of the layered children.
            const auto& init = layout.items()[std::size_t(layout.itemOf(h->find("dense/init")))];
            QVERIFY(init.sideArea);
            for (const auto& it : layout.items())
                if (it.parentItem == layout.itemOf(dense) && !it.sideArea)
                    QVERIFY(it.x + it.width + options.sideAreaGap <= init.x + kEps);
            // The series' members are laid out with the chain between them.
            const auto& seriesItem = layout.items()[std::size_t(layout.itemOf(series))];
            QVERIFY(seriesItem.expanded);
            int seriesEdges = 0;
            for (const auto& e : layout.edges())
                if (e.group == series) {
                    ++seriesEdges;
                    const double advance = dir == LayoutDirection::kTopToBottom
                                               ? e.points.back().y - e.points.front().y
                                               : e.points.back().x - e.points.front().x;
                    QVERIFY(advance > 0); // the chain runs downward / rightward
                }
            QCOMPARE(seriesEdges, int(h->node(series).edges.size()));
            // The expanded group's box: header on top, then padding.
            for (const auto& it : layout.items())
                if (it.parentItem >= 0) {
                    const auto& p = layout.items()[std::size_t(it.parentItem)];
                    QVERIFY(it.y >= p.y + options.groupHeader + options.groupPadding - kEps);
                    QVERIFY(it.x >= p.x + options.groupPadding - kEps);
                }
        }
    }

    void randomHierarchiesFullyExpanded()
    {
        std::mt19937 rng(2024);
        for (int n = 1; n <= 300; n += 23) {
            auto h = randomHierarchy(rng, n);
            for (auto dir : {LayoutDirection::kTopToBottom, LayoutDirection::kLeftToRight}) {
                GraphViewLayoutOptions options;
                options.layered.direction = dir;
                // Random label-dependent sizes.
                options.collapsedSize = [](const HierarchyNode& node) {
                    return LayoutSize{30.0 + double(node.name.size() * 7 % 90), 20.0 + double(node.id % 5) * 6};
                };
                GraphViewLayout layout(h, options);
                expandAll(layout);
                QVERIFY(layout.update());
                QCOMPARE(layout.items().size(), h->nodes().size() - 1);
                const QString problem = checkView(layout);
                QVERIFY2(problem.isEmpty(), qPrintable(QString("n=%1: %2").arg(n).arg(problem)));
            }
        }
    }

    void expandingOneGroupReplacesOnlyAncestors()
    {
        auto h = twentyGroups();
        QCOMPARE(h->node(h->root()).children.size(), std::size_t(20));
        GraphViewLayout layout(h, {});
        QVERIFY(layout.update());
        const LayoutSize collapsed = layout.size();
        const auto before = flatten(layout);

        const int g3 = h->find("g3");
        layout.setExpanded(g3, true);
        QVERIFY(layout.update());
        QCOMPARE(layout.structuresComputedInLastUpdate(), 1);
        QCOMPARE(layout.groupsPlacedInLastUpdate(), 2); // g3 and the root
        QCOMPARE(layout.items().size(), std::size_t(30));
        QVERIFY(layout.size().height > collapsed.height);

        // A nested group: its structure, then it, its parent and the root are placed.
        const int g7 = h->find("g7"), inner = h->find("g7/inner");
        layout.setExpanded(g7, true);
        QVERIFY(layout.update());
        QCOMPARE(layout.structuresComputedInLastUpdate(), 1);
        QCOMPARE(layout.groupsPlacedInLastUpdate(), 2);
        layout.setExpanded(inner, true);
        QVERIFY(layout.update());
        QCOMPARE(layout.structuresComputedInLastUpdate(), 1);
        QCOMPARE(layout.groupsPlacedInLastUpdate(), 3);
        QVERIFY(layout.itemOf(h->find("g7/inner/MatMul")) >= 0);
        const QString problem = checkView(layout);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        // Collapsing everything restores the first layout exactly; nothing is computed again but the root.
        layout.setExpanded(g7, false);
        layout.setExpanded(g3, false);
        QVERIFY(layout.update());
        QCOMPARE(layout.structuresComputedInLastUpdate(), 0);
        QCOMPARE(layout.groupsPlacedInLastUpdate(), 1);
        QCOMPARE(layout.size().width, collapsed.width);
        QCOMPARE(layout.size().height, collapsed.height);
        QCOMPARE(flatten(layout), before);
        QCOMPARE(layout.itemOf(h->find("g7/inner/MatMul")), -1);

        // Expanding g7 again reuses its placement (inner is still expanded inside it).
        layout.setExpanded(g7, true);
        QVERIFY(layout.update());
        QCOMPARE(layout.structuresComputedInLastUpdate(), 0);
        QCOMPARE(layout.groupsPlacedInLastUpdate(), 1);
        QVERIFY(layout.itemOf(h->find("g7/inner/MatMul")) >= 0);

        // Ops and the root ignore setExpanded.
        layout.setExpanded(h->find("g0/op1"), true);
        layout.setExpanded(h->root(), false);
        QVERIFY(layout.update());
        QCOMPARE(layout.groupsPlacedInLastUpdate(), 0);
        QVERIFY(layout.isExpanded(h->root()));
        QVERIFY(!layout.isExpanded(h->find("g0/op1")));
    }

    void expandTo()
    {
        auto h = twentyGroups();
        GraphViewLayout layout(h, {});
        QVERIFY(layout.update());
        const int op = h->find("g7/inner/Add1");
        QVERIFY(op > 0);
        QCOMPARE(layout.itemOf(op), -1);
        layout.expandTo(op);
        QVERIFY(layout.isExpanded(h->find("g7")));
        QVERIFY(layout.isExpanded(h->find("g7/inner")));
        QVERIFY(layout.update());
        QCOMPARE(layout.structuresComputedInLastUpdate(), 2);
        QCOMPARE(layout.groupsPlacedInLastUpdate(), 3);
        const int index = layout.itemOf(op);
        QVERIFY(index >= 0);
        const auto& item = layout.items()[std::size_t(index)];
        QCOMPARE(item.depth, 2);
        QCOMPARE(layout.items()[std::size_t(item.parentItem)].node, h->find("g7/inner"));
        const QString problem = checkView(layout);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void directionKeepsStructures()
    {
        auto h = twentyGroups();
        GraphViewLayout layout(h, {});
        layout.setExpanded(h->find("g2"), true);
        layout.setExpanded(h->find("g9"), true);
        QVERIFY(layout.update());
        QCOMPARE(layout.structuresComputedInLastUpdate(), 3);
        layout.setDirection(LayoutDirection::kLeftToRight);
        QVERIFY(layout.update());
        QCOMPARE(layout.structuresComputedInLastUpdate(), 0);
        QCOMPARE(layout.groupsPlacedInLastUpdate(), 3);
        for (const auto& e : layout.edges()) // the chains run left to right, also between groups
            QVERIFY(e.points.back().x > e.points.front().x);
        QVERIFY(layout.size().width > layout.size().height);
        const QString problem = checkView(layout);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        layout.setDirection(LayoutDirection::kTopToBottom);
        QVERIFY(layout.update());
        for (const auto& e : layout.edges())
            QVERIFY(e.points.back().y > e.points.front().y);
    }

    void deterministic()
    {
        std::mt19937 rng(5);
        auto h = randomHierarchy(rng, 250);
        GraphViewLayout a(h, {}), b(h, {});
        expandAll(a);
        expandAll(b);
        QVERIFY(a.update());
        QVERIFY(b.update());
        QCOMPARE(flatten(a), flatten(b));
    }

    void cancelledUpdateFinishesLater()
    {
        auto h = twentyGroups();
        GraphViewLayout reference(h, {});
        expandAll(reference);
        QVERIFY(reference.update());

        GraphViewLayout layout(h, {});
        QVERIFY(layout.update());
        const auto before = flatten(layout);
        expandAll(layout);
        std::atomic<bool> cancelled{true};
        QVERIFY(!layout.update(&cancelled));
        QCOMPARE(layout.groupsPlacedInLastUpdate(), 0);
        QCOMPARE(flatten(layout), before); // items keep their previous contents
        cancelled = false;
        QVERIFY(layout.update(&cancelled));
        QCOMPARE(flatten(layout), flatten(reference));
    }

    void emptyGraph()
    {
        auto h = std::make_shared<const GraphHierarchy>(GraphHierarchy::build(tensorflow::GraphDef{}));
        GraphViewLayout layout(h, {});
        QVERIFY(layout.update());
        QVERIFY(layout.items().empty());
        QCOMPARE(layout.size().width, 0.0);
        QCOMPARE(layout.itemOf(12345), -1);
        layout.setExpanded(-3, true);
        layout.expandTo(99);
        QVERIFY(layout.update());
    }
};

QTEST_GUILESS_MAIN(TestGraphViewLayout)
#include "test_graph_view_layout.moc"
