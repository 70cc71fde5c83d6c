// Fuzz target: a text-format GraphDef (.pbtxt) read as `tstudio inspect` reads one, then imported,
// shape-inferred and placed. Same entry point as graph_def (the format is decided by content); the
// corpus and dictionary are text, so mutations stay in the text parser's territory.
#include "fuzz_support.h"
#include "io/formats/graph_def_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    fuzz::quietLogs();
    GraphDefFormat format = GraphDefFormat::kText;
    auto graphDef = parseGraphDef(fuzz::bytesOf(data, size), "fuzz.pbtxt", &format);
    if (!graphDef)
        return 0;
    fuzz::checkGraph(*graphDef);
    return 0;
}
