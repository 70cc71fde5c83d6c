// What the format probes share: wording helpers, text sniffing, silent text-format parsing and the
// plausibility checks that tell a GraphDef, MetaGraphDef and SavedModel apart.
#pragma once

#include "io/file_kind.h"
#include "io/file_kind_detector.h"
#include "io/formats/probe_file.h"
#include "io/proto_parse.h" // parseBinaryProto

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace google::protobuf {
class Message;
}
namespace tensorflow {
class GraphDef;
class MetaGraphDef;
class SavedModel;
} // namespace tensorflow

namespace tstudio::formats {

std::string quotePath(const std::filesystem::path& path);
/// "1 node", "3 nodes".
std::string plural(std::int64_t n, const char* word);
/// True when `head` is non-empty and holds no NUL or control bytes other than whitespace.
bool looksLikeText(std::string_view head);
/// Parses text-format protobuf without logging: a failed parse only means "not this message type".
bool parseTextSilently(const std::string& text, google::protobuf::Message& message);
/// Size of a regular file, 0 when it cannot be read.
std::uint64_t fileSizeOr0(const std::filesystem::path& path);

/// Plausibility: no unknown fields, well-formed node names and ops, and something in it.
bool plausibleGraph(const tensorflow::GraphDef& graph);
bool plausibleMetaGraph(const tensorflow::MetaGraphDef& meta);
bool plausibleSavedModel(const tensorflow::SavedModel& model);

/// Facts for the report: node and function counts, producer, TensorFlow version, tags.
void addGraphFacts(const tensorflow::GraphDef& graph, FileKindReport& report);
void addMetaGraphFacts(const tensorflow::MetaGraphDef& meta, FileKindReport& report);
void addSavedModelFacts(const tensorflow::SavedModel& model, FileKindReport& report);
/// "12 nodes, 1 function, producer 27".
std::string graphSummary(const FileKindReport& report);

/// The text probes run only on files at most this large (protobuf's own limit).
bool tooLargeForProtobuf(std::uint64_t size, const FileKindDetectorOptions& options);

/// The whole file parsed as a `Message` (text format when its head is text, else binary, with
/// protobuf's logging silenced: a wrong guess is expected), when the file is small enough to be one
/// message and `plausible` accepts the result; null otherwise. `wasText` says which format it was.
template <typename Message>
std::shared_ptr<Message> parseWholeFile(ProbeFile& file, const FileKindDetectorOptions& options,
                                        bool (*plausible)(const Message&), bool& wasText)
{
    if (tooLargeForProtobuf(file.size(), options))
        return nullptr;
    const std::string* bytes = file.whole();
    if (bytes == nullptr)
        return nullptr;
    auto message = std::make_shared<Message>();
    wasText = looksLikeText(file.head());
    const bool parsed = wasText ? parseTextSilently(*bytes, *message) : parseBinaryProto(*bytes, *message);
    return parsed && plausible(*message) ? message : nullptr;
}

} // namespace tstudio::formats
