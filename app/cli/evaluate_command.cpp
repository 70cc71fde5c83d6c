// tstudio evaluate: one evaluation of a project's checkpoint with the metrics of its eval section.
#include "cli_command.h"
#include "eval_result_json.h"

#include "project_argument.h"
#include "project/run/project_evaluate.h"
#include "project/format/project_file.h"
#include "registries/default_registries.h"
#include "project/format/json_text.h"
#include "project/format/setting_advice.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>

namespace tstudio::cli {
namespace {

struct EvaluateArgs {
    std::string project;
    std::string checkpoint;
    std::string logdir;
    std::vector<std::string> sets;
    std::string mnistDir;
    bool json = false;
    bool writeSummary = false;
    int threads = 0;
};

int evaluate(const EvaluateArgs& args)
{
    auto fail = [](const Status& s) {
        std::fprintf(stderr, "tstudio evaluate: %s\n", project::withCliAdvice(s).toString().c_str());
        return static_cast<int>(kExitFailure);
    };
    std::vector<project::Override> overrides;
    if (!args.mnistDir.empty())
        overrides.push_back({"data.dir", nlohmann::json(args.mnistDir).dump()});
    auto loaded = loadProjectArgument(projectPath(args.project), args.sets, overrides);
    if (!loaded)
        return fail(loaded.error());
    auto registries = makeDefaultRegistries();
    if (!registries)
        return fail(registries.error());
    project::EvaluateOptions options;
    options.checkpoint = args.checkpoint;
    if (!args.logdir.empty())
        options.logdir = args.logdir;
    options.writeSummary = args.writeSummary;
    options.threads = args.threads;
    auto result = project::evaluateProject(*loaded, **registries, options);
    if (!result) {
        // No checkpoint found: the project layer says where it looked, the remedy is this tool's.
        const auto checkpoint = project::evaluationCheckpoint(*loaded, options);
        if (!checkpoint && checkpoint.error().message() == result.error().message())
            return fail(
                Status(result.error().code(),
                       result.error().message() + (args.checkpoint.empty()
                                                       ? "; train first (tstudio train), or pass --checkpoint PREFIX"
                                                       : "; pass a checkpoint prefix to --checkpoint")));
        return fail(result.error());
    }
    if (args.json) {
        std::printf("%s\n", jsonText(evalResultJson(*result), 2).c_str());
        return kExitOk;
    }
    std::printf("checkpoint %s (global step %lld), %lld batches, %lld examples\n",
                std::filesystem::path(result->checkpoint).filename().string().c_str(),
                static_cast<long long>(result->step), static_cast<long long>(result->batches),
                static_cast<long long>(result->examples));
    for (const auto& [name, value] : result->metrics)
        std::printf("  %-24s %.6g\n", name.c_str(), value);
    return kExitOk;
}

} // namespace

void addEvaluateCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand("evaluate", "Evaluate a project's checkpoint with the metrics and eval sources of "
                                               "its \"eval\" section (evaluation mode: batch norm's moving statistics, "
                                               "no dropout)");
    auto args = std::make_shared<EvaluateArgs>();
    cmd->add_option("PROJECT", args->project, "a .tsproj file")->required();
    cmd->add_option("--checkpoint", args->checkpoint,
                    "a checkpoint prefix or a directory (its latest; default: the log directory's latest)");
    cmd->add_option("--logdir", args->logdir, "log directory (default: the project's logdir, relative to the .tsproj)");
    cmd->add_option("--set", args->sets, "KEY=VALUE: overrides a project setting (repeatable)");
    cmd->add_option("--mnist", args->mnistDir, "the same as --set data.dir=DIR");
    cmd->add_flag("--json", args->json, "print the result as JSON");
    cmd->add_flag("--write-summary", args->writeSummary,
                  "also write the metrics to <logdir>/eval at the checkpoint's step, as training does");
    cmd->add_option("--threads", args->threads, "intra-op threads (0 = one per core this process may run on)")->capture_default_str();
    cmd->callback([args, &exitCode] { exitCode = evaluate(*args); });
}

} // namespace tstudio::cli
