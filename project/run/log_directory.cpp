// The default log directory of a project's run and the writability rule behind it.
#include "project/run/log_directory.h"

#include <unistd.h>

#include <algorithm>
#include <system_error>

namespace tstudio::project {
namespace {

std::filesystem::path absoluteNormal(const std::filesystem::path& p)
{
    std::error_code ec;
    const std::filesystem::path a = std::filesystem::absolute(p, ec);
    return (ec ? p : a).lexically_normal();
}

/// A name usable as one folder: path separators replaced.
std::string folderName(std::string name)
{
    for (char& c : name)
        if (c == '/' || c == '\\')
            c = '_';
    return name.empty() ? std::string("model") : name;
}

} // namespace

bool isWritableFolder(const std::filesystem::path& folder)
{
    std::error_code ec;
    std::filesystem::path existing = absoluteNormal(folder);
    while (!std::filesystem::exists(existing, ec)) {
        if (!existing.has_parent_path() || existing.parent_path() == existing)
            return false;
        existing = existing.parent_path();
    }
    if (!std::filesystem::is_directory(existing, ec))
        return false;
    const std::filesystem::perms mode = std::filesystem::status(existing, ec).permissions();
    if (ec)
        return false;
    using std::filesystem::perms;
    if ((mode & (perms::owner_write | perms::group_write | perms::others_write)) == perms::none)
        return false;
    // access() asks the system itself: a read-only mount, another user's folder.
    return ::access(existing.c_str(), W_OK | X_OK) == 0;
}

std::filesystem::path defaultLogDirectory(const Project& p, const std::filesystem::path& userData,
                                          const std::string& untitled)
{
    const std::filesystem::path runs = absoluteNormal(userData) / "runs";
    const std::filesystem::path given(p.logdir);
    if (!p.logdir.empty() && given.is_absolute())
        return given.lexically_normal();
    if (p.location.empty())
        return runs / folderName(untitled);
    const std::filesystem::path resolved = absoluteNormal(p.resolve(p.logdir.empty() ? std::string("logs") : p.logdir));
    if (isWritableFolder(resolved))
        return resolved;
    return runs / folderName(p.location.stem().string());
}

std::string untitledRunName(const std::filesystem::path& userData, int first, int* number)
{
    std::error_code ec;
    int n = std::max(first, 1);
    while (std::filesystem::exists(userData / "runs" / ("untitled-" + std::to_string(n)), ec))
        ++n;
    if (number)
        *number = n;
    return "untitled-" + std::to_string(n);
}

} // namespace tstudio::project
