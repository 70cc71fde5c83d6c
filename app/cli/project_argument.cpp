// projectPath: a project argument resolved to a file.
#include "project_argument.h"

#include "core/program_path.h"

#include <cstdlib>
#include <random>
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
        // Installed: share/tensorstudio/examples beside the program's bin folder.
        if (const std::optional<std::filesystem::path> prefix = installPrefix()) {
            const std::filesystem::path installed = *prefix / "share" / "tensorstudio" / "examples" / file;
            if (std::filesystem::exists(installed, ec))
                return installed;
        }
        return std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / file;
    }
    return argument;
}

Expected<project::Project> loadProjectArgument(const std::filesystem::path& path, const std::vector<std::string>& sets,
                                               std::vector<project::Override> extra)
{
    std::vector<project::Override> overrides;
    for (const std::string& text : sets) {
        auto o = project::parseOverride(text);
        if (!o)
            return unexpected(o.error());
        overrides.push_back(*o);
    }
    overrides.insert(overrides.end(), extra.begin(), extra.end());
    return project::loadProject(path, overrides);
}

Expected<std::filesystem::path> temporaryLogDirectory(const std::string& purpose)
{
    std::random_device random;
    std::error_code ec;
    for (int attempt = 0; attempt < 16; ++attempt) {
        const auto dir =
            std::filesystem::temp_directory_path(ec) / ("tstudio-" + purpose + "-" + std::to_string(random()));
        if (!ec && std::filesystem::create_directory(dir, ec))
            return dir;
    }
    return unexpected(unavailableError("cannot create a temporary log directory: " + ec.message()));
}

} // namespace tstudio::cli
