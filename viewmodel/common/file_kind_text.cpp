// Translated text for file kinds (context "FileKind" in the .ts files).
#include "common/file_kind_text.h"

#include <QCoreApplication>

namespace tstudio {
QString fileKindDisplayName(FileKind kind)
{
    switch (kind) {
    case FileKind::kUnknown: return QCoreApplication::translate("FileKind", "Unknown");
    case FileKind::kGraphDef: return QCoreApplication::translate("FileKind", "GraphDef (binary)");
    case FileKind::kGraphDefText: return QCoreApplication::translate("FileKind", "GraphDef (text)");
    case FileKind::kMetaGraphDef: return QCoreApplication::translate("FileKind", "MetaGraphDef (binary)");
    case FileKind::kMetaGraphDefText: return QCoreApplication::translate("FileKind", "MetaGraphDef (text)");
    case FileKind::kSavedModel: return QCoreApplication::translate("FileKind", "SavedModel");
    case FileKind::kCheckpoint: return QCoreApplication::translate("FileKind", "Checkpoint (V2)");
    case FileKind::kCheckpointState: return QCoreApplication::translate("FileKind", "Checkpoint state file");
    case FileKind::kCheckpointV1: return QCoreApplication::translate("FileKind", "Checkpoint (V1, legacy)");
    case FileKind::kEventFile: return QCoreApplication::translate("FileKind", "Event file");
    case FileKind::kEventLogDir: return QCoreApplication::translate("FileKind", "Event log directory");
    case FileKind::kTfRecord: return QCoreApplication::translate("FileKind", "TFRecord");
    case FileKind::kProject: return QCoreApplication::translate("FileKind", "TensorStudio project");
    case FileKind::kChromeTrace: return QCoreApplication::translate("FileKind", "Chrome trace (JSON)");
    case FileKind::kTfprofProfile: return QCoreApplication::translate("FileKind", "tfprof profile (ProfileProto)");
    }
    return QCoreApplication::translate("FileKind", "Unknown");
}

QString fileKindAvailability(FileKind kind)
{
    switch (kind) {
    case FileKind::kUnknown:
        return QCoreApplication::translate("FileKind", "TensorStudio does not recognise this content.");
    case FileKind::kCheckpointV1:
        return QCoreApplication::translate(
            "FileKind", "A legacy V1 checkpoint (TensorFlow's tensor-slice tables). TensorStudio reads it: tstudio "
                        "inspect lists its tensors and their values, and the Restore, RestoreSlice and RestoreV2 ops "
                        "restore variables from it. This view shows its summary only.");
    default:
        return QCoreApplication::translate("FileKind", "Recognised. This version of TensorStudio identifies this kind of file; "
                  "viewing its contents is not available yet.");
    }
}

QStringList fileKindDialogFilters()
{
    return {
        // First, so the dialog shows every kind TensorStudio opens, projects included, before any is chosen.
        QCoreApplication::translate("FileKind", "All supported files (*.tsproj *.pb *.pbtxt *.meta *.index checkpoint *tfevents* "
                                                "*.tfrecord *.tfrecords *.json *.json.gz profile_*)"),
        QCoreApplication::translate("FileKind", "Projects (*.tsproj)"),
        QCoreApplication::translate("FileKind", "Graphs (*.pb *.pbtxt *.meta)"),
        QCoreApplication::translate("FileKind", "Checkpoints (*.index checkpoint)"),
        QCoreApplication::translate("FileKind", "Event files (*tfevents*)"),
        QCoreApplication::translate("FileKind", "TFRecord files (*.tfrecord *.tfrecords)"),
        QCoreApplication::translate("FileKind", "Profile traces (*.json *.json.gz profile_*)"),
        QCoreApplication::translate("FileKind", "All files (*)"),
    };
}

} // namespace tstudio
