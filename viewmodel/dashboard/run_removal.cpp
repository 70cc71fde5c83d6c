#include "dashboard/run_removal.h"

#include <QFile>
#include <QString>

#include <algorithm>
#include <system_error>

namespace tstudio::dashboard {
namespace {

namespace fs = std::filesystem;

/// The folder as a normalised absolute path (symbolic links resolved where it exists).
fs::path canonicalFolder(const fs::path& folder)
{
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::absolute(folder, ec), ec);
    if (ec)
        p = fs::absolute(folder).lexically_normal();
    // "a/b/" and "a/b" name one folder.
    if (!p.has_filename() && p.has_parent_path() && p != p.root_path())
        p = p.parent_path();
    return p;
}

/// Whether `inner` lies strictly below `outer`.
bool below(const fs::path& inner, const fs::path& outer)
{
    auto o = outer.begin(), i = inner.begin();
    for (; o != outer.end(); ++o, ++i)
        if (i == inner.end() || *i != *o)
            return false;
    return i != inner.end();
}

} // namespace

Expected<RunRemoval> planRunRemoval(const fs::path& runFolder, const std::vector<fs::path>& allRunFolders)
{
    std::error_code ec;
    if (!fs::is_directory(runFolder, ec))
        return unexpected(invalidArgumentError("the run's folder '" + runFolder.string() + "' is not a folder"));
    RunRemoval plan;
    plan.folder = canonicalFolder(runFolder);
    const bool holdsOtherRuns = std::any_of(allRunFolders.begin(), allRunFolders.end(), [&](const fs::path& other) {
        return below(canonicalFolder(other), plan.folder);
    });
    if (!holdsOtherRuns) {
        plan.wholeFolder = true;
        plan.paths.push_back(plan.folder);
        return plan;
    }
    for (fs::directory_iterator it(plan.folder, ec), end; !ec && it != end; it.increment(ec))
        if (!it->is_directory(ec))
            plan.paths.push_back(it->path());
    if (ec)
        return unexpected(invalidArgumentError("cannot list '" + plan.folder.string() + "': " + ec.message()));
    std::sort(plan.paths.begin(), plan.paths.end());
    if (plan.paths.empty())
        return unexpected(failedPreconditionError("the folder '" + plan.folder.string() +
                                                  "' holds other runs and no file of its own: nothing to remove"));
    return plan;
}

Status moveRunToTrash(const RunRemoval& plan, std::size_t* moved)
{
    if (moved)
        *moved = 0;
    for (const fs::path& path : plan.paths) {
        if (!QFile::moveToTrash(QString::fromStdString(path.string())))
            return unavailableError("could not move '" + path.string() +
                                    "' to the trash (no trash on this desktop or file system, or no permission)");
        if (moved)
            ++*moved;
    }
    return Status::ok();
}

Status deleteRunPermanently(const RunRemoval& plan)
{
    for (const fs::path& path : plan.paths) {
        std::error_code ec;
        fs::remove_all(path, ec);
        if (ec)
            return internalError("could not delete '" + path.string() + "': " + ec.message());
    }
    return Status::ok();
}

} // namespace tstudio::dashboard
