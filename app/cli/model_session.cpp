// ModelSession: opening a model file for `tstudio run` and `tstudio profile`.
#include "model_session.h"

#include "checkpoint_argument.h"
#include "tensor_json.h"

#include "devices/gpu_probe.h"
#include "framework/node_attrs.h"
#include "graph/graph_file.h"
#include "io/npy.h"
#include "model/meta_graph.h"
#include "model/restore_variables.h"
#include "model/saved_model.h"
#include "model/saver.h"
#include "runtime/default_registries.h"
#include "runtime/session.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>

namespace tstudio::cli {
namespace {

/// The dtype a feed should have: the fed node's "dtype" attr (Placeholder) or, for another op,
/// float32 (JSON cannot say).
DataType feedDtype(const tensorflow::GraphDef& graph, const std::string& tensorName)
{
    const std::string node = tensorName.substr(0, tensorName.rfind(':') == std::string::npos ? tensorName.size()
                                                                                             : tensorName.rfind(':'));
    for (const auto& n : graph.node())
        if (n.name() == node)
            if (auto dtype = attrType(n, "dtype"))
                return *dtype;
    return tensorflow::DT_FLOAT;
}

std::vector<std::string> splitTags(const std::string& tags)
{
    std::vector<std::string> out;
    std::string current;
    for (char c : tags + ",") {
        if (c == ',') {
            if (!current.empty())
                out.push_back(current);
            current.clear();
        } else if (c != ' ') {
            current += c;
        }
    }
    return out;
}

/// Restores `checkpoint` into the session of `model`'s graph: through the MetaGraphDef's saver
/// when the file has one (tf.train.Saver.restore), otherwise every variable by name.
Status restoreCheckpoint(Session& session, const ModelRunArgs& args, FileKind kind)
{
    auto prefix = resolveCheckpointArgument(args.checkpoint);
    if (!prefix)
        return prefix.error();
    if (kind == FileKind::kMetaGraphDef || kind == FileKind::kMetaGraphDefText) {
        auto meta = readMetaGraphFile(args.model);
        if (!meta)
            return meta.error();
        if (meta->has_saver_def() && !meta->saver_def().restore_op_name().empty()) {
            auto saver = Saver::fromSaverDef(meta->saver_def());
            if (!saver)
                return saver.error();
            return saver->restore(session, *prefix);
        }
    }
    auto restored = restoreVariablesByName(session, *prefix);
    if (!restored)
        return restored.error();
    if (!restored->notInCheckpoint.empty()) {
        std::string names;
        for (const std::string& n : restored->notInCheckpoint)
            names += (names.empty() ? "" : ", ") + n;
        std::fprintf(stderr, "tstudio: note: %zu variables are not in checkpoint '%s' and stay uninitialised: %s\n",
                     restored->notInCheckpoint.size(), prefix->c_str(), names.c_str());
    }
    return Status::ok();
}

} // namespace

/// NAME=JSON or NAME=@FILE.npy; a JSON value becomes a tensor of `dtypeOf(NAME)`.
Expected<std::pair<std::string, Tensor>> parseFeed(const std::string& spec,
                                                   const std::function<Expected<DataType>(const std::string&)>& dtypeOf,
                                                   Allocator& allocator)
{
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0)
        return unexpected(invalidArgumentError("--feed '" + spec + "': expected NAME=JSON or NAME=@FILE.npy"));
    const std::string name = spec.substr(0, eq);
    const std::string value = spec.substr(eq + 1);
    if (!value.empty() && value[0] == '@') {
        auto tensor = readNpy(value.substr(1), allocator);
        if (!tensor)
            return unexpected(tensor.error().withContext("--feed " + name));
        return std::make_pair(name, *tensor);
    }
    nlohmann::json json = nlohmann::json::parse(value, nullptr, false);
    if (json.is_discarded())
        return unexpected(invalidArgumentError("--feed " + name + ": '" + value + "' is not valid JSON"));
    auto dtype = dtypeOf(name);
    if (!dtype)
        return unexpected(dtype.error().withContext("--feed " + name));
    auto tensor = tensorFromJson(json, *dtype, allocator);
    if (!tensor)
        return unexpected(tensor.error().withContext("--feed " + name));
    return std::make_pair(name, *tensor);
}

