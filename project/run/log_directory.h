// Where a project's training run writes by default: the project's own log folder when it can be
// written, else a folder under the user's data folder (read-only installs, unsaved graphs).
#pragma once

#include "project/format/project_file.h"

#include <filesystem>
#include <string>

namespace tstudio::project {

/// True when files can be made in `folder`, or, when it does not exist yet, in its nearest
/// existing ancestor. A folder whose permission bits grant nobody write access counts as not
/// writable even for a user (root) whom the system would let write there: an installation marked
/// read-only is not written into.
bool isWritableFolder(const std::filesystem::path& folder);

/// The log directory a run of `p` uses when the user has not chosen one, absolute and normalised:
///  - an absolute p.logdir (one the user chose): itself;
///  - a project with a file (p.location): p.logdir resolved against the file's folder, unless that
///    cannot be written (isWritableFolder): then <userData>/runs/<stem of the .tsproj>;
///  - a project without a file (a new graph): <userData>/runs/<untitled> (untitledRunName's name).
/// Reads only the file system's permissions; creates nothing.
std::filesystem::path defaultLogDirectory(const Project& p, const std::filesystem::path& userData,
                                          const std::string& untitled);

/// "untitled-N" for the smallest N >= first whose folder <userData>/runs/untitled-N does not exist,
/// so that a new graph never starts in an earlier session's run; `first` lets a caller keep the
/// numbers of one session unique (pass one more than the last number it handed out). N is stored
/// in `number`.
std::string untitledRunName(const std::filesystem::path& userData, int first, int* number = nullptr);

// How the project file keeps a log directory the user chose: project_relocation.h's
// storedLogDirectory.

} // namespace tstudio::project
