// openGraph: dispatch to the format module of the report's kind.
#include "io/formats/open_graph.h"

#include "io/formats/graph_def_io.h"
#include "io/formats/formats.h"
#include "io/formats/probe_support.h"
#include "proto/graph.pb.h"

namespace tstudio::formats {

namespace {

/// Content detection found nothing, as for a truncated or damaged file: its name says what it was
/// meant to be, and that parser's error says what is wrong with it.
Expected<OpenedGraph> openUnrecognised(const FileKindReport& report)
{
    const std::string extension = report.path.extension().string();
    if (!report.isDirectory) {
        if (extension == ".pb" || extension == ".pbtxt" || extension == ".graphdef") {
            auto graph = readGraphDef(report.path);
            if (!graph)
                return unexpected(graph.error());
            OpenedGraph out;
            out.kind = FileKind::kGraphDef;
            out.graph = std::make_shared<const tensorflow::GraphDef>(std::move(*graph));
            return out;
        }
        if (extension == ".meta")
            return unexpected(dataLossError("file " + quotePath(report.path) +
                                            " is not a valid MetaGraphDef (truncated or corrupted, " +
                                            std::to_string(report.sizeBytes) + " bytes)"));
    }
    return unexpected(invalidArgumentError(quotePath(report.path) +
                                           " holds no graph: its content is not a GraphDef, MetaGraphDef or "
                                           "SavedModel"));
}

} // namespace

Expected<OpenedGraph> openGraph(const FileKindReport& report, const OpenGraphOptions& options)
{
    if (report.kind == FileKind::kUnknown)
        return openUnrecognised(report);
    const FormatModule* module = formatOf(report.kind);
    if (module == nullptr || module->openGraph == nullptr)
        return unexpected(invalidArgumentError(quotePath(report.path) + " holds no graph: it is " +
                                               std::string(fileKindDescription(report.kind))));
    auto opened = module->openGraph(report, options);
    if (opened && options.cancelled != nullptr && options.cancelled->load())
        return unexpected(cancelledError("loading " + quotePath(report.path) + " was cancelled"));
    return opened;
}

Expected<OpenedGraph> openGraph(const std::filesystem::path& path, const OpenGraphOptions& options)
{
    auto report = detectFileKind(path);
    if (!report)
        return unexpected(report.error());
    return openGraph(*report, options);
}

} // namespace tstudio::formats
