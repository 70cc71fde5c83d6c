// Where this program is, and the install prefix above it.
#include "core/program_path.h"

namespace tstudio {

Expected<std::filesystem::path> programPath()
{
    std::error_code error;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error)
        return unexpected(internalError("cannot find this program (/proc/self/exe): " + error.message()));
    return self;
}

std::optional<std::filesystem::path> installPrefix()
{
    const Expected<std::filesystem::path> self = programPath();
    if (!self)
        return std::nullopt;
    return self->parent_path().parent_path();
}

} // namespace tstudio
