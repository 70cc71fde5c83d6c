// Fuzz target: a project file (.tsproj JSON) parsed and validated as the GUI and `tstudio train`
// open one; a project that parses must save to text that parses to the same project and bytes.
#include "fuzz_support.h"
#include "project/format/project_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    fuzz::quietLogs();
    auto project = project::parseProject(fuzz::bytesOf(data, size), "fuzz.tsproj");
    if (!project)
        return 0;
    const std::string saved = project::projectToJson(*project);
    auto again = project::parseProject(saved, "fuzz.tsproj (saved)");
    fuzz::require(again.has_value(), "a saved project does not parse again");
    fuzz::require(project::projectToJson(*again) == saved, "saving a loaded project changes it");
    return 0;
}
