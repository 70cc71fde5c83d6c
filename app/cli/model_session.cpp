// ModelSession: opening a model file for `tstudio run` and `tstudio profile`.
#include "model_session.h"

#include "checkpoint_argument.h"
#include "tensor_json.h"

#include "core/try.h"
#include "devices/gpu_probe.h"
#include "framework/node_attrs.h"
#include "io/formats/graph_file.h"
#include "io/npy.h"
#include "model/meta_graph.h"
#include "model/restore_variables.h"
#include "model/saved_model.h"
#include "model/saver.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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

/// What --feed NAME feeds in a graph: the tensor NAME, or, when there is no node NAME but the three
/// placeholders tf.sparse_placeholder(name=NAME) makes (NAME/indices, NAME/values, NAME/shape), them.
FeedTarget feedTarget(const tensorflow::GraphDef& graph, const std::string& name)
{
    const auto has = [&](const std::string& node) {
        return std::any_of(graph.node().begin(), graph.node().end(),
                           [&](const tensorflow::NodeDef& n) { return n.name() == node; });
    };
    FeedTarget target;
    if (name.find(':') == std::string::npos && !has(name) && has(name + "/indices") && has(name + "/values") &&
        has(name + "/shape")) {
        target.dtype = feedDtype(graph, name + "/values");
        target.sparseParts = std::array<std::string, 3>{name + "/indices:0", name + "/values:0", name + "/shape:0"};
        return target;
    }
    target.dtype = feedDtype(graph, name);
    return target;
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

namespace {

/// The three components of a sparse feed from {"indices", "values", "dense_shape"}.
Expected<std::vector<std::pair<std::string, Tensor>>> sparseFeed(const std::string& name, const nlohmann::json& json,
                                                                 const FeedTarget& target, Allocator& allocator)
{
    if (!json.is_object() || !json.contains("indices") || !json.contains("values") || !json.contains("dense_shape"))
        return unexpected(invalidArgumentError(
            "--feed " + name + ": a sparse input takes {\"indices\": [[row, col], ...], \"values\": [...], "
            "\"dense_shape\": [rows, cols]}"));
    TSTUDIO_TRY(indices, tensorFromJson(json.at("indices"), tensorflow::DT_INT64, allocator));
    TSTUDIO_TRY(values, tensorFromJson(json.at("values"), target.dtype, allocator));
    TSTUDIO_TRY(denseShape, tensorFromJson(json.at("dense_shape"), tensorflow::DT_INT64, allocator));
    const std::int64_t n = values.numElements();
    if (denseShape.shape().rank() != 1)
        return unexpected(invalidArgumentError("--feed " + name + ": dense_shape must be a list of sizes"));
    const std::int64_t rank = denseShape.numElements();
    // An empty list of indices parses as shape [0]: N = 0 entries of the dense shape's rank.
    if (n == 0 && indices.numElements() == 0) {
        TSTUDIO_TRY(empty, Tensor::allocate(allocator, tensorflow::DT_INT64, TensorShape({0, rank})));
        indices = std::move(empty);
    }
    if (indices.shape().rank() != 2 || indices.shape().dim(0) != n || indices.shape().dim(1) != rank)
        return unexpected(invalidArgumentError("--feed " + name + ": indices must be [" + std::to_string(n) + ", " +
                                               std::to_string(rank) + "] (one row per value, one column per "
                                               "dimension of dense_shape) but are " +
                                               indices.shape().toString()));
    if (values.shape().rank() != 1)
        return unexpected(invalidArgumentError("--feed " + name + ": values must be a list, not " +
                                               values.shape().toString()));
    return std::vector<std::pair<std::string, Tensor>>{{(*target.sparseParts)[0], std::move(indices)},
                                                       {(*target.sparseParts)[1], std::move(values)},
                                                       {(*target.sparseParts)[2], std::move(denseShape)}};
}

} // namespace

Expected<std::vector<std::pair<std::string, Tensor>>>
parseFeed(const std::string& spec, const std::function<Expected<FeedTarget>(const std::string&)>& targetOf,
          Allocator& allocator)
{
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0)
        return unexpected(invalidArgumentError("--feed '" + spec + "': expected NAME=JSON or NAME=@FILE.npy"));
    const std::string name = spec.substr(0, eq);
    const std::string value = spec.substr(eq + 1);
    using Feeds = std::vector<std::pair<std::string, Tensor>>;
    if (!value.empty() && value[0] == '@') {
        auto tensor = readNpy(value.substr(1), allocator);
        if (!tensor)
            return unexpected(tensor.error().withContext("--feed " + name));
        return Feeds{{name, *tensor}};
    }
    nlohmann::json json = nlohmann::json::parse(value, nullptr, false);
    if (json.is_discarded())
        return unexpected(invalidArgumentError("--feed " + name + ": '" + value + "' is not valid JSON"));
    auto target = targetOf(name);
    if (!target)
        return unexpected(target.error().withContext("--feed " + name));
    if (target->sparseParts) {
        auto parts = sparseFeed(name, json, *target, allocator);
        if (!parts)
            return unexpected(parts.error().withContext("--feed " + name));
        return parts;
    }
    auto tensor = tensorFromJson(json, target->dtype, allocator);
    if (!tensor)
        return unexpected(tensor.error().withContext("--feed " + name));
    return Feeds{{name, *tensor}};
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
                spec, [&](const std::string& n) -> Expected<FeedTarget> { return feedTarget(model->m_graph, n); },
                model->m_feedAllocator);
            if (!feed)
                return unexpected(feed.error());
            for (auto& part : *feed)
                model->m_feeds.push_back(std::move(part));
        }
    return model;
}

} // namespace tstudio::cli
