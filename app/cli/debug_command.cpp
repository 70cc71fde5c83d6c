// tstudio debug: the terminal debugger over a model's session runs or a project's training steps.
#include "cli_command.h"

#include "debug_shell.h"
#include "io/file_kind_detector.h"
#include "model_session.h"
#include "project_argument.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "project/format/setting_advice.h"

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace tstudio::cli {
namespace {

struct DebugCommandArgs : ModelRunArgs {
    DebugArgs debug;
    std::vector<std::string> sets;
    std::string logdir;
    std::optional<std::int64_t> steps;
};

int fail(const Status& s)
{
    std::fprintf(stderr, "tstudio debug: %s\n", project::withCliAdvice(s).toString().c_str());
    return kExitFailure;
}

/// Session runs of the model's fetches and targets, one after another, until stopped: each `run`
/// or `continue` of the shell takes the next.
int debugModel(const DebugCommandArgs& args, const FileKindReport& report)
{
    if (args.fetches.empty() && args.targets.empty())
        return fail(invalidArgumentError("nothing to run: give at least one --fetch or --target"));
    auto model = openModelSession(args, true, &report);
    if (!model)
        return fail(model.error());
    std::atomic<bool> stop{false};
    Status s = runUnderDebugger(
        (*model)->graph(), args.debug, /*startPaused=*/true,
        [&](DebugController& controller) {
            std::vector<Tensor> outputs;
            while (!stop.load()) {
                Status run = (*model)->session().run(tensorflow::RunOptions(), (*model)->feeds(), args.fetches,
                                                     args.targets, &outputs, nullptr, &controller);
                if (!run.isOk() && run.code() != StatusCode::kCancelled)
                    std::printf("Session run failed: %s\n", run.toString().c_str());
                if (run.code() == StatusCode::kCancelled)
                    return run;
            }
            return Status::ok();
        },
        [&] { stop.store(true); });
    return s.isOk() ? kExitOk : fail(s);
}

/// The project's training steps, one session run each, in a log directory (a temporary one unless
/// --logdir): exit stops without writing a checkpoint of the step it interrupts.
int debugProject(const DebugCommandArgs& args, const std::filesystem::path& path)
{
    auto loaded = loadProjectArgument(path, args.sets);
    if (!loaded)
        return fail(loaded.error());
    DebugArgs debug = args.debug; // the project's saved breakpoints and watches first
    debug.saved = loaded->debugger.breakpoints;
    debug.watch.insert(debug.watch.begin(), loaded->debugger.watch.begin(), loaded->debugger.watch.end());
    auto graph = project::readProjectGraph(*loaded);
    if (!graph)
        return fail(graph.error());
    auto registries = makeDefaultRegistries();
    if (!registries)
        return fail(registries.error());
    std::filesystem::path logdir = args.logdir;
    const bool temporary = logdir.empty();
    if (temporary) {
        auto dir = temporaryLogDirectory("debug");
        if (!dir)
            return fail(dir.error());
        logdir = *dir;
    }
    std::atomic<bool> stop{false};
    Status s = runUnderDebugger(
        *graph, debug, /*startPaused=*/true,
        [&](DebugController& controller) -> Status {
            project::TrainRunOptions options;
            options.logdir = logdir;
            options.steps = args.steps;
            options.observer = &controller;
            options.stopRequested = &stop;
            auto result = project::trainProject(*loaded, **registries, options);
            if (!result)
                return result.error();
            std::printf("Training ended at global step %lld%s.\n", static_cast<long long>(result->lastStep),
                        result->stoppedMidStep ? " (the interrupted step was not saved)" : "");
            return Status::ok();
        },
        [&] { stop.store(true); });
    if (temporary) {
        std::error_code ec;
        std::filesystem::remove_all(logdir, ec);
    }
    return s.isOk() ? kExitOk : fail(s);
}

int debugCommand(const DebugCommandArgs& args)
{
    const std::filesystem::path path = projectPath(args.model);
    auto report = detectFileKind(path);
    if (!report)
        return fail(report.error());
    if (report->kind == FileKind::kProject)
        return debugProject(args, path);
    return debugModel(args, *report);
}

} // namespace

void addDebugCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand(
        "debug",
        "Debug session runs in the terminal, as tfdbg: a model (.pb, .pbtxt, .meta, SavedModel) run with "
        "--feed/--fetch/--target as tstudio run, or a project's training steps (.tsproj, or spirals, book-mnist, "
        "lenet). Commands come from the terminal (readline) or, for scripts, from standard input; type 'help'");
    auto args = std::make_shared<DebugCommandArgs>();
    addModelRunOptions(*cmd, *args);
    addDebugOptions(*cmd, args->debug);
    cmd->add_option("--set", args->sets, "project: KEY=VALUE overrides a project setting, e.g. --set data.dir=DIR");
    cmd->add_option("--logdir", args->logdir, "project: train in this log directory (default: a temporary one, removed)");
    cmd->add_option("--steps", args->steps, "project: the global step to stop at");
    cmd->callback([args, &exitCode] { exitCode = debugCommand(*args); });
}

} // namespace tstudio::cli
