// tstudio inspect: reports the detected kind of a path with its size and the facts found; the
// tensors of a checkpoint (and their values, as TensorFlow's inspect_checkpoint prints them); the
// tag sets and signatures of a SavedModel, and a TensorFlow 2 one's concrete functions (as
// saved_model_cli show --all).
#include "cli_command.h"
#include "framework/numpy_format.h"
#include "tensor_json.h"

#include "function/function_op_gaps.h"
#include "graph/graph_summary.h"
#include "function/shape_refiner.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/file_kind_detector.h"
#include "io/formats/open_graph.h"
#include "io/formats/saved_model_format.h"
#include "io/formats/meta_graph_format.h"
#include "model/meta_graph_contents.h"
#include "model/saved_model.h"
#include "model/saved_object_graph.h"
#include "registries/default_registries.h"
#include "runtime/kernel_constant_evaluator.h"
#include "project/format/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <iostream>
#include <set>

namespace tstudio::cli {
namespace {

nlohmann::json toJson(const FileKindReport& r)
{
    nlohmann::json j;
    j["path"] = r.path.string();
    j["kind"] = std::string(fileKindId(r.kind));
    j["description"] = std::string(fileKindDescription(r.kind));
    j["directory"] = r.isDirectory;
    j["size_bytes"] = r.sizeBytes;
    j["detail"] = r.detail;
    if (r.nodeCount)
        j["node_count"] = *r.nodeCount;
    if (r.functionCount)
        j["function_count"] = *r.functionCount;
    if (r.producerVersion)
        j["producer"] = *r.producerVersion;
    if (!r.tensorflowVersion.empty())
        j["tensorflow_version"] = r.tensorflowVersion;
    if (!r.tags.empty())
        j["tags"] = r.tags;
    if (r.metaGraphCount)
        j["meta_graph_count"] = *r.metaGraphCount;
    if (!r.checkpointPrefix.empty())
        j["checkpoint_prefix"] = r.checkpointPrefix;
    if (r.shardCount)
        j["shard_count"] = *r.shardCount;
    if (r.tensorCount)
        j["tensor_count"] = *r.tensorCount;
    if (!r.eventFileVersion.empty())
        j["event_file_version"] = r.eventFileVersion;
    if (!r.eventFiles.empty())
        j["event_files"] = r.eventFiles;
    return j;
}

bool holdsGraph(FileKind kind)
{
    return kind == FileKind::kGraphDef || kind == FileKind::kGraphDefText || kind == FileKind::kMetaGraphDef ||
           kind == FileKind::kMetaGraphDefText || kind == FileKind::kSavedModel;
}

nlohmann::json toJson(const GraphSummary& g)
{
    nlohmann::json j;
    j["node_count"] = g.nodeCount;
    j["function_count"] = g.functionCount;
    if (g.producerVersion)
        j["producer"] = *g.producerVersion;
    j["ops"] = nlohmann::json::object();
    for (const auto& [op, count] : g.opHistogram)
        j["ops"][op] = count;
    auto endpoints = [](const std::vector<GraphSummary::Endpoint>& list) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& e : list)
            a.push_back({{"name", e.name}, {"dtype", e.dtype}, {"shape", e.shape}});
        return a;
    };
    j["placeholders"] = endpoints(g.placeholders);
    j["variables"] = endpoints(g.variables);
    j["devices"] = g.devices;
    return j;
}

void printText(const GraphSummary& g)
{
    std::printf("graph:   %lld nodes, %zu op types", static_cast<long long>(g.nodeCount), g.opHistogram.size());
    if (g.functionCount > 0)
        std::printf(", %lld library functions", static_cast<long long>(g.functionCount));
    if (g.producerVersion)
        std::printf(", producer %d", *g.producerVersion);
    std::printf("\n");
    auto list = [](const char* title, const std::vector<GraphSummary::Endpoint>& items) {
        std::printf("%s (%zu):\n", title, items.size());
        for (const auto& e : items)
            std::printf("  %-40s %-10s %s\n", e.name.c_str(), e.dtype.empty() ? "?" : e.dtype.c_str(), e.shape.c_str());
    };
    list("placeholders", g.placeholders);
    list("variables", g.variables);
    std::printf("devices: %s\n", g.devices.empty() ? "(none requested)" : "");
    for (const auto& d : g.devices)
        std::printf("  %s\n", d.c_str());
    std::printf("ops:\n");
    for (const auto& [op, count] : g.opHistogram)
        std::printf("  %-40s %lld\n", op.c_str(), static_cast<long long>(count));
}

