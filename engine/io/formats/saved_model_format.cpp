// The SavedModel format: a directory holding saved_model.pb or saved_model.pbtxt (and variables/),
// or that file itself; its MetaGraphs are the graphs it offers (a TensorFlow 2 one's computation
// lives in its library functions, which the graph carries).
#include "io/formats/saved_model_format.h"

#include "io/atomic_file.h"
#include "io/formats/formats.h"
#include "io/formats/probe_file.h"
#include "io/formats/probe_support.h"
#include "io/proto_parse.h"

#include <google/protobuf/text_format.h>

namespace tstudio::formats {
namespace {

namespace fs = std::filesystem;

constexpr const char* kBinaryName = "saved_model.pb";
constexpr const char* kTextName = "saved_model.pbtxt";

std::string variablesPrefixOf(const fs::path& dir)
{
    const std::string prefix = (dir / "variables" / "variables").string();
    std::error_code ec;
    return fs::is_regular_file(prefix + ".index", ec) ? prefix : std::string();
}

bool probeFile(ProbeFile& file, const FileKindDetectorOptions& options, FileKindReport& report)
{
    bool text = false;
    auto model = parseWholeFile<tensorflow::SavedModel>(file, options, plausibleSavedModel, text);
    if (!model)
        return false;
    report.kind = FileKind::kSavedModel;
    addSavedModelFacts(*model, report);
    report.detail = text ? "text-format SavedModel with " + plural(model->meta_graphs_size(), "meta graph")
                         : "SavedModel with " + plural(model->meta_graphs_size(), "meta graph") +
                               "; first graph: " + graphSummary(report);
    // TensorFlow 2 writes an object graph (its objects, variables and tf.functions) beside the graph.
    if (model->meta_graphs_size() > 0 && model->meta_graphs(0).object_graph_def().nodes_size() > 0) {
        const tensorflow::SavedObjectGraph& objects = model->meta_graphs(0).object_graph_def();
        report.detail += "; TensorFlow 2 object graph: " + plural(objects.nodes_size(), "object") + ", " +
                         plural(static_cast<int>(objects.concrete_functions().size()), "concrete function");
    }
    report.parsed = std::move(model);
    return true;
}

bool probeDirectory(const fs::path& dir, const FileKindDetectorOptions& options, FileKindReport& report)
{
    std::error_code ec;
    for (const char* name : {kBinaryName, kTextName}) {
        if (!fs::is_regular_file(dir / name, ec))
            continue;
        auto file = ProbeFile::open(dir / name);
        FileKindReport inner;
        if (!file || !probeFile(*file, options, inner)) {
            report.detail = std::string(name) + " is not a valid SavedModel" +
                            (file ? std::string() : ": " + file.error().message());
            return true;
        }
        const std::uint64_t size = report.sizeBytes;
        report = std::move(inner);
        report.path = dir;
        report.isDirectory = true;
        report.sizeBytes = size;
        report.checkpointPrefix = variablesPrefixOf(dir);
        report.detail += report.checkpointPrefix.empty() ? "; no variables" : "; with variables";
        return true;
    }
    return false;
}

Expected<OpenedGraph> open(const FileKindReport& report, const OpenGraphOptions& options)
{
    const fs::path dir = report.isDirectory ? report.path : report.path.parent_path();
    auto found = savedModelOf(report);
    if (!found)
        return unexpected(found.error());
    std::shared_ptr<const tensorflow::SavedModel> model = std::move(*found);
    if (model->meta_graphs_size() == 0)
        return unexpected(invalidArgumentError("SavedModel '" + dir.string() + "' holds no MetaGraph"));
    OpenedGraph out;
    out.kind = FileKind::kSavedModel;
    out.choices = savedModelTagSets(*model);
    out.chosen = options.choice >= 0 && options.choice < model->meta_graphs_size() ? options.choice : 0;
    out.graph = std::shared_ptr<const tensorflow::GraphDef>(model, &model->meta_graphs(out.chosen).graph_def());
    if (out.choices.size() < 2)
        out.choices.clear();
    out.checkpointPrefix = variablesPrefixOf(dir);
    return out;
}

} // namespace

Expected<tensorflow::SavedModel> readSavedModel(const fs::path& dir)
{
    const fs::path binary = dir / kBinaryName;
    const fs::path text = dir / kTextName;
    std::error_code ec;
    const bool isText = !fs::exists(binary, ec) && fs::exists(text, ec);
    if (!isText && !fs::exists(binary, ec))
        return unexpected(notFoundError("SavedModel file does not exist at: " + (dir / "").string() +
                                        "{saved_model.pbtxt|saved_model.pb}"));
    const fs::path file = isText ? text : binary;
    auto bytes = readWholeFile(file, kMaxProtoMessageBytes);
    if (!bytes)
        return unexpected(bytes.error());
    tensorflow::SavedModel model;
    if (isText) {
        std::string error;
        if (!parseTextProto(*bytes, model, &error))
            return unexpected(
                invalidArgumentError("file " + quotePath(file) + " is not a text-format SavedModel: " + error));
        return model;
    }
    if (bytes->empty() || !parseBinaryProto(*bytes, model))
        return unexpected(dataLossError("file " + quotePath(file) +
                                        " is not a valid binary SavedModel (truncated or corrupted, " +
                                        std::to_string(bytes->size()) + " bytes)"));
    return model;
}

Expected<std::shared_ptr<const tensorflow::SavedModel>> savedModelOf(const FileKindReport& report)
{
    if (auto parsed = std::dynamic_pointer_cast<const tensorflow::SavedModel>(report.parsed))
        return parsed;
    auto read = readSavedModel(report.isDirectory ? report.path : report.path.parent_path());
    if (!read)
        return unexpected(read.error());
    return std::make_shared<const tensorflow::SavedModel>(std::move(*read));
}

std::vector<std::string> savedModelTagSets(const tensorflow::SavedModel& model)
{
    std::vector<std::string> out;
    for (const tensorflow::MetaGraphDef& meta : model.meta_graphs()) {
        std::string joined;
        for (const std::string& tag : meta.meta_info_def().tags())
            joined += (joined.empty() ? "" : ", ") + tag;
        out.push_back("{" + joined + "}");
    }
    return out;
}

const FormatModule& savedModelFormat()
{
    static const FormatModule module{
        .name = "saved-model",
        .kinds = {{FileKind::kSavedModel, "saved-model", "SavedModel", Viewer::kGraph}},
        .probeFile = probeFile,
        .probeDirectory = probeDirectory,
        .openGraph = open,
    };
    return module;
}

} // namespace tstudio::formats
