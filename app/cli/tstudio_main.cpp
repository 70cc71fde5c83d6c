// tstudio: the command-line tool. One engine with the GUI; no Qt.
#include "cli_command.h"
#include "cli_examples.h"
#include "cli_reference.h"

#include "core/build_info.h"
#include "devices/component_versions.h"
#include "core/bytes_text.h"

#include <cstdio>
#include <exception>
#include <string>

namespace {

std::string versionText()
{
    std::string text = "tstudio " + std::string(tstudio::engineVersion());
    for (const auto& c : tstudio::engineComponentVersions())
        text += "\n  " + c.name + " " + c.version + (c.origin.empty() ? "" : " (" + c.origin + ")");
    return text;
}

/// The command line as typed (each argument as UTF-8 or a bytes literal), for error reports.
std::string commandLine(int argc, char** argv)
{
    std::string text;
    for (int i = 0; i < argc; ++i) {
        if (i > 0)
            text += ' ';
        text += tstudio::utf8OrBytesLiteral(argv[i]);
    }
    return text;
}

/// Every subcommand, each with its examples after its --help text.
void buildApp(CLI::App& app, int& exitCode)
{
    app.description("tstudio: TensorStudio's command-line tool for TensorFlow 1.x graphs, checkpoints and event files");
    app.set_version_flag("--version", versionText);
    app.require_subcommand(1);
    tstudio::cli::addInspectCommand(app, exitCode);
    tstudio::cli::addRunCommand(app, exitCode);
    tstudio::cli::addBenchCommand(app, exitCode);
    tstudio::cli::addDevicesCommand(app, exitCode);
    tstudio::cli::addFreezeCommand(app, exitCode);
    tstudio::cli::addConvertCheckpointCommand(app, exitCode);
    tstudio::cli::addExportCommand(app, exitCode);
    tstudio::cli::addTrainCommand(app, exitCode);
    tstudio::cli::addHostfileCommand(app, exitCode);
    tstudio::cli::addEvaluateCommand(app, exitCode);
    tstudio::cli::addProfileCommand(app, exitCode);
    tstudio::cli::addDebugCommand(app, exitCode);
    tstudio::cli::addDiffCommand(app, exitCode);
    tstudio::cli::addEventsCommand(app, exitCode);
    tstudio::cli::addDataCommand(app, exitCode);
    tstudio::cli::addReferenceCommands(app, exitCode, buildApp, "tstudio " + std::string(tstudio::engineVersion()));
    for (const std::string& path : tstudio::cli::subcommandPaths(app)) {
        CLI::App* sub = &app;
        std::string rest = path;
        while (sub && !rest.empty()) {
            const auto space = rest.find(' ');
            const std::string name = rest.substr(0, space);
            const auto found = sub->get_subcommands([&name](CLI::App* a) { return a->get_name() == name; });
            sub = found.empty() ? nullptr : found.front();
            rest = space == std::string::npos ? "" : rest.substr(space + 1);
        }
        if (const auto* examples = tstudio::cli::examplesFor(path); sub && examples)
            sub->footer(tstudio::cli::examplesFooter(*examples));
    }
}

} // namespace

int main(int argc, char** argv)
{
    CLI::App app;
    int exitCode = tstudio::cli::kExitOk;
    buildApp(app, exitCode);
    // The top-level guard: no exception may end the process unreported. Commands report errors as
    // Status; an exception that gets here is a bug, reported with the command line (which names
    // the file) so it can be reproduced.
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // CLI11 prints the problem (or the help or version asked for); every wrong command line exits
        // with the one usage code the manual documents, not CLI11's own numbers (105, 106, ...).
        return app.exit(e) == 0 ? tstudio::cli::kExitOk : tstudio::cli::kExitUsage;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tstudio: internal error: %s\n  while running: %s\n  please report it with the file named there\n",
                     tstudio::utf8OrBytesLiteral(e.what()).c_str(), commandLine(argc, argv).c_str());
        return tstudio::cli::kExitInternal;
    } catch (...) {
        std::fprintf(stderr, "tstudio: internal error: an unknown exception\n  while running: %s\n",
                     commandLine(argc, argv).c_str());
        return tstudio::cli::kExitInternal;
    }
    return exitCode;
}
