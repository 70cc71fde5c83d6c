// The PROJECT argument of `tstudio train` and `tstudio profile`: a .tsproj path or a shipped example's name.
#pragma once

#include "core/expected.h"
#include "project/format/project_file.h"

#include <filesystem>
#include <string>
#include <vector>

namespace tstudio::cli {

/// The example projects shipped in examples/projects/, by name.
inline constexpr const char* kExampleProjectNames[] = {"spirals",     "book-mnist", "lenet",
                                                       "mnist-notes", "ptb-small",  "word2vec",
                                                       "seq2seq-reverse"};

/// `argument` as given when it exists, else the shipped example of that name: looked up in
/// $TSTUDIO_EXAMPLES_DIR, then in share/tensorstudio/examples beside the program (installed), then in
/// the source tree this program was built from.
std::filesystem::path projectPath(const std::string& argument);

/// Loads the project at `path` with `sets` ("KEY=VALUE", --set) applied, then `extra` overrides
/// (from a command's own options). Errors name the --set or the file.
Expected<project::Project> loadProjectArgument(const std::filesystem::path& path, const std::vector<std::string>& sets,
                                               std::vector<project::Override> extra = {});

/// A fresh directory under the system's temporary directory ("tstudio-<purpose>-<n>") for a run
/// whose checkpoints are not kept.
Expected<std::filesystem::path> temporaryLogDirectory(const std::string& purpose);

} // namespace tstudio::cli
