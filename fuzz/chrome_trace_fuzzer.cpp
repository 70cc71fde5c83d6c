// Fuzz target: Chrome trace JSON read as the profiler opens a trace; a trace that parses must be
// written (chromeTraceJson) as JSON that parses again.
#include "fuzz_support.h"
#include "profiler/chrome_trace_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    using namespace tstudio::profiler;
    fuzz::quietLogs();
    std::vector<std::string> warnings;
    auto trace = parseChromeTrace(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json",
                                  &warnings);
    if (!trace)
        return 0;
    ChromeTraceOptions options;
    options.tensorStudioArgs = true;
    auto again = parseChromeTrace(chromeTraceJson(*trace, options), "fuzz.json (written)");
    fuzz::require(again.has_value(), "a written trace does not parse again");
    return 0;
}
