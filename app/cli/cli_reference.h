// The reference made from tstudio's own command-line definitions (CLI11), so that it never drifts
// from them: the man page (`tstudio man`, installed as tstudio(1)) and the bash and zsh completions
// (`tstudio completion bash|zsh`, installed where bash-completion and zsh look for them).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace tstudio::cli {

/// Registers every subcommand on `app` (tstudio's main does this; the reference commands do it again
/// on a fresh app to check the examples without running anything).
using AppBuilder = std::function<void(CLI::App& app, int& exitCode)>;

/// The man page (man(7) macros, for groff) of `app` and each of its subcommands: synopsis, options
/// with their value kinds, choices and defaults, the examples of cli_examples.h, exit status,
/// environment.
std::string manPage(const CLI::App& app, const std::string& version);
/// A bash completion script: subcommands, their options, the choices an option or argument accepts,
/// and the file kinds each argument wants.
std::string bashCompletion(const CLI::App& app);
/// The same for zsh (a #compdef function for a directory on $fpath).
std::string zshCompletion(const CLI::App& app);

/// Parses every example of cli_examples.h against a fresh app made by `build`, with the
/// subcommands' callbacks removed (nothing runs). One line per example that does not parse, and
/// per subcommand without examples; empty when all is well.
std::vector<std::string> checkExamples(const AppBuilder& build);

/// The subcommands below `app` (nested ones too) as paths: "inspect", ..., "data make-tfrecord".
std::vector<std::string> subcommandPaths(const CLI::App& app);

/// Adds `tstudio man` and `tstudio completion bash|zsh`; `build` makes the app that `man` checks
/// the examples against.
void addReferenceCommands(CLI::App& app, int& exitCode, AppBuilder build, std::string version);

} // namespace tstudio::cli