void addModelRunOptions(CLI::App& command, ModelRunArgs& args)
{
    command.add_option("MODEL", args.model, "GraphDef (.pb, .pbtxt), MetaGraphDef (.meta) or SavedModel directory")
        ->required();
    command.add_option("--checkpoint", args.checkpoint,
                       "Restore variables from this checkpoint prefix, its .index file, or a directory (its latest "
                       "checkpoint): through the .meta file's saver, else every variable by name");
    command.add_option("--tag", args.tags, "SavedModel: the MetaGraph's tags, comma-separated")->capture_default_str();
    command.add_option("--feed", args.feeds, "NAME=JSON or NAME=@FILE.npy (repeatable)");
    command.add_option("--fetch", args.fetches, "Tensor to fetch, e.g. pred:0 (repeatable)");
    command.add_option("--target", args.targets, "Node to run for its effect, e.g. init (repeatable)");
    command.add_option("--device", args.device, "cpu or gpu")->capture_default_str();
    command.add_flag("--log-device-placement", args.logDevicePlacement, "Print the device of every node");
    command.add_flag("--no-cuda-graphs", args.noCudaGraphs,
                     "On a GPU, never capture repeated steps as CUDA graphs (every step runs in the executor)");
}

ModelSession::~ModelSession() = default;

Session& ModelSession::session()
{
    return m_bundle ? m_bundle->session() : *m_session;
}

Expected<std::unique_ptr<ModelSession>> openModelSession(const ModelRunArgs& args, bool parseFeeds,
                                                        const FileKindReport* report)
{
    if (args.device != "cpu" && args.device != "gpu")
        return unexpected(invalidArgumentError("--device must be cpu or gpu, not '" + args.device + "'"));
    if (args.device == "gpu") {
        const GpuProbeReport gpus = probeGpus();
        if (gpus.devices.empty())
            return unexpected(failedPreconditionError("--device gpu: no usable GPU (" + gpuUnusableText(gpus) +
                                                      "); use --device cpu"));
    }
    std::unique_ptr<ModelSession> model(new ModelSession);
    auto registries = makeDefaultRegistries();
    if (!registries)
        return unexpected(registries.error());
    model->m_registries = std::move(*registries);
    SessionOptions options;
    options.ops = &model->m_registries->ops;
    options.kernels = &model->m_registries->kernels;
    options.config.set_log_device_placement(args.logDevicePlacement);
    (*options.config.mutable_device_count())["GPU"] = args.device == "gpu" ? 1 : 0;
    options.config.set_allow_soft_placement(true);
    options.captureGraphs = !args.noCudaGraphs;

    auto file = report ? readGraphFromFile(*report) : readGraphFromFile(args.model);
    if (!file)
        return unexpected(file.error());
    model->m_kind = file->kind;
    if (file->kind == FileKind::kSavedModel) {
        if (!args.checkpoint.empty())
            return unexpected(
                invalidArgumentError("--checkpoint does not apply to a SavedModel: its variables/ are restored"));
        std::filesystem::path dir(args.model);
        if (!std::filesystem::is_directory(dir))
            dir = dir.parent_path();
        SavedModelLoadOptions load;
        load.tags = splitTags(args.tags);
        auto bundle = loadSavedModel(dir, options, load);
        if (!bundle)
            return unexpected(bundle.error());
        model->m_bundle = std::move(*bundle);
        model->m_graph = model->m_bundle->imported().graph;
    } else {
        model->m_graph = std::move(file->graph);
        model->m_session = std::make_unique<Session>(options);
        if (Status s = model->m_session->create(model->m_graph); !s.isOk())
            return unexpected(s.withContext(args.model));
        if (!args.checkpoint.empty())
            if (Status s = restoreCheckpoint(*model->m_session, args, file->kind); !s.isOk())
                return unexpected(s);
    }
    if (parseFeeds)
        for (const std::string& spec : args.feeds) {
            auto feed = parseFeed(
                spec, [&](const std::string& n) -> Expected<DataType> { return feedDtype(model->m_graph, n); },
                model->m_feedAllocator);
            if (!feed)
                return unexpected(feed.error());
            model->m_feeds.push_back(std::move(*feed));
        }
    return model;
}

} // namespace tstudio::cli
