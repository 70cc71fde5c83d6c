// MonitoredTrainingSession: a Session that restores or initializes the model, runs hooks around
// every run and saves checkpoints and summaries (tf.train.MonitoredTrainingSession of TF 1.15,
// for a chief on the local machine).
#pragma once

#include "builder/graph_builder.h"
#include "core/expected.h"
#include "runtime/session.h"
#include "proto/queue_runner.pb.h"
#include "training/coordinator.h"
#include "training/scaffold.h"
#include "training/session_run_hook.h"
#include "training/summary_writer_cache.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tstudio::training {

struct MonitoredTrainingSessionOptions {
    /// The registries and ConfigProto of the Session (ops and kernels required).
    SessionOptions session;
    /// Restored from when it has a `checkpoint` file; checkpoints, graph.pbtxt and (by default) the
    /// event file go here. Empty: nothing is restored or saved.
    std::string checkpointDir;
    /// The event file's directory for the summary and step-counter hooks (default checkpointDir).
    std::string summaryDir;
    /// Default: Scaffold().
    std::shared_ptr<Scaffold> scaffold;
    std::vector<std::shared_ptr<SessionRunHook>> hooks;
    std::vector<std::shared_ptr<SessionRunHook>> chiefOnlyHooks;
    /// TensorFlow's USE_DEFAULT is nullopt, None is 0. Both nullopt: every 600 seconds; one given:
    /// the other is None; both > 0: the timer's "Can not provide both every_secs and every_steps."
    /// (TensorFlow's documentation says secs win; its code fails the same way).
    std::optional<double> saveCheckpointSecs;
    std::optional<std::int64_t> saveCheckpointSteps;
    /// Both nullopt: every 100 steps; otherwise as the checkpoint pair.
    std::optional<std::int64_t> saveSummariesSteps;
    std::optional<double> saveSummariesSecs;
    /// StepCounterHook every this many steps; 0 for none.
    std::int64_t logStepCountSteps = 100;
    /// The queue runners to start once the session is ready (TensorFlow's "queue_runners"
    /// collection; input::QueueRunnerDefs of training/input_pipeline.h).
    std::vector<tensorflow::QueueRunnerDef> queueRunners;
    /// How long close() waits for the queue-runner threads after stopping them.
    double stopGracePeriodSecs = 120;
    /// The writers the built-in hooks share (default SummaryWriterCache::global()).
    SummaryWriterCache* writers = nullptr;
    /// Recoveries from Aborted/Unavailable in a row before the error is returned (TensorFlow
    /// retries without end; a local engine that fails so persistently is not being preempted).
    int maxRecoveries = 10;
    /// is_chief. False: a worker as TensorFlow makes it (WorkerSessionCreator): only `hooks` run (no
    /// chief-only hooks, no step counter, summaries or checkpoints; the directories are unused), and
    /// its session is not initialised but waited for (SessionManager.wait_for_session with the
    /// scaffold's local init, ready and ready-for-local-init ops): until the model is ready, every
    /// recoveryWaitSecs, at most maxWaitSecs (TensorFlow's 7200; nullopt: no limit), then
    /// DeadlineExceeded "Session was not ready after waiting 7200 secs.".
    bool isChief = true;
    std::optional<double> maxWaitSecs = 7200;
    double recoveryWaitSecs = 30;
    /// A worker's variables held by other tasks (SessionManager::waitForSession's `shared`): run on
    /// each new session before its readiness is checked.
    std::function<Status(Session&)> workerSharedState;
};

/// Whether `s` is one of the errors _RecoverableSession recovers from (Aborted, Unavailable).
bool isPreemptionError(const Status& s);

/// tf.train.MonitoredTrainingSession(is_chief=True) over our Session.
///
/// create(): builds the hooks TensorFlow adds for a chief, in its order: chiefOnlyHooks; with a
/// summary directory, StepCounterHook and SummarySaverHook; with a checkpoint directory,
/// CheckpointSaverHook; then `hooks`. Calls begin() on each;
/// finalizes the scaffold; creates the Session from the builder's graph; then prepares the model as
/// SessionManager.prepare_session does: restores "model_checkpoint_path" of checkpointDir's state
/// file through the scaffold's saver (and hands the state file's list to the saver for max_to_keep)
/// or, without one, runs the init op with the init feeds and the init fn; runs the local init op
/// once the ready-for-local-init op reports nothing; checks the ready op; finally calls
/// afterCreateSession() on each hook.
/// Errors: the hooks' and the scaffold's; the session's; the restore's ("The passed save_path is
/// not a valid checkpoint: ..." when the state file names a missing checkpoint); FailedPrecondition
/// "Init operations did not make model ready for local_init.  Init op: group_deps, init fn: None,
/// error: Variables not initialized: w" and "Init operations did not make model ready.  Init op: ...,
/// init fn: ..., local_init_op: ..., error: Variables not initialized: w, b" (TensorFlow's
/// RuntimeError texts).
///
/// The hooks read the global step through globalStepReadTensor ("global_step/add:0"), made in
/// their begin(), so after the model. Our Session runs independent nodes in GraphDef order, which
/// would compute that copy after the train op's increment; after the hooks' begin(), create()
/// therefore makes every increment of the global step wait for the read
/// (orderGlobalStepReadBeforeIncrements), so the hooks fire at TensorFlow's steps.
///
/// The builder must outlive the session and not change after create(). Not synchronised: one
/// thread at a time (the queue runners' threads use the Session, not this object). A worker
/// (isChief false) gets only its own hooks and waits for a ready model instead of preparing one (see
/// MonitoredTrainingSessionOptions::isChief).
///
/// Recovery (_RecoverableSession): a run that fails with Aborted or Unavailable (from the session or
/// a hook) closes the session (its queue runners stopped) and creates a new one as create() did
/// (restored from the latest checkpoint, or initialised; queue runners started; afterCreateSession
/// again), logging TensorFlow's message, then runs the step again; so does a creation that fails
/// so. After options.maxRecoveries in a row the error is returned.
///
/// Queue runners (_CoordinatedSession): after the model is prepared and before afterCreateSession,
/// every options.queueRunners entry starts its threads on a Coordinator (no clean-stop codes, as
/// TensorFlow's). A run that fails while the coordinator holds a runner's error returns that error
/// (a corrupt record read by a runner, not the OutOfRange its closed queue then gives); a run that
/// fails with OutOfRange (the input is exhausted) ends training cleanly: shouldStop() turns true
/// and close() still calls the hooks' end() (the final checkpoint). close() then stops the
/// coordinator (each runner's cancel op closes its queue and cancels blocked enqueues) and joins
/// the threads within stopGracePeriodSecs, closing the Session to wake any still waiting.
class MonitoredTrainingSession {
public:
    static Expected<std::unique_ptr<MonitoredTrainingSession>> create(GraphBuilder& graph,
                                                                      MonitoredTrainingSessionOptions options);
    /// Destroying without close() calls no end(): nothing is saved (as a killed process).
    ~MonitoredTrainingSession();

