// A project saved under another name or in another folder: what Save As changes in it so that it
// stays the same project there (its name, its log folder, and every relative path it reads), and
// how a project file stores a folder the user chose.
#pragma once

#include "project/format/project_file.h"

#include <filesystem>
#include <string>

namespace tstudio::project {

/// `p` as it must be written to `newLocation` (a .tsproj path):
///  - location becomes newLocation;
///  - the name follows the file when it was the old file's stem (or empty): "a.tsproj" saved as
///    "b.tsproj" is named "b"; a name the user chose ("Two spirals") is kept;
///  - a log directory that holds a trained run (a "checkpoint" state file in the folder p.logdir
///    names) stays that run's folder, so the copy goes on training it (Continue) instead of
///    starting over: stored as storedLogDirectory gives it from the new file;
///  - otherwise a relative log directory whose last part is the old name ("runs/a") follows the
///    new name ("runs/b"), so two projects never share a log folder by accident; other relative log
///    directories stay relative (a log folder next to the new file), absolute ones are kept;
///  - every other relative path (graph.file, data.dir, an mnist source's dir, tfrecord, csv and numpy
///    files and an image folder when data.dir is not set, the same in eval sources, export.saved_model and
///    export.frozen_graph) is rewritten relative to the new folder, so it names the same file
///    or folder as before. A project that was never saved reads its relative paths from the
///    current directory, and they are rebased from there.
/// Never fails; reads the file system only to see whether the log directory holds a checkpoint;
/// absolute paths are never changed.
Project relocatedProject(Project p, const std::filesystem::path& newLocation);

/// What the project file of `p` keeps for a log directory the user chose (`chosen`, absolute or
/// relative to the current directory): the path relative to the .tsproj's folder when it lies
/// inside it, else the absolute path (always absolute for a project without a file). Forward
/// slashes, normalised.
std::string storedLogDirectory(const Project& p, const std::filesystem::path& chosen);

} // namespace tstudio::project
