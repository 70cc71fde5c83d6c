// The variables a project's training saves, compared with a checkpoint's tensors.
#include "project/run/checkpoint_match.h"

#include "builder/variables.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/checkpoint/checkpoint_state.h"
#include "project/run/training_setup.h"

#include <algorithm>
#include <map>
#include <system_error>

namespace tstudio::project {
namespace {

std::string typed(DataType dtype, const TensorShape& shape)
{
    return dataTypeName(dtype) + " " + shape.toString();
}

} // namespace

Expected<std::vector<SavedVariable>> savedVariables(const Project& project, const OpRegistry& ops)
{
    // The training graph without its data: no source is built (that reads files), and every
    // placeholder is declared fed (as carry_state's are) so that preparation does not stop at the
    // feeds. Towers share their variables and warm start only restores: neither adds any.
    Project bare = project;
    bare.sources.clear();
    bare.eval.reset();
    bare.replicas = 1;
    bare.training.warmStart.reset();
    auto graph = readProjectGraph(project);
    if (!graph)
        return unexpected(graph.error());
    for (const tensorflow::NodeDef& node : graph->node())
        if (node.op() == "Placeholder")
            bare.carryState.push_back(CarryState{node.name(), node.name()});
    auto prepared = prepareTraining(bare, ops);
    if (!prepared)
        return unexpected(prepared.error());
    std::vector<SavedVariable> out;
    for (const Variable& v : globalVariables(*prepared->builder))
        out.push_back(SavedVariable{v.name(), v.dtype(), v.shape()});
    std::sort(out.begin(), out.end(), [](const SavedVariable& a, const SavedVariable& b) { return a.name < b.name; });
    out.erase(std::unique(out.begin(), out.end(),
                          [](const SavedVariable& a, const SavedVariable& b) { return a.name == b.name; }),
              out.end());
    return out;
}

CheckpointMatch matchCheckpoint(const std::vector<SavedVariable>& variables, const CheckpointReader& checkpoint)
{
    CheckpointMatch match;
    match.checkpoint = checkpoint.prefix();
    std::map<std::string, const SavedVariable*> graph;
    for (const SavedVariable& v : variables)
        graph.emplace(v.name, &v);
    std::map<std::string, BundleTensorInfo> stored;
    for (BundleTensorInfo& info : checkpoint.tensors())
        if (!info.name.empty()) // a V2 bundle's header entry has the empty key
            stored.emplace(info.name, std::move(info));
    for (const auto& [name, variable] : graph) {
        const auto it = stored.find(name);
        if (it == stored.end()) {
            match.missing.push_back(name);
            continue;
        }
        const BundleTensorInfo& info = it->second;
        if (info.dtype != variable->dtype || !variable->shape.isCompatibleWith(info.shape))
            match.mismatched.push_back(
                VariableMismatch{name, typed(variable->dtype, variable->shape), typed(info.dtype, info.shape)});
    }
    for (const auto& [name, info] : stored)
        if (!graph.count(name))
            match.unexpected.push_back(name);
    return match;
}

Expected<std::optional<CheckpointMatch>> matchLatestCheckpoint(const Project& project, const OpRegistry& ops,
                                                               const std::filesystem::path& logdir)
{
    std::error_code ec;
    if (!std::filesystem::exists(logdir / kCheckpointStateFileName, ec))
        return std::optional<CheckpointMatch>();
    auto latest = latestCheckpoint(logdir);
    if (!latest)
        return std::optional<CheckpointMatch>();
    auto reader = CheckpointReader::open(latest->string());
    if (!reader)
        return unexpected(reader.error());
    auto variables = savedVariables(project, ops);
    if (!variables)
        return unexpected(variables.error());
    return std::optional<CheckpointMatch>(matchCheckpoint(*variables, *reader));
}

std::string shortNameList(const std::vector<std::string>& names, std::size_t shown)
{
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < shown; ++i)
        out += (i == 0 ? "" : ", ") + names[i];
    if (names.size() > shown)
        out += " and " + std::to_string(names.size() - shown) + " more";
    return out;
}

std::string describeCheckpointMismatch(const CheckpointMatch& match)
{
    if (match.matches())
        return {};
    std::vector<std::string> parts;
    if (!match.missing.empty())
        parts.push_back(std::to_string(match.missing.size()) + " variable" + (match.missing.size() == 1 ? "" : "s") +
                        " missing from it (" + shortNameList(match.missing) + ")");
    if (!match.unexpected.empty())
        parts.push_back(std::to_string(match.unexpected.size()) + " not in the graph (" +
                        shortNameList(match.unexpected) + ")");
    if (!match.mismatched.empty()) {
        const VariableMismatch& first = match.mismatched.front();
        std::string text = std::to_string(match.mismatched.size()) + " different (" + first.name + ": " +
                           first.inGraph + " in the graph, " + first.inCheckpoint + " in the checkpoint";
        if (match.mismatched.size() > 1)
            text += "; and " + std::to_string(match.mismatched.size() - 1) + " more";
        parts.push_back(text + ")");
    }
    std::string out =
        "checkpoint " + std::filesystem::path(match.checkpoint).filename().string() + " does not match the graph: ";
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i == 0 ? "" : "; ") + parts[i];
    return out;
}

} // namespace tstudio::project
