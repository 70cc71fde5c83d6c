// Fuzz target: a RunMetadata (binary or text protobuf, or a bare StepStats) read as the profiler
// reads a trace file (readTraceFile decides by content), turned into the timeline's trace.
#include "fuzz_support.h"
#include "profiler/trace_files.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    fuzz::quietLogs();
    const auto path = fuzz::scratchFile("fuzz.run_metadata.pb", fuzz::bytesOf(data, size));
    auto trace = profiler::readTraceFile(path);
    (void)trace;
    return 0;
}
