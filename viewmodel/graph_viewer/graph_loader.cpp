// Loading for the graph viewer: the format module reads the graph (io/formats), then the hierarchy.
#include "graph_viewer/graph_loader.h"

#include "core/status.h"
#include "io/file_kind_detector.h"
#include "io/formats/open_graph.h"
#include "io/formats/saved_model_format.h"
#include "io/formats/meta_graph_format.h"

#include <algorithm>
#include <chrono>

namespace tstudio::graph_viewer {
namespace {

namespace fs = std::filesystem;

double millisecondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

/// The function library's view graph, then the hierarchy over it.
void buildHierarchy(LoadedGraph& out, std::shared_ptr<const tensorflow::GraphDef> graph, const OpRegistry* ops)
{
    auto functions = std::make_shared<FunctionLibraryView>(FunctionLibraryView::build(graph, ops));
    out.viewGraph = functions->viewGraph();
    out.hierarchy = std::make_shared<GraphHierarchy>(GraphHierarchy::build(*out.viewGraph));
    out.functions = std::move(functions);
    out.graph = std::move(graph);
}

} // namespace

Expected<LoadedGraph> loadGraph(const GraphLoadRequest& request, const std::atomic<bool>* cancelled,
                                std::atomic<int>* stage)
{
    const auto start = std::chrono::steady_clock::now();
    if (stage)
        stage->store(static_cast<int>(LoadStage::kReading));
    // The caller's detection when it has one: the file is not sniffed again.
    Expected<FileKindReport> report = request.report ? Expected<FileKindReport>(*request.report)
                                                     : detectFileKind(request.path);
    if (!report)
        return unexpected(report.error());
    auto opened = formats::openGraph(*report, {.choice = request.choice, .cancelled = cancelled});
    if (!opened)
        return unexpected(opened.error());
    LoadedGraph out;
    out.kind = opened->kind;
    out.choices = std::move(opened->choices);
    out.chosen = opened->chosen;
    out.checkpointPrefix = std::move(opened->checkpointPrefix);
    out.runMetadata = std::move(opened->runMetadata);
    out.warnings = std::move(opened->warnings);
    const fs::path& path = request.path;
    if (out.kind == FileKind::kSavedModel) {
        // The probe's parse when the report holds it: the SavedModel is not read a second time.
        auto model = formats::savedModelOf(*report);
        if (!model)
            return unexpected(model.error());
        const int meta = std::max(0, out.chosen);
        if (meta < (*model)->meta_graphs_size()) {
            out.signatures = signaturesOf((*model)->meta_graphs(meta));
            out.metaGraph = metaGraphContents((*model)->meta_graphs(meta));
        }
    } else if (out.kind == FileKind::kMetaGraphDef || out.kind == FileKind::kMetaGraphDefText) {
        // The probe's parse when the report holds it (openGraph keeps the graph only); a failure
        // here only leaves the MetaGraph tab out.
        if (auto meta = formats::metaGraphOf(*report))
            out.metaGraph = metaGraphContents(**meta);
    }
    if (cancelled && cancelled->load())
        return unexpected(cancelledError("loading '" + path.string() + "' was cancelled"));
    out.readMilliseconds = millisecondsSince(start);
    if (stage)
        stage->store(static_cast<int>(LoadStage::kHierarchy));
    const auto hierarchyStart = std::chrono::steady_clock::now();
    buildHierarchy(out, std::move(opened->graph), request.ops);
    out.hierarchyMilliseconds = millisecondsSince(hierarchyStart);
    if (cancelled && cancelled->load())
        return unexpected(cancelledError("loading '" + path.string() + "' was cancelled"));
    return out;
}

LoadedGraph loadedGraphFrom(tensorflow::GraphDef graph, const OpRegistry* ops)
{
    LoadedGraph out;
    out.kind = FileKind::kGraphDef;
    const auto start = std::chrono::steady_clock::now();
    buildHierarchy(out, std::make_shared<const tensorflow::GraphDef>(std::move(graph)), ops);
    out.hierarchyMilliseconds = millisecondsSince(start);
    return out;
}

} // namespace tstudio::graph_viewer
