// The GraphDef format: binary (.pb, frozen graphs) and text (.pbtxt) GraphDef files.
#include "io/formats/formats.h"

#include "io/formats/graph_def_io.h"
#include "io/formats/probe_file.h"
#include "io/formats/probe_support.h"
#include "proto/graph.pb.h"

namespace tstudio::formats {
namespace {

bool probe(ProbeFile& file, const FileKindDetectorOptions& options, FileKindReport& report)
{
    bool text = false;
    auto graph = parseWholeFile<tensorflow::GraphDef>(file, options, plausibleGraph, text);
    if (!graph)
        return false;
    report.kind = text ? FileKind::kGraphDefText : FileKind::kGraphDef;
    addGraphFacts(*graph, report);
    report.detail = std::string(text ? "text-format GraphDef with " : "GraphDef with ") + graphSummary(report);
    report.parsed = std::move(graph);
    return true;
}

Expected<OpenedGraph> open(const FileKindReport& report, const OpenGraphOptions&)
{
    OpenedGraph out;
    out.kind = report.kind;
    if (auto parsed = std::dynamic_pointer_cast<const tensorflow::GraphDef>(report.parsed)) {
        out.graph = std::move(parsed);
        return out;
    }
    auto graph = readGraphDef(report.path);
    if (!graph)
        return unexpected(graph.error());
    out.graph = std::make_shared<const tensorflow::GraphDef>(std::move(*graph));
    return out;
}

} // namespace

const FormatModule& graphDefFormat()
{
    static const FormatModule module{
        .name = "graph-def",
        .kinds = {{FileKind::kGraphDef, "graphdef", "GraphDef (binary)", Viewer::kGraph},
                  {FileKind::kGraphDefText, "graphdef-text", "GraphDef (text)", Viewer::kGraph}},
        .probeFile = probe,
        .openGraph = open,
    };
    return module;
}

} // namespace tstudio::formats
