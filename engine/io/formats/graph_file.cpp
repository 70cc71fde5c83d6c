// Reading the graph out of GraphDef, MetaGraphDef and SavedModel files, through the format modules.
#include "io/formats/graph_file.h"

#include "io/formats/open_graph.h"

namespace tstudio {

Expected<GraphFile> readGraphFromFile(const std::filesystem::path& path)
{
    auto opened = formats::openGraph(path);
    if (!opened)
        return unexpected(opened.error());
    GraphFile result;
    result.kind = opened->kind;
    result.graph = *opened->graph;
    return result;
}

Expected<GraphFile> readGraphFromFile(const FileKindReport& report)
{
    auto opened = formats::openGraph(report);
    if (!opened)
        return unexpected(opened.error());
    GraphFile result;
    result.kind = opened->kind;
    result.graph = *opened->graph;
    return result;
}

} // namespace tstudio