nlohmann::json toJson(const MetaGraphContents& m)
{
    nlohmann::json j;
    j["meta_info"] = {{"tensorflow_version", m.tensorflowVersion},
                      {"tensorflow_git_version", m.tensorflowGitVersion},
                      {"tags", m.tags},
                      {"stripped_default_attrs", m.strippedDefaultAttrs}};
    if (m.hasSaver)
        j["saver"] = {{"filename_tensor_name", m.saver.filenameTensor},
                      {"save_tensor_name", m.saver.saveTensor},
                      {"restore_op_name", m.saver.restoreOp},
                      {"max_to_keep", m.saver.maxToKeep},
                      {"keep_checkpoint_every_n_hours", m.saver.keepCheckpointEveryNHours},
                      {"sharded", m.saver.sharded},
                      {"version", m.saver.version}};
    j["collections"] = nlohmann::json::array();
    for (const auto& c : m.collections)
        j["collections"].push_back(
            {{"name", c.name}, {"kind", c.kind}, {"variable_defs", c.variableDefs}, {"members", c.members}});
    j["stripped_op_list"] = m.strippedOps;
    j["asset_files"] = nlohmann::json::array();
    for (const auto& a : m.assets)
        j["asset_files"].push_back({{"tensor", a.tensor}, {"filename", a.filename}});
    j["signature_count"] = m.signatureCount;
    return j;
}

/// A MetaGraphDef's parts besides the graph, as saved_model_cli and a reader of the .meta want them.
void printText(const MetaGraphContents& m)
{
    std::printf("meta graph: TensorFlow %s%s%s, default attrs %s\n",
                m.tensorflowVersion.empty() ? "(version not recorded)" : m.tensorflowVersion.c_str(),
                m.tensorflowGitVersion.empty() ? "" : " ", m.tensorflowGitVersion.c_str(),
                m.strippedDefaultAttrs ? "stripped" : "kept");
    if (!m.tags.empty()) {
        std::string tags;
        for (const auto& t : m.tags)
            tags += (tags.empty() ? "" : ", ") + t;
        std::printf("tags:    %s\n", tags.c_str());
    }
    if (m.hasSaver)
        std::printf("saver:   %s checkpoints, filename %s, save %s, restore %s, max_to_keep %d, "
                    "keep_checkpoint_every_n_hours %g%s\n",
                    m.saver.version.c_str(), m.saver.filenameTensor.c_str(), m.saver.saveTensor.c_str(),
                    m.saver.restoreOp.c_str(), m.saver.maxToKeep,
                    static_cast<double>(m.saver.keepCheckpointEveryNHours),
                    m.saver.sharded ? ", sharded" : "");
    else
        std::printf("saver:   (none)\n");
    std::printf("collections (%zu):\n", m.collections.size());
    for (const auto& c : m.collections) {
        std::printf("  %s (%s%s, %zu)\n", c.name.c_str(), c.kind.c_str(), c.variableDefs ? " of VariableDef" : "",
                    c.members.size());
        for (const auto& member : c.members)
            std::printf("    %s\n", member.c_str());
    }
    std::string ops;
    for (const auto& op : m.strippedOps)
        ops += (ops.empty() ? "" : ", ") + op;
    std::printf("stripped op list (%zu): %s\n", m.strippedOps.size(), ops.c_str());
    if (!m.assets.empty()) {
        std::printf("asset files (%zu):\n", m.assets.size());
        for (const auto& a : m.assets)
            std::printf("  %-40s %s\n", a.filename.c_str(), a.tensor.c_str());
    }
}

/// Library functions using ops this build lacks, as a warning: they load and fail only if run.
void printText(const std::vector<FunctionOpGap>& gaps)
{
    if (gaps.empty())
        return;
    std::printf("warning: %zu library function%s use%s ops this build lacks; the graph loads, and only a run that "
                "reaches such a function fails:\n",
                gaps.size(), gaps.size() == 1 ? "" : "s", gaps.size() == 1 ? "s" : "");
    for (const FunctionOpGap& gap : gaps) {
        std::string ops;
        for (const std::string& op : gap.ops)
            ops += (ops.empty() ? "" : ", ") + op;
        std::printf("  %s: %s\n", gap.function.c_str(), ops.c_str());
    }
}

