// Saver: saves and restores variables in V2 checkpoints, sharded or not (V1 ones are restored too),
// with TensorFlow 1.x's tf.train.Saver behaviour (step-numbered prefixes, the `checkpoint` state
// file, max_to_keep, keep_checkpoint_every_n_hours, restore through a SaverDef).
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "io/checkpoint/checkpoint_state.h"
#include "model/saver_graph.h"
#include "proto/meta_graph.pb.h"
#include "proto/saver.pb.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tstudio {

class Session;

struct SaverOptions {
    SaverGraphOptions graph;
    /// With no variables, make a saver that does nothing instead of failing "No variables to save".
    bool allowEmpty = false;
    /// Prefixes numbered "-00000020" instead of "-20" (Saver's pad_step_number).
    bool padStepNumber = false;
    /// The time in seconds since the Unix epoch (default: the system clock). Only used for
    /// keep_checkpoint_every_n_hours; tests pass their own.
    std::function<double()> clock;
    /// Saver's save_relative_paths: the state file names absolute checkpoint paths relative to its
    /// directory, so that the directory can be copied and restored from elsewhere (Scaffold's
    /// default saver sets it). false writes them as TensorFlow does by default: absolute ones as
    /// they are, relative ones (to the working directory) relative to the state file's directory.
    bool saveRelativePaths = false;
};

/// Saver.save's arguments beyond sess and save_path, with TensorFlow's defaults.
struct SaveArguments {
    std::optional<std::int64_t> globalStep; ///< global_step: the prefix gets "-<step>"
    /// latest_filename: the state file's name in the checkpoint's directory; a base name only.
    std::string latestFilename = kCheckpointStateFileName;
    /// meta_graph_suffix: the MetaGraph goes to "<prefix>.<suffix>", and an old checkpoint's
    /// "<prefix>.<suffix>" is deleted with it.
    std::string metaGraphSuffix = "meta";
    bool writeState = true;                             ///< write_state
    const tensorflow::MetaGraphDef* metaGraph = nullptr; ///< what write_meta_graph writes (null: none)
};

/// tf.train.Saver for graphs run by a Session: it owns no graph or session, only the SaverDef (the
/// names of the filename tensor, the save tensor and the restore op) and the list of recent
/// checkpoints it manages. Make one while building the graph (create(), which adds the subgraph
/// of saver_graph.h) or for a graph that already has one (fromSaverDef(), e.g. an imported .meta),
/// then pass the Session that runs that graph to save() and restore().
///
/// A checkpoint's files are written by the SaveV2 kernel through temporary files that are renamed
/// into place once complete, and the state file is replaced atomically, so a save that dies midway
/// leaves the previous checkpoint and state file as they were (leftover "*.tempstate*" files aside).
///
/// Not synchronised: one thread at a time per Saver. A value type (copies manage their own lists).
class Saver {
public:
    /// tf.train.Saver(): every variable of the GLOBAL_VARIABLES collection, each under its name.
    static Expected<Saver> create(GraphBuilder& b, const SaverOptions& options = {});
    /// tf.train.Saver(var_list=[...]): the variables under their names; InvalidArgument "At least
    /// two variables have the same name: x".
    static Expected<Saver> create(GraphBuilder& b, const std::vector<Variable>& variables,
                                  const SaverOptions& options = {});
    /// tf.train.Saver(var_list={...}): variable values saved and restored under the given names, e.g.
    /// {"layer1/weights/ExponentialMovingAverage": weights} restores a moving average into the
    /// variable, as ExponentialMovingAverage.variables_to_restore() maps them.
    /// Errors of buildSaverGraph ("No variables to save" unless options.allowEmpty, ...).
    static Expected<Saver> create(GraphBuilder& b, const SaveableVariables& variables,
                                  const SaverOptions& options = {});
    /// tf.train.Saver(saver_def=def, name=importScope): uses the save/restore nodes a graph already
    /// has, e.g. the saver_def of an imported MetaGraphDef; with an import scope ("imported") the
    /// names are prefixed as import_meta_graph prefixes them. InvalidArgument "saver_def must
    /// specify the save_tensor_name: ..." / "... the restore_op_name: ..." when one is empty.
    static Expected<Saver> fromSaverDef(tensorflow::SaverDef def, const std::string& importScope = {},
                                        std::function<double()> clock = {}, bool saveRelativePaths = false);

    const tensorflow::SaverDef& saverDef() const { return m_def; }
    /// True for a saver made with allowEmpty and no variables: save() and restore() do nothing.
    bool isEmpty() const { return m_empty; }

