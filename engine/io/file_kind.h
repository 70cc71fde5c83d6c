// FileKind: the kinds of file and directory TensorFlow 1.x writes that TensorStudio recognises.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace google::protobuf {
class Message;
}

namespace tstudio {

enum class FileKind {
    kUnknown,
    kGraphDef,          ///< binary GraphDef (.pb, frozen graphs)
    kGraphDefText,      ///< text-format GraphDef (.pbtxt)
    kMetaGraphDef,      ///< binary MetaGraphDef (.meta, written by tf.train.Saver)
    kMetaGraphDefText,  ///< text-format MetaGraphDef
    kSavedModel,        ///< SavedModel directory, or its saved_model.pb / saved_model.pbtxt
    kCheckpoint,        ///< V2 checkpoint: a prefix, its .index or .data shard, or a directory holding one
    kCheckpointState,   ///< the text file named `checkpoint` that lists a directory's checkpoints
    kCheckpointV1,      ///< legacy V1 checkpoint table (recognised so it can be refused clearly)
    kEventFile,         ///< a TensorBoard event file (TFRecord of Event protos)
    kEventLogDir,       ///< a log directory holding event files, possibly in run subdirectories
    kTfRecord,          ///< a TFRecord file whose records are not events
    kProject,           ///< a TensorStudio project (.tsproj, JSON with "format": "tensorstudio-project")
    kChromeTrace,       ///< a Chrome trace (JSON: {"traceEvents": [...]} or an array of events), e.g. a TF timeline
    kTfprofProfile,     ///< tfprof's ProfileProto (tf.profiler.Profiler.serialize_to_string, "profile_<step>")
};

/// A stable identifier for scripts and JSON: "graphdef", "graphdef-text", "saved-model", ...
std::string_view fileKindId(FileKind kind);

/// An English description, e.g. "GraphDef (binary)". The GUI shows its own translated text.
std::string_view fileKindDescription(FileKind kind);

/// All kinds, in declaration order (for tables, tests and the GUI's filters).
const std::vector<FileKind>& allFileKinds();

/// What detectFileKind found. Facts are filled only where the detector met them on its way;
/// it never loads a model, it only reads enough to be sure of the kind.
struct FileKindReport {
    FileKind kind = FileKind::kUnknown;
    std::filesystem::path path;     ///< the path as given
    bool isDirectory = false;
    std::uint64_t sizeBytes = 0;    ///< bytes of the file, or of all files that make up a directory or prefix
    std::string detail;             ///< one English sentence: what was found, or why the kind is unknown

    std::optional<std::int64_t> nodeCount;      ///< GraphDef nodes (of the first meta graph for SavedModel)
    std::optional<std::int64_t> functionCount;  ///< functions in the graph's library
    std::optional<int> producerVersion;         ///< GraphDef versions.producer
    std::string tensorflowVersion;              ///< MetaInfoDef.tensorflow_version
    std::vector<std::string> tags;              ///< MetaInfoDef tags (SavedModel: of each meta graph, joined by ",")
    std::optional<int> metaGraphCount;          ///< SavedModel meta graphs
    std::string checkpointPrefix;               ///< resolved checkpoint prefix, when one is known
    std::optional<int> shardCount;              ///< checkpoint data shards declared by the index header
    std::optional<std::int64_t> tensorCount;    ///< tensors listed in a checkpoint index
    std::string eventFileVersion;               ///< e.g. "brain.Event:2"
    std::vector<std::string> eventFiles;        ///< event files in a log directory, relative to it

    /// The message the probe parsed to be sure of the kind (GraphDef, MetaGraphDef, SavedModel),
    /// kept so that opening the file does not parse it again; null when none was parsed.
    std::shared_ptr<const google::protobuf::Message> parsed;
};

} // namespace tstudio