void printText(const FileKindReport& r)
{
    std::printf("path:    %s\n", r.path.string().c_str());
    std::printf("kind:    %s (%s)\n", std::string(fileKindDescription(r.kind)).c_str(), std::string(fileKindId(r.kind)).c_str());
    std::printf("size:    %llu bytes%s\n", static_cast<unsigned long long>(r.sizeBytes), r.isDirectory ? " (directory, all files)" : "");
    std::printf("detail:  %s\n", r.detail.c_str());
    if (!r.checkpointPrefix.empty())
        std::printf("checkpoint prefix: %s\n", r.checkpointPrefix.c_str());
    for (const auto& file : r.eventFiles)
        std::printf("event file: %s\n", file.c_str());
}

/// "[1,784]", "1,784", "[?,784]" or "[]" (a scalar); -1 and ? are unknown dimensions.
Expected<TensorShape> parseShapeText(std::string text)
{
    if (!text.empty() && text.front() == '[' && text.back() == ']')
        text = text.substr(1, text.size() - 2);
    std::vector<std::int64_t> dims;
    std::size_t start = 0;
    while (!text.empty() && start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item == "?" || item == "-1") {
            dims.push_back(TensorShape::kUnknownDim);
        } else {
            std::size_t used = 0;
            long long v = -2;
            try {
                v = std::stoll(item, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != item.size() || item.empty() || v < 0)
                return unexpected(invalidArgumentError("'" + item + "' is not a dimension (a size, ? or -1)"));
            dims.push_back(v);
        }
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return TensorShape::fromDims(dims);
}

/// The inferred dtype and shape of every node output, and the nodes whose shape function failed.
struct ShapeReport {
    std::vector<std::tuple<std::string, std::string, std::string, bool>> outputs;  ///< name, dtype, shape, constant
    std::vector<std::string> errors;
};

Expected<ShapeReport> inferShapesOf(const tensorflow::GraphDef& graphDef, const std::vector<std::string>& assumptions)
{
    auto graph = Graph::fromGraphDef(graphDef);
    if (!graph)
        return unexpected(graph.error());
    auto registries = makeDefaultRegistries();
    if (!registries)
        return unexpected(registries.error());
    KernelConstantEvaluator evaluator((*registries)->ops, (*registries)->kernels);
    ShapeRefinerOptions options;
    options.evaluator = evaluator.function();
    for (const std::string& a : assumptions) {
        const std::size_t eq = a.find('=');
        if (eq == std::string::npos)
            return unexpected(invalidArgumentError("--assume-shape '" + a + "' is not NAME=SHAPE (e.g. x:0=[1,784])"));
        auto shape = parseShapeText(a.substr(eq + 1));
        if (!shape)
            return unexpected(invalidArgumentError("--assume-shape '" + a + "': " + shape.error().message()));
        options.assumedShapes[a.substr(0, eq)] = *shape;
    }
    auto shapes = inferGraphShapes(*graph, (*registries)->ops, evaluator.allocator(), options);
    if (!shapes)
        return unexpected(shapes.error());
    ShapeReport report;
    for (NodeId id : graph->topologicalOrder()) {
        const auto& outputs = shapes->outputs(id);
        for (std::size_t i = 0; i < outputs.size(); ++i)
            report.outputs.emplace_back(graph->node(id).name() + ":" + std::to_string(i),
                                        dataTypeName(outputs[i].dtype), outputs[i].shape.toString(),
                                        outputs[i].value.has_value());
    }
    for (const NodeShapeError& e : shapes->errors())
        report.errors.push_back(e.status.toString());
    return report;
}

nlohmann::json toJson(const ShapeReport& r)
{
    nlohmann::json outputs = nlohmann::json::object();
    for (const auto& [name, dtype, shape, constant] : r.outputs)
        outputs[name] = {{"dtype", dtype}, {"shape", shape}, {"constant", constant}};
    return {{"outputs", outputs}, {"errors", r.errors}};
}

void printText(const ShapeReport& r)
{
    std::printf("shapes (%zu outputs, %zu errors):\n", r.outputs.size(), r.errors.size());
    for (const auto& [name, dtype, shape, constant] : r.outputs)
        std::printf("  %-48s %-10s %s%s\n", name.c_str(), dtype.c_str(), shape.c_str(), constant ? "  (constant)" : "");
    for (const auto& e : r.errors)
        std::printf("  error: %s\n", e.c_str());
}

struct CheckpointOptions {
    bool values = false;
    std::int64_t maxValues = 1000;
    std::vector<std::string> tensors;  ///< only these (all when empty)
};

/// The tensors of a checkpoint in name order: TensorFlow's debug string per tensor
/// ("layer1/weights (DT_FLOAT) [784,500]"), or with values inspect_checkpoint's
/// "tensor_name:  NAME" followed by the array as NumPy prints it.
struct CheckpointReport {
    std::string prefix;
    std::vector<BundleTensorInfo> tensors;
    std::vector<std::string> valueTexts;     ///< with values: NumPy's text per tensor
    std::vector<nlohmann::json> valueJson;   ///< with values: {"dtype","shape","values"} or null
    std::uint64_t totalBytes = 0;
};

Expected<CheckpointReport> inspectCheckpoint(const std::string& prefix, const CheckpointOptions& options)
{
    auto reader = CheckpointReader::open(prefix);
    if (!reader)
        return unexpected(reader.error());
    CheckpointReport report;
    report.prefix = prefix;
    const std::set<std::string> wanted(options.tensors.begin(), options.tensors.end());
    for (BundleTensorInfo& info : reader->tensors()) {
        if (!wanted.empty() && !wanted.contains(info.name))
            continue;
        report.totalBytes += static_cast<std::uint64_t>(info.size);
        report.tensors.push_back(std::move(info));
    }
    for (const std::string& name : wanted)
        if (!reader->contains(name))
            return unexpected(notFoundError("Key " + name + " not found in checkpoint '" + prefix + "'"));
    if (!options.values)
        return report;
    CpuAllocator allocator;
    NumpyPrintOptions print;
    print.threshold = options.maxValues;
    for (const BundleTensorInfo& info : report.tensors) {
        if (info.numSlices > 0) {
            report.valueTexts.push_back("(partitioned into " + std::to_string(info.numSlices) +
                                        " slices: values not shown)");
            report.valueJson.push_back(nullptr);
            continue;
        }
        auto tensor = reader->read(info.name, allocator);
        if (!tensor)
            return unexpected(tensor.error());
        auto text = formatLikeNumpy(*tensor, print);
        if (!text)
            return unexpected(text.error().withContext("tensor '" + info.name + "'"));
        report.valueTexts.push_back(std::move(*text));
        report.valueJson.push_back(tensor->numElements() <= options.maxValues ? tensorToJson(*tensor)
                                                                              : nlohmann::json(nullptr));
    }
    return report;
}

std::string shapeDims(const TensorShape& shape)
{
    std::string s = "[";
    for (int i = 0; i < shape.rank(); ++i)
        s += (i ? "," : "") + std::to_string(shape.dim(i));
    return s + "]";
}

void printText(const CheckpointReport& r)
{
    std::printf("tensors: %zu, %llu bytes of data\n", r.tensors.size(), static_cast<unsigned long long>(r.totalBytes));
    for (std::size_t i = 0; i < r.tensors.size(); ++i) {
        const BundleTensorInfo& t = r.tensors[i];
        if (r.valueTexts.empty()) {
            std::printf("%s (%s) %s%s\n", t.name.c_str(), tensorflow::DataType_Name(t.dtype).c_str(),
                        shapeDims(t.shape).c_str(),
                        t.numSlices > 0 ? (", " + std::to_string(t.numSlices) + " slices").c_str() : "");
        } else {
            std::printf("tensor_name:  %s\n%s\n", t.name.c_str(), r.valueTexts[i].c_str());
        }
    }
}

nlohmann::json toJson(const CheckpointReport& r)
{
    nlohmann::json tensors = nlohmann::json::array();
    for (std::size_t i = 0; i < r.tensors.size(); ++i) {
        const BundleTensorInfo& t = r.tensors[i];
        nlohmann::json j = {{"name", t.name},
                            {"dtype", dataTypeName(t.dtype)},
                            {"shape", std::vector<std::int64_t>(t.shape.dims().begin(), t.shape.dims().end())},
                            {"size_bytes", t.size}};
        if (t.numSlices > 0)
            j["slices"] = t.numSlices;
        if (!r.valueTexts.empty()) {
            j["values"] = r.valueJson[i].is_null() ? nlohmann::json(nullptr) : r.valueJson[i]["values"];
            j["numpy"] = r.valueTexts[i];
        }
        tensors.push_back(std::move(j));
    }
    return {{"prefix", r.prefix}, {"tensor_count", r.tensors.size()}, {"total_bytes", r.totalBytes},
            {"tensors", std::move(tensors)}};
}

/// saved_model_cli's shape: "unknown_rank", "(-1, 784)", "(-1)", "()".
std::string savedModelCliShape(const TensorShape& shape)
{
    if (shape.isUnknownRank())
        return "unknown_rank";
    std::string s = "(";
    for (int i = 0; i < shape.rank(); ++i)
        s += (i ? ", " : "") + std::to_string(shape.dim(i));
    return s + ")";
}

struct SavedModelReport {
    std::vector<std::pair<std::string, std::vector<SignatureInfo>>> metaGraphs;  ///< tag set, signatures
    /// Per MetaGraph (same order): the root's tf.functions of a TensorFlow 2 object graph, by name.
    std::vector<std::vector<SavedObjectFunction>> functions;
    /// Per MetaGraph: signature key -> its concrete function (the object graph's "signatures").
    std::vector<std::map<std::string, std::string>> signatureFunctions;
};

Expected<SavedModelReport> inspectSavedModel(const FileKindReport& file)
{
    auto model = formats::savedModelOf(file);
    if (!model)
        return unexpected(model.error());
    SavedModelReport report;
    for (const auto& meta : (*model)->meta_graphs()) {
        std::string tags;
        for (const std::string& tag : meta.meta_info_def().tags())
            tags += (tags.empty() ? "" : ", ") + tag;
        report.metaGraphs.emplace_back(tags, signaturesOf(meta));
        const std::filesystem::path dir = file.isDirectory ? file.path : file.path.parent_path();
        auto objects = readSavedObjectGraph(meta, (dir / "saved_model.pb").string());
        if (!objects)
            return unexpected(objects.error());
        // saved_model_cli lists the root's own functions (not the signatures), sorted by name.
        std::vector<SavedObjectFunction> rootFunctions;
        for (SavedObjectFunction& f : objects->functions)
            if (f.path.find('/') == std::string::npos && f.path != "signatures")
                rootFunctions.push_back(std::move(f));
        std::sort(rootFunctions.begin(), rootFunctions.end(),
                  [](const auto& a, const auto& b) { return a.path < b.path; });
        report.functions.push_back(std::move(rootFunctions));
        report.signatureFunctions.push_back(std::move(objects->signatureFunctions));
    }
    return report;
}

/// As saved_model_cli show --all (tag sets and signatures sorted).
void printText(const SavedModelReport& r)
{
    std::vector<std::size_t> order(r.metaGraphs.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return r.metaGraphs[a].first < r.metaGraphs[b].first; });
    auto tensors = [](const char* kind, const std::vector<SignatureTensor>& list) {
        for (const SignatureTensor& t : list) {
            std::printf("    %s['%s'] tensor_info:\n", kind, t.key.c_str());
            std::printf("        dtype: %s\n", tensorflow::DataType_Name(t.dtype).c_str());
            std::printf("        shape: %s\n", savedModelCliShape(t.shape).c_str());
            std::printf("        name: %s\n", t.tensorName.c_str());
        }
    };
    for (std::size_t m : order) {
        const auto& [tags, signatures] = r.metaGraphs[m];
        std::printf("\nMetaGraphDef with tag-set: '%s' contains the following SignatureDefs:\n", tags.c_str());
        for (const SignatureInfo& s : signatures) {
            std::printf("\nsignature_def['%s']:\n", s.key.c_str());
            std::printf("  The given SavedModel SignatureDef contains the following input(s):\n");
            tensors("inputs", s.inputs);
            std::printf("  The given SavedModel SignatureDef contains the following output(s):\n");
            tensors("outputs", s.outputs);
            std::printf("  Method name is: %s\n", s.methodName.c_str());
        }
        // TensorFlow 2: the object graph's functions, as saved_model_cli show --all lists them.
        if (m < r.functions.size() && !r.functions[m].empty()) {
            std::printf("\nConcrete Functions:");
            for (const SavedObjectFunction& f : r.functions[m]) {
                std::printf("\n  Function Name: '%s'\n", f.path.c_str());
                int option = 0;
                for (const SavedConcreteFunctionInfo& c : f.concreteFunctions) {
                    std::printf("    Option #%d\n      Callable with:\n", ++option);
                    for (const auto& [title, lines] : c.arguments) {
                        std::printf("        %s\n", title.c_str());
                        for (const std::string& line : lines)
                            std::printf("          %s\n", line.c_str());
                    }
                }
            }
        }
    }
}

