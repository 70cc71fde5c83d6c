// CheckpointSaverHook: saves a checkpoint every N steps or seconds and at the end
// (tf.train.CheckpointSaverHook of TF 1.15).
#pragma once

#include "io/events/event_file_writer.h"
#include "model/saver.h"
#include "proto/meta_graph.pb.h"
#include "training/scaffold.h"
#include "training/second_or_step_timer.h"
#include "training/session_run_hook.h"
#include "training/summary_writer_cache.h"

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tstudio::training {

struct CheckpointSaverHookOptions {
    std::string checkpointDir;
    /// Exactly one of the two.
    std::optional<double> saveSecs;
    std::optional<std::int64_t> saveSteps;
    /// The saver to use, or the scaffold whose saver to use (not both).
    std::optional<Saver> saver;
    std::shared_ptr<Scaffold> scaffold;
    std::string checkpointBasename = "model.ckpt";
    /// Where the writer of checkpointDir comes from (default SummaryWriterCache::global()).
    SummaryWriterCache* writers = nullptr;
    /// Collections the builder cannot hold, written into every .meta as they are (e.g. the
    /// "queue_runners" bytes_list of serialized QueueRunnerDef), as MetaGraphExportOptions takes them.
    std::map<std::string, tensorflow::CollectionDef> extraCollections;
};

/// Saves "<checkpointDir>/<basename>-<global step>" (.index, .data-00000-of-00001, .meta) and the
/// `checkpoint` state file through the saver, as TensorFlow 1.15's hook:
///  - begin: takes the writer of checkpointDir (SummaryWriterCache) and the global step;
///  - afterCreateSession: writes "<checkpointDir>/graph.pbtxt" (the graph with _output_shapes, in
///    text form), adds the graph and the MetaGraphDef (with the saver's SaverDef) to the event file,
///    and saves a checkpoint of the starting step (0 for a fresh model, the restored step otherwise);
///  - afterRun: when the timer fires for the step after the run, reads the global step and saves;
///  - end: saves the final step unless the last save was at that step.
/// Every save also writes SessionLog{CHECKPOINT, checkpoint_path = "<checkpointDir>/<basename>"}
/// at that step. Listeners are not supported.
class CheckpointSaverHook : public SessionRunHook {
public:
    /// InvalidArgument "You cannot provide both saver and scaffold."; the timer's error.
    static Expected<std::shared_ptr<CheckpointSaverHook>> create(CheckpointSaverHookOptions options);

    /// FailedPrecondition "Global step should be created to use CheckpointSaverHook."; "No items
    /// in collection savers. ..." when neither a saver nor a scaffold was given.
    Status begin(GraphBuilder& graph) override;
    Status afterCreateSession(Session& session) override;
    Expected<SessionRunArgs> beforeRun(SessionRunContext& context) override;
    Status afterRun(SessionRunContext& context, const SessionRunValues& values) override;
    Status end(Session& session) override;

    /// Saves a checkpoint of the current global step now, between runs (an IDE's "Save checkpoint
    /// now"); the timer then counts from that step, and end() does not save the same step twice.
    /// Returns the checkpoint prefix ("<dir>/model.ckpt-<step>"). FailedPrecondition before begin().
    Expected<std::string> saveNow(Session& session);
    /// The global step of the latest checkpoint this hook saved (nullopt before the first), and its
    /// prefix "<dir>/model.ckpt-<step>" (an IDE's or an evaluation's "a new checkpoint is there").
    std::optional<std::int64_t> lastSavedStep() const { return m_timer.lastTriggeredStep(); }
    std::string checkpointPrefix(std::int64_t step) const { return m_savePath + "-" + std::to_string(step); }

private:
    CheckpointSaverHook(CheckpointSaverHookOptions options, SecondOrStepTimer timer);
    Saver& saver();
    Status save(Session& session, std::int64_t step);

    CheckpointSaverHookOptions m_options;
    SecondOrStepTimer m_timer;
    std::string m_savePath;
    std::string m_globalStep;
    GraphBuilder* m_graph = nullptr;
    std::shared_ptr<events::EventFileWriter> m_writer;
    std::optional<tensorflow::MetaGraphDef> m_metaGraph;
};

} // namespace tstudio::training
