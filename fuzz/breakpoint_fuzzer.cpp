// Fuzz target: the debugger's breakpoint text ("op:Log if has_nan", "regex:... if max > 1") parsed
// and printed back; a parsed breakpoint's text must parse to the same text.
#include "fuzz_support.h"
#include "debugger/breakpoint.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    using namespace tstudio::debugger;
    fuzz::quietLogs();
    auto breakpoint = parseBreakpoint(fuzz::bytesOf(data, size));
    if (!breakpoint)
        return 0;
    const std::string text = formatBreakpoint(*breakpoint);
    auto again = parseBreakpoint(text);
    fuzz::require(again.has_value(), "a formatted breakpoint does not parse again");
    fuzz::require(formatBreakpoint(*again) == text, "formatting a parsed breakpoint changes it");
    return 0;
}