nlohmann::json toJson(const SavedModelReport& r)
{
    auto tensors = [](const std::vector<SignatureTensor>& list) {
        nlohmann::json a = nlohmann::json::array();
        for (const SignatureTensor& t : list)
            a.push_back({{"key", t.key}, {"name", t.tensorName}, {"dtype", dataTypeName(t.dtype)},
                         {"shape", t.shape.toString()}});
        return a;
    };
    nlohmann::json metaGraphs = nlohmann::json::array();
    for (std::size_t m = 0; m < r.metaGraphs.size(); ++m) {
        const auto& [tags, signatures] = r.metaGraphs[m];
        nlohmann::json list = nlohmann::json::array();
        for (const SignatureInfo& s : signatures) {
            nlohmann::json signature = {{"key", s.key}, {"method_name", s.methodName}, {"inputs", tensors(s.inputs)},
                                        {"outputs", tensors(s.outputs)}};
            if (m < r.signatureFunctions.size())
                if (auto f = r.signatureFunctions[m].find(s.key); f != r.signatureFunctions[m].end())
                    signature["concrete_function"] = f->second;
            list.push_back(std::move(signature));
        }
        nlohmann::json entry = {{"tags", tags}, {"signatures", std::move(list)}};
        if (m < r.functions.size() && !r.functions[m].empty()) {
            nlohmann::json functions = nlohmann::json::array();
            for (const SavedObjectFunction& f : r.functions[m]) {
                nlohmann::json options = nlohmann::json::array();
                for (const SavedConcreteFunctionInfo& c : f.concreteFunctions) {
                    nlohmann::json arguments = nlohmann::json::array();
                    for (const auto& [title, lines] : c.arguments)
                        arguments.push_back({{"argument", title}, {"lines", lines}});
                    options.push_back({{"function", c.function}, {"arguments", std::move(arguments)},
                                       {"outputs", c.outputSignature}, {"bound_inputs", c.boundInputs}});
                }
                functions.push_back({{"name", f.path}, {"options", std::move(options)}});
            }
            entry["concrete_functions"] = std::move(functions);
        }
        metaGraphs.push_back(std::move(entry));
    }
    return {{"meta_graphs", std::move(metaGraphs)}};
}

} // namespace