    /// One step, as _HookedSession.run: each hook's beforeRun (its fetches, targets, feeds and
    /// options merged: trace_level and timeout_in_ms take the largest, output_partition_graphs is
    /// or-ed), one Session run of the caller's and the hooks' requests, each hook's afterRun with its
    /// own results, then the caller's fetches. InvalidArgument "Same tensor is fed by a
    /// SessionRunHook and user. Conflict(s): [x:0]" / "Same tensor is fed by two hooks. Conflict(s):
    /// [x:0]"; FailedPrecondition "Run called on a closed session." after close(); the session's and
    /// the hooks' errors. After an error the session counts as failed (see close()).
    /// `observer` (the debugger) is attached to the session run of this step, hooks' fetches included.
    Expected<std::vector<Tensor>> run(const std::vector<std::string>& fetches, const Feeds& feeds = {},
                                      const std::vector<std::string>& targets = {},
                                      const tensorflow::RunOptions* options = nullptr,
                                      tensorflow::RunMetadata* metadata = nullptr,
                                      ExecutionObserver* observer = nullptr);

    /// tf.train.Coordinator.request_stop() on the queue runners' coordinator; may be called from
    /// any thread, also while run() waits. Their cancel ops close the queues (cancelling pending
    /// enqueues), so a run waiting on an empty queue ends with OutOfRange; shouldStop() is true
    /// from then on. Nothing is saved here: close() still ends the hooks (the final checkpoint).
    void requestStop();

    /// True once a hook requested a stop (or after close()).
    bool shouldStop() const { return m_shouldStop || m_closed || (m_coordinator && m_coordinator->shouldStop()); }

    /// Calls end() on every hook (the checkpoint hook saves the last step) unless a run failed
    /// (TensorFlow leaves end() out when the `with` block exits by an exception), then flushes the
    /// event files of checkpointDir and summaryDir. The first error; the session stays closed either way. Idempotent.
    Status close();

    /// The underlying Session (tf's raw_session) for runs without hooks (a new one after a recovery).
    Session& rawSession() { return *m_session; }
    /// Sessions re-created after Aborted/Unavailable so far.
    int recoveries() const { return m_recoveries; }
    Scaffold& scaffold() { return *m_scaffold; }
    const std::vector<std::shared_ptr<SessionRunHook>>& hooks() const { return m_hooks; }

private:
    MonitoredTrainingSession() = default;
    /// Makes and prepares the Session, starts the queue runners, calls afterCreateSession.
    Status createSessionOnce();
    /// createSessionOnce, again after a preemption error (up to maxRecoveries times).
    Status createSession();
    /// Stops the queue runners and lets the Session go.
    void dropSession();
    Expected<std::vector<Tensor>> runOnce(const std::vector<std::string>& fetches, const Feeds& feeds,
                                          const std::vector<std::string>& targets,
                                          const tensorflow::RunOptions* options, tensorflow::RunMetadata* metadata,
                                          ExecutionObserver* observer);
    Status prepareSession();
    /// Requests the coordinator's stop and joins the queue-runner threads (see the class comment).
    Status stopQueueRunners();

    GraphBuilder* m_graph = nullptr;
    std::shared_ptr<Scaffold> m_scaffold;
    std::vector<std::shared_ptr<SessionRunHook>> m_hooks;
    MonitoredTrainingSessionOptions m_options;
    std::unique_ptr<Session> m_session;
    std::unique_ptr<Coordinator> m_coordinator; ///< after m_session: its threads end before the session goes
    bool m_shouldStop = false;
    bool m_closed = false;
    bool m_failed = false;
    int m_recoveries = 0;
};

} // namespace tstudio::training
