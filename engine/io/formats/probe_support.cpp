// Shared probe checks: wording, text sniffing, silent text parsing, protobuf plausibility and facts.
#include "io/formats/probe_support.h"

#include "io/proto_parse.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"
#include "proto/saved_model.pb.h"

#include <google/protobuf/unknown_field_set.h>

#include <algorithm>

namespace tstudio::formats {

namespace fs = std::filesystem;

namespace {

bool isNodeNameChar(char c, bool first)
{
    const bool alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (first)
        return alnum || c == '.' || c == '_';
    return alnum || c == '_' || c == '.' || c == '-' || c == '/' || c == '>';
}

bool isValidName(const std::string& name)
{
    if (name.empty())
        return false;
    for (std::size_t i = 0; i < name.size(); ++i)
        if (!isNodeNameChar(name[i], i == 0))
            return false;
    return true;
}

bool hasUnknownFields(const google::protobuf::Message& message)
{
    return !message.GetReflection()->GetUnknownFields(message).empty();
}

} // namespace

std::string quotePath(const fs::path& path) { return "'" + path.string() + "'"; }

std::string plural(std::int64_t n, const char* word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

bool looksLikeText(std::string_view head)
{
    for (unsigned char c : head) {
        if (c == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v'))
            return false;
    }
    return !head.empty();
}

bool parseTextSilently(const std::string& text, google::protobuf::Message& message)
{
    // parseTextProto's errors go to its collector, never to protobuf's log: silent as a probe must be.
    return parseTextProto(text, message, nullptr);
}

std::uint64_t fileSizeOr0(const fs::path& path)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    return ec ? 0 : size;
}

bool plausibleGraph(const tensorflow::GraphDef& graph)
{
    if (hasUnknownFields(graph))
        return false;
    for (const auto& node : graph.node())
        if (!isValidName(node.name()) || !isValidName(node.op()))
            return false;
    return graph.node_size() > 0 || graph.has_versions() || graph.library().function_size() > 0;
}

bool plausibleMetaGraph(const tensorflow::MetaGraphDef& meta)
{
    return !hasUnknownFields(meta) && meta.has_graph_def() && meta.graph_def().node_size() > 0 &&
           plausibleGraph(meta.graph_def());
}

bool plausibleSavedModel(const tensorflow::SavedModel& model)
{
    if (hasUnknownFields(model) || model.meta_graphs_size() == 0 || model.saved_model_schema_version() < 0 ||
        model.saved_model_schema_version() > 1)
        return false;
    return std::all_of(model.meta_graphs().begin(), model.meta_graphs().end(),
                       [](const auto& meta) { return plausibleMetaGraph(meta); });
}

void addGraphFacts(const tensorflow::GraphDef& graph, FileKindReport& report)
{
    report.nodeCount = graph.node_size();
    report.functionCount = graph.library().function_size();
    if (graph.has_versions())
        report.producerVersion = graph.versions().producer();
}

void addMetaGraphFacts(const tensorflow::MetaGraphDef& meta, FileKindReport& report)
{
    addGraphFacts(meta.graph_def(), report);
    report.tensorflowVersion = meta.meta_info_def().tensorflow_version();
    for (const auto& tag : meta.meta_info_def().tags())
        report.tags.push_back(tag);
}

void addSavedModelFacts(const tensorflow::SavedModel& model, FileKindReport& report)
{
    report.metaGraphCount = model.meta_graphs_size();
    const auto& first = model.meta_graphs(0);
    addGraphFacts(first.graph_def(), report);
    report.tensorflowVersion = first.meta_info_def().tensorflow_version();
    for (const auto& meta : model.meta_graphs()) {
        std::string joined;
        for (const auto& tag : meta.meta_info_def().tags())
            joined += (joined.empty() ? "" : ",") + tag;
        report.tags.push_back(joined);
    }
}

std::string graphSummary(const FileKindReport& report)
{
    std::string s = plural(report.nodeCount.value_or(0), "node");
    if (report.functionCount.value_or(0) > 0)
        s += ", " + plural(*report.functionCount, "function");
    if (report.producerVersion)
        s += ", producer " + std::to_string(*report.producerVersion);
    return s;
}

bool tooLargeForProtobuf(std::uint64_t size, const FileKindDetectorOptions& options)
{
    return size > options.maxProtobufBytes;
}

} // namespace tstudio::formats