void addInspectCommand(CLI::App& app, int& exitCode)
{
    auto* cmd = app.add_subcommand("inspect", "Detect what a file or directory holds (by content) and report it; "
                                              "for graphs also nodes, ops, placeholders, variables and devices; for "
                                              "checkpoints every tensor; for SavedModels their tag sets and "
                                              "signatures; for MetaGraphs their collections, saver, stripped op "
                                              "list and assets");
    auto path = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    auto shapes = std::make_shared<bool>(false);
    auto assumptions = std::make_shared<std::vector<std::string>>();
    auto checkpoint = std::make_shared<CheckpointOptions>();
    cmd->add_option("PATH", *path, "File, directory or checkpoint prefix")->required();
    cmd->add_flag("--json", *json, "Print the report as JSON");
    cmd->add_flag("--shapes", *shapes, "Also infer the dtype and shape of every node output (whole-graph shape inference)");
    cmd->add_option("--assume-shape", *assumptions,
                    "With --shapes: assume this shape for an output, e.g. x:0=[1,784] (repeatable)");
    cmd->add_flag("--values", checkpoint->values,
                  "Checkpoints: print every tensor's values as TensorFlow's inspect_checkpoint does (NumPy's format)");
    cmd->add_option("--max-values", checkpoint->maxValues,
                    "With --values: a tensor with more than N elements (default 1000 per tensor, NumPy's "
                    "threshold) is summarised with '...'; in --json its values are left out")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    cmd->add_option("--tensor", checkpoint->tensors, "Checkpoints: only this tensor (repeatable)");
    cmd->callback([path, json, shapes, assumptions, checkpoint, &exitCode] {
        auto fail = [&exitCode](const Status& s) {
            std::fprintf(stderr, "tstudio inspect: %s\n", s.toString().c_str());
            exitCode = kExitFailure;
        };
        auto report = detectFileKind(*path);
        if (!report)
            return fail(report.error());
        std::optional<GraphSummary> graph;
        std::shared_ptr<const tensorflow::GraphDef> graphDef;
        std::vector<FunctionOpGap> gaps;
        if (holdsGraph(report->kind)) {
            // The report already holds what the detector parsed: the file is read once.
            auto opened = formats::openGraph(*report);
            if (!opened)
                return fail(opened.error());
            graphDef = std::move(opened->graph);
            graph = summarizeGraph(*graphDef);
            if (graphDef->library().function_size() > 0) {
                auto registries = makeDefaultRegistries();
                if (!registries)
                    return fail(registries.error());
                gaps = functionsLackingOps(graphDef->library(), (*registries)->ops);
            }
        }
        std::optional<ShapeReport> shapeReport;
        if (*shapes) {
            if (!graph)
                return fail(invalidArgumentError("--shapes: '" + *path + "' holds no graph"));
            auto inferred = inferShapesOf(*graphDef, *assumptions);
            if (!inferred)
                return fail(inferred.error());
            shapeReport = std::move(*inferred);
        }
        const bool isCheckpoint = (report->kind == FileKind::kCheckpoint || report->kind == FileKind::kCheckpointV1) &&
                                  !report->checkpointPrefix.empty();
        if ((checkpoint->values || !checkpoint->tensors.empty()) && !isCheckpoint)
            return fail(invalidArgumentError("--values and --tensor need a checkpoint; '" + *path + "' is " +
                                             std::string(fileKindDescription(report->kind))));
        std::optional<CheckpointReport> tensors;
        if (isCheckpoint) {
            auto listed = inspectCheckpoint(report->checkpointPrefix, *checkpoint);
            if (!listed)
                return fail(listed.error());
            tensors = std::move(*listed);
        }
        std::optional<MetaGraphContents> metaGraph;
        if (report->kind == FileKind::kMetaGraphDef || report->kind == FileKind::kMetaGraphDefText) {
            auto read = formats::metaGraphOf(*report); // the detector's parse, not a second read
            if (!read)
                return fail(read.error());
            metaGraph = metaGraphContents(**read);
        }
        std::optional<SavedModelReport> savedModel;
        if (report->kind == FileKind::kSavedModel) {
            auto listed = inspectSavedModel(*report);
            if (!listed)
                return fail(listed.error());
            savedModel = std::move(*listed);
        }
        if (*json) {
            nlohmann::json out = toJson(*report);
            if (graph) {
                out["graph"] = toJson(*graph);
                nlohmann::json lacking = nlohmann::json::array();
                for (const FunctionOpGap& gap : gaps)
                    lacking.push_back({{"function", gap.function}, {"missing_ops", gap.ops}});
                out["graph"]["functions_lacking_ops"] = std::move(lacking);
            }
            if (shapeReport)
                out["shapes"] = toJson(*shapeReport);
            if (metaGraph)
                out["meta_graph"] = toJson(*metaGraph);
            if (tensors)
                out["checkpoint"] = toJson(*tensors);
            if (savedModel)
                out["saved_model"] = toJson(*savedModel);
            std::cout << jsonText(out, 2) << std::endl;
        } else {
            printText(*report);
            if (metaGraph)
                printText(*metaGraph);
            if (graph) {
                printText(*graph);
                printText(gaps);
            }
            if (shapeReport)
                printText(*shapeReport);
            if (tensors)
                printText(*tensors);
            if (savedModel)
                printText(*savedModel);
        }
        // Shape errors are findings about the graph, reported above; the exit code says so too.
        exitCode = shapeReport && !shapeReport->errors.empty() ? kExitFailure : kExitOk;
    });
}

} // namespace tstudio::cli
