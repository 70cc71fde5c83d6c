// tstudio export: a trained project written for serving, as a SavedModel (serving_default signature)
// and/or a frozen GraphDef, in evaluation mode, from a checkpoint of its log directory.
#include "cli_command.h"
#include "project/format/json_text.h"
#include "name_list.h"

#include "project_argument.h"
#include "project/export/project_export.h"
#include "project/format/project_file.h"
#include "registries/default_registries.h"
#include "project/format/setting_advice.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <filesystem>
#include <memory>

namespace tstudio::cli {
namespace {

struct ExportArgs {
    std::string project;
    std::string checkpoint;
    std::string logdir;
    std::string savedModel;
    std::string frozen;
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    bool movingAverage = false;
    std::string signature = "serving_default";
    std::vector<std::string> sets;
    bool json = false;
};

int fail(const Status& s)
{
    std::fprintf(stderr, "tstudio export: %s\n", project::withCliAdvice(s).toString().c_str());
    return kExitFailure;
}

std::string listed(const std::vector<std::string>& names, const std::vector<std::string>& keys)
{
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (out.empty() ? "" : ", ") + names[i] + (i < keys.size() ? " (key " + keys[i] + ")" : std::string());
    return out.empty() ? std::string("none") : out;
}

int exportCommand(const ExportArgs& args)
{
    auto loaded = loadProjectArgument(projectPath(args.project), args.sets);
    if (!loaded)
        return fail(loaded.error());
    auto registries = makeDefaultRegistries();
    if (!registries)
        return fail(registries.error());

    // The project's "export" section, then the command line (its paths relative to the current directory).
    project::ExportOptions options = project::exportOptionsOf(*loaded);
    if (!args.savedModel.empty() || !args.frozen.empty()) {
        options.savedModelDir = args.savedModel.empty() ? std::filesystem::path()
                                                        : std::filesystem::absolute(args.savedModel);
        options.frozenGraphPath = args.frozen.empty() ? std::filesystem::path() : std::filesystem::absolute(args.frozen);
    }
    if (!args.inputs.empty())
        options.inputs = splitNames(args.inputs);
    if (!args.outputs.empty())
        options.outputs = splitNames(args.outputs);
    if (args.movingAverage)
        options.movingAverage = true;
    options.checkpoint = args.checkpoint;
    if (!args.logdir.empty())
        options.logdir = args.logdir;
    options.signatureKey = args.signature;

    auto result = project::exportProject(*loaded, **registries, options);
    if (!result)
        return fail(result.error());
    if (args.json) {
        // Schema (docs/cli-json.md): project, checkpoint, inputs and outputs (tensor and signature key),
        // variables, averaged, learning_phase_fixed, saved_model {path, nodes, signature, tags} and
        // frozen_graph {path, nodes} (each null when not written).
        auto named = [](const std::vector<std::string>& names, const std::vector<std::string>& keys) {
            nlohmann::json list = nlohmann::json::array();
            for (std::size_t i = 0; i < names.size(); ++i)
                list.push_back({{"tensor", names[i]}, {"key", i < keys.size() ? nlohmann::json(keys[i]) : nlohmann::json()}});
            return list;
        };
        nlohmann::json out = {{"project", loaded->name},
                              {"checkpoint", result->checkpoint},
                              {"inputs", named(result->inputs, result->inputKeys)},
                              {"outputs", named(result->outputs, result->outputKeys)},
                              {"variables", result->variables.size()},
                              {"averaged", result->averaged.size()},
                              {"learning_phase_fixed", result->learningPhaseFixed},
                              {"saved_model", nullptr},
                              {"frozen_graph", nullptr}};
        if (!result->savedModelDir.empty())
            out["saved_model"] = {{"path", result->savedModelDir.string()},
                                  {"nodes", result->savedModelNodes},
                                  {"signature", options.signatureKey},
                                  {"tags", {"serve"}}};
        if (!result->frozenGraphPath.empty())
            out["frozen_graph"] = {{"path", result->frozenGraphPath.string()}, {"nodes", result->frozenNodes}};
        std::printf("%s\n", jsonText(out, 2).c_str());
        return kExitOk;
    }
    std::printf("exported '%s' from checkpoint %s\n", loaded->name.c_str(), result->checkpoint.c_str());
    std::printf("  inputs:  %s\n", listed(result->inputs, result->inputKeys).c_str());
    std::printf("  outputs: %s\n", listed(result->outputs, result->outputKeys).c_str());
    std::printf("  variables: %zu%s\n", result->variables.size(),
                options.movingAverage ? (", " + std::to_string(result->averaged.size()) + " from their moving average")
                                            .c_str()
                                      : "");
    if (result->learningPhaseFixed)
        std::printf("  learning phase: the constant false (evaluation mode)\n");
    if (!result->savedModelDir.empty())
        std::printf("wrote SavedModel %s (%d nodes, signature '%s', tags serve)\n", result->savedModelDir.string().c_str(),
                    result->savedModelNodes, options.signatureKey.c_str());
    if (!result->frozenGraphPath.empty())
        std::printf("wrote frozen graph %s (%d nodes)\n", result->frozenGraphPath.string().c_str(), result->frozenNodes);
    return kExitOk;
}

} // namespace

void addExportCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand(
        "export", "Export a trained project for serving: a SavedModel with a predict signature and/or a frozen "
                  "GraphDef pruned to the outputs, in evaluation mode (the learning phase the constant false), with "
                  "the values of a checkpoint (default: the latest of the project's log directory). The options "
                  "replace the project's \"export\" section; errors name its keys (--outputs is export.outputs)");
    auto args = std::make_shared<ExportArgs>();
    cmd->add_option("PROJECT", args->project, "a .tsproj file, or spirals, book-mnist, lenet, mnist-notes")->required();
    cmd->add_option("--checkpoint", args->checkpoint,
                    "checkpoint prefix, its .index file, or a directory (its latest checkpoint); default: the latest "
                    "of the log directory");
    cmd->add_option("--logdir", args->logdir, "the log directory to take the latest checkpoint from (default: the "
                                              "project's logdir, relative to the .tsproj)");
    cmd->add_option("--saved-model", args->savedModel, "the SavedModel directory to write (must not exist or be empty)");
    cmd->add_option("--frozen", args->frozen, "the frozen binary GraphDef to write (e.g. frozen.pb)");
    cmd->add_option("--inputs", args->inputs,
                    "the signature's inputs: placeholders, comma-separated (default: those a data source feeds that "
                    "the outputs need)");
    cmd->add_option("--outputs", args->outputs, "the tensors to export, comma-separated (e.g. logits:0)");
    cmd->add_flag("--moving-average", args->movingAverage,
                  "use each variable's ExponentialMovingAverage value from the checkpoint");
    cmd->add_option("--signature", args->signature, "the SavedModel signature's key")->capture_default_str();
    cmd->add_option("--set", args->sets, "KEY=VALUE: overrides a project setting, e.g. --set export.moving_average=true "
                                         "(repeatable)");
    cmd->add_flag("--json", args->json, "print what was exported as JSON (docs/cli-json.md)");
    cmd->callback([args, &exitCode] { exitCode = exportCommand(*args); });
}

} // namespace tstudio::cli
