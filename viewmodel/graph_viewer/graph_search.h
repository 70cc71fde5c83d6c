// Find and trace in a GraphDef: nodes matching a name, op type or regular expression, and every ancestor of a node.
#pragma once

#include "proto/graph.pb.h"

#include <QString>

#include <vector>

namespace tstudio::graph_viewer {

enum class SearchMode {
    kName,   ///< case-insensitive substring of the node name
    kOpType, ///< op type, case-insensitive, whole word
    kRegex,  ///< a regular expression (Perl syntax) searched in the node name
};

struct SearchResult {
    std::vector<int> matches; ///< GraphDef indices, in GraphDef order
    QString error;            ///< a readable message for an invalid regular expression; matches empty then
};

/// The nodes of `graph` matching `query` in `mode`. An empty query matches nothing.
SearchResult searchGraph(const tensorflow::GraphDef& graph, const QString& query, SearchMode mode);

/// GraphDef indices of every ancestor of node `graphIndex` (over data inputs, and control inputs when
/// `includeControl`), not including the node itself; sorted. Inputs naming missing nodes are skipped and
/// cycles terminate. Linear in the size of the ancestor subgraph.
std::vector<int> traceInputs(const tensorflow::GraphDef& graph, int graphIndex, bool includeControl = true);

} // namespace tstudio::graph_viewer
