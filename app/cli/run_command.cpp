// tstudio run: loads a graph (restoring a checkpoint) or a SavedModel, feeds tensors (JSON or .npy),
// runs fetches, targets or a signature, prints JSON.
#include "cli_command.h"
#include "debug_shell.h"
#include "model_session.h"
#include "tensor_json.h"

#include "io/npy.h"
#include "model/saved_model.h"
#include "runtime/session.h"
#include "project/format/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

namespace tstudio::cli {
namespace {

struct RunArgs : ModelRunArgs {
    std::string outNpy;
    std::string signature;
    DebugArgs debug;
};

std::string npyFileName(const std::string& tensorName)
{
    std::string out;
    for (char c : tensorName)
        out += (c == '/' || c == ':') ? '_' : c;
    return out + ".npy";
}

int fail(const Status& s)
{
    std::fprintf(stderr, "tstudio run: %s\n", s.toString().c_str());
    return kExitFailure;
}

/// Prints {"fetches": {name: tensor}} and writes the .npy files asked for.
int report(const RunArgs& args, const std::vector<std::pair<std::string, Tensor>>& results)
{
    nlohmann::json result;
    result["fetches"] = nlohmann::json::object();
    for (const auto& [name, tensor] : results) {
        result["fetches"][name] = tensorToJson(tensor);
        if (!args.outNpy.empty()) {
            std::error_code ec;
            std::filesystem::create_directories(args.outNpy, ec);
            const auto path = std::filesystem::path(args.outNpy) / npyFileName(name);
            if (Status s = writeNpy(path, tensor); !s.isOk())
                return fail(s);
        }
    }
    std::cout << jsonText(result) << std::endl;
    return kExitOk;
}

/// Runs a signature of the SavedModel: --feed names its input keys, --fetch picks output keys.
int runSignature(const RunArgs& args, SavedModelBundle& bundle)
{
    if (!args.targets.empty())
        return fail(invalidArgumentError("--target does not apply with --signature: a signature runs its outputs"));
    auto signature = bundle.signature(args.signature);
    if (!signature)
        return fail(signature.error());
    CpuAllocator feedAllocator;
    std::map<std::string, Tensor> inputs;
    for (const std::string& spec : args.feeds) {
        auto feed = parseFeed(
            spec,
            [&](const std::string& key) -> Expected<FeedTarget> {
                for (const SignatureTensor& t : signature->inputs) {
                    if (t.key == key && t.sparse)
                        return FeedTarget{t.dtype, std::array<std::string, 3>{
                                                       key + std::string(saved_model::kSparseIndicesSuffix),
                                                       key + std::string(saved_model::kSparseValuesSuffix),
                                                       key + std::string(saved_model::kSparseDenseShapeSuffix)}};
                    if (t.key == key)
                        return FeedTarget{t.dtype, std::nullopt};
                }
                std::string keys;
                for (const SignatureTensor& t : signature->inputs)
                    keys += (keys.empty() ? "" : ", ") + t.key;
                return unexpected(invalidArgumentError("signature '" + args.signature + "' has no input '" + key +
                                                       "'; its inputs: " + keys));
            },
            feedAllocator);
        if (!feed)
            return fail(feed.error());
        for (auto& part : *feed)
            inputs.insert(std::move(part));
    }
    auto outputs = bundle.runSignature(args.signature, inputs);
    if (!outputs)
        return fail(outputs.error());
    std::vector<std::pair<std::string, Tensor>> results;
    if (args.fetches.empty()) {
        for (const auto& [key, tensor] : *outputs)
            results.emplace_back(key, tensor);
    } else {
        for (const std::string& key : args.fetches) {
            const auto it = outputs->find(key);
            if (it == outputs->end())
                return fail(invalidArgumentError("--fetch " + key + ": signature '" + args.signature +
                                                 "' has no output of that key"));
            results.emplace_back(key, it->second);
        }
    }
    return report(args, results);
}

int runCommand(const RunArgs& args)
{
    if (args.fetches.empty() && args.targets.empty() && args.signature.empty())
        return fail(invalidArgumentError("nothing to run: give at least one --fetch, --target or --signature"));
    auto model = openModelSession(args, /*parseFeeds=*/args.signature.empty());
    if (!model)
        return fail(model.error());
    if (!args.signature.empty()) {
        if (!(*model)->bundle())
            return fail(invalidArgumentError("--signature needs a SavedModel; '" + args.model + "' is a " +
                                             std::string(fileKindDescription((*model)->kind()))));
        return runSignature(args, *(*model)->bundle());
    }
    std::vector<Tensor> outputs;
    auto runOnce = [&](ExecutionObserver* observer) {
        return (*model)->session().run(tensorflow::RunOptions(), (*model)->feeds(), args.fetches, args.targets, &outputs,
                                       nullptr, observer);
    };
    if (!args.debug.breaks.empty()) {
        // The debugger's prompt opens at the first breakpoint hit; exit there ends without results.
        bool ran = false;
        Status s = runUnderDebugger((*model)->graph(), args.debug, /*startPaused=*/false,
                                    [&](DebugController& controller) {
                                        Status r = runOnce(&controller);
                                        ran = r.isOk();
                                        return r;
                                    },
                                    [] {});
        if (!s.isOk())
            return fail(s);
        if (!ran)
            return kExitFailure;
    } else if (Status s = runOnce(nullptr); !s.isOk()) {
        return fail(s);
    }
    std::vector<std::pair<std::string, Tensor>> results;
    for (std::size_t i = 0; i < args.fetches.size(); ++i)
        results.emplace_back(args.fetches[i], outputs[i]);
    return report(args, results);
}

} // namespace

void addRunCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand(
        "run", "Run a graph (.pb, .pbtxt, .meta) or a SavedModel: feed tensors, fetch results as JSON");
    auto args = std::make_shared<RunArgs>();
    addModelRunOptions(*cmd, *args);
    cmd->add_option("--signature", args->signature,
                    "SavedModel: run this signature (e.g. serving_default); --feed names its input keys, "
                    "--fetch picks output keys (default: all)");
    cmd->add_option("--out-npy", args->outNpy, "Also write each fetched tensor to DIR/<name>.npy");
    addDebugOptions(*cmd, args->debug);
    cmd->callback([args, &exitCode] { exitCode = runCommand(*args); });
}

} // namespace tstudio::cli
