// FileKind: identifiers and descriptions.
#include "io/file_kind.h"

namespace tstudio {

std::string_view fileKindId(FileKind kind)
{
    switch (kind) {
    case FileKind::kUnknown: return "unknown";
    case FileKind::kGraphDef: return "graphdef";
    case FileKind::kGraphDefText: return "graphdef-text";
    case FileKind::kMetaGraphDef: return "metagraph";
    case FileKind::kMetaGraphDefText: return "metagraph-text";
    case FileKind::kSavedModel: return "saved-model";
    case FileKind::kCheckpoint: return "checkpoint";
    case FileKind::kCheckpointState: return "checkpoint-state";
    case FileKind::kCheckpointV1: return "checkpoint-v1";
    case FileKind::kEventFile: return "event-file";
    case FileKind::kEventLogDir: return "event-logdir";
    case FileKind::kTfRecord: return "tfrecord";
    case FileKind::kProject: return "project";
    case FileKind::kChromeTrace: return "chrome-trace";
    }
    return "unknown";
}

std::string_view fileKindDescription(FileKind kind)
{
    switch (kind) {
    case FileKind::kUnknown: return "Unknown";
    case FileKind::kGraphDef: return "GraphDef (binary)";
    case FileKind::kGraphDefText: return "GraphDef (text)";
    case FileKind::kMetaGraphDef: return "MetaGraphDef (binary)";
    case FileKind::kMetaGraphDefText: return "MetaGraphDef (text)";
    case FileKind::kSavedModel: return "SavedModel";
    case FileKind::kCheckpoint: return "Checkpoint (V2)";
    case FileKind::kCheckpointState: return "Checkpoint state file";
    case FileKind::kCheckpointV1: return "Checkpoint (V1, legacy)";
    case FileKind::kEventFile: return "Event file";
    case FileKind::kEventLogDir: return "Event log directory";
    case FileKind::kTfRecord: return "TFRecord";
    case FileKind::kProject: return "TensorStudio project";
    case FileKind::kChromeTrace: return "Chrome trace (JSON)";
    }
    return "Unknown";
}

const std::vector<FileKind>& allFileKinds()
{
    static const std::vector<FileKind> kinds = {
        FileKind::kUnknown,        FileKind::kGraphDef,        FileKind::kGraphDefText,
        FileKind::kMetaGraphDef,   FileKind::kMetaGraphDefText, FileKind::kSavedModel,
        FileKind::kCheckpoint,     FileKind::kCheckpointState, FileKind::kCheckpointV1,
        FileKind::kEventFile,      FileKind::kEventLogDir,     FileKind::kTfRecord,
        FileKind::kProject,        FileKind::kChromeTrace,
    };
    return kinds;
}

} // namespace tstudio
