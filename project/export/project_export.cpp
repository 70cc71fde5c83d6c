// exportProject: the project's graph pruned to its outputs in evaluation mode, with a checkpoint's
// values, as a SavedModel (variables + saver + predict signature) and/or a frozen GraphDef.
#include "project/export/project_export.h"

#include "builder/collections.h"
#include "builder/graph_builder.h"
#include "builder/learning_phase.h"
#include "core/try.h"
#include "framework/data_type.h"
#include "io/formats/graph_def_io.h"
#include "project/format/graph_dependencies.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "model/freeze.h"
#include "model/meta_graph.h"
#include "model/restore_variables.h"
#include "model/saved_model.h"
#include "model/saver_graph.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <algorithm>
#include <map>
#include <system_error>

namespace tstudio::project {
namespace {

namespace fs = std::filesystem;

/// The suffix ExponentialMovingAverage gives its shadow variables.
constexpr std::string_view kAverageSuffix = "/ExponentialMovingAverage";

std::string labelOf(const Project& project)
{
    return project.location.empty() ? std::string("project") : project.location.filename().string();
}

/// "x" -> ("x", 0); "x:1" -> ("x", 1); nullopt for what is not a tensor name ("^x", "x:", "x:a").
std::optional<std::pair<std::string, int>> splitTensor(const std::string& name)
{
    if (name.empty() || name.front() == '^')
        return std::nullopt;
    const std::size_t colon = name.rfind(':');
    if (colon == std::string::npos)
        return std::make_pair(name, 0);
    const std::string index = name.substr(colon + 1);
    if (colon == 0 || index.empty() || index.size() > 6 ||
        !std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return std::make_pair(name.substr(0, colon), std::stoi(index));
}

bool isPlaceholderOp(const std::string& op)
{
    return op == "Placeholder" || op == "PlaceholderWithDefault";
}

std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out.empty() ? std::string("none") : out;
}

/// The nodes data sources feed (feeds name tensors; "x" and "x:0" both mean node x).
std::set<std::string> fedNodes(const Project& project)
{
    std::set<std::string> fed;
    for (const DataSource& source : project.sources)
        for (const auto& [tensor, components] : source.feeds)
            if (const auto split = splitTensor(tensor); split && split->second == 0)
                fed.insert(split->first);
    return fed;
}

/// `graph` with the learning phase node (if any) replaced by the bool Const false of the same name.
tensorflow::GraphDef withLearningPhaseFalse(const tensorflow::GraphDef& graph, const std::string& phaseNode)
{
    tensorflow::GraphDef out = graph;
    if (phaseNode.empty())
        return out;
    for (tensorflow::NodeDef& node : *out.mutable_node()) {
        if (node.name() != phaseNode)
            continue;
        tensorflow::NodeDef constant;
        constant.set_name(node.name());
        constant.set_op("Const");
        (*constant.mutable_attr())["dtype"].set_type(tensorflow::DT_BOOL);
        tensorflow::TensorProto* value = (*constant.mutable_attr())["value"].mutable_tensor();
        value->set_dtype(tensorflow::DT_BOOL);
        value->mutable_tensor_shape();
        value->add_bool_val(false);
        node = std::move(constant);
    }
    return out;
}

/// The checkpoint prefix named by `argument` (a prefix, its .index, or a directory: its latest).
Expected<std::string> resolveCheckpoint(const std::string& argument)
{
    std::error_code ec;
    if (fs::is_directory(argument, ec))
        return latestCheckpoint(argument).transform([](const fs::path& p) { return p.string(); });
    std::string prefix = argument;
    if (prefix.ends_with(".index"))
        prefix.resize(prefix.size() - std::string_view(".index").size());
    if (!fs::exists(prefix + ".index", ec))
        return unexpected(notFoundError("checkpoint '" + argument +
                                        "' not found: expected a checkpoint prefix (such as model.ckpt-20, with "
                                        "model.ckpt-20.index beside it), its .index file, or a directory with a "
                                        "'checkpoint' file"));
    return prefix;
}

/// True when `path` is `dir` or lies inside it (both absolute and normalised).
bool isInside(const fs::path& path, const fs::path& dir)
{
    auto p = path.begin();
    for (auto d = dir.begin(); d != dir.end(); ++d, ++p) {
        if (d->empty() && std::next(d) == dir.end())
            break; // a trailing separator
        if (p == path.end() || *p != *d)
            return false;
    }
    return true;
}

fs::path normalised(const fs::path& path)
{
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec);
    return (ec ? path : absolute).lexically_normal();
}

/// The value each variable gets: its own tensor in the checkpoint, or (movingAverage) its shadow's.
struct VariableValues {
    CpuAllocator allocator; ///< declared before the tensors, so they go first
    std::map<std::string, Tensor> values;
    std::vector<std::string> averaged;
};

Expected<std::unique_ptr<VariableValues>> readValues(const std::vector<const tensorflow::NodeDef*>& variables,
                                                     const std::string& prefix, const tensorflow::GraphDef& graph,
                                                     bool movingAverage, const std::string& label)
{
    auto reader = CheckpointReader::open(prefix);
    if (!reader)
        return unexpected(reader.error());
    const std::map<std::string, std::string> saverKeys = saverCheckpointKeys(graph);
    auto out = std::make_unique<VariableValues>();
    std::vector<std::string> names;
    for (const tensorflow::NodeDef* variable : variables) {
        names.push_back(variable->name());
        const std::string shadow = variable->name() + std::string(kAverageSuffix);
        if (movingAverage && reader->contains(shadow)) {
            // The shadow is checked against the variable's dtype and shape as the variable itself would be.
            tensorflow::NodeDef renamed = *variable;
            renamed.set_name(shadow);
            auto value = readVariableFromCheckpoint(renamed, *reader, {}, out->allocator);
            if (!value)
                return unexpected(value.error().withContext(label + ": export.moving_average"));
            out->values.emplace(variable->name(), std::move(*value));
            out->averaged.push_back(variable->name());
            continue;
        }
        auto value = readVariableFromCheckpoint(*variable, *reader, saverKeys, out->allocator);
        if (!value)
            return unexpected(value.error());
        out->values.emplace(variable->name(), std::move(*value));
    }
    if (movingAverage && out->averaged.empty())
        return unexpected(notFoundError(
            label + ": export.moving_average: checkpoint '" + prefix + "' holds no moving averages: none of " +
            joined(names) + " has a '<variable>" + std::string(kAverageSuffix) +
            "' tensor (train with an ExponentialMovingAverage, or export without moving averages)"));
    return out;
}

/// Sets every variable of the session's graph named in `values` by a Placeholder + Assign per
/// variable (under a scope name the graph does not use) run once.
Status assignValues(Session& session, const tensorflow::GraphDef& graph, const VariableValues& values)
{
    std::set<std::string> used;
    for (const auto& node : graph.node())
        used.insert(node.name().substr(0, node.name().find('/')));
    std::string scope = "export_values";
    for (int i = 1; used.contains(scope); ++i)
        scope = "export_values_" + std::to_string(i);
    tensorflow::GraphDef assigns;
    std::vector<std::pair<std::string, Tensor>> feeds;
    std::vector<std::string> targets;
    for (const auto& node : graph.node()) {
        const auto it = values.values.find(node.name());
        if (it == values.values.end() || !isVariableOp(node.op()))
            continue;
        const Tensor& value = it->second;
        tensorflow::NodeDef* placeholder = assigns.add_node();
        placeholder->set_name(scope + "/" + node.name() + "/value");
        placeholder->set_op("Placeholder");
        (*placeholder->mutable_attr())["dtype"].set_type(value.dtype());
        *(*placeholder->mutable_attr())["shape"].mutable_shape() = value.shape().toProto();
        tensorflow::NodeDef* assign = assigns.add_node();
        assign->set_name(scope + "/" + node.name() + "/assign");
        assign->set_op("Assign");
        assign->add_input(node.name());
        assign->add_input(placeholder->name());
        (*assign->mutable_attr())["T"].set_type(value.dtype());
        (*assign->mutable_attr())["validate_shape"].set_b(true);
        (*assign->mutable_attr())["use_locking"].set_b(true);
        feeds.emplace_back(placeholder->name(), value);
        targets.push_back(assign->name());
    }
    if (targets.empty())
        return Status::ok();
    if (Status s = session.extend(std::move(assigns)); !s.isOk())
        return s;
    std::vector<Tensor> none;
    return session.run(feeds, {}, targets, &none);
}

tensorflow::TensorInfo tensorInfo(const Output& tensor)
{
    tensorflow::TensorInfo info;
    info.set_name(tensor.name());
    info.set_dtype(tensor.baseDtype());
    *info.mutable_tensor_shape() = tensor.shape().toProto();
    return info;
}

/// The signature key of a tensor: its node name for output 0, "node:i" otherwise.
std::string keyOf(const std::string& node, int index)
{
    return index == 0 ? node : node + ":" + std::to_string(index);
}

/// The names the export is made of, checked against the graph.
struct ExportPlan {
    std::string label;
    tensorflow::GraphDef graph; ///< the project's graph, learning phase made the Const false
    std::string phaseNode;      ///< "" when the graph has no learning phase
    std::vector<std::pair<std::string, int>> outputs;
    std::vector<std::string> inputs; ///< node names
    std::set<std::string> needed;    ///< every node the outputs need
};

Expected<ExportPlan> planExport(const Project& project, const ExportOptions& options)
{
    ExportPlan plan;
    plan.label = labelOf(project);
    const std::string& label = plan.label;
    if (options.savedModelDir.empty() && options.frozenGraphPath.empty())
        return unexpected(invalidArgumentError(label + ": export: nothing to write: give export.saved_model (a "
                                                       "directory) and/or export.frozen_graph (a .pb file)"));
    if (options.outputs.empty())
        return unexpected(invalidArgumentError(label + ": export.outputs: required: the tensors the export "
                                                       "computes (e.g. \"logits:0\")"));
    TSTUDIO_TRY(original, readProjectGraph(project));
    const auto phase = findLearningPhase(original);
    plan.phaseNode = phase ? phase->substr(0, phase->find(':')) : std::string();
    plan.graph = withLearningPhaseFalse(original, plan.phaseNode);
    const auto byName = nodesByName(plan.graph);

    for (std::size_t i = 0; i < options.outputs.size(); ++i) {
        const std::string key = "export.outputs[" + std::to_string(i) + "]";
        const std::string& name = options.outputs[i];
        const auto split = splitTensor(name);
        if (!split || !byName.contains(split->first))
            return unexpected(invalidArgumentError(label + ": " + key + ": '" + name + "' is not in the graph"));
        if (std::find(plan.outputs.begin(), plan.outputs.end(), *split) != plan.outputs.end())
            return unexpected(invalidArgumentError(label + ": " + key + ": '" + name + "' is listed twice"));
        plan.outputs.push_back(*split);
    }
    // What each output needs, and all of it.
    std::vector<std::set<std::string>> perOutput;
    for (const auto& [node, index] : plan.outputs) {
        std::set<std::string> deps;
        addWithInputs(byName, node, deps);
        plan.needed.insert(deps.begin(), deps.end());
        perOutput.push_back(std::move(deps));
    }

    if (!options.inputs) {
        const std::set<std::string> fed = fedNodes(project);
        for (const auto& node : plan.graph.node())
            if (isPlaceholderOp(node.op()) && fed.contains(node.name()) && plan.needed.contains(node.name()))
                plan.inputs.push_back(node.name());
    }
    const std::vector<std::string> givenInputs = options.inputs.value_or(std::vector<std::string>{});
    for (std::size_t i = 0; i < givenInputs.size(); ++i) {
        const std::string key = label + ": export.inputs[" + std::to_string(i) + "]: ";
        const std::string& name = givenInputs[i];
        const auto split = splitTensor(name);
        const auto it = split ? byName.find(split->first) : byName.end();
        if (it == byName.end())
            return unexpected(invalidArgumentError(key + "'" + name + "' is not in the graph"));
        if (split->first == plan.phaseNode)
            return unexpected(invalidArgumentError(key + "'" + name +
                                                   "' is the learning phase, which an export fixes to false"));
        if (!isPlaceholderOp(it->second->op()))
            return unexpected(
                invalidArgumentError(key + "'" + name + "' is a " + it->second->op() + ", not a placeholder"));
        if (split->second != 0)
            return unexpected(invalidArgumentError(key + "'" + name + "' is not a tensor of the graph: a placeholder "
                                                   "has one output, '" + split->first + ":0'"));
        if (!plan.needed.contains(split->first))
            return unexpected(invalidArgumentError(key + "'" + name + "' is not needed by the outputs (" +
                                                   joined(options.outputs) + ")"));
        if (std::find(plan.inputs.begin(), plan.inputs.end(), split->first) != plan.inputs.end())
            return unexpected(invalidArgumentError(key + "'" + name + "' is listed twice"));
        plan.inputs.push_back(split->first);
    }
    std::vector<std::string> inputTensors;
    for (const std::string& input : plan.inputs)
        inputTensors.push_back(input + ":0");
    const std::set<std::string> inputSet(plan.inputs.begin(), plan.inputs.end());
    for (std::size_t i = 0; i < plan.outputs.size(); ++i) {
        for (const auto& node : plan.graph.node()) {
            if (node.op() != "Placeholder" || !perOutput[i].contains(node.name()) || inputSet.contains(node.name()))
                continue;
            return unexpected(invalidArgumentError(
                label + ": export.outputs[" + std::to_string(i) + "]: '" + options.outputs[i] +
                "' needs placeholder '" + node.name() + "', which is not among the inputs (export.inputs: " +
                joined(inputTensors) + "); add it to export.inputs, or give it a default"));
        }
    }
    return plan;
}

/// The node that initialises each of `variables`: "<var>/Assign" (as tf.Variable names it), else the
/// first Assign / AssignVariableOp of it outside a saver's scope.
std::vector<std::string> initializersOf(const tensorflow::GraphDef& graph, const std::set<std::string>& variables)
{
    std::map<std::string, std::string> chosen;
    for (const auto& node : graph.node()) {
        if ((node.op() != "Assign" && node.op() != "AssignVariableOp") || node.input_size() == 0 ||
            !variables.contains(node.input(0)) || node.name().starts_with("save"))
            continue;
        auto [it, added] = chosen.emplace(node.input(0), node.name());
        if (!added && node.name() == node.input(0) + "/Assign")
            it->second = node.name();
    }
    std::vector<std::string> out;
    for (const auto& [variable, init] : chosen)
        out.push_back(init);
    return out;
}

} // namespace

