// The PROJECT argument of `tstudio train` and `tstudio profile`: a .tsproj path or a shipped example's name.
#pragma once

#include <filesystem>
#include <string>

namespace tstudio::cli {

/// The example projects shipped in examples/projects/, by name.
inline constexpr const char* kExampleProjectNames[] = {"spirals", "book-mnist", "lenet"};

/// `argument` as given when it exists, else the shipped example of that name: looked up in
/// $TSTUDIO_EXAMPLES_DIR, then in the source tree this program was built from.
std::filesystem::path projectPath(const std::string& argument);

} // namespace tstudio::cli
