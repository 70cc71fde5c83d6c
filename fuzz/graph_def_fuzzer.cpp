// Fuzz target: a binary GraphDef (.pb) read as `tstudio inspect` reads one, then imported,
// shape-inferred and placed.
#include "fuzz_support.h"
#include "io/formats/graph_def_io.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    fuzz::quietLogs();
    GraphDefFormat format = GraphDefFormat::kBinary;
    auto graphDef = parseGraphDef(fuzz::bytesOf(data, size), "fuzz.pb", &format);
    if (!graphDef)
        return 0;
    fuzz::checkGraph(*graphDef);
    return 0;
}
