// tstudio freeze: a graph and a checkpoint in, a frozen binary GraphDef out (TensorFlow's freeze_graph).
#include "checkpoint_argument.h"
#include "cli_command.h"
#include "name_list.h"

#include "io/formats/graph_def_io.h"
#include "io/formats/graph_file.h"
#include "model/freeze.h"

#include "project/format/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>

namespace tstudio::cli {
namespace {

struct FreezeArgs {
    std::string model;
    std::string checkpoint;
    std::vector<std::string> outputs;
    std::string output;
    bool keepDevices = false;
    std::vector<std::string> onlyVariables;
    std::vector<std::string> skipVariables;
    bool json = false;
};

/// The variables prefix inside a SavedModel directory (or beside its saved_model.pb).
std::string savedModelVariables(const std::string& model)
{
    std::filesystem::path dir(model);
    if (!std::filesystem::is_directory(dir))
        dir = dir.parent_path();
    return (dir / "variables" / "variables").string();
}

int freezeCommand(const FreezeArgs& args)
{
    auto fail = [](const Status& s) {
        std::fprintf(stderr, "tstudio freeze: %s\n", s.toString().c_str());
        return static_cast<int>(kExitFailure);
    };
    const std::vector<std::string> outputs = splitNames(args.outputs);
    if (outputs.empty())
        return fail(invalidArgumentError("--outputs names no node: give the output node names, e.g. --outputs pred"));
    auto file = readGraphFromFile(args.model);
    if (!file)
        return fail(file.error());
    std::string prefix;
    if (!args.checkpoint.empty()) {
        auto resolved = resolveCheckpointArgument(args.checkpoint);
        if (!resolved)
            return fail(resolved.error());
        prefix = *resolved;
    } else if (file->kind == FileKind::kSavedModel) {
        prefix = savedModelVariables(args.model);
    } else {
        return fail(invalidArgumentError("--checkpoint is required for '" + args.model +
                                         "' (a checkpoint prefix, its .index file or its directory)"));
    }
    FreezeOptions options;
    options.clearDevices = !args.keepDevices;
    if (!args.onlyVariables.empty()) {
        const auto only = splitNames(args.onlyVariables);
        options.variableAllowlist = std::set<std::string>(only.begin(), only.end());
    }
    for (const std::string& name : splitNames(args.skipVariables))
        options.variableBlocklist.insert(name);

    const int nodesBefore = file->graph.node_size();
    auto frozen = freezeGraph(file->graph, prefix, outputs, options);
    if (!frozen)
        return fail(frozen.error());
    if (Status s = writeGraphDef(args.output, frozen->graph, GraphDefFormat::kBinary); !s.isOk())
        return fail(s);
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(args.output, ec);
    if (args.json) {
        // Schema (docs/cli-json.md): checkpoint, output, nodes, nodes_before, bytes, frozen_variables.
        const nlohmann::json out = {{"checkpoint", prefix},
                                    {"output", args.output},
                                    {"nodes", frozen->graph.node_size()},
                                    {"nodes_before", nodesBefore},
                                    {"bytes", ec ? 0 : static_cast<std::uint64_t>(bytes)},
                                    {"frozen_variables", frozen->frozenVariables}};
        std::printf("%s\n", jsonText(out, 2).c_str());
        return kExitOk;
    }
    std::printf("Froze %zu variables from %s\n", frozen->frozenVariables.size(), prefix.c_str());
    for (const std::string& name : frozen->frozenVariables)
        std::printf("  %s\n", name.c_str());
    std::printf("Wrote %s: %d nodes (of %d), %llu bytes\n", args.output.c_str(), frozen->graph.node_size(), nodesBefore,
                static_cast<unsigned long long>(ec ? 0 : bytes));
    return kExitOk;
}

} // namespace

void addFreezeCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand(
        "freeze", "Freeze a graph: keep what the outputs need, turn its variables into constants holding a "
                  "checkpoint's values, write a binary GraphDef (TensorFlow's freeze_graph)");
    auto args = std::make_shared<FreezeArgs>();
    cmd->add_option("MODEL", args->model, "MetaGraphDef (.meta), GraphDef (.pb, .pbtxt) or SavedModel directory")
        ->required();
    cmd->add_option("--checkpoint", args->checkpoint,
                    "Checkpoint prefix, its .index file, or a directory (its latest checkpoint); "
                    "default for a SavedModel: its variables/variables");
    cmd->add_option("--outputs", args->outputs, "Output node names, comma-separated (e.g. pred or logits,probs)")
        ->required();
    cmd->add_option("-o,--output", args->output, "The frozen GraphDef to write (binary, e.g. frozen.pb)")->required();
    cmd->add_flag("--keep-devices", args->keepDevices,
                  "Keep the nodes' device fields (freeze_graph clears them by default)");
    cmd->add_option("--only-variables", args->onlyVariables,
                    "Freeze only these variables, comma-separated (variable_names_whitelist)");
    cmd->add_option("--skip-variables", args->skipVariables,
                    "Leave these variables as variables, comma-separated (variable_names_blacklist)");
    cmd->add_flag("--json", args->json, "print what was written as JSON (docs/cli-json.md)");
    cmd->callback([args, &exitCode] { exitCode = freezeCommand(*args); });
}

} // namespace tstudio::cli
