// Layered (Sugiyama-style) layout of boxes and edges for the graph viewer (Qt-free).
#pragma once

#include <cstdint>
#include <vector>

namespace tstudio::graph_viewer {

enum class LayoutDirection { kTopToBottom, kLeftToRight };

struct LayoutPoint {
    double x = 0, y = 0;
};

struct LayoutSize {
    double width = 0, height = 0;
};

/// An edge between boxes `from` and `to` (indices into the box list). Out-of-range ends make the edge ignored;
/// `weight` (> 0; anything else counts as 1) pulls its ends closer in ordering and placement.
struct LayoutEdgeInput {
    int from = -1, to = -1;
    double weight = 1;
};

struct LayeredLayoutOptions {
    LayoutDirection direction = LayoutDirection::kTopToBottom;
    double nodeSeparation = 24; ///< between boxes in one rank
    double rankSeparation = 36; ///< between ranks
    double edgeSeparation = 10; ///< between the bend points (dummy nodes) of long edges
    int orderingSweeps = 6;     ///< barycenter sweeps of the ordering phase (not used by placeLayered)
};

/// The size-independent part of a layered layout: ranks after cycle breaking, dummy nodes of long edges and the
/// order within each rank. Layered nodes are the boxes (0..boxCount-1) followed by the dummies.
/// Compute it once per graph and place it as often as box sizes change.
struct LayeredStructure {
    enum class EdgeKind { kIgnored, kSelfLoop, kLayered };
    struct Route {
        EdgeKind kind = EdgeKind::kIgnored;
        int from = -1, to = -1;   ///< the input edge's boxes
        bool reversed = false;    ///< drawn against the rank direction to break a cycle
        std::vector<int> dummies; ///< dummy nodes in the order met going from the edge's `from` to its `to`
    };

    int boxCount = 0;
    int componentCount = 0;
    std::vector<int> rank;               ///< per layered node
    std::vector<int> component;          ///< per layered node; components are numbered by their lowest box index
    std::vector<int> position;           ///< per layered node: index within order[rank]
    std::vector<std::vector<int>> order; ///< per rank: layered nodes left to right, each component contiguous
    std::vector<Route> edges;            ///< per input edge
    std::int64_t crossings = 0;          ///< edge crossings of the chosen order (between adjacent ranks)

    /// Segments between adjacent ranks, per layered node, in compressed rows: neighbours one rank up
    /// (upNode[upStart[n]..upStart[n+1])) and one rank down, with the weight of the edge they belong to.
    std::vector<int> upStart, upNode, downStart, downNode;
    std::vector<double> upWeight, downWeight;

    int nodeCount() const { return static_cast<int>(rank.size()); }
    int rankCount() const { return static_cast<int>(order.size()); }
    bool isDummy(int node) const { return node >= boxCount; }
};

/// Ranks, dummy chains and ordering of a graph of `boxCount` boxes. Cycles are broken by reversing the back edges
/// of an iterative depth-first search; self loops and out-of-range edges take no part in ranking. Deterministic;
/// time about O(sweeps * E log V) plus the dummy nodes of long edges.
LayeredStructure computeLayeredStructure(int boxCount, const std::vector<LayoutEdgeInput>& edges,
                                         int orderingSweeps = 6);

struct LayeredLayoutResult {
    std::vector<LayoutPoint> centers; ///< per box
    /// Per input edge, from its `from` box to its `to` box (reversed edges too): the first point lies on the
    /// source box's border, the last on the target's, bend points between. Ignored edges get no points;
    /// self loops get a small loop on the box's right (top-to-bottom) or bottom (left-to-right) side.
    std::vector<std::vector<LayoutPoint>> edgePoints;
    LayoutSize size; ///< every box and edge point lies inside [0, size]
};

/// Coordinates for a structure: boxes must hold boxCount sizes (missing or negative sizes count as 0).
/// Disconnected components are placed side by side. Time O(nodes + segments) per placement pass.
LayeredLayoutResult placeLayered(const LayeredStructure& structure, const std::vector<LayoutSize>& boxes,
                                 const LayeredLayoutOptions& options);

/// Both steps at once.
LayeredLayoutResult layoutLayered(const std::vector<LayoutSize>& boxes, const std::vector<LayoutEdgeInput>& edges,
                                  const LayeredLayoutOptions& options);

} // namespace tstudio::graph_viewer
