// Where this program is, and the install prefix above it: what finds the files installed beside it
// (the GPU plugin in lib/tensorstudio, the example projects in share/tensorstudio/examples).
#pragma once

#include "core/expected.h"

#include <filesystem>
#include <optional>

namespace tstudio {

/// This program's file, read from /proc/self/exe; Internal with the system's reason when it cannot
/// be read.
Expected<std::filesystem::path> programPath();

/// The folder above the program's folder: /usr for /usr/bin/tstudio, build/ for build/app/tstudio
/// (whose lib/tensorstudio holds the GPU plugin as an installed one does); nullopt when programPath
/// fails.
std::optional<std::filesystem::path> installPrefix();

} // namespace tstudio
