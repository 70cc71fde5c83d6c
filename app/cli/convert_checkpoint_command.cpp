// tstudio convert-checkpoint: a legacy V1 checkpoint (or a V2 one) rewritten as a V2 bundle.
#include "checkpoint_argument.h"
#include "cli_command.h"

#include "io/checkpoint/checkpoint_convert.h"

#include "project/format/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>

namespace tstudio::cli {
namespace {

struct ConvertArgs {
    std::string source;
    std::string destination;
    bool json = false;
};

int convert(const ConvertArgs& args)
{
    auto fail = [](const Status& s) {
        std::fprintf(stderr, "tstudio convert-checkpoint: %s\n", s.toString().c_str());
        return static_cast<int>(kExitFailure);
    };
    auto source = resolveCheckpointArgument(args.source);
    if (!source)
        return fail(source.error());
    std::string destination = args.destination;
    if (destination.ends_with(".index"))
        destination.resize(destination.size() - std::string(".index").size());
    auto done = convertCheckpointToV2(*source, destination);
    if (!done)
        return fail(done.error());
    if (args.json) {
        // Schema (docs/cli-json.md): source, source_format, destination, tensors, bytes, partitioned.
        const nlohmann::json out = {{"source", *source},           {"source_format", done->sourceFormat},
                                    {"destination", destination},  {"tensors", done->tensors},
                                    {"bytes", done->bytes},        {"partitioned", done->partitioned}};
        std::printf("%s\n", jsonText(out, 2).c_str());
        return kExitOk;
    }
    std::printf("Wrote %lld tensors (%lld bytes of data) from the %s checkpoint %s to the V2 checkpoint %s "
                "(%s.index, %s.data-00000-of-00001)\n",
                static_cast<long long>(done->tensors), static_cast<long long>(done->bytes),
                done->sourceFormat.c_str(), source->c_str(), destination.c_str(), destination.c_str(),
                destination.c_str());
    if (done->partitioned > 0)
        std::printf("%lld partitioned tensors were written whole; a saver restoring them by slice still reads them\n",
                    static_cast<long long>(done->partitioned));
    return kExitOk;
}

} // namespace

void addConvertCheckpointCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand(
        "convert-checkpoint",
        "Rewrite a checkpoint as a V2 bundle (PREFIX.index + PREFIX.data-00000-of-00001) with the same tensors "
        "and values: a legacy V1 checkpoint (Saver(write_version=V1), TensorFlow 0.x-1.x) or a V2 one");
    auto args = std::make_shared<ConvertArgs>();
    cmd->add_option("SOURCE", args->source,
                    "the checkpoint: a V1 file (model.ckpt), a V2 prefix or its .index, or a directory (its latest)")
        ->required();
    cmd->add_option("DESTINATION", args->destination, "the V2 prefix to write (e.g. converted/model.ckpt)")->required();
    cmd->add_flag("--json", args->json, "print what was written as JSON (docs/cli-json.md)");
    cmd->callback([args, &exitCode] { exitCode = convert(*args); });
}

} // namespace tstudio::cli
