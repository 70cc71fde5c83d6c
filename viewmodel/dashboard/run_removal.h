// Deleting a dashboard run from disk: what goes (planned without Qt) and moving it to the desktop's
// trash (Qt Core's QFile::moveToTrash, the freedesktop.org trash on Linux), or deleting it for good.
#pragma once

#include "core/expected.h"
#include "core/status.h"

#include <filesystem>
#include <string>
#include <vector>

namespace tstudio::dashboard {

/// What removing one run takes away. A run is a folder holding event files; other runs may lie in
/// folders below it (TensorBoard's "." run of a log directory holds every other run). Such a folder
/// is never removed whole: only the files directly inside it go, and the folders of the runs below
/// stay. A folder with no other run below it goes whole, with whatever else it holds (checkpoints,
/// exported models, plugin folders).
struct RunRemoval {
    std::filesystem::path folder;             ///< the run's folder
    bool wholeFolder = false;
    std::vector<std::filesystem::path> paths; ///< what goes: the folder, or the files directly in it
};

/// Plans the removal of the run in `runFolder`, given the folders of every run the dashboard
/// follows (the run's own among them or not). InvalidArgument when the folder does not exist or is
/// not a folder; FailedPrecondition when nothing would go (no file directly in a folder that
/// holds other runs).
Expected<RunRemoval> planRunRemoval(const std::filesystem::path& runFolder,
                                    const std::vector<std::filesystem::path>& allRunFolders);

/// Moves each path of the plan to the trash. Stops at the first that cannot be moved (no trash on
/// this desktop, another file system without one, no permission): Unavailable naming the path;
/// what was moved before stays in the trash. `moved` counts the paths moved.
Status moveRunToTrash(const RunRemoval& plan, std::size_t* moved = nullptr);

/// Deletes each path of the plan for good (a folder with everything in it). Internal naming the
/// path and the system's reason at the first failure.
Status deleteRunPermanently(const RunRemoval& plan);

} // namespace tstudio::dashboard
