// The `checkpoint` state file of a checkpoint directory: a text-format CheckpointState naming the
// newest checkpoint prefix and those kept (tf.train.get_checkpoint_state, latest_checkpoint,
// update_checkpoint_state).
#pragma once

#include "core/expected.h"
#include "proto/checkpoint_state.pb.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tstudio {

/// The state file's name inside a checkpoint directory.
inline constexpr const char* kCheckpointStateFileName = "checkpoint";

/// Reads `dir`/checkpoint. Relative prefixes are made absolute against `dir`, as TensorFlow's
/// get_checkpoint_state does. NotFound when the file does not exist; DataLoss naming the file
/// and the line when it does not parse; InvalidArgument when model_checkpoint_path is empty.
Expected<tensorflow::CheckpointState> readCheckpointState(const std::filesystem::path& dir);

/// The newest checkpoint of `dir` (tf.train.latest_checkpoint): its state file's
/// model_checkpoint_path, which must exist as a V2 checkpoint (PREFIX.index). NotFound, naming
/// the state file and the missing prefix, otherwise; FailedPrecondition for a V1 checkpoint.
Expected<std::filesystem::path> latestCheckpoint(const std::filesystem::path& dir);

/// Writes `dir`/checkpoint atomically (temporary file, then rename) with `latest` as
/// model_checkpoint_path and `all` (oldest first; `latest` is appended when absent) as
/// all_model_checkpoint_paths, and their timestamps (Unix seconds) when given. Prefixes inside
/// `dir` are written relative to it, others absolute, so the directory can be moved.
/// InvalidArgument when `timestamps` is given with a size other than the number of paths.
Status writeCheckpointState(const std::filesystem::path& dir, const std::filesystem::path& latest,
                            const std::vector<std::filesystem::path>& all,
                            const std::vector<double>& timestamps = {},
                            std::optional<double> lastPreservedTimestamp = std::nullopt);

/// How the state file writes the checkpoint paths.
enum class CheckpointStatePaths {
    kInsideRelative, ///< relative to the directory when inside it, else absolute (the default above)
    /// TensorFlow's update_checkpoint_state without save_relative_paths: an absolute path as it is;
    /// a relative one (to the working directory) relative to the directory when that is relative.
    kAsGiven,
    /// With save_relative_paths: absolute paths relative to the directory (".." where outside);
    /// relative ones as kAsGiven.
    kRelative,
};

/// Which state file, and how its paths are written.
struct CheckpointStateFile {
    std::string name = kCheckpointStateFileName; ///< tf.train.Saver.save's latest_filename
    CheckpointStatePaths paths = CheckpointStatePaths::kInsideRelative;
};

/// writeCheckpointState into `dir`/`file.name` with `file.paths`.
Status writeCheckpointState(const std::filesystem::path& dir, const std::filesystem::path& latest,
                            const std::vector<std::filesystem::path>& all, const CheckpointStateFile& file,
                            const std::vector<double>& timestamps = {},
                            std::optional<double> lastPreservedTimestamp = std::nullopt);

} // namespace tstudio