ExportOptions exportOptionsOf(const Project& project)
{
    ExportOptions options;
    if (!project.exportSettings)
        return options;
    const ExportSettings& s = *project.exportSettings;
    if (!s.savedModel.empty())
        options.savedModelDir = project.resolve(s.savedModel);
    if (!s.frozenGraph.empty())
        options.frozenGraphPath = project.resolve(s.frozenGraph);
    if (!s.inputs.empty())
        options.inputs = s.inputs;
    options.outputs = s.outputs;
    options.movingAverage = s.movingAverage;
    return options;
}

Expected<ExportResult> exportProject(const Project& project, const Registries& registries,
                                     const ExportOptions& options)
{
    TSTUDIO_TRY(plan, planExport(project, options));
    const std::string& label = plan.label;
    ExportResult result;
    result.learningPhaseFixed = !plan.phaseNode.empty() && plan.needed.contains(plan.phaseNode);

    // Where the values come from.
    const fs::path logdir = options.logdir ? normalised(*options.logdir) : normalised(project.resolve(project.logdir));
    if (options.checkpoint.empty()) {
        std::error_code ec;
        if (!fs::exists(logdir / kCheckpointStateFileName, ec))
            return unexpected(failedPreconditionError(label + ": no checkpoint to export: log directory '" +
                                                      logdir.string() +
                                                      "' has none (train the project first, or choose a checkpoint)"));
        auto latest = latestCheckpoint(logdir);
        if (!latest)
            return unexpected(latest.error().withContext(label + ": no checkpoint to export"));
        result.checkpoint = latest->string();
    } else {
        auto prefix = resolveCheckpoint(options.checkpoint);
        if (!prefix)
            return unexpected(prefix.error().withContext(label));
        result.checkpoint = *prefix;
    }

    // Nothing is written over what exists: checked before anything is written.
    std::error_code ec;
    if (!options.savedModelDir.empty() && fs::exists(options.savedModelDir, ec) &&
        !(fs::is_directory(options.savedModelDir, ec) && fs::is_empty(options.savedModelDir, ec)))
        return unexpected(Status(StatusCode::kAlreadyExists,
                                 label + ": export.saved_model: '" + options.savedModelDir.string() +
                                     "' already exists and is not empty; choose a new directory"));
    if (!options.frozenGraphPath.empty()) {
        const fs::path frozen = normalised(options.frozenGraphPath);
        if (fs::is_directory(frozen, ec))
            return unexpected(invalidArgumentError(label + ": export.frozen_graph: '" + frozen.string() +
                                                   "' is a directory; expected a .pb file to write"));
        if (fs::exists(frozen, ec) && isInside(frozen, logdir))
            return unexpected(failedPreconditionError(label + ": export.frozen_graph: '" + frozen.string() +
                                                      "' is in the log directory and exists; choose another file"));
    }

    // The graph to export: the outputs and, for the SavedModel, the initialisers of the variables
    // they read (a SavedModel's VariableDefs name them).
    std::vector<std::string> outputNodes;
    for (const auto& [node, index] : plan.outputs)
        if (std::find(outputNodes.begin(), outputNodes.end(), node) == outputNodes.end())
            outputNodes.push_back(node);
    std::set<std::string> neededVariables;
    for (const auto& node : plan.graph.node())
        if (isVariableOp(node.op()) && plan.needed.contains(node.name())) {
            neededVariables.insert(node.name());
            result.variables.push_back(node.name());
        }
    std::vector<std::string> roots = outputNodes;
    for (const std::string& init : initializersOf(plan.graph, neededVariables))
        roots.push_back(init);
    TSTUDIO_TRY(kept, extractSubGraph(plan.graph, roots));
    for (auto& node : *kept.mutable_node())
        node.clear_device();
    std::vector<const tensorflow::NodeDef*> keptVariables;
    for (const auto& node : kept.node())
        if (isVariableOp(node.op()))
            keptVariables.push_back(&node);
    TSTUDIO_TRY(values, readValues(keptVariables, result.checkpoint, plan.graph, options.movingAverage, label));
    for (const std::string& name : values->averaged)
        if (neededVariables.contains(name))
            result.averaged.push_back(name);

    GraphBuilder builder(registries.ops);
    if (Status s = builder.importGraphDef(kept); !s.isOk())
        return unexpected(s.withContext(label + ": export"));
    tensorflow::SignatureDef signature;
    signature.set_method_name(std::string(saved_model::kPredictMethod));
    for (const std::string& input : plan.inputs) {
        TSTUDIO_TRY(tensor, builder.tensor(input + ":0"));
        (*signature.mutable_inputs())[keyOf(input, 0)] = tensorInfo(tensor);
        result.inputs.push_back(tensor.name());
        result.inputKeys.push_back(keyOf(input, 0));
    }
    for (std::size_t i = 0; i < plan.outputs.size(); ++i) {
        const auto& [node, index] = plan.outputs[i];
        auto tensor = builder.tensor(node + ":" + std::to_string(index));
        if (!tensor) {
            const tensorflow::NodeDef* def = builder.findNode(node);
            auto op = builder.operation(node);
            const int count = op ? op->numOutputs() : 0;
            return unexpected(invalidArgumentError(
                label + ": export.outputs[" + std::to_string(i) + "]: '" + options.outputs[i] +
                "' is not in the graph: '" + node + "' (" + (def ? def->op() : std::string("?")) + ") has " +
                std::to_string(count) + (count == 1 ? " output" : " outputs")));
        }
        (*signature.mutable_outputs())[keyOf(node, index)] = tensorInfo(*tensor);
        result.outputs.push_back(tensor->name());
        result.outputKeys.push_back(keyOf(node, index));
    }

    // The frozen graph: computed now, written after the SavedModel.
    std::optional<FrozenGraph> frozen;
    if (!options.frozenGraphPath.empty()) {
        auto made = freezeGraph(plan.graph, result.checkpoint, outputNodes);
        if (!made)
            return unexpected(made.error().withContext(label + ": export.frozen_graph"));
        for (auto& node : *made->graph.mutable_node()) {
            const auto it = values->values.find(node.name());
            if (node.op() != "Const" ||
                std::find(values->averaged.begin(), values->averaged.end(), node.name()) == values->averaged.end() ||
                it == values->values.end())
                continue;
            tensorflow::TensorProto proto;
            it->second.toProto(&proto, it->second.numElements() > 1);
            *(*node.mutable_attr())["value"].mutable_tensor() = std::move(proto);
        }
        frozen = std::move(*made);
    }

    if (!options.savedModelDir.empty()) {
        std::vector<Variable> variables = graphVariables(builder);
        for (const tensorflow::NodeDef* node : keptVariables)
            if (std::none_of(variables.begin(), variables.end(), [&](const Variable& v) { return v.name() == node->name(); }))
                return unexpected(unimplementedError(
                    label + ": export.saved_model: variable '" + node->name() + "' (" + node->op() +
                    ") has no initializer the SavedModel could name; only ref variables with an Assign are "
                    "exported to a SavedModel (export a frozen graph instead)"));
        for (const Variable& v : variables)
            builder.collections().add(graph_keys::kGlobalVariables, v);
        std::optional<tensorflow::SaverDef> saverDef;
        if (!variables.empty()) {
            TSTUDIO_TRY(saveables, saveablesByName(variables));
            TSTUDIO_TRY(made, buildSaverGraph(builder, saveables));
            saverDef = std::move(made);
        }
        MetaGraphExportOptions metaOptions;
        metaOptions.saverDef = saverDef;
        metaOptions.tags = {std::string(saved_model::kServeTag)};
        metaOptions.signatureDefs[options.signatureKey] = signature;
        metaOptions.clearDevices = true;
        TSTUDIO_TRY(meta, exportMetaGraph(builder, metaOptions));
        result.savedModelNodes = meta.graph_def().node_size();

        SessionOptions sessionOptions;
        sessionOptions.ops = &registries.ops;
        sessionOptions.kernels = &registries.kernels;
        (*sessionOptions.config.mutable_device_count())["GPU"] = 0;
        Session session(sessionOptions);
        if (Status s = session.create(meta.graph_def()); !s.isOk())
            return unexpected(s.withContext(label + ": export.saved_model"));
        if (Status s = assignValues(session, meta.graph_def(), *values); !s.isOk())
            return unexpected(s.withContext(label + ": export.saved_model"));
        if (options.savedModelDir.has_parent_path())
            fs::create_directories(options.savedModelDir.parent_path(), ec);
        if (Status s = saveSavedModel(options.savedModelDir, session, {{std::move(meta), {std::string(saved_model::kServeTag)}}});
            !s.isOk())
            return unexpected(s.withContext(label + ": export.saved_model"));
        result.savedModelDir = options.savedModelDir;
    }

    if (frozen) {
        if (options.frozenGraphPath.has_parent_path())
            fs::create_directories(options.frozenGraphPath.parent_path(), ec);
        if (Status s = writeGraphDef(options.frozenGraphPath, frozen->graph, GraphDefFormat::kBinary); !s.isOk())
            return unexpected(s.withContext(label + ": export.frozen_graph"));
        result.frozenGraphPath = options.frozenGraphPath;
        result.frozenNodes = frozen->graph.node_size();
    }
    return result;
}