    /// Saver.save(sess, savePath, global_step): runs the save tensor with the filename tensor fed
    /// "savePath" or "savePath-<globalStep>" and returns that prefix (what restore() takes). Then,
    /// unless `writeState` is false: remembers it among the last checkpoints (once per prefix),
    /// rewrites "<dir of savePath>/checkpoint" (model_checkpoint_path = the prefix,
    /// all_model_checkpoint_paths = the last checkpoints kept, oldest first) and deletes the files
    /// (.index, .data-*, .meta) of the checkpoint that fell off the max_to_keep list, unless it is
    /// the first one saved keep_checkpoint_every_n_hours after the previous one kept (TensorFlow's
    /// rule: such checkpoints stay on disk and leave the list). Deletion failures are logged and
    /// ignored, as TensorFlow does. An empty saver returns "" and writes no checkpoint.
    /// With `metaGraph` (e.g. exportMetaGraph(builder, {.saverDef = saverDef()})), it is written
    /// to "<prefix>.meta" as write_meta_graph does (also for an empty saver), before the state file
    /// (TensorFlow writes it after), so that the state file only ever names complete checkpoints.
    /// A save that fails (a full disk) removes what it wrote: a sharded save's temporary directory,
    /// and the checkpoint's .index, .data-* and .meta unless that checkpoint existed before the
    /// save; the state file and the list of last checkpoints stay as they were.
    /// Errors: InvalidArgument "'latest_filename' collides with 'save_path': 'checkpoint' and
    /// '...'" for a savePath named like the state file (not for a sharded saver, as TensorFlow); the save op's errors
    /// (a prefix whose directory cannot be made becomes "Parent directory of P doesn't exist, can't save."); the state
    /// file's and the .meta file's write errors.
    Expected<std::string> save(Session& session, const std::string& savePath,
                               std::optional<std::int64_t> globalStep = std::nullopt, bool writeState = true,
                               const tensorflow::MetaGraphDef* metaGraph = nullptr);
    /// save() with every argument: as above, with the state file named `args.latestFilename`
    /// (InvalidArgument "'latest_filename' must be a base name." for one with a directory; the
    /// collision error names it) and the MetaGraph written to "<prefix>.<args.metaGraphSuffix>".
    Expected<std::string> save(Session& session, const std::string& savePath, const SaveArguments& args);

    /// Saver.restore(sess, savePath): runs the restore op with the filename tensor fed `savePath`.
    /// NotFound "The passed save_path is not a valid checkpoint: P" when neither P.index nor a V1
    /// checkpoint's file (P, a pattern, or P's shards) exists; a V1 checkpoint is read by the
    /// graph's RestoreV2 as TensorFlow's falls back to it.
    /// A NotFound or InvalidArgument from the graph (a tensor missing from the checkpoint: "Key w
    /// not found in checkpoint"; a dtype or shape that differs: "Assign requires shapes of both
    /// tensors to match. lhs shape= [784,500] rhs shape= [10]") keeps its code and gets
    /// TensorFlow's explanation in front: "Restoring from checkpoint failed. This is most likely
    /// due to a Variable name or other graph key that is missing from the checkpoint. Please
    /// ensure that you have not altered the graph expected based on the checkpoint. Original
    /// error:\n\n<error>" ("... due to a mismatch between the current graph and the graph from the
    /// checkpoint ..." for InvalidArgument). Other errors are returned as they are.
    Status restore(Session& session, const std::string& savePath) const;

    /// The prefixes still managed for max_to_keep, oldest first (Saver.last_checkpoints).
    std::vector<std::string> lastCheckpoints() const;
    /// Saver.set_last_checkpoints_with_time: (prefix, Unix time saved) pairs, oldest first.
    void setLastCheckpointsWithTime(std::vector<std::pair<std::string, double>> checkpoints);
    /// Saver.recover_last_checkpoints: those of `prefixes` that exist, timed by their files'
    /// modification times (e.g. the state file's list after a restart).
    void recoverLastCheckpoints(const std::vector<std::string>& prefixes);

private:
    Saver(tensorflow::SaverDef def, bool empty, bool padStepNumber, std::function<double()> clock,
          bool saveRelativePaths);
    double now() const;
    void recordLastCheckpoint(const std::string& prefix);
    void maybeDeleteOldCheckpoints(const std::string& metaGraphSuffix);

    tensorflow::SaverDef m_def;
    bool m_empty = false;
    bool m_padStepNumber = false;
    bool m_saveRelativePaths = false;
    std::function<double()> m_clock;
    std::vector<std::pair<std::string, double>> m_lastCheckpoints;
    std::vector<std::pair<std::string, double>> m_toBeDeleted;
    double m_nextCheckpointTime = 0.0; ///< a checkpoint saved after this is kept for good
};

} // namespace tstudio
