// projectPath: a project argument resolved to a file.
#include "project_argument.h"

#include <cstdlib>
#include <system_error>

namespace tstudio::cli {

std::filesystem::path projectPath(const std::string& argument)
{
    std::error_code ec;
    if (std::filesystem::exists(argument, ec))
        return argument;
    for (const char* name : kExampleProjectNames) {
        if (argument != name)
            continue;
        const std::string file = argument + ".tsproj";
        if (const char* dir = std::getenv("TSTUDIO_EXAMPLES_DIR"); dir && std::filesystem::exists(std::filesystem::path(dir) / file, ec))
            return std::filesystem::path(dir) / file;
        return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / file;
    }
    return argument;
}

} // namespace tstudio::cli
