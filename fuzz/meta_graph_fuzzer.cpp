// Fuzz target: a MetaGraphDef (.meta, binary or text) parsed and imported as import_meta_graph does
// (collections, VariableDefs, saver), its graph then shape-inferred and placed.
#include "fuzz_support.h"
#include "model/meta_graph.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    fuzz::quietLogs();
    auto metaGraph = parseMetaGraph(fuzz::bytesOf(data, size), "fuzz.meta");
    if (!metaGraph)
        return 0;
    auto imported = importMetaGraph(std::move(*metaGraph));
    if (!imported)
        return 0;
    fuzz::checkGraph(imported->graph);
    return 0;
}
