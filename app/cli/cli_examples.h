// The examples of each tstudio subcommand: shown after its --help text and in the man page
// (cli_reference.h), and checked against the command line's definitions whenever `tstudio man` writes
// the page (the build does), so an example that no longer parses fails the build.
#pragma once

#include <string>
#include <vector>

namespace tstudio::cli {

struct Example {
    std::string command; ///< as typed in a shell, starting with `tstudio` (or a launcher before it)
    std::string meaning;
};

struct CommandExamples {
    std::string path; ///< the subcommand: "train", or "data make-tfrecord" for a nested one
    std::vector<Example> examples;
};

/// Every subcommand's examples.
const std::vector<CommandExamples>& commandExamples();
/// The examples of the subcommand at `path`, or null.
const CommandExamples* examplesFor(const std::string& path);
/// "Examples:" and the examples, as --help prints them after the options.
std::string examplesFooter(const CommandExamples& examples);

} // namespace tstudio::cli
