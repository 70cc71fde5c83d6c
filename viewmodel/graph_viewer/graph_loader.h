// GraphLoader: reads the graph the viewer shows from any file that holds one and builds its hierarchy (Qt-free).
#pragma once

#include "core/expected.h"
#include "graph_viewer/function_library_view.h"
#include "graph_viewer/graph_hierarchy.h"
#include "io/events/event_graphs.h"
#include "io/file_kind.h"
#include "model/meta_graph_contents.h"
#include "model/saved_model.h"
#include "proto/graph.pb.h"

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::graph_viewer {

struct GraphLoadRequest {
    std::filesystem::path path;
    /// Which of several graphs: the MetaGraph of a SavedModel, the graph record of an event file or log
    /// directory (index into LoadedGraph::choices). -1: the default (a SavedModel's first MetaGraph, the
    /// last graph written to an event file, as TensorBoard shows the latest).
    int choice = -1;
    /// What the caller already detected at `path` (MainWindow does before choosing a viewer); when
    /// set, the file is not sniffed again.
    std::optional<FileKindReport> report;
    /// Op definitions for the function library's flat output indices (may be null; must outlive the load).
    const OpRegistry* ops = nullptr;
};

/// Stages reported while loading, in order.
enum class LoadStage { kReading = 0, kHierarchy = 1, kLayout = 2, kDone = 3 };

struct LoadedGraph {
    /// The graph as the file holds it (facts, editing and export use it).
    std::shared_ptr<const tensorflow::GraphDef> graph;
    /// What the hierarchy is built from: `graph` itself, or, when it has a function library, its nodes followed
    /// by the functions' nodes under "__function_library__" (FunctionLibraryView). Hierarchy graphIndex values
    /// index this graph; those below graph->node_size() are the same nodes in both.
    std::shared_ptr<const tensorflow::GraphDef> viewGraph;
    /// The function library: functions, call nodes, callers and callees (never null once loaded).
    std::shared_ptr<const FunctionLibraryView> functions;
    std::shared_ptr<const GraphHierarchy> hierarchy;
    FileKind kind = FileKind::kUnknown;
    /// The alternatives the file offers: SavedModel tag sets ("{serve}"), event graph records
    /// ("train: graph_def at step 0"); empty when the file holds one graph.
    std::vector<std::string> choices;
    int chosen = -1;
    /// A checkpoint that belongs with the graph: the prefix next to a .meta, a SavedModel's variables,
    /// or the checkpoint that was opened. Empty when none.
    std::string checkpointPrefix;
    /// A SavedModel's signatures (of the chosen MetaGraph), sorted by key; empty for other kinds.
    std::vector<SignatureInfo> signatures;
    /// What the MetaGraph holds besides the graph (collections, SaverDef, stripped ops, assets): for a
    /// .meta file and a SavedModel's chosen MetaGraph; empty for other kinds.
    std::optional<MetaGraphContents> metaGraph;
    /// RunMetadata records of an event file or log directory (for colouring by time and memory).
    std::vector<events::EventRunMetadataRecord> runMetadata;
    /// Damaged records skipped in event files, as readable lines.
    std::vector<std::string> warnings;
    double readMilliseconds = 0;
    double hierarchyMilliseconds = 0;
};

/// Reads the graph of `request.path`: a GraphDef (binary or text), a MetaGraphDef, a SavedModel, a
/// checkpoint with its .meta beside it, an event file or a log directory holding graph records. Errors name
/// the file: NotFound, DataLoss for a damaged file, InvalidArgument for a file that holds no graph,
/// Cancelled. `stage`, when given, is set as the work advances (a LoadStage value).
Expected<LoadedGraph> loadGraph(const GraphLoadRequest& request, const std::atomic<bool>* cancelled = nullptr,
                                std::atomic<int>* stage = nullptr);

/// The same for a graph already in memory (the node editor's document).
LoadedGraph loadedGraphFrom(tensorflow::GraphDef graph, const OpRegistry* ops = nullptr);

} // namespace tstudio::graph_viewer