Expected<ExportCandidates> exportCandidates(const Project& project, const OpRegistry& ops)
{
    ExportCandidates out;
    TSTUDIO_TRY(graph, readProjectGraph(project));
    out.graph = std::move(graph);
    const auto phase = findLearningPhase(out.graph);
    const std::string phaseNode = phase ? phase->substr(0, phase->find(':')) : std::string();
    const std::set<std::string> fed = fedNodes(project);
    for (const auto& node : out.graph.node()) {
        if (!isPlaceholderOp(node.op()) || node.name() == phaseNode)
            continue;
        out.placeholders.push_back(node.name());
        if (fed.contains(node.name()))
            out.fed.insert(node.name());
    }
    auto skipped = [&](const tensorflow::NodeDef& node) {
        const std::string& op = node.op();
        return node.name() == phaseNode || node.name().starts_with(phaseNode.empty() ? "\x01" : phaseNode + "/") ||
               node.name().starts_with("save/") || node.name().starts_with("gradients/") || op.starts_with("Assign") ||
               op.starts_with("Apply") || op.starts_with("ResourceApply") || op == "NoOp" || op == "Const" || op == "SaveV2" ||
               op == "RestoreV2" || isVariableOp(op) || node.name().find("/Initializer/") != std::string::npos;
    };
    GraphBuilder builder(ops);
    const bool imported = builder.importGraphDef(out.graph).isOk();
    for (const auto& node : out.graph.node()) {
        if (skipped(node))
            continue;
        if (!imported) {
            out.tensors.push_back({node.name() + ":0", node.op(), std::string()});
            continue;
        }
        auto op = builder.operation(node.name());
        if (!op)
            continue;
        for (const Output& o : op->outputs())
            out.tensors.push_back({o.name(), node.op(), dataTypeString(o.baseDtype()) + " " + o.shape().toString()});
    }
    return out;
}

std::vector<std::string> defaultExportInputs(const Project& project, const tensorflow::GraphDef& graph,
                                             const std::vector<std::string>& outputs)
{
    const auto byName = nodesByName(graph);
    std::set<std::string> needed;
    for (const std::string& name : outputs)
        if (const auto split = splitTensor(name); split && byName.contains(split->first))
            addWithInputs(byName, split->first, needed);
    const std::set<std::string> fed = fedNodes(project);
    std::vector<std::string> inputs;
    for (const auto& node : graph.node())
        if (isPlaceholderOp(node.op()) && fed.contains(node.name()) && needed.contains(node.name()))
            inputs.push_back(node.name());
    return inputs;
}

} // namespace tstudio::project
